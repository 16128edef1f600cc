package session

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/callwitness"
	"github.com/sessiongate/sessiongate/hookroute"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/transcript"
)

// A tool call read from Claude Code's transcript meets a requirement only
// if it happened: the transcript is a file in the user's folder, and an
// agent with a shell can append a line to it by means its hook does not
// parse (a script that finds the file by itself). Claude Code sends each
// Bash, sub-agent (Agent, Task) and MCP call to sessiongate's PreToolUse
// hook before it runs, with the same tool_use_id the transcript records,
// and the hook keeps that id with the digest of the call's input
// (transcript.WitnessDigest: a Bash call's command line) as an event. So
// a call of a tool the project's hook config sends to the hook counts only
// when the hook kept its id with the same input: a forged line has a new
// id, or a real call's id with another command. Where the config does not
// send the tool (an install older than this rule), there is nothing to
// compare, and the call counts as before. Read, Grep, Glob (and LS,
// NotebookRead) are sent too since issue 25 item 4: a forged Read line met
// "MUST read docs/X" (docs/security.md); their hook only keeps the id and
// digest (agenthook: no policy work for a read). Codex's PreToolUse names a shell call by the
// rollout's call_id, so Codex's shell calls are witnessed the same way
// (.codex/hooks.json, TokenCodexCall).

// TokenAgentCall is the event the PreToolUse hook keeps for a witnessed
// call; its detail is "<tool_use_id> <tool> <input digest>" (the digest
// is missing from events of older hooks). TokenCodexCall is Codex's: its
// PreToolUse names a shell call by the rollout's call_id.
const (
	TokenAgentCall = "agent:claude:call"
	TokenCodexCall = "agent:codex:call"
	// TokenGeminiCall and TokenCopilotCall: their hooks name no call id,
	// so the detail's id is the hook's own pairing of the command line;
	// a witness is its digest, used up by one transcript line
	// (hookroute.CountedShell).
	TokenGeminiCall  = "agent:gemini:call"
	TokenCopilotCall = "agent:copilot:call"
)

// AgentToolCall keeps the id of a witnessed call Claude Code's PreToolUse
// hook saw, with the digest of its input (transcript.WitnessDigest; ""
// when unknown). timed also records the call's start (AgentToolStart) in
// the same transaction: a Bash call is both timed and witnessed, and the
// hook runs before every one of them.
func (e *Engine) AgentToolCall(ctx context.Context, sessionID, agent, toolID, tool, digest string, timed bool) error {
	if toolID == "" || len(toolID) > 200 || strings.ContainsAny(toolID, " \t\n") {
		return nil
	}
	witness := hookroute.WitnessedTool(tool) && agent == "claude" || tool == "Bash" && agent == "codex" || hookroute.CountedShell(agent, tool)
	if !witness && !timed {
		return nil
	}
	if len(digest) != 64 {
		digest = ""
	}
	now := e.now()
	return e.Store.Update(ctx, func(w Writer) error {
		if timed {
			if aw, ok := w.(AgentWriter); ok {
				if err := aw.PutToolStart(ctx, agent, toolID, now); err != nil {
					return err
				}
			}
		}
		if !witness {
			return nil
		}
		_, _, tok, _ := witnessSide(agent)
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: tok, Detail: truncate(strings.TrimSpace(toolID+" "+tool+" "+digest), 300), CreatedAt: now})
	})
}

// callWitness is the session's side of a callwitness.Witness: it reads,
// once and only when a witnessed call comes, the project's hook config,
// the hook's events and the observed runs, and the session's evidence
// for whoever needs it first.
type callWitness struct {
	*callwitness.Witness
	e   *Engine
	ctx context.Context
	s   *Session
	// evs is the session's evidence, read once per gate check by whoever
	// needs it first (evidence): the observed runs, the catch-up's
	// finished runs (transcript_catchup.go).
	evs    []Evidence
	evsErr error
	evsOK  bool
}

// evidence is the session's evidence, read once for the transcripts of
// one gate check.
func (cw *callWitness) evidence() ([]Evidence, error) {
	if !cw.evsOK {
		cw.evs, cw.evsErr = cw.e.Store.ListEvidence(cw.ctx, cw.s.ID)
		cw.evsOK = true
	}
	return cw.evs, cw.evsErr
}

// newCallWitness is the witness of agent's calls for s; list is the
// session's transcripts, whose witnesses used so far it sums.
func newCallWitness(ctx context.Context, e *Engine, s *Session, agent string, list []AgentTranscript) *callWitness {
	cw := &callWitness{e: e, ctx: ctx, s: s}
	var used []map[string]int
	for _, t := range list {
		if t.Agent == agent {
			used = append(used, t.State.Witnessed)
		}
	}
	cw.Witness = callwitness.New(agent, used, cw.load)
	return cw
}

// witnessSide is, for an agent, where its project hook config lives, the
// command prefix of sessiongate's hook in it, and the event that keeps a
// witnessed call; ok false for an agent whose hooks witness no calls.
func witnessSide(agent string) (config, prefix, token string, ok bool) {
	config, prefix, ok = callwitness.Side(agent)
	switch agent {
	case transcript.Claude:
		token = TokenAgentCall
	case transcript.Codex:
		token = TokenCodexCall
	case transcript.Gemini:
		token = TokenGeminiCall
	case transcript.Copilot:
		token = TokenCopilotCall
	}
	return config, prefix, token, ok
}

// load reads what w decides from: the hook config of the work tree and
// the start commit, the observed runs (Gemini CLI, Copilot), the events
// the pre-tool hook kept.
func (cw *callWitness) load(w *callwitness.Witness) {
	rel, _, token, _ := witnessSide(w.Agent)
	if b, err := boundedread.File(filepath.Join(cw.s.Worktree, filepath.FromSlash(rel)), boundedread.DefaultLimit); err == nil {
		w.Config = append(w.Config, b)
	}
	if w.Agent == transcript.Copilot {
		// Copilot reads every .github/hooks/*.json.
		others, _ := filepath.Glob(filepath.Join(cw.s.Worktree, ".github", "hooks", "*.json"))
		for _, p := range others {
			if filepath.Base(p) == filepath.Base(rel) {
				continue
			}
			if b, err := boundedread.File(p, boundedread.DefaultLimit); err == nil {
				w.Config = append(w.Config, b)
			}
		}
	}
	if cw.e.OpenRepo != nil && cw.s.StartCommit != "" {
		if repo, err := cw.e.OpenRepo(cw.ctx, cw.s.Worktree); err == nil {
			if b, err := repo.ReadAt(cw.ctx, cw.s.StartCommit, rel); err == nil {
				w.Config = append(w.Config, b)
			}
		}
	}
	if hookroute.CountsShells(w.Agent) {
		if evs, err := cw.evidence(); err == nil {
			for _, ev := range evs {
				if ev.Origin == OriginObserved && ev.Source == w.Agent && ev.ExitCode != nil && len(ev.Command) < MaxCommandBytes {
					w.Observe(ev.Command, *ev.ExitCode)
				}
			}
		}
	}
	evs, err := cw.e.Store.ListEvents(cw.ctx, cw.s.ID, 0, 0)
	if err != nil {
		// Nothing counts as seen: the calls are refused, and running them
		// again answers it; a store error must not pass a forged line.
		return
	}
	for _, ev := range evs {
		if ev.Token == token {
			w.Saw(ev.Detail)
		}
	}
}
