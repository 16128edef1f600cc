//go:build unix

// The rows start and kill stand-in agent CLIs by process group (Setpgid,
// kill(-pgid)), which Windows lacks.
package agenthook_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/session"
)

// TestClaudeVanishedCLINeverResumed (round 29, c4): an agent CLI killed
// (SIGKILL: no Stop, no SessionEnd) after its session's work was committed,
// and never resumed. Before, nothing judged it: `session status` said
// nothing, and the next `session start` in the worktree superseded it
// (ABANDONED) with no violation. Now status names the vanished CLI and the
// superseding start (or the idle timeout) records END_PROTOCOL_SKIPPED.
// Each "cli" step runs its hook calls under one process named claude that
// exits after them (the CLI gone); a SessionEnd counts only for the CLI
// that sent it and only when none of that agent's calls or stops follows
// it: one fed from inside a tool call (a renamed hook binary, a program
// named claude on PATH) no longer hides the kill. Honest twins: Ctrl+C
// (SessionEnd from the CLI) then a new session; a person's `session end`
// after the kill; a kill with nothing committed; a CLI still alive.
func TestClaudeVanishedCLINeverResumed(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the tests run under an agent CLI (%s): every hook here is that CLI's", p.Name)
	}
	bin := t.TempDir()
	fake := filepath.Join(bin, "claude")
	writeFakeClaudeLines(t, fake) // one CLI process; its hooks' input on a socket it made, as Claude Code's
	const sid = "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0429"
	// Hook calls a CLI step makes: p prompt, b a Bash call judged, r its
	// report, c another Bash call judged, e SessionEnd.
	type step struct {
		cli    string // hook calls under one claude process, in order
		commit bool   // notes.md committed (outside the hooks)
		dirty  bool   // notes.md written, not committed
		other  string // SessionEnd from another process named claude
		nested string // hook calls of a CLI started inside the step's cli (`claude -p --continue` from the agent's shell)
		then   string // "start", "expire", "sgend", "resume" (a fresh CLI's prompt and four idle stops), "alive"
	}
	cases := []struct {
		name       string
		steps      []step
		wantStatus bool // status names a vanished CLI before the last step
		want       []string
	}{
		{"lazy: work committed, killed, a new session", []step{{cli: "p"}, {commit: true}, {then: "start"}}, true, []string{session.CodeEndProtocolSkipped}},
		{"lazy: work committed, killed, the session expires", []step{{cli: "p"}, {commit: true}, {then: "expire"}}, true, []string{session.CodeEndProtocolSkipped}},
		{"lazy: a SessionEnd fed from inside a call, killed, a new session", []step{{cli: "p"}, {commit: true}, {cli: "ber"}, {then: "start"}}, true, []string{session.CodeEndProtocolSkipped}},
		{"lazy: a SessionEnd fed from inside a call, killed, resumed, idle stops", []step{{cli: "p"}, {commit: true}, {cli: "ber"}, {then: "resume"}}, true, []string{session.CodeEndProtocolSkipped}},
		{"lazy: a SessionEnd from another process named claude, killed, a new session", []step{{cli: "p"}, {commit: true}, {other: "e"}, {then: "start"}}, true, []string{session.CodeEndProtocolSkipped}},
		{"lazy: a nested CLI's prompt and SessionEnd, the outer CLI killed, a new session", []step{{commit: true}, {cli: "p", nested: "pe"}, {then: "start"}}, true, []string{session.CodeEndProtocolSkipped}},
		{"honest: Ctrl+C (SessionEnd), a new session", []step{{commit: true}, {cli: "pbre"}, {then: "start"}}, false, nil},
		{"honest: Ctrl+C inside a shell call, a person's session end", []step{{commit: true}, {cli: "pbe"}, {then: "sgend"}}, false, nil},
		{"lazy: post hooks dropped, two calls unreported, SessionEnd, a person's session end", []step{{commit: true}, {cli: "pcbe"}, {then: "sgend"}}, false, []string{session.CodeToolResultMissing}},
		{"honest: killed inside a shell call, a person's session end", []step{{commit: true}, {cli: "pb"}, {then: "sgend"}}, true, nil},
		{"lazy: post hooks dropped, two calls unreported, killed, a person's session end", []step{{commit: true}, {cli: "pcb"}, {then: "sgend"}}, true, []string{session.CodeToolResultMissing}},
		{"honest: killed, a person's session end", []step{{cli: "p"}, {commit: true}, {then: "sgend"}}, true, nil},
		{"honest: killed with nothing committed, a new session", []step{{cli: "p"}, {dirty: true}, {then: "start"}}, true, nil},
		{"honest: the CLI still runs, a new session", []step{{commit: true}, {then: "alive"}}, false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			dir := t.TempDir()
			n := 0
			// script writes the hook calls of one CLI step as a shell script.
			script := func(calls string, tail string) string {
				var b strings.Builder
				b.WriteString("set -e\ncd '" + r.root + "'\n")
				for _, k := range calls {
					var ev string
					var p map[string]any
					switch k {
					case 'p':
						ev, p = "UserPromptSubmit", with(golden(t, r, "claude", "UserPromptSubmit", sid), "prompt", "go on")
					case 'b':
						ev, p = "PreToolUse", with(golden(t, r, "claude", "PreToolUse-Bash", sid), "tool_use_id", "toolu_forge")
					case 'c':
						ev, p = "PreToolUse", with(golden(t, r, "claude", "PreToolUse-Bash", sid), "tool_use_id", "toolu_other")
					case 'r':
						ev, p = "PostToolUse", with(golden(t, r, "claude", "PostToolUse-Bash", sid), "tool_use_id", "toolu_forge")
					case 'e':
						ev, p = "SessionEnd", golden(t, r, "claude", "SessionEnd", sid)
					}
					n++
					f := filepath.Join(dir, fmt.Sprintf("%d.json", n))
					bs, _ := json.Marshal(p)
					writeFile(t, f, string(bs))
					fmt.Fprintf(&b, "'%s' agent-hook claude %s < '%s' > /dev/null\n", binary, ev, f)
				}
				b.WriteString(tail)
				f := filepath.Join(dir, fmt.Sprintf("cli%d.sh", n))
				writeFile(t, f, b.String())
				return f
			}
			for _, st := range c.steps {
				switch {
				case st.cli != "":
					tail := ""
					if st.nested != "" {
						tail = "'" + fake + "' '" + script(st.nested, "") + "'\n"
					}
					if res := r.run(r.root, nil, nil, fake, script(st.cli, tail)); res.code != 0 {
						t.Fatalf("cli %s: exit %d\n%s%s", st.cli, res.code, res.out, res.err)
					}
				case st.commit:
					writeFile(t, filepath.Join(r.root, "notes.md"), "x\n")
					r.git("add", "notes.md")
					r.git("-c", "core.hooksPath=/dev/null", "commit", "-qm", "notes")
				case st.dirty:
					writeFile(t, filepath.Join(r.root, "notes.md"), "x\n")
				case st.other != "":
					if res := r.run(r.root, nil, nil, fake, script(st.other, "")); res.code != 0 {
						t.Fatalf("other %s: exit %d\n%s%s", st.other, res.code, res.out, res.err)
					}
				}
				if st.then == "" {
					continue
				}
				var alive *exec.Cmd
				if st.then == "alive" {
					ready := filepath.Join(dir, "ready")
					alive = exec.Command(fake, script("p", "touch '"+ready+"'\nsleep 60\n"))
					alive.Dir, alive.Env = r.root, r.env
					alive.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
					if err := alive.Start(); err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { _ = syscall.Kill(-alive.Process.Pid, syscall.SIGKILL); _ = alive.Wait() })
					for i := 0; ; i++ {
						if _, err := os.Stat(ready); err == nil {
							break
						}
						if i > 600 {
							t.Fatal("the live CLI's prompt never ran")
						}
						time.Sleep(50 * time.Millisecond)
					}
				}
				status := r.sg("session", "status", "--session", s.ID)
				if got := strings.Contains(status, "agent CLI vanished"); got != c.wantStatus {
					t.Errorf("status names a vanished CLI: %v, want %v\n%s", got, c.wantStatus, status)
				}
				switch st.then {
				case "start", "alive":
					r.sg("session", "start", "--objective", "next")
				case "expire":
					db := r.db()
					cur, err := db.GetSession(t.Context(), s.ID)
					if err != nil {
						t.Fatal(err)
					}
					cur.ExpiresAt = time.Now().Add(-time.Minute)
					if err := db.Update(t.Context(), func(w session.Writer) error { return w.UpdateSession(t.Context(), cur) }); err != nil {
						t.Fatal(err)
					}
					if res := r.run(r.root, nil, nil, binary, "session", "advance", "--session", s.ID, "--to", "ENDING"); res.code == 0 {
						t.Fatalf("advance on an expired session: exit 0\n%s", res.out)
					}
				case "sgend":
					r.run(r.root, nil, nil, binary, "session", "end", "--session", s.ID, "--summary", "wrote the notes")
				case "resume":
					const sid2 = "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0430"
					viaCLI := func(event string, p map[string]any) {
						b, _ := json.Marshal(p)
						if res := r.run(r.root, b, nil, fake, "-c", "'"+binary+"' agent-hook claude "+event); res.code != 0 {
							t.Fatalf("hook %s: exit %d\n%s%s", event, res.code, res.out, res.err)
						}
					}
					viaCLI("SessionStart", golden(t, r, "claude", "SessionStart", sid2))
					viaCLI("UserPromptSubmit", with(golden(t, r, "claude", "UserPromptSubmit", sid2), "prompt", "go on"))
					r.hook("claude", "Stop", golden(t, r, "claude", "Stop", sid2))
					for range 3 {
						r.hook("claude", "Stop", with(golden(t, r, "claude", "Stop", sid2), "stop_hook_active", true))
					}
				}
			}
			got := slices.DeleteFunc(codesOf(t, r, s.ID), func(c string) bool {
				return c != session.CodeEndProtocolSkipped && c != session.CodeToolResultMissing
			})
			got = slices.Compact(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v", got, c.want)
			}
		})
	}
}
