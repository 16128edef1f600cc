package agenttest_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// killOwnCLI is a shell line that kills, with SIGKILL, the nearest
// ancestor process named name: an agent CLI killed outright from inside
// (no Stop, no SessionEnd), as a sub-agent or a crash would end it.
func killOwnCLI(name string) string {
	return `python3 -c "
import os
pid = os.getppid()
while pid > 1:
    st = open('/proc/%d/stat' % pid).read()
    comm = st[st.index('(')+1:st.rindex(')')]
    if comm == '` + name + `':
        os.kill(pid, 9)
        break
    pid = int(st[st.rindex(')')+2:].split()[1])
"`
}

// TestCodexKilledThenResumed (round 28, c3), with the real Codex CLI: the
// CLI is killed with SIGKILL in a turn that did work (no Stop, no
// SessionEnd), then resumed (`codex exec resume --last`). Lazy: the
// resumed agent only says "done": before, its prompt marked a new turn and
// the idle stop passed (WORKING, no violation); now the killed turn goes
// on: blocked, then END_PROTOCOL_SKIPPED. Honest twin: the resumed agent
// runs the tests, commits and ends the session: COMPLETE, clean.
func TestCodexKilledThenResumed(t *testing.T) {
	for _, honest := range []bool{false, true} {
		name := "lazy: resumed, idle"
		if honest {
			name = "honest: resumed, finishes the work"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := installedRepo(t, "agent_hooks:\n  timeout: 9s\n", "--agent", "codex")
			steps := []agenttest.Step{
				agenttest.ToolStep("exec_command", map[string]any{"cmd": "git status"}),
				agenttest.ToolStep("exec_command", map[string]any{"cmd": "sessiongate session advance --to WORKING"}),
				agenttest.ToolStep("exec_command", map[string]any{"cmd": "echo hello > hello.txt"}),
				agenttest.ToolStep("exec_command", map[string]any{"cmd": killOwnCLI("codex")}),
			}
			if honest {
				steps = append(steps,
					agenttest.ToolStep("exec_command", map[string]any{"cmd": "sh test.sh"}),
					agenttest.ToolStep("exec_command", map[string]any{"cmd": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
					agenttest.ToolStep("exec_command", map[string]any{"cmd": "sessiongate session end --summary 'added hello.txt'"}),
					agenttest.TextStep("done"))
			} else {
				for range 5 {
					steps = append(steps, agenttest.TextStep("done"))
				}
			}
			stub := agenttest.StartResponsesStub(t, steps...)
			home := t.TempDir()
			res := agenttest.RunCodexIn(t, r.dir, home, "work", stub, r.env, 0)
			t.Logf("first run: exit %d, %d steps", res.ExitCode, len(stub.Scripted(t)))
			res = agenttest.RunCodexIn(t, r.dir, home, "go on", stub, r.env, 0, "resume", "--last")
			show := r.onlySession()
			state, codes := show["session"].(map[string]any)["state"], violationCodes(show)
			var toks []string
			for _, e := range show["events"].([]any) {
				if tok, _ := e.(map[string]any)["token"].(string); strings.HasPrefix(tok, "agent:codex:") {
					toks = append(toks, tok)
				}
			}
			t.Logf("resumed: exit %d, %d steps; state %v, violations %q; events %v", res.ExitCode, len(stub.Scripted(t)), state, codes, toks)
			if honest && (state != "COMPLETE" || codes != "") {
				t.Errorf("state %v, violations %q; want COMPLETE, none", state, codes)
			}
			if !honest && !strings.Contains(codes, "END_PROTOCOL_SKIPPED") {
				t.Errorf("state %v, violations %q; want END_PROTOCOL_SKIPPED (the killed turn's work was never judged)", state, codes)
			}
		})
	}
}
