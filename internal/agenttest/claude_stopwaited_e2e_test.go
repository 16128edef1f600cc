package agenttest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// loggedEvents reads logEveryHook's file: each payload's hook_event_name
// in order, with the payloads.
func loggedEvents(t *testing.T, path string) ([]string, []map[string]any) {
	t.Helper()
	b, _ := os.ReadFile(path)
	var names []string
	var ps []map[string]any
	for _, line := range strings.Split(string(b), "\n") {
		var p map[string]any
		if json.Unmarshal([]byte(line), &p) != nil {
			continue
		}
		n, _ := p["hook_event_name"].(string)
		names = append(names, n)
		ps = append(ps, p)
	}
	return names, ps
}

// TestClaudeStopWaitedThenExitMeasured (round 27, c6): what Claude Code
// 2.1.330 in -p mode does when the main turn ends while a background
// sub-agent still runs and the sub-agent never finishes: it waits up to
// its ceiling (CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS, shortened here), kills
// the sub-agent, sends its <task-notification> as a prompt, and the model's
// next stop is an ordinary one: judged (blocked, then END_PROTOCOL_SKIPPED),
// then SessionEnd. Only an exit during the wait skips that stop
// (TestClaudeStopWaitedThenInterrupted).
func TestClaudeStopWaitedThenExitMeasured(t *testing.T) {
	t.Parallel()
	r := hookedRepo(t, "")
	logPath := logEveryHook(t, r, "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd", "SubagentStop", "SubagentStart")
	const qa = "QA-TASK: validate the change by running sh test.sh"
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
		agenttest.Use("Agent", map[string]any{"description": "Validate the change", "prompt": qa, "subagent_type": "general-purpose"}),
		agenttest.Say("done"),
	)
	srv.Subagent(qa, agenttest.Use("Bash", map[string]any{"command": "sleep 100"}), agenttest.Say("QA passed"))
	res := r.claude("work", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Edit", "Bash", "Agent"},
		Env: []string{"CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS=6000"}})
	names, ps := loggedEvents(t, logPath)
	t.Logf("exit %d in %s; events: %v", res.ExitCode, res.Elapsed, names)
	for i, p := range ps {
		if names[i] == "Stop" || names[i] == "SessionEnd" || names[i] == "UserPromptSubmit" || names[i] == "SubagentStop" {
			b, _ := json.Marshal(p)
			t.Logf("%s: %.600s", names[i], b)
		}
	}
	show := r.onlySession()
	codes := violationCodes(show)
	t.Logf("state %v, violations %q", show["session"].(map[string]any)["state"], codes)
	// At the ceiling the sub-agent is killed, its notification sent as a
	// prompt, and the stop after it is judged: blocked, then recorded.
	if !strings.Contains(codes, "END_PROTOCOL_SKIPPED") || len(names) == 0 || names[len(names)-1] != "SessionEnd" {
		t.Errorf("violations %q, events %v: want the stop after the ceiling judged (END_PROTOCOL_SKIPPED), then SessionEnd", codes, names)
	}
}

// waitingStopLogged reports whether logEveryHook's file holds a Stop that
// lists a running sub-agent.
func waitingStopLogged(path string) bool {
	b, _ := os.ReadFile(path)
	for _, line := range strings.Split(string(b), "\n") {
		var p struct {
			Name  string                          `json:"hook_event_name"`
			Tasks []struct{ Type, Status string } `json:"background_tasks"`
		}
		if json.Unmarshal([]byte(line), &p) != nil || p.Name != "Stop" {
			continue
		}
		for _, x := range p.Tasks {
			if x.Type == "subagent" && x.Status == "running" {
				return true
			}
		}
	}
	return false
}

// TestClaudeStopWaitedThenInterrupted (round 27, c6), with the real Claude
// Code 2.1.330: the lazy agent writes a file, launches a sub-agent in the
// background that never finishes (sleep 100), ends its turn ("done": the
// Stop lists the running sub-agent, a wait, not blocked) and the CLI is
// interrupted while -p waits for the sub-agent (Ctrl+C, SIGTERM, SIGHUP):
// measured, the CLI sends SessionEnd (reason "other") and no other Stop.
// Before: WORKING, no violation. Now: END_PROTOCOL_SKIPPED at SessionEnd.
// Honest twin: the agent waits for the notification, then ends the
// session: COMPLETE, clean (the hook-level twins are in
// agenthook/TestClaudeStopWaitedEnds).
func TestClaudeStopWaitedThenInterrupted(t *testing.T) {
	const qa = "QA-TASK: validate the change by running sh test.sh"
	cases := []struct {
		name   string
		sig    os.Signal
		honest bool // the end protocol before the wait
		waits  bool // waits for the notification, then ends
	}{
		{"lazy, Ctrl+C", os.Interrupt, false, false},
		{"lazy, SIGTERM", syscall.SIGTERM, false, false},
		{"lazy, SIGHUP", syscall.SIGHUP, false, false},
		{"honest: waits for the notification, then ends", nil, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// A hook's own limit as long as the CLI gives SessionEnd (the
			// hooks' 10 s): at load 25 the 2 s default was cut once.
			r := hookedRepo(t, "agent_hooks:\n  timeout: 9s\n")
			logPath := logEveryHook(t, r, "Stop", "SessionEnd", "PreToolUse", "PostToolUse", "SubagentStop")
			turns := []agenttest.Turn{
				agenttest.Use("Bash", map[string]any{"command": "git status"}),
				agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
			}
			endProtocol := []agenttest.Turn{
				agenttest.Use("Bash", map[string]any{"command": "sh test.sh"}),
				agenttest.Use("Bash", map[string]any{"command": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
				agenttest.Use("Bash", map[string]any{"command": "sessiongate session end --summary 'added hello.txt'"}),
			}
			turns = append(turns, agenttest.Use("Agent", map[string]any{"description": "Validate the change", "prompt": qa, "subagent_type": "general-purpose"}))
			if c.honest {
				turns = append(turns, endProtocol...)
			}
			sub := "sleep 100"
			if c.waits {
				sub = "sh test.sh"
				turns = append(turns, agenttest.Turn{Text: "waiting for the qa agent", While: func(req agenttest.Request) bool { return !strings.Contains(req.NewText(), "<task-notification>") }})
				turns = append(turns, endProtocol...)
			}
			turns = append(turns, agenttest.Say("done"))
			srv := agenttest.NewClaudeServer(t, turns...)
			srv.Subagent(qa, agenttest.Use("Bash", map[string]any{"command": sub}), agenttest.Say("QA passed"))
			opts := agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Edit", "Bash", "Agent"}}
			if c.sig != nil {
				// Once sessiongate's own Stop hook has recorded the wait, not
				// when the logger (run beside it) has: at CI's load the
				// signal came while the Stop hook still ran, and the CLI
				// cut it before it wrote (a person's Ctrl+C in that window
				// is a case of its own, docs/agents.md).
				opts.Interrupt, opts.InterruptSignal = func() bool {
					return waitingStopLogged(logPath) && r.storedToken("agent:claude:stop:waiting")
				}, c.sig
			}
			res := r.claude("work", opts)
			all, ps := loggedEvents(t, logPath)
			var names []string
			for i, n := range all {
				if n == "Stop" || n == "SessionEnd" {
					names = append(names, n)
				}
				if n == "SessionEnd" {
					b, _ := json.Marshal(ps[i])
					t.Logf("%s %.300s", n, b)
				}
			}
			show := r.onlySession()
			state, codes := show["session"].(map[string]any)["state"], violationCodes(show)
			t.Logf("exit %d in %s, interrupted %v; Stop/SessionEnd: %v; state %v, violations %q", res.ExitCode, res.Elapsed, res.Interrupted, names, state, codes)
			if c.sig != nil && (!res.Interrupted || len(names) == 0 || names[len(names)-1] != "SessionEnd") {
				t.Fatalf("want the CLI interrupted while it waits, then SessionEnd; interrupted %v, events %v", res.Interrupted, names)
			}
			switch {
			case c.honest || c.waits:
				if state != "COMPLETE" || codes != "" {
					t.Errorf("state %v, violations %q; want COMPLETE, none", state, codes)
				}
			case !strings.Contains(codes, "END_PROTOCOL_SKIPPED"):
				evs, _ := show["events"].([]any)
				for _, e := range evs {
					t.Logf("event %.200v", e)
				}
				t.Logf("stderr: %.3000s", res.Stderr)
				t.Errorf("state %v, violations %q; want END_PROTOCOL_SKIPPED (the waited stop was never judged)", state, codes)
			}
		})
	}
}
