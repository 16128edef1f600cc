package session

import (
	"context"
	"fmt"
	"strings"
)

// CodeHookNotFromCLI: an agent hook event came from a process its agent's
// CLI did not start for a hook: from inside one of the agent's tool calls
// (a script piping a made-up preToolUse/postToolUse pair into `sessiongate
// agent-hook copilot`, round 56's 333 F3), or from a process detached from
// every agent while the conversation's CLI still runs. The event is not
// recorded (no observed run, read or prompt comes of it); HIGH, as a
// rewritten tool input: the agent tried to make evidence up.
const CodeHookNotFromCLI = "HOOK_NOT_FROM_CLI"

// tokenHookNotFromCLI keeps each refused event: "<agent> <event> <why>".
const tokenHookNotFromCLI = "agent:hook-not-from-cli"

// NewestCLI returns the newest agent CLI process kept for agent in the
// session ("<pid>:<start>", "" when none was kept).
func (e *Engine) NewestCLI(ctx context.Context, sessionID, agent string) (string, error) {
	evs, err := e.Store.EventsWith(ctx, sessionID, cliToken(agent), cliEndedToken(agent))
	if err != nil {
		return "", fmt.Errorf("read the session's agent CLIs: %w", err)
	}
	k, _, _ := newestCLI(evs, agent)
	return k, nil
}

func cliShapeToken(agent string) string { return "agent:" + agent + ":cli-shape" }

// CLIShape returns the shape kept for the agent CLI process key in the
// session (its words after the key), "" when none was kept.
func (e *Engine) CLIShape(ctx context.Context, sessionID, agent, key string) (string, error) {
	evs, err := e.Store.EventsWith(ctx, sessionID, cliShapeToken(agent))
	if err != nil {
		return "", fmt.Errorf("read the session's agent CLI shapes: %w", err)
	}
	shape := ""
	for _, ev := range evs {
		if k, rest, ok := strings.Cut(ev.Detail, " "); ok && k == key {
			shape = rest
		}
	}
	return shape, nil
}

// RecordHookNotFromCLI records one refused hook event of agent (its event
// name, why it is not the CLI's) as a HIGH CodeHookNotFromCLI violation.
func (e *Engine) RecordHookNotFromCLI(ctx context.Context, sessionID, agent, event, why string) (*Violation, error) {
	msg := fmt.Sprintf("the %s hook event %s was not sent by %s's CLI: %s; it was not recorded (a hook run by hand can claim tool calls that never ran)", agent, event, agent, why)
	v, err := e.addViolation(ctx, sessionID, SeverityHigh, CodeHookNotFromCLI, msg, Event{Token: tokenHookNotFromCLI, Detail: truncate(agent+" "+event+" "+why, 300)})
	if err != nil {
		return nil, fmt.Errorf("record the hook event not sent by the CLI: %w", err)
	}
	return v, nil
}

// addViolation records one session-window violation of the session at its
// current phase, with the events that go with it, in one transaction, and
// publishes it. The events' session and time are filled in.
func (e *Engine) addViolation(ctx context.Context, sessionID, severity, code, msg string, evs ...Event) (*Violation, error) {
	now := e.now()
	var v *Violation
	err := e.Store.Update(ctx, func(w Writer) error {
		cur, err := w.GetSession(ctx, sessionID)
		if err != nil {
			return err
		}
		v = &Violation{SessionID: sessionID, RepoID: cur.RepoID, Phase: cur.Phase, Severity: severity, Code: code,
			Window: WindowSession, Message: truncate(msg, 500), CreatedAt: now}
		if err := w.AddViolation(ctx, v); err != nil {
			return err
		}
		for i := range evs {
			evs[i].SessionID, evs[i].CreatedAt = sessionID, now
			if err := w.AppendEvent(ctx, &evs[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	e.publishViolations(ctx, sessionID, v)
	return v, nil
}

// EarlierLiveCLI returns a CLI process kept for agent's conversation
// agentSession in the session before cli was (or at all, when cli never
// was) that is not cli and still runs (gone reports that it ended), ""
// when there is none. The conversation's CLI is the first one its prompts
// came from: another process that says it runs the conversation's tool
// calls while that one still runs (a program the agent's shell started,
// named like the CLI and detached from every ancestor, so no agent CLI is
// above it: helper 343) is no witness of them. A SessionEnd kept for it is
// not read: one can be sent in its name (cliEnded), and a CLI that
// really ended is gone.
//
// ns is the reader's PID namespace: a CLI kept from another one is not
// seen from here, so it is taken to run (a process in a PID namespace of
// its own, where every process outside reads as gone).
func (e *Engine) EarlierLiveCLI(ctx context.Context, sessionID, agent, agentSession, cli, ns string, gone func(string) bool) (string, error) {
	if agentSession == "" || cli == "" || gone == nil {
		return "", nil
	}
	evs, err := e.Store.EventsWith(ctx, sessionID, cliToken(agent))
	if err != nil {
		return "", fmt.Errorf("read the session's agent CLIs: %w", err)
	}
	for _, ev := range evs {
		f := strings.Fields(ev.Detail)
		if len(f) < 2 || f[1] != agentSession {
			continue
		}
		if f[0] == cli {
			return "", nil
		}
		if len(f) > 2 && f[2] != ns || !gone(f[0]) {
			return f[0], nil
		}
	}
	return "", nil
}
