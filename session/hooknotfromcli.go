package session

import (
	"context"
	"fmt"
	"slices"
	"strconv"
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

// CLIWitnessQuery names the agent CLI process a hook runs under, for
// Engine.EarlierLiveCLI.
type CLIWitnessQuery struct {
	SessionID, Agent, AgentSession string
	CLI                            string // its key (ancestry.Process.Key)
	// Oldest is the earliest start (same clock as the keys') among the
	// CLI and its ancestors up to the process that adopts orphans (init,
	// a subreaper), 0 when unknown.
	Oldest uint64
	// Above are the keys of the processes above the CLI (its ancestors).
	Above []string
	// Visible is Oldest with a hidden ancestor (hidepid=2) taken as the
	// chain's end: used when Oldest is unknown for one and a CLI kept for
	// the session ran in another mount namespace than the reader (one
	// where root mounted a procfs with hidepid=2: helper 348).
	Visible        uint64
	Namespace      string   // the reader's PID namespace
	MountNamespace string   // the reader's mount namespace
	Agents         []string // every agent whose CLIs the session keeps
	Gone           func(string) bool
}

// EarlierLiveCLI returns a CLI process kept in the session before q's CLI
// was (or at all, when it never was) that is not it and still runs,
// with why that one makes q's CLI no witness of the conversation's tool
// calls; "" when there is none. A SessionEnd kept for it is not read: one
// can be sent in its name (cliEnded), and a CLI that really ended is gone.
//
//   - The conversation's CLI is the first one its prompts came from:
//     another process that says it runs the conversation's tool calls
//     while that one still runs (a program the agent's shell started,
//     named like the CLI and detached from every ancestor, so no agent CLI
//     is above it: helper 343) is no witness of them.
//   - The same program can play a conversation of its own (a new
//     conversation id, any agent's name) and join the worktree's session
//     (helper 343, F4). While an earlier CLI of the session runs, a CLI
//     whose every ancestor below the orphans' adopter started after that
//     one did is no witness either: it was made after the session's CLI
//     and hangs from nothing older, as what that CLI's tool call started
//     and detached does. A person's second terminal hangs from an older
//     terminal, multiplexer, IDE or login.
//   - A CLI kept for the session above the asking one (Above) is never
//     the same CLI: a program its tool call exec'd, named like a CLI,
//     reads as that CLI's native process under its npm launcher, and
//     hangs from it, so it is as old as it (helper 344).
//
// A CLI kept from another PID namespace than the reader's is not seen
// from here, so it is taken to run (a process in a PID namespace of its
// own, where every process outside reads as gone).
func (e *Engine) EarlierLiveCLI(ctx context.Context, q CLIWitnessQuery) (other string, rel CLIRelation, err error) {
	if q.CLI == "" || q.Gone == nil {
		return "", 0, nil
	}
	tokens := make([]string, 0, len(q.Agents)+1)
	tokens = append(tokens, cliToken(q.Agent))
	for _, a := range q.Agents {
		if a != q.Agent {
			tokens = append(tokens, cliToken(a))
		}
	}
	evs, err := e.Store.EventsWith(ctx, q.SessionID, tokens...)
	if err != nil {
		return "", 0, fmt.Errorf("read the session's agent CLIs: %w", err)
	}
	live := func(f []string) bool { return len(f) > 2 && f[2] != q.Namespace || !q.Gone(f[0]) }
	// The conversation's own first CLI, read first: it is no other.
	if q.AgentSession != "" {
		for _, ev := range evs {
			f := strings.Fields(ev.Detail)
			if ev.Token != cliToken(q.Agent) || len(f) < 2 || f[1] != detailWord(q.AgentSession) {
				continue
			}
			if f[0] == q.CLI {
				break
			}
			if live(f) {
				return f[0], SameConversation, nil
			}
		}
	}
	for _, ev := range evs {
		if f := strings.Fields(ev.Detail); len(f) > 0 && f[0] != q.CLI && slices.Contains(q.Above, f[0]) {
			return f[0], Below, nil
		}
	}
	oldest := q.Oldest
	if oldest == 0 && q.Visible != 0 && !sameMounts(evs, q.MountNamespace) {
		oldest = q.Visible
	}
	if oldest == 0 {
		return "", 0, nil
	}
	for _, ev := range evs {
		f := strings.Fields(ev.Detail)
		if len(f) < 1 || f[0] == q.CLI {
			continue
		}
		_, s, _ := strings.Cut(f[0], ":")
		start, err := strconv.ParseUint(s, 10, 64)
		if err != nil || start == 0 || start >= oldest {
			continue
		}
		if live(f) {
			return f[0], Detached, nil
		}
	}
	return "", 0, nil
}

// CLIRelation is how the CLI EarlierLiveCLI found stands to the asking one.
type CLIRelation int

const (
	// SameConversation: the conversation's first CLI, still running.
	SameConversation CLIRelation = iota + 1
	// Detached: a CLI of the session, still running, that started before
	// everything the asking CLI hangs from.
	Detached
	// Below: a CLI of the session is an ancestor of the asking one: a
	// program its tool call started (exec'd from the tool's shell, so no
	// shell stands between them), named like a CLI (helper 344).
	Below
)

// sameMounts reports whether every CLI kept in evs ran in mount namespace
// mnt (the fourth word of its record; none: not known, so not the same).
func sameMounts(evs []Event, mnt string) bool {
	for _, ev := range evs {
		f := strings.Fields(ev.Detail)
		if len(f) == 0 {
			continue
		}
		if mnt == "" || len(f) < 4 || f[3] != mnt {
			return false
		}
	}
	return true
}
