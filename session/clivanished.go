package session

import (
	"context"
	"fmt"
	"strings"
	"time"
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
// with the agent session it ran; "" when there is none.
func (e *Engine) vanishedCLI(ctx context.Context, sessionID, agent, cli string, gone func(string) bool) (key, agentSession string, newest string, err error) {
	evs, err := e.Store.EventsWith(ctx, sessionID, cliToken(agent), cliEndedToken(agent))
	if err != nil {
		return "", "", "", fmt.Errorf("read the session's agent CLIs: %w", err)
	}
	if len(evs) == 0 {
		return "", "", "", nil
	}
	last := evs[len(evs)-1]
	f := strings.Fields(last.Detail)
	if len(f) == 0 {
		return "", "", "", nil
	}
	newest = f[0]
	if last.Token != cliToken(agent) || f[0] == cli || gone == nil || !gone(f[0]) {
		return "", "", newest, nil
	}
	if len(f) > 1 {
		agentSession = f[1]
	}
	return f[0], agentSession, newest, nil
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
		if err := w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: "agent:" + req.Agent + ":cli-vanished", Detail: vanished + " ended without SessionEnd; its turn continues under " + req.CLI, CreatedAt: now}); err != nil {
			return err
		}
	}
	return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: cliToken(req.Agent), Detail: truncate(req.CLI+" "+req.AgentSession, 300), CreatedAt: now})
}
