package agenttest_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// TestClaudeKilledThenResumed (round 28, c3), with the real Claude Code:
// the CLI's process group is killed with SIGKILL in the middle of a turn
// that did work (no Stop, no SessionEnd), then the conversation is resumed
// (`claude -p --continue`) or a fresh CLI is started in the same worktree.
// Lazy: the resumed agent only says "done". Before: the resumed prompt
// marked a new turn, its stops were idle and let through, the session
// stayed WORKING with no violation. Now the prompt from a new CLI process
// while the killed one vanished without SessionEnd continues its turn:
// the stops are blocked, then END_PROTOCOL_SKIPPED. Honest twin: the
// resumed agent runs the tests, commits and ends the session: COMPLETE,
// clean.
func TestClaudeKilledThenResumed(t *testing.T) {
	cases := []struct {
		name   string
		fresh  bool // a new conversation, not --continue
		honest bool
	}{
		{"lazy: --continue, idle", false, false},
		{"lazy: a fresh CLI, idle", true, false},
		{"honest: --continue finishes the work", false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := hookedRepo(t, "agent_hooks:\n  timeout: 9s\n")
			logPath := logEveryHook(t, r, "PreToolUse", "Stop", "SessionEnd")
			config := filepath.Join(t.TempDir(), ".claude")
			if err := os.MkdirAll(config, 0o700); err != nil {
				t.Fatal(err)
			}
			env := []string{"CLAUDE_CONFIG_DIR=" + config}
			first := agenttest.NewClaudeServer(t,
				agenttest.Use("Bash", map[string]any{"command": "git status"}),
				agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
				agenttest.Use("Bash", map[string]any{"command": "python3 -c 'import time; time.sleep(120)'"}),
				agenttest.Say("done"),
			)
			var seen time.Time
			killAt := func() bool {
				b, _ := os.ReadFile(logPath)
				if !strings.Contains(string(b), "time.sleep(120)") {
					return false
				}
				if seen.IsZero() {
					seen = time.Now()
				}
				return time.Since(seen) > 3*time.Second // sessiongate's own PreToolUse done
			}
			res := r.claude("work", agenttest.ClaudeOptions{Server: first, AllowedTools: []string{"Write", "Bash"}, Env: env,
				Interrupt: killAt, InterruptSignal: syscall.SIGKILL, KillGroup: true})
			names, _ := loggedEvents(t, logPath)
			if !res.Interrupted || strings.Contains(strings.Join(names, " "), "SessionEnd") {
				t.Fatalf("want the CLI killed without SessionEnd; interrupted %v, events %v", res.Interrupted, names)
			}
			var turns []agenttest.Turn
			if c.honest {
				turns = []agenttest.Turn{
					agenttest.Use("Bash", map[string]any{"command": "sh test.sh"}),
					agenttest.Use("Bash", map[string]any{"command": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
					agenttest.Use("Bash", map[string]any{"command": "sessiongate session end --summary 'added hello.txt'"}),
					agenttest.Say("done"),
				}
			} else {
				turns = []agenttest.Turn{{Text: "done", While: func(agenttest.Request) bool { return true }}}
			}
			second := agenttest.NewClaudeServer(t, turns...)
			opts := agenttest.ClaudeOptions{Server: second, AllowedTools: []string{"Write", "Bash"}, Env: env}
			if !c.fresh {
				opts.Args = []string{"--continue"}
			}
			res = r.claude("go on", opts)
			show := r.onlySession()
			state, codes := show["session"].(map[string]any)["state"], violationCodes(show)
			names, _ = loggedEvents(t, logPath)
			t.Logf("resumed: exit %d in %s; events %v; state %v, violations %q", res.ExitCode, res.Elapsed, names, state, codes)
			if c.honest {
				if state != "COMPLETE" || codes != "" {
					t.Errorf("state %v, violations %q; want COMPLETE, none", state, codes)
				}
				return
			}
			if !strings.Contains(codes, "END_PROTOCOL_SKIPPED") {
				for _, e := range show["events"].([]any) {
					if tok, _ := e.(map[string]any)["token"].(string); strings.HasPrefix(tok, "agent:") {
						t.Logf("event %.200v", e)
					}
				}
				t.Errorf("state %v, violations %q; want END_PROTOCOL_SKIPPED (the killed turn's work was never judged)", state, codes)
			}
		})
	}
}
