package session

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/sessiongate/sessiongate/identity"
	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// An agent CLI killed with SIGKILL (or crashed, or its machine lost
// power) sends no Stop and no SessionEnd: the turn it was in is never
// judged. Round 28 (c3): each prompt keeps the CLI process it came from
// (agent:<a>:cli "<pid>:<start> <agent session>", only when it changed)
// and SessionEnd keeps agent:<a>:cli-ended. A prompt from another CLI
// process (`claude --continue`, `codex resume`, a fresh CLI in the same
// worktree) while the newest kept CLI is gone without its SessionEnd
// continues that CLI's turn instead of starting one: the turn mark is
// kept (or, for a new binding, taken from the vanished CLI's), so the
// resumed agent's stops judge the work the killed turn did (blocked, then
// END_PROTOCOL_SKIPPED), and an honest resume that finishes the work and
// its end protocol is clean. Before, the resumed prompt marked a new turn
// and its idle stops were let through: the session stayed WORKING with
// no violation.

func cliToken(agent string) string      { return "agent:" + agent + ":cli" }
func cliEndedToken(agent string) string { return "agent:" + agent + ":cli-ended" }

// vanishedCLI returns the newest CLI kept for agent in the session when it
// is not cli, ended without SessionEnd and is gone (gone reports that),
// with the agent session it ran; "" when there is none. newest is the
// newest CLI kept, "" when none.
func (e *Engine) vanishedCLI(ctx context.Context, sessionID, agent, cli string, gone func(string) bool) (key, agentSession string, newest string, err error) {
	evs, err := e.Store.EventsWith(ctx, sessionID, cliToken(agent), cliEndedToken(agent))
	if err != nil {
		return "", "", "", fmt.Errorf("read the session's agent CLIs: %w", err)
	}
	k, as, endSeq := newestCLI(evs, agent)
	if k == "" || k == cli || gone == nil || !gone(k) {
		return "", "", k, nil
	}
	if ended, err := e.cliEnded(ctx, sessionID, agent, endSeq); err != nil || ended {
		return "", "", k, err
	}
	return k, as, k, nil
}

// newestCLI reads, from the session's agent:<a>:cli and cli-ended events
// (oldest first), the newest CLI kept for agent, the agent session it ran
// and the seq of the SessionEnd that CLI sent (0: none). A SessionEnd
// counts only for the CLI it names: one sent from another process (the
// agent's shell under a program it named claude) does not end the newest
// CLI (round 29, c4).
func newestCLI(evs []Event, agent string) (key, agentSession string, endSeq int64) {
	for _, ev := range evs {
		f := strings.Fields(ev.Detail)
		if len(f) == 0 {
			continue
		}
		switch ev.Token {
		case cliToken(agent):
			key, agentSession, endSeq = f[0], "", 0
			if len(f) > 1 {
				agentSession = fromDetailWord(f[1])
			}
		case cliEndedToken(agent):
			if f[0] == key {
				endSeq = ev.Seq
			}
		}
	}
	return key, agentSession, endSeq
}

// endedScan bounds the events cliEnded reads after a SessionEnd: a CLI
// that really ended leaves few of its agent's events behind it.
const endedScan = 500

// cliEnded reports whether the SessionEnd at seq endSeq ended its CLI: no
// call of that agent was judged or reported, and no stop of it judged,
// after it. A SessionEnd sent from inside one of the agent's own tool
// calls (a copy of the hook under another name fed a SessionEnd payload)
// is followed by that call's report and the CLI's next stop; the real
// one is the CLI's last event (round 29, c4). Only the endedScan events
// after it are read.
func (e *Engine) cliEnded(ctx context.Context, sessionID, agent string, endSeq int64) (bool, error) {
	if endSeq == 0 {
		return false, nil
	}
	evs, err := e.Store.ListEvents(ctx, sessionID, endSeq, endedScan)
	if err != nil {
		return false, fmt.Errorf("read the events after the agent CLI's SessionEnd: %w", err)
	}
	stops := stopTokens(agent)
	for _, ev := range evs {
		switch {
		case ev.Token == judgedToken(agent), slices.Contains(stops, ev.Token),
			(ev.Token == TokenToolResult || ev.Token == TokenToolFailed) && strings.HasPrefix(ev.Detail, agent+" "):
			return false, nil
		}
	}
	return true, nil
}

// VanishedCLI is an agent CLI a session kept that ended without a
// SessionEnd that counts and whose process is gone (killed, crashed).
type VanishedCLI struct {
	Agent        string `json:"agent"`
	Process      string `json:"process"` // "<pid>:<start>"
	AgentSession string `json:"agent_session,omitempty"`
}

// cliAgents are the agents whose prompts keep their CLI process.
var cliAgents = []string{"claude", "codex", "gemini", "copilot", "cursor"}

// cliGone reports whether a kept CLI process has ended; tests replace it.
var cliGone = ancestry.Gone

// VanishedCLIs lists, per agent, the newest CLI the session kept when it
// vanished: gone with no SessionEnd after its last call. Nothing is
// vanished for a session run on another host (its processes are not
// this machine's to read) or one that is no longer active.
func (e *Engine) VanishedCLIs(ctx context.Context, s *Session) ([]VanishedCLI, error) {
	if s == nil || !s.Active() || s.Host != "" && s.Host != localHost() {
		return nil, nil
	}
	toks := make([]string, 0, 2*len(cliAgents))
	for _, a := range cliAgents {
		toks = append(toks, cliToken(a), cliEndedToken(a))
	}
	evs, err := e.Store.EventsWith(ctx, s.ID, toks...)
	if err != nil || len(evs) == 0 {
		return nil, err
	}
	var out []VanishedCLI
	for _, a := range cliAgents {
		k, as, endSeq := newestCLI(evs, a)
		if k == "" || !cliGone(k) {
			continue
		}
		ended, err := e.cliEnded(ctx, s.ID, a, endSeq)
		if err != nil {
			return nil, err
		}
		if !ended {
			out = append(out, VanishedCLI{Agent: a, Process: k, AgentSession: as})
		}
	}
	return out, nil
}

// localHost is the host name sessions record (identity.WhoRuns).
func localHost() string {
	_, _, host := identity.WhoRuns(context.Background(), nil)
	return host
}

// vanishedSkipped is the END_PROTOCOL_SKIPPED a session is given when it
// is abandoned (superseded by a new session, or expired) while the agent
// CLI that worked in it vanished (killed, SIGKILL: no Stop, no SessionEnd)
// and its work was committed: no stop ever judged that work, and nothing
// resumed it. Read before the session is marked; nil when there is nothing
// to record (no vanished CLI, no commit recorded for the session, or the
// skip already recorded). Round 29 (c4): before, such a session went from
// WORKING to ABANDONED with no violation.
func (e *Engine) vanishedSkipped(ctx context.Context, s *Session, how string) (*Violation, error) {
	gone, err := e.VanishedCLIs(ctx, s)
	if err != nil || len(gone) == 0 {
		return nil, err
	}
	commits, err := e.Store.RecordedCommits(ctx, s.ID)
	if err != nil {
		return nil, fmt.Errorf("read the session's commits: %w", err)
	}
	if len(commits) == 0 {
		return nil, nil
	}
	vs, err := e.Store.ListViolations(ctx, ViolationFilter{SessionID: s.ID, Limit: 1000})
	if err != nil {
		return nil, err
	}
	for _, v := range vs {
		if v.Code == CodeEndProtocolSkipped {
			return nil, nil
		}
	}
	g := gone[0]
	return &Violation{
		SessionID: s.ID, RepoID: s.RepoID, Phase: s.Phase, Severity: SeverityHigh, Code: CodeEndProtocolSkipped,
		Message: truncate(fmt.Sprintf("%s's CLI (process %s) ended without SessionEnd (killed or crashed) after %d commit(s) of this session, and nothing resumed it: the session was %s with its end protocol undone (state %s)",
			agentName(g.Agent), g.Process, len(commits), how, s.State), 500),
		Window: WindowSession, CreatedAt: e.now(),
	}, nil
}

// RecordCLIEnded keeps that agent's CLI process cli sent SessionEnd.
func (e *Engine) RecordCLIEnded(ctx context.Context, sessionID, agent, cli string) error {
	if cli == "" || strings.ContainsAny(cli, " \t\n") || len(cli) > 60 {
		return nil
	}
	return e.Store.Update(ctx, func(w Writer) error {
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: cliEndedToken(agent), Detail: cli, CreatedAt: e.now()})
	})
}

// keepCLI records, in the bind's transaction, the prompt's CLI process when
// it is not the newest kept (with the agent session it runs), and the CLI
// whose turn it continues.
func (e *Engine) keepCLI(ctx context.Context, w Writer, sessionID string, req AgentBindRequest, newest, vanished string, now time.Time) error {
	if req.CLI == "" || req.CLI == newest || strings.ContainsAny(req.CLI, " \t\n") || len(req.CLI) > 60 {
		return nil
	}
	if vanished != "" {
		if err := w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: cliVanishedToken(req.Agent), Detail: vanished + " ended without SessionEnd; its turn continues under " + req.CLI, CreatedAt: now}); err != nil {
			return err
		}
	}
	if err := w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: cliToken(req.Agent), Detail: truncate(cliDetail(req), 300), CreatedAt: now}); err != nil {
		return err
	}
	if shape := strings.Join(strings.Fields(req.CLIShape), " "); shape != "" {
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: cliShapeToken(req.Agent), Detail: truncate(req.CLI+" "+shape, 300), CreatedAt: now})
	}
	return nil
}

// cliEndScan is how many of the session's newest events SettleAtCLIEnd
// reads for the newest judged call.
const cliEndScan = 50

// SettleAtCLIEnd settles, when the agent's CLI ends (SessionEnd), the
// main agent's newest judged call when it is still pending, is a shell
// call and nothing was judged after it: the CLI was stopped while it ran
// (Ctrl+C in the middle of `sleep` or a long test run), and no post-tool
// event comes for it. Before, a person's `session end` after that Ctrl+C
// named it TOOL_RESULT_MISSING (round 29, c4: the honest twin of
// TestClaudeKilledNeverResumed). One call only, as a gate's inFlight
// excuses one: the other unreported calls (post-tool hooks dropped) are
// still owed.
func (e *Engine) SettleAtCLIEnd(ctx context.Context, sessionID, agent string) error {
	return e.settleRunningCall(ctx, sessionID, agent, "cli-ended")
}

// SettleVanishedCall settles, at a prompt from a new CLI that continues the
// turn of one that vanished (AgentBound.Vanished), the call that CLI was
// running when it was killed, as a gate would (settleVanishedCalls):
// settled as interrupted by the prompt instead, the transcript shows no
// interrupt of it (the killed CLI wrote no result) and a stop or a gate
// would owe it (settledUninterrupted; round 30, c4).
func (e *Engine) SettleVanishedCall(ctx context.Context, sessionID, agent string) error {
	return e.settleRunningCall(ctx, sessionID, agent, SettledCLIVanished)
}

// settleRunningCall settles agent's newest judged main call, as
// SettleAtCLIEnd says, with why.
func (e *Engine) settleRunningCall(ctx context.Context, sessionID, agent, why string) error {
	open, err := e.openCallEvents(ctx, sessionID, agent)
	if err != nil {
		return fmt.Errorf("read the judged tool calls: %w", err)
	}
	pend := pendingCalls(open, agent)
	var last pendingCall
	for i := len(pend) - 1; i >= 0; i-- {
		if pend[i].sub == "" {
			last = pend[i]
			break
		}
	}
	if last.id == "" || !shellTools[last.tool] {
		return nil
	}
	recent, err := e.Store.LastEvents(ctx, sessionID, cliEndScan, judgedToken(agent))
	if err != nil {
		return fmt.Errorf("read the newest judged tool calls: %w", err)
	}
	newest := ""
	for i := len(recent) - 1; i >= 0; i-- {
		if f := strings.Fields(recent[i].Detail); len(f) >= 3 && judgedSub(f) == "" {
			newest = f[0]
			break
		}
	}
	if newest != last.id {
		return nil // judged long ago, or another call judged after it
	}
	return e.Store.Update(ctx, func(w Writer) error {
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: TokenToolUnreported, Detail: agent + " " + last.id + " " + why, CreatedAt: e.now()})
	})
}

// settleVanishedCalls settles, before a gate names unreported calls, the
// call each vanished CLI was running when it was killed (its post-tool
// event never comes): a person's `session end` after the CLI was killed
// in the middle of a call named it TOOL_RESULT_MISSING (round 29, c4,
// measured with the real Codex killed from its own shell). One call per
// vanished CLI, as at SessionEnd.
func (e *Engine) settleVanishedCalls(ctx context.Context, sessionID string) error {
	s, err := e.Store.GetSession(ctx, sessionID)
	if err != nil {
		return err
	}
	gone, err := e.VanishedCLIs(ctx, s)
	if err != nil {
		return err
	}
	for _, g := range gone {
		if err := e.settleRunningCall(ctx, sessionID, g.Agent, SettledCLIVanished); err != nil {
			return err
		}
	}
	return nil
}

// cliDetail is a kept CLI's event detail: "KEY CONVERSATION [PIDNS]". The
// namespace only after a conversation id: read by position, it would be
// taken for one (newestCLI, EarlierLiveCLI).
func cliDetail(req AgentBindRequest) string {
	d := req.CLI + " " + detailWord(req.AgentSession)
	if req.AgentSession != "" && req.CLINamespace != "" {
		d += " " + req.CLINamespace
		if req.CLIMountNamespace != "" {
			d += " " + req.CLIMountNamespace
		}
	}
	return strings.TrimSpace(d)
}

// detailWord makes an agent session id one word of an event's detail:
// the CLI's payload names it, and one with a space shifted the kept CLI's
// later fields (its PID namespace read as another's, so the CLI counted
// as running for the rest of the session: helper 345).
func detailWord(s string) string {
	if !strings.ContainsFunc(s, escapedInDetail) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if !escapedInDetail(r) {
			b.WriteRune(r)
			continue
		}
		for _, c := range []byte(string(r)) {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// escapedInDetail: '%' and whatever strings.Fields splits at.
func escapedInDetail(r rune) bool { return r == '%' || unicode.IsSpace(r) }

// fromDetailWord reads back what detailWord wrote (a word it did not
// escape, kept before it did, as is).
func fromDetailWord(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}
