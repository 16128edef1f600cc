package session

import (
	"context"
	"fmt"
)

// A Claude Code Stop that lists running background sub-agents is a wait
// (agent:<a>:stop:waiting): not blocked, not judged, since the CLI sends the
// sub-agents' notification as the next prompt and the turn goes on. Round
// 27 (c6): the turn's end is still owed a judgment until a later stop is
// judged. If the CLI ends first (SessionEnd: Ctrl+C, SIGTERM, a closed
// terminal, a sub-agent that kills it), AgentEndAfterWait judges the turn
// as a last stop that cannot be blocked; a prompt in between does not
// start a new turn (AgentBindRequest.KeepOpenWait) and settles no call,
// since the sub-agents' calls may still run.

// Stop tokens of an agent: the newest says whether a wait is still owed a
// judgment.
func stopWaitingToken(agent string) string { return "agent:" + agent + ":stop:waiting" }

// stopJudgedToken marks a stop judged and allowed after a wait (a judged
// stop that blocks or records a violation leaves its own token).
func stopJudgedToken(agent string) string { return "agent:" + agent + ":stop:judged" }

// stopEndedToken marks the CLI's end judged after a wait.
func stopEndedToken(agent string) string { return "agent:" + agent + ":stop:ended" }

func stopTokens(agent string) []string {
	p := "agent:" + agent + ":stop:"
	return []string{p + "waiting", p + "judged", p + "ended", p + "blocked", p + "violation", p + "protected"}
}

// StopWaitOpen reports whether agent's newest stop in the session was a
// wait that no later stop or end judged.
func (e *Engine) StopWaitOpen(ctx context.Context, sessionID, agent string) (bool, error) {
	// Only the stop events go through the driver: a few per turn that
	// blocked or waited (an allowed stop records none, except after a
	// wait). LastEvents would filter the session's last n events instead.
	evs, err := e.Store.EventsWith(ctx, sessionID, stopTokens(agent)...)
	if err != nil {
		return false, fmt.Errorf("read the session's stops: %w", err)
	}
	return len(evs) > 0 && evs[len(evs)-1].Token == stopWaitingToken(agent), nil
}

// AgentEndAfterWait judges, when the agent CLI ends (SessionEnd), a turn
// whose stop waited for background sub-agents and was never judged: with
// work since the turn began and the session still active (its end protocol
// undone), the end was skipped, a HIGH END_PROTOCOL_SKIPPED, as a stop
// blocked to the limit records. It returns the violation, nil when there
// is none (no open wait, no work, or the session already ended).
func (e *Engine) AgentEndAfterWait(ctx context.Context, bd *AgentBound, ws WorkState, reason string) (*Violation, error) {
	if bd == nil || bd.Session == nil || bd.Binding == nil || !bd.Session.Active() {
		return nil, nil
	}
	s, b := bd.Session, bd.Binding
	open, err := e.StopWaitOpen(ctx, s.ID, b.Agent)
	if err != nil || !open {
		return nil, err
	}
	// As AgentStop: the turn changed something, and the session has work
	// (commits since it started, or anything uncommitted).
	idle := ws.Mark == b.TurnMark
	work := ws.Head != s.StartCommit
	if !idle && !work && ws.Dirty != nil {
		if work, err = ws.Dirty(ctx); err != nil {
			return nil, fmt.Errorf("read the worktree: %w", err)
		}
	}
	work = work && !idle
	now := e.now()
	var v *Violation
	if work {
		if reason == "" {
			reason = "unknown"
		}
		v = &Violation{
			SessionID: s.ID, RepoID: s.RepoID, Phase: s.Phase, Severity: SeverityHigh, Code: CodeEndProtocolSkipped,
			Message: truncate(fmt.Sprintf("%s ended (SessionEnd, reason %q) while its last stop waited for background sub-agents: that stop was never judged, and the session has work and its end protocol undone (state %s)", agentName(b.Agent), reason, s.State), 500),
			Window:  WindowSession, CreatedAt: now,
		}
	}
	err = e.Store.Update(ctx, func(w Writer) error {
		if err := w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: stopEndedToken(b.Agent), Detail: truncate(reason, 100), CreatedAt: now}); err != nil {
			return err
		}
		if v == nil {
			return nil
		}
		return w.AddViolation(ctx, v)
	})
	if err != nil {
		return nil, fmt.Errorf("record the end after a waiting stop: %w", err)
	}
	if v != nil {
		e.publishViolations(ctx, s.ID, v)
	}
	return v, nil
}
