package agenttest_test

import (
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// What one real Claude Code run costs: the same four turns (git status,
// sessiongate session advance, reading a file, the end) without agent
// hooks and with sessiongate's (each tool call then spawns sessiongate
// twice; start, prompt, stop and end once each). Nothing is changed, so
// the stop is not blocked and both runs make the same requests.
//
//	go test ./internal/agenttest -run '^$' -bench ClaudeRun -benchtime 5x
func BenchmarkClaudeRun(b *testing.B) {
	for _, c := range []struct {
		name    string
		install []string
	}{
		{"no-agent-hooks", []string{"--hooks", "pre-commit"}},
		{"sessiongate-agent-hooks", []string{"--agent", "claude"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			requireAgentHook(b)
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				r := installedRepo(b, "", c.install...)
				if c.name == "no-agent-hooks" {
					// The hooks start one otherwise.
					if out, code := r.sg("session", "start", "--objective", "bench"); code != 0 {
						b.Fatalf("session start: %s", out)
					}
				}
				srv := agenttest.NewClaudeServer(b,
					agenttest.Use("Bash", map[string]any{"command": "git status"}),
					agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
					agenttest.Use("Read", map[string]any{"file_path": filepath.Join(r.dir, "test.sh")}),
					agenttest.Say("done"),
				)
				b.StartTimer()
				res := agenttest.RunClaude(b, r.dir, "add hello.txt", agenttest.ClaudeOptions{
					Server: srv, AllowedTools: []string{"Read", "Bash"}, Env: r.env,
				})
				b.StopTimer()
				if res.ExitCode != 0 || srv.Used() != 4 || res.Result != "done" {
					b.Fatalf("run: exit %d, %d of 4 turns, result %q\n%s", res.ExitCode, srv.Used(), res.Result, res.Stderr)
				}
			}
		})
	}
}
