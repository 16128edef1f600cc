package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/toolneed"
	"github.com/sessiongate/sessiongate/transcript"
)

// Transcript evidence (issue 30). Every agent CLI writes a transcript of
// its session and names it in its hook payloads. The agent hook records
// that path for the session (BindTranscript); when a gate needs evidence,
// the transcript is read from where reading stopped (ingestTranscripts) and
// the tool calls that meet a requirement ("read X" by a read of X, "run X"
// by a run of X) become evidence of origin transcript: the agent's own
// account, ranked below what sessiongate observed and above claims. While
// a session has an agent transcript, a claim for a requirement that needs
// a read or a run is refused: the transcript says whether it was done.

// OriginTranscript: the agent's own transcript shows the tool call.
const OriginTranscript EvidenceOrigin = "transcript"

// CodeTranscriptChanged: a transcript shrank, or bytes of it already read
// changed; it is no longer read.
const CodeTranscriptChanged = "TRANSCRIPT_CHANGED"

// CodeTranscriptTampered: bytes of a transcript that the agent hook sealed
// at an earlier event (transcript.Seal) changed in place before a gate read
// them: a failed result rewritten to a passing one, a finished call turned
// into a rejection. The transcript is no longer read.
const CodeTranscriptTampered = "TRANSCRIPT_TAMPERED"

// AgentTranscript is a transcript an agent named for a session, and how far
// it has been read.
type AgentTranscript struct {
	SessionID    string
	Path         string // checked by transcript.Check, symlinks resolved
	Agent        string // its format: claude, gemini, codex, copilot
	AgentSession string
	State        transcript.State
	// Broken says why it is no longer read ("" while it is).
	Broken    string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// TranscriptReader and TranscriptWriter are the store's transcript side
// (SQLite only: agent hooks run against the local database).
type TranscriptReader interface {
	SessionTranscripts(ctx context.Context, sessionID string) ([]AgentTranscript, error)
}

// TranscriptWriter writes a transcript row inside Update.
type TranscriptWriter interface {
	PutTranscript(ctx context.Context, t *AgentTranscript) error
}

// transcriptInfo is what a gate knows of a session's agent transcripts.
type transcriptInfo struct {
	agent    string // the agent whose transcript is known; "" when none is
	broken   string // why a transcript is no longer read
	worktree string // the session's (for the sub-agents defined there)
	// definedAtStart reports whether the session's start commit held
	// .claude/agents/<name>.md (nil: not known).
	definedAtStart func(name string) bool
	// configuredAtStart reports whether .mcp.json at the session's start
	// commit (or HEAD) configured an MCP server (nil: not known).
	configuredAtStart func(server string) bool
}

// BindTranscript records the transcript an agent CLI named in a hook
// payload for a session; path must have passed transcript.Check. Reading
// starts at the file's size now: what it held before is not this
// session's. A path already bound is sealed: what it gained since the
// last event is hashed (one indexed read, and the growth).
func (e *Engine) BindTranscript(ctx context.Context, sessionID, agent, agentSession, path string) error {
	return e.BindTranscriptIf(ctx, sessionID, agent, agentSession, path, nil)
}

// BindTranscriptIf is BindTranscript that asks admit first when the
// transcript is not bound yet: one it refuses (a reason, not "") is not
// bound. Asked only then, since it may cost the hook a query per event.
func (e *Engine) BindTranscriptIf(ctx context.Context, sessionID, agent, agentSession, path string, admit func() (string, error)) error {
	tr, ok := e.Store.(TranscriptReader)
	if !ok {
		return nil
	}
	list, err := tr.SessionTranscripts(ctx, sessionID)
	if err != nil {
		return fmt.Errorf("load transcripts: %w", err)
	}
	for _, t := range list {
		if t.Path == path {
			// Bound already: seal what it gained since the last event
			// (transcript_seal.go).
			return e.SealTranscript(ctx, t)
		}
	}
	if admit != nil {
		why, err := admit()
		if err != nil || why != "" {
			return err
		}
	}
	var size int64
	if fi, err := os.Stat(path); err == nil {
		size = fi.Size()
	}
	now := e.now()
	t := &AgentTranscript{SessionID: sessionID, Path: path, Agent: agent, AgentSession: agentSession,
		State: transcript.NewState(size), CreatedAt: now, UpdatedAt: now}
	err = e.Store.Update(ctx, func(w Writer) error {
		tw, ok := w.(TranscriptWriter)
		if !ok {
			return errors.New("this store does not keep transcripts")
		}
		if err := tw.PutTranscript(ctx, t); err != nil {
			return err
		}
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: "agent:" + agent + ":transcript", Detail: truncate(path, 300), CreatedAt: now})
	})
	if err != nil {
		return fmt.Errorf("bind transcript: %w", err)
	}
	return nil
}

// TranscriptForged records that a transcript the agent CLI named holds a
// line the CLI did not write (found by a hook: Codex's rollout giving one
// shell call two exit statuses, agenthook/codexexit.go): a HIGH
// TRANSCRIPT_CHANGED, which fails verify, and the transcript is no longer
// read, as when its read bytes change.
func (e *Engine) TranscriptForged(ctx context.Context, sessionID, agent, path, why string) error {
	now := e.now()
	err := e.Store.Update(ctx, func(w Writer) error {
		cur, err := w.GetSession(ctx, sessionID)
		if err != nil {
			return err
		}
		if tw, ok := w.(TranscriptWriter); ok {
			if tr, ok := w.(TranscriptReader); ok {
				list, err := tr.SessionTranscripts(ctx, sessionID)
				if err != nil {
					return err
				}
				for i := range list {
					if list[i].Path == path && list[i].Broken == "" {
						list[i].Broken, list[i].UpdatedAt = truncate(why, 300), now
						if err := tw.PutTranscript(ctx, &list[i]); err != nil {
							return err
						}
					}
				}
			}
		}
		v := &Violation{SessionID: sessionID, Phase: cur.Phase, Severity: "HIGH", Code: CodeTranscriptChanged, Window: WindowSession,
			Message: truncate(fmt.Sprintf("the %s transcript %s: %s", agent, path, why), 500), CreatedAt: now}
		if err := w.AddViolation(ctx, v); err != nil {
			return err
		}
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: "transcript:" + agent + ":forged", Detail: truncate(why, 300), CreatedAt: now})
	})
	if err != nil {
		return fmt.Errorf("record the forged %s transcript: %w", agent, err)
	}
	return nil
}

// inheritTranscripts binds a superseded session's agent transcripts to the
// session that supersedes it, read from their size now (a broken one stays
// broken). The agent's hook binds its transcript before a shell line runs
// (PreToolUse); a line that starts a session itself and records claims
// and advances in the same breath (`sessiongate session start && ...
// evidence && ... advance`) would otherwise run in a session no transcript
// is bound to yet, whose claims nothing can refute.
func inheritTranscripts(ctx context.Context, w Writer, sessionID string, ts []AgentTranscript, now time.Time) error {
	if len(ts) == 0 {
		return nil
	}
	tw, ok := w.(TranscriptWriter)
	if !ok {
		return nil
	}
	seen := map[string]bool{}
	for _, t := range ts {
		if seen[t.Path] {
			continue
		}
		seen[t.Path] = true
		nt := AgentTranscript{SessionID: sessionID, Path: t.Path, Agent: t.Agent, AgentSession: t.AgentSession, Broken: t.Broken, CreatedAt: now, UpdatedAt: now}
		if nt.Broken == "" {
			var size int64
			if fi, err := os.Stat(t.Path); err == nil {
				size = fi.Size()
			}
			nt.State = transcript.NewState(size)
		}
		if err := tw.PutTranscript(ctx, &nt); err != nil {
			return fmt.Errorf("inherit the %s transcript: %w", t.Agent, err)
		}
		if err := w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: "agent:" + t.Agent + ":transcript", Detail: truncate("inherited from the superseded session: "+t.Path, 300), CreatedAt: now}); err != nil {
			return err
		}
	}
	return nil
}

// transcriptReadTime bounds reading the transcripts at one gate check.
const transcriptReadTime = 3 * time.Second

// ingestTranscripts reads what the session's agent transcripts gained since
// they were last read and records the tool calls that meet a requirement
// as transcript evidence. A transcript that shrank or changed under what
// was read is recorded as a HIGH violation and no longer read. It returns
// what the gates need to know: whether an agent transcript is known.
func (e *Engine) ingestTranscripts(ctx context.Context, s *Session, spec *protocolspec.Spec) (transcriptInfo, error) {
	tr, ok := e.Store.(TranscriptReader)
	if !ok {
		return transcriptInfo{}, nil
	}
	list, err := tr.SessionTranscripts(ctx, s.ID)
	if err != nil || len(list) == 0 {
		return transcriptInfo{}, err
	}
	info := transcriptInfo{agent: list[len(list)-1].Agent, worktree: s.Worktree}
	// What the user-level config offered at the start still counts after
	// it is deleted from ~/.claude.json or ~/.claude/agents/ (userconfig.go).
	uc, _ := e.userConfigAtStart(ctx, s)
	info.definedAtStart = func(name string) bool { return uc.HasAgent(name) }
	info.configuredAtStart = func(server string) bool { return uc.HasServer(server) }
	if e.OpenRepo != nil && s.StartCommit != "" {
		// An agent file deleted from the work tree during the session
		// still counts: the requirement does not fall back to claims.
		info.definedAtStart = func(name string) bool {
			if uc.HasAgent(name) {
				return true
			}
			repo, err := e.OpenRepo(ctx, s.Worktree)
			if err != nil {
				return false
			}
			ok, err := repo.ExistsAt(ctx, s.StartCommit, ".claude/agents/"+name+".md")
			return err == nil && ok
		}
		// Asked once per requirement status: two git reads each time
		// for a team without the server, so remembered per gate check.
		seen := map[string]bool{}
		info.configuredAtStart = func(server string) bool {
			if ok, done := seen[server]; done {
				return ok
			}
			_, ok := e.mcpCommitted(ctx, s, server)
			ok = ok || uc.HasServer(server)
			seen[server] = ok
			return ok
		}
	}
	rctx, cancel := context.WithTimeout(ctx, transcriptReadTime)
	defer cancel()
	cws := map[string]*callWitness{} // one per agent: its hook config and events
	for i := range list {
		t := list[i]
		cw := cws[t.Agent]
		if cw == nil {
			cw = newCallWitness(ctx, e, s, t.Agent, list)
			cws[t.Agent] = cw
		}
		if t.Broken != "" {
			info.broken = t.Broken
			continue
		}
		// What the hook sealed first (the bytes no gate read yet). A file
		// renamed over it is the CLI's compaction only where the CLI
		// could have made it; else it is tampering, as at the prompt rule
		// (TestRenamedCopyAtTheGate).
		err := transcript.JudgeReplaced(t.Agent, t.Path, t.State, transcript.CheckSeal(t.Path, t.State))
		if errors.Is(err, transcript.ErrReplaced) {
			if err := e.transcriptReplaced(ctx, s.ID, t, err); err != nil {
				return info, err
			}
			continue
		}
		calls, st := []transcript.Call(nil), t.State
		readFrom, retracted := t.State, 0
		if errors.Is(err, transcript.ErrTampered) && t.Agent == transcript.Claude {
			// Claude Code's own in-place cut of retracted message rows
			// (transcript/sealrows.go): read on from what the gates read,
			// the sealed bytes as they are now.
			if n, ok := transcript.JudgeRetracted(t.Path, t.State); ok {
				readFrom.Seal, retracted, err = nil, n, nil
			}
		}
		if err == nil {
			calls, st, err = transcript.Tail(rctx, t.Path, t.Agent, readFrom, 0)
		}
		if err == nil && retracted > 0 {
			_ = e.Store.Update(ctx, func(w Writer) error {
				return w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: "transcript:" + t.Agent + ":retracted", Detail: truncate(fmt.Sprintf("%d sealed message row(s) cut in place by the CLI: %s", retracted, t.Path), 300), CreatedAt: e.now()})
			})
		}
		var v *Violation
		sealChecked := false
		if err == nil && st.Seal != nil && !st.Seal.Checked {
			sealed := *st.Seal
			sealed.Checked, st.Seal, sealChecked = true, &sealed, true
		}
		switch {
		case errors.Is(err, transcript.ErrTampered):
			t.Broken = truncate(err.Error(), 300)
			info.broken = t.Broken
			v = &Violation{SessionID: s.ID, Phase: s.Phase, Severity: "HIGH", Code: CodeTranscriptTampered, Window: WindowSession,
				Message: truncate(fmt.Sprintf("the %s transcript %s was rewritten (in place, or a copy renamed over it) after the agent hook saw it (%v); nothing more from it counts, and claims for the calls it would show stay refused", t.Agent, t.Path, err), 500)}
		case errors.Is(err, transcript.ErrChanged) || errors.Is(err, os.ErrNotExist) || errors.Is(err, transcript.ErrNotRegular):
			// Appended to only, by the agent CLI: a transcript rewritten
			// under what was read is not its record any more.
			t.Broken = truncate(err.Error(), 300)
			info.broken = t.Broken
			v = &Violation{SessionID: s.ID, Phase: s.Phase, Severity: "HIGH", Code: CodeTranscriptChanged, Window: WindowSession,
				Message: truncate(fmt.Sprintf("the %s transcript %s changed under what sessiongate had read (%v); it is no longer read, and claims for the reads it would show stay refused", t.Agent, t.Path, err), 500)}
		case err != nil:
			return info, fmt.Errorf("read the %s transcript: %w", t.Agent, err)
		}
		var evs []Evidence
		var unseen, outcomes, differ []string
		var lag *Event // the wait for a lagging transcript, if any
		if v == nil {
			if transcript.Lagging(t.Agent) {
				// Lines written after the call returned (transcript_catchup.go).
				transcript.CountRuns(&st, calls)
				calls, st, lag = e.catchUp(ctx, rctx, cw, &t, calls, st)
			} else {
				// Claude Code's write queue (transcript_claudelate.go).
				calls, st, lag = e.claudeCatchUp(ctx, rctx, &t, calls, st)
				// What its post-tool hook saw fail (outcomebound.go).
				differ = e.failedByHook(ctx, s.ID, calls)
			}
			// Gemini CLI's and Copilot's shell lines use up their
			// witnesses in st, which is what is saved.
			whys := cw.Take(calls, &st)
			if t.Agent == transcript.Claude || t.Agent == transcript.Codex {
				// A failed call's id used again (witness.go).
				whys = cw.Reused(calls, &st)
			}
			evs, unseen = e.transcriptEvidence(s, spec, &t, calls, cw, whys, e.mcpDistrustFn(ctx, s))
			if t.Agent == transcript.Claude {
				outcomes = mcpOutcomeEvents(calls, cw) // "if either call fails" (callfailure.go)
			}
			if st.Offset == t.State.Offset && len(st.Pending) == len(t.State.Pending) && len(evs) == 0 && len(unseen) == 0 && len(outcomes) == 0 && len(differ) == 0 && lag == nil && !sealChecked {
				continue
			}
		}
		before := t.State
		if v == nil {
			t.State = st
		}
		t.UpdatedAt = e.now()
		err = e.Store.Update(ctx, func(w Writer) error {
			tw, ok := w.(TranscriptWriter)
			if !ok {
				return errors.New("this store does not keep transcripts")
			}
			// Another process (a hook, a parallel gate check) may have
			// read the same bytes: only the first records them.
			tr, ok := w.(TranscriptReader)
			if !ok {
				return errors.New("this store does not keep transcripts")
			}
			cur, err := tr.SessionTranscripts(ctx, s.ID)
			if err != nil {
				return err
			}
			for _, c := range cur {
				if c.Path != t.Path {
					continue
				}
				if c.State.Offset != before.Offset || c.Broken != "" {
					return nil
				}
				if !sameSeal(c.State.Seal, before.Seal) && t.Broken == "" {
					// The hook sealed more since: its seal stands.
					t.State.Seal = c.State.Seal
				}
			}
			if err := tw.PutTranscript(ctx, &t); err != nil {
				return err
			}
			if v != nil {
				v.CreatedAt = t.UpdatedAt
				if err := w.AddViolation(ctx, v); err != nil {
					return err
				}
				tok := "transcript:" + t.Agent + ":changed"
				if v.Code == CodeTranscriptTampered {
					tok = "transcript:" + t.Agent + ":tampered"
				}
				return w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: tok, Detail: truncate(t.Path, 300), CreatedAt: t.UpdatedAt})
			}
			for i := range evs {
				if err := w.AddEvidence(ctx, &evs[i]); err != nil {
					return err
				}
			}
			for _, o := range outcomes {
				if err := w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: TokenMCPOutcome, Detail: o, CreatedAt: t.UpdatedAt}); err != nil {
					return err
				}
			}
			if lag != nil {
				lag.SessionID, lag.CreatedAt = s.ID, t.UpdatedAt
				if err := w.AppendEvent(ctx, lag); err != nil {
					return err
				}
			}
			for _, why := range differ {
				if err := w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: "transcript:" + t.Agent + ":outcome", Detail: why, CreatedAt: t.UpdatedAt}); err != nil {
					return err
				}
			}
			for _, why := range unseen {
				if err := w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: "transcript:" + t.Agent + ":unwitnessed", Detail: truncate(why, 300), CreatedAt: t.UpdatedAt}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return info, fmt.Errorf("record the %s transcript: %w", t.Agent, err)
		}
	}
	return info, nil
}

// readsTranscript reports whether a phase's gate can take transcript
// evidence: it owes evidence per requirement, it checks a file's content
// hash (the built-in gate of "Context Retrieval": "MUST read
// .agents/HANDOFF.md"), or its text requires a tool call (callRequirements).
func readsTranscript(p *protocolspec.Phase, cfg Config) bool {
	return readsAllCalls(p, cfg) || len(callRequirements(p)) > 0
}

// readsAllCalls reports whether every kind of call (reads and runs too)
// counts for the phase's requirements: it owes evidence per requirement or
// checks a content hash.
func readsAllCalls(p *protocolspec.Phase, cfg Config) bool {
	if needsPerRequirement(p, cfg) {
		return true
	}
	for _, c := range p.Checks {
		if c.Kind == protocolspec.CheckContentHash {
			return true
		}
	}
	return false
}

// callRequirements are a phase's unconditional MUSTs that ask for a tool
// call only the transcript can show: running a sub-agent or calling an
// MCP tool. They bind whatever the phase's gate kind (issue 25.4): on the
// real v1.4 protocol QA_VALIDATION's gate is a fresh file under
// .agents/qa/ and SERENA_INITIALIZATION's is any tool output, so a
// hand-written report or a claim met a text that asks for the call.
func callRequirements(p *protocolspec.Phase) []protocolspec.Requirement {
	var out []protocolspec.Requirement
	for _, r := range p.OwedRequirements() {
		if r.Conditional {
			continue
		}
		if namesCall(r) {
			out = append(out, r)
		}
	}
	return out
}

// callsOpen lists the call requirements of a phase whose gate does not owe
// evidence per requirement (that gate decides them itself) that the
// agent's transcript does not show, while it is known and the call can be
// made (the sub-agent is defined, the MCP server configured).
func callsOpen(p *protocolspec.Phase, evs []Evidence, cfg Config) []RequirementStatus {
	if cfg.transcript.agent == "" || needsPerRequirement(p, cfg) {
		return nil
	}
	calls := callRequirements(p)
	if len(calls) == 0 {
		return nil
	}
	q := *p
	q.Requirements, q.Checklist = calls, nil
	var out []RequirementStatus
	for _, st := range requirementStatuses(&q, evs, cfg) {
		if st.Status == ReqOpen && st.byTranscript {
			out = append(out, st)
		}
	}
	return out
}

// CheckTranscriptCalls is the check a gate gains when its phase's text
// requires tool calls its own checks do not ask about (callsOpen).
const CheckTranscriptCalls CheckKind = "transcript_calls"

// callsCheck is the failing check of the calls a phase's text requires
// and the transcript does not show; ok is false when none is missing.
func callsCheck(p *protocolspec.Phase, evs []Evidence, cfg Config) (CheckResult, bool) {
	open := callsOpen(p, evs, cfg)
	if len(open) == 0 {
		return CheckResult{}, false
	}
	var why []string
	for _, st := range open {
		why = append(why, st.ID+": "+st.Reason)
	}
	return CheckResult{Kind: CheckTranscriptCalls, Status: StatusFail, Open: open,
		Message: truncate(fmt.Sprintf("the phase's text requires %d tool call(s) the agent's transcript does not show (its other checks do not stand in for them): %s", len(open), strings.Join(why, "; ")), 1000)}, true
}

// transcriptRead is where the phase's requirement to read rel stands, when
// an agent transcript is known and a MUST requirement of the phase asks to
// read that file: a content hash proves the file exists, the transcript
// whether it was read.
func transcriptRead(env gateEnv, rel string) (RequirementStatus, bool) {
	if env.cfg.transcript.agent == "" {
		return RequirementStatus{}, false
	}
	for _, st := range requirementStatuses(withProven(env.phase), env.evidence, env.cfg) {
		r, ok := env.phase.Requirement(st.ID)
		if ok && toolneed.Of(r) == toolneed.Read && namesPath(r.NamedPaths(), rel) {
			return st, true
		}
	}
	return RequirementStatus{}, false
}

// sessionTranscripts reads the session's agent transcripts (ingestTranscripts)
// under its pinned protocol.
func (e *Engine) sessionTranscripts(ctx context.Context, s *Session) (transcriptInfo, error) {
	if _, ok := e.Store.(TranscriptReader); !ok {
		return transcriptInfo{}, nil
	}
	spec, err := e.SpecFor(ctx, s.ProtocolSHA)
	if err != nil {
		return transcriptInfo{}, err
	}
	return e.ingestTranscripts(ctx, s, spec)
}

// transcriptEvidence turns calls into evidence for the requirements they
// meet, in every phase that owes evidence per requirement (an end phase's
// only once the start protocol is done, as for any evidence). A sub-agent
// or MCP call its hook should have seen and did not gives none: unseen
// says why, one line per such call.
//
// whys says, by the index of calls, why a Gemini CLI or Copilot call does
// not count (callwitness.Witness.Take).
//
// distrust says why an MCP server's calls are not evidence (mcpprogram.go).
func (e *Engine) transcriptEvidence(s *Session, spec *protocolspec.Spec, t *AgentTranscript, calls []transcript.Call, cw *callWitness, whys []string, distrust func(server string) string) (out []Evidence, unseen []string) {
	now := e.now()
	for ci, c := range calls {
		from := len(out)
		for i := range spec.Phases {
			p := &spec.Phases[i]
			if !readsTranscript(p, e.Config) || evidenceBeforeTheWork(s, p) != nil {
				continue
			}
			reqs := withProven(p).OwedRequirements()
			if !readsAllCalls(p, e.Config) {
				reqs = callRequirements(p) // the calls its text requires, nothing else
			}
			for _, r := range reqs {
				ev, ok := callEvidence(s.Worktree, p, r, c)
				if !ok {
					continue
				}
				ev.SessionID, ev.Phase, ev.Requirement, ev.Source, ev.CreatedAt = s.ID, p.ID, r.ID, t.Agent, now
				out = append(out, ev)
			}
		}
		if len(out) > from {
			why := ""
			switch {
			case t.Agent == transcript.Claude || t.Agent == transcript.Codex:
				why = cw.Unwitnessed(c)
				if why == "" && ci < len(whys) {
					why = whys[ci]
				}
			case ci < len(whys):
				why = whys[ci]
			}
			if why == "" && c.Kind == transcript.MCP && distrust != nil {
				why = distrust(mcpServerOf(c.Tool))
			}
			if why != "" {
				out, unseen = out[:from], append(unseen, why)
			}
		}
	}
	return out, unseen
}

// callEvidence is the evidence a call gives a requirement, if it meets it.
// Only hashes and references: the tool input's sha256, the path or the
// command line, the tool and its call id.
func callEvidence(worktree string, p *protocolspec.Phase, r protocolspec.Requirement, c transcript.Call) (Evidence, bool) {
	ref := func(what string) string {
		return truncate(fmt.Sprintf("%s %s (call %s)", c.Tool, what, c.ID), 200)
	}
	switch c.Kind {
	case transcript.Delegate:
		return delegateEvidence(r, c)
	case transcript.MCP:
		return mcpEvidence(r, c)
	case transcript.Read:
		if c.Failed || toolneed.Of(r) != toolneed.Read {
			return Evidence{}, false
		}
		named := r.NamedPaths()
		for _, raw := range c.Paths {
			rel, ok := relInWorktree(worktree, c.Dir, raw)
			if ok && namesPath(named, rel) {
				zero := 0
				what := rel
				if c.Command != "" {
					what = fmt.Sprintf("%s by `%s`", rel, truncate(c.Command, 80)) // a shell read
				}
				return Evidence{Kind: EvidenceFilePath, Origin: OriginTranscript, SHA256: c.InputSHA256, Ref: ref(what), ExitCode: &zero}, true
			}
		}
	case transcript.Run:
		if toolneed.Of(r) == toolneed.Read {
			return Evidence{}, false
		}
		probe := Evidence{Command: c.Command, Origin: OriginObserved}
		if !observedFor(probe, r) {
			return Evidence{}, false
		}
		if c.Dir != "" && filepath.IsAbs(c.Dir) {
			if _, ok := relInWorktree(worktree, "", c.Dir); !ok {
				return Evidence{}, false // the agent's shell was in another folder
			}
		}
		code := c.Exit
		r := ref("`" + truncate(c.Command, 120) + "`")
		for _, key := range shellline.Keys(c.Command) {
			if strings.Contains(key, " ") && code >= 0 && !shellline.ExitIsOwn(c.Command, key) {
				code = -1 // `| tail`, `|| true`: not the command's own status
				r = truncate(r+", exit of the whole line", 200)
			}
		}
		return Evidence{Kind: EvidenceToolOutput, Origin: OriginTranscript, SHA256: c.InputSHA256, Ref: r,
			Command: truncate(c.Command, MaxCommandBytes), ExitCode: &code}, true
	case transcript.Search:
		if c.Failed || toolneed.Of(r) != toolneed.Search {
			return Evidence{}, false
		}
		named := r.NamedPaths()
		ok := len(named) == 0
		for _, raw := range c.Paths {
			if rel, in := relInWorktree(worktree, c.Dir, raw); in && (namesPath(named, rel) || len(named) > 0 && namesPath(named, rel+"/x")) {
				ok = true
			}
		}
		if ok {
			zero := 0
			return Evidence{Kind: EvidenceToolOutput, Origin: OriginTranscript, SHA256: c.InputSHA256, Ref: ref(truncate(c.Pattern, 80)), ExitCode: &zero}, true
		}
	}
	return Evidence{}, false
}

// relInWorktree is a path a call named, relative to the worktree, when it
// is inside it: an absolute path, or one relative to the call's folder
// (the worktree when the transcript does not say).
func relInWorktree(worktree, dir, p string) (string, bool) {
	if !filepath.IsAbs(p) {
		base := worktree
		if dir != "" && filepath.IsAbs(dir) {
			base = dir
		}
		p = filepath.Join(base, p)
	}
	rel, err := filepath.Rel(worktree, filepath.Clean(p))
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// transcriptNeeds says why an open requirement that asks for a read waits
// for a tool call while an agent transcript is known, and which call would
// meet it; "" when the requirement is not a read of a file it names (claims
// then count as before: "run the tests" names no command the transcript
// could be asked about).
func transcriptNeeds(info transcriptInfo, r protocolspec.Requirement) string {
	if why := delegateNeeds(info, r); why != "" {
		return why
	}
	if why := mcpNeeds(info, r); why != "" {
		return why
	}
	if info.agent == "" || toolneed.Of(r) != toolneed.Read {
		return ""
	}
	if info.broken != "" {
		return fmt.Sprintf("the agent's %s transcript is no longer read (%s): a claim does not count for %s; read it through sessiongate: `sessiongate run --requirement %s -- cat %s`",
			info.agent, truncate(info.broken, 120), r.ID, r.ID, strings.TrimSuffix(r.NamedPaths()[0], "/**"))
	}
	return fmt.Sprintf("the agent's %s transcript shows no read of %s: %s; a claim does not count while the agent's transcript is known",
		info.agent, strings.TrimSuffix(r.NamedPaths()[0], "/**"), toolneed.Call(info.agent, r, r.ID))
}

// withProven is p with the requirements a machine check proves owed again
// (protocolspec's ProvenBy): the transcript still shows them met, and the
// check of a read ("Read .agents/HANDOFF.md" under content_hash) asks the
// transcript whether the read happened.
func withProven(p *protocolspec.Phase) *protocolspec.Phase {
	q := *p
	q.Requirements = slices.Clone(p.Requirements)
	for i := range q.Requirements {
		q.Requirements[i].ProvenBy = ""
	}
	return &q
}
