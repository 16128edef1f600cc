package agenthook

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/hooks"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// BenchmarkPreToolProtectChecks times the five protect checks a shell
// pre-tool call runs before the engine (transcript, agent config, self
// binary, the git hooks' binary, git directory) on one event, as
// runner.go runs them, for a plain line and a longer one with
// redirections and a pipe, with sessiongate's git hooks installed. It
// isolates the part BenchmarkAgentHook's PreToolUse-Bash spends on the
// line itself.
//
//	go test ./agenthook -run '^$' -bench PreToolProtectChecks -count 5
func BenchmarkPreToolProtectChecks(b *testing.B) {
	gittest.Require(b)
	root := gittest.Init(b)
	repo, err := gitrepo.Open(context.Background(), root)
	if err != nil {
		b.Fatal(err)
	}
	// The hooks' binary is read from pre-commit's sg= line on every
	// call that writes.
	if _, err := hooks.Install(context.Background(), hooks.Options{Dir: root, Binary: "/opt/sessiongate/sessiongate", Hooks: []string{"pre-commit"}}); err != nil {
		b.Fatal(err)
	}
	env := map[string]string{"HOME": b.TempDir(), "PATH": "/usr/local/bin:/usr/bin:/bin"}
	getenv := func(k string) string { return env[k] }
	for _, c := range []struct{ name, line string }{
		{"plain", "sh test.sh"},
		{"long", "cd sub && go test -count=1 ./... 2>&1 | tee /tmp/out.txt && echo done > status.txt; cp a.txt b.txt"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				ev := &Event{Agent: "claude", Tool: session.ToolCall{Name: "Bash", Kind: session.ToolShell, Command: c.line, Dir: root}}
				if transcriptWrite(ev, root, getenv) != "" || agentConfigWrite(ev, root, getenv) != "" ||
					selfBinaryWrite(ev, root, getenv) != "" || gitHookBinaryWrite(context.Background(), ev, root, repo, getenv) != "" || gitDirWrite(ev, root, repo) != "" {
					b.Fatal("an honest line denied")
				}
			}
		})
	}
}

// BenchmarkPreToolShimChecks times the two checks round 14 added to the
// shell pre-tool path (shell startup files; PATH, BASH_ENV and
// definitions of git or sessiongate), on the lines of
// BenchmarkPreToolProtectChecks and one that sets PATH for git.
//
//	go test ./agenthook -run '^$' -bench PreToolShimChecks -count 5
func BenchmarkPreToolShimChecks(b *testing.B) {
	root := b.TempDir()
	env := map[string]string{"HOME": b.TempDir(), "PATH": "/usr/local/bin:/usr/bin:/bin"}
	getenv := func(k string) string { return env[k] }
	for _, c := range []struct{ name, line string }{
		{"plain", "sh test.sh"},
		{"long", "cd sub && go test -count=1 ./... 2>&1 | tee /tmp/out.txt && echo done > status.txt; cp a.txt b.txt"},
		{"path", "PATH=/usr/bin:$PATH git commit -m 'feat: x'"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				ev := &Event{Agent: "claude", Tool: session.ToolCall{Name: "Bash", Kind: session.ToolShell, Command: c.line, Dir: root}}
				if startupFileWrite(ev, root, getenv) != "" || gitRunsShim(c.line, root, getenv, false) != "" {
					b.Fatal("an honest line denied")
				}
			}
		})
	}
}
