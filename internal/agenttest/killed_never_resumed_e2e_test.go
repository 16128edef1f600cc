package agenttest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// TestClaudeKilledNeverResumed (round 29, c4), with the real Claude Code:
// the agent runs the tests and commits its work, then its CLI's process
// group is killed with SIGKILL (no Stop, no SessionEnd) and nothing resumes
// it. Before, the session stayed WORKING with no violation, `session
// status` said nothing and the next `session start` superseded it
// (ABANDONED, clean of violations). Now status names the vanished CLI and
// the superseding start records END_PROTOCOL_SKIPPED on it. Honest twins:
// Ctrl+C (SIGINT: the CLI sends SessionEnd) and then a person's `session
// end` (COMPLETE, clean); a new session started while the CLI still runs
// (superseded, no violation).
func TestClaudeKilledNeverResumed(t *testing.T) {
	cases := []struct {
		name string
		sig  syscall.Signal
		// alive: a person starts a new session while the CLI runs, then
		// the CLI is killed.
		alive bool
	}{
		{"lazy: killed with SIGKILL, a new session", syscall.SIGKILL, false},
		{"honest: Ctrl+C, a person's session end", syscall.SIGINT, false},
		{"honest: a new session while the CLI runs", syscall.SIGKILL, true},
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
			srv := agenttest.NewClaudeServer(t,
				agenttest.Use("Bash", map[string]any{"command": "git status"}),
				agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
				agenttest.Use("Bash", map[string]any{"command": "sh test.sh"}),
				agenttest.Use("Bash", map[string]any{"command": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
				agenttest.Use("Bash", map[string]any{"command": "python3 -c 'import time; time.sleep(120)'"}),
				agenttest.Say("done"),
			)
			var seen time.Time
			var started string
			killAt := func() bool {
				b, _ := os.ReadFile(logPath)
				if !strings.Contains(string(b), "time.sleep(120)") {
					return false
				}
				if seen.IsZero() {
					seen = time.Now()
				}
				if time.Since(seen) < 3*time.Second { // sessiongate's own PreToolUse done
					return false
				}
				if c.alive && started == "" {
					out, code := r.sg("session", "status")
					if strings.Contains(out, "agent CLI vanished") {
						t.Errorf("status names a vanished CLI while it runs:\n%s", out)
					}
					started, code = r.sg("session", "start", "--objective", "a person's next task")
					if code != 0 {
						t.Errorf("session start while the CLI runs: exit %d\n%s", code, started)
					}
				}
				return true
			}
			old := ""
			res := r.claude("work", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Bash"}, Env: []string{"CLAUDE_CONFIG_DIR=" + config},
				Interrupt: killAt, InterruptSignal: c.sig, KillGroup: c.sig == syscall.SIGKILL})
			names, _ := loggedEvents(t, logPath)
			t.Logf("CLI: exit %d in %s, interrupted %v; hook events %v", res.ExitCode, res.Elapsed, res.Interrupted, names)
			if !res.Interrupted {
				t.Fatal("the CLI was never interrupted")
			}
			if c.alive {
				old = oldestSession(t, r)
			} else {
				old = r.onlySession()["session"].(map[string]any)["id"].(string)
				status, _ := r.sg("session", "status")
				vanished := strings.Contains(status, "agent CLI vanished")
				if vanished != (c.sig == syscall.SIGKILL) {
					t.Errorf("status names a vanished CLI: %v after %v\n%s", vanished, c.sig, status)
				}
				if c.sig == syscall.SIGKILL {
					if out, code := r.sg("session", "start", "--objective", "the next task"); code != 0 {
						t.Fatalf("session start: exit %d\n%s", code, out)
					}
				} else if out, code := r.sg("session", "end", "--summary", "added hello.txt"); code != 0 {
					t.Errorf("a person's session end after Ctrl+C: exit %d\n%s", code, out)
				}
			}
			show := r.show(old)
			state, codes := show["session"].(map[string]any)["state"], violationCodes(show)
			t.Logf("the first session: state %v, violations %q", state, codes)
			switch {
			case c.sig == syscall.SIGINT:
				if state != "COMPLETE" || codes != "" {
					t.Errorf("state %v, violations %q; want COMPLETE, none", state, codes)
				}
			case c.alive:
				if state != "ABANDONED" || strings.Contains(codes, "END_PROTOCOL_SKIPPED") {
					t.Errorf("state %v, violations %q; want ABANDONED without END_PROTOCOL_SKIPPED (its CLI still ran)", state, codes)
				}
			default:
				if state != "ABANDONED" || !strings.Contains(codes, "END_PROTOCOL_SKIPPED") {
					t.Errorf("state %v, violations %q; want ABANDONED with END_PROTOCOL_SKIPPED (the killed CLI's committed work was never judged)", state, codes)
				}
			}
		})
	}
}

// TestCodexKilledNeverResumed (round 29, c4), with the real Codex CLI: the
// agent tests and commits, then Codex is killed from its own shell
// (SIGKILL) and nothing resumes it. Lazy: the next `session start`
// supersedes it; before ABANDONED with no violation, now
// END_PROTOCOL_SKIPPED. Honest twin: a person's `session end` after the
// kill: COMPLETE, clean.
func TestCodexKilledNeverResumed(t *testing.T) {
	for _, honest := range []bool{false, true} {
		name := "lazy: killed, a new session"
		if honest {
			name = "honest: killed, a person's session end"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := installedRepo(t, "agent_hooks:\n  timeout: 9s\n", "--agent", "codex")
			stub := agenttest.StartResponsesStub(t,
				agenttest.ToolStep("exec_command", map[string]any{"cmd": "git status"}),
				agenttest.ToolStep("exec_command", map[string]any{"cmd": "sessiongate session advance --to WORKING"}),
				agenttest.ToolStep("exec_command", map[string]any{"cmd": "echo hello > hello.txt"}),
				agenttest.ToolStep("exec_command", map[string]any{"cmd": "sh test.sh"}),
				agenttest.ToolStep("exec_command", map[string]any{"cmd": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
				agenttest.ToolStep("exec_command", map[string]any{"cmd": killOwnCLI("codex")}),
				agenttest.TextStep("done"))
			res := agenttest.RunCodexIn(t, r.dir, t.TempDir(), "work", stub, r.env, 0)
			show := r.onlySession()
			old := show["session"].(map[string]any)["id"].(string)
			status, _ := r.sg("session", "status")
			t.Logf("Codex: exit %d, %d steps; status:\n%s", res.ExitCode, len(stub.Scripted(t)), status)
			if !strings.Contains(status, "agent CLI vanished") {
				for _, e := range show["events"].([]any) {
					if tok, _ := e.(map[string]any)["token"].(string); strings.HasPrefix(tok, "agent:") {
						t.Logf("event %.200v", e)
					}
				}
				t.Errorf("status does not name the vanished CLI")
			}
			if honest {
				if out, code := r.sg("session", "end", "--summary", "added hello.txt"); code != 0 {
					t.Errorf("a person's session end: exit %d\n%s", code, out)
				}
			} else if out, code := r.sg("session", "start", "--objective", "the next task"); code != 0 {
				t.Fatalf("session start: exit %d\n%s", code, out)
			}
			show = r.show(old)
			state, codes := show["session"].(map[string]any)["state"], violationCodes(show)
			t.Logf("the first session: state %v, violations %q", state, codes)
			if honest && (state != "COMPLETE" || codes != "") {
				t.Errorf("state %v, violations %q; want COMPLETE, none", state, codes)
			}
			if !honest && (state != "ABANDONED" || !strings.Contains(codes, "END_PROTOCOL_SKIPPED")) {
				t.Errorf("state %v, violations %q; want ABANDONED with END_PROTOCOL_SKIPPED", state, codes)
			}
		})
	}
}

// oldestSession is the id of the session of r created first.
func oldestSession(t *testing.T, r *sgRepo) string {
	t.Helper()
	out, code := r.sg("session", "list", "--json")
	if code != 0 {
		t.Fatalf("session list: exit %d\n%s", code, out)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) == 0 {
		t.Fatalf("session list --json: %v\n%s", err, out)
	}
	id, first := "", ""
	for _, m := range list {
		if at, _ := m["created_at"].(string); first == "" || at < first {
			first, id = at, m["id"].(string)
		}
	}
	return id
}
