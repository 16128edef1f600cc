package agenthook_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// TestR60VoltaShimNotNested: Volta installs a CLI as a link to its native
// shim (~/.volta/bin/claude -> volta-shim), which runs the tool as a
// child, not by exec (volta-cli/volta#37), so a process named claude sat
// above the node running Claude Code's cli.js, and every honest hook read
// as a nested CLI's, its runs unwitnessed. Volta is not installable here
// (not on npm, no network beyond it): the shim is played by a copy of
// coreutils' timeout named volta-shim (a native binary that runs its
// command as a child and waits), linked as claude; the CLI is python3
// linked as node running a stand-in at .../@anthropic-ai/claude-code/cli.js.
// Lazy twin: the same shim started from an agent's shell is nested.
func TestR60VoltaShimNotNested(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the tests run under an agent CLI (%s): every hook here is nested", p.Name)
	}
	timeoutBin, err := exec.LookPath("timeout")
	if err != nil {
		t.Skip("coreutils' timeout not found (it plays Volta's shim)")
	}
	dir := t.TempDir()
	// The stand-in CLI: python3 (by its real path) linked as node.
	cliJS := filepath.Join(dir, "volta", "tools", "node_modules", "@anthropic-ai", "claude-code", "cli.js")
	if err := os.MkdirAll(filepath.Dir(cliJS), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFakeClaude(t, cliJS)
	b, err := os.ReadFile(cliJS)
	if err != nil {
		t.Fatal(err)
	}
	py, _, _ := strings.Cut(strings.TrimPrefix(string(b), "#!"), "\n")
	node := filepath.Join(dir, "volta", "tools", "node")
	if err := os.Symlink(py, node); err != nil {
		t.Fatal(err)
	}
	shimBin := filepath.Join(dir, "volta", "bin", "volta-shim")
	if err := os.MkdirAll(filepath.Dir(shimBin), 0o755); err != nil {
		t.Fatal(err)
	}
	tb, err := os.ReadFile(timeoutBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shimBin, tb, 0o755); err != nil {
		t.Fatal(err)
	}
	shim := filepath.Join(dir, "volta", "bin", "claude")
	if err := os.Symlink("volta-shim", shim); err != nil {
		t.Fatal(err)
	}
	outer := filepath.Join(dir, "outer", "claude")
	if err := os.MkdirAll(filepath.Dir(outer), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFakeClaude(t, outer)
	for _, c := range []struct {
		name   string
		nested bool
	}{
		{"honest: the CLI under Volta's shim", false},
		{"lazy: the shim started from an agent's shell", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff2360"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			name := shim
			if c.nested {
				name = outer
			}
			playPairUnder(t, r, sid, c.nested, name, func(event string) []string {
				args := []string{"300", node, cliJS, binary, "agent-hook", "claude", event}
				if c.nested {
					args = append([]string{"sh", "-c", `"$0" "$@"; exit $?`, shim}, args...)
				}
				return args
			})
		})
	}
}
