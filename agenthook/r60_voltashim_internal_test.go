package agenthook

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// TestR60NativeShimChains: nestedAgent skips Volta's native shim (a
// process named claude whose executable is volta-shim, right above the
// node that runs Claude Code's cli.js), and only that: an agent above the
// shim still makes the CLI nested, and a process named claude with
// another executable above the node is a second agent.
func TestR60NativeShimChains(t *testing.T) {
	cli := proc(10, 5, "node", "node /home/u/.volta/tools/image/packages/@anthropic-ai/claude-code/lib/node_modules/@anthropic-ai/claude-code/cli.js")
	shim := proc(9, 5, "claude", "claude --resume")
	shim.Exe = "/home/u/.volta/bin/volta-shim"
	native := proc(9, 5, "claude", "claude")
	native.Exe = "/home/u/.local/share/claude/versions/2.1.0"
	term := proc(5, 5, "bash", "-bash")
	tool := proc(8, 8, "bash", "/bin/bash -c claude -p hi")
	outer := proc(7, 7, "claude", "claude")
	codexShim := proc(9, 5, "codex", "codex")
	codexShim.Exe = shim.Exe
	upgraded := shim
	upgraded.Exe = shim.Exe + " (deleted)" // Volta upgraded under a running shim
	for _, c := range []struct {
		name   string
		chain  []ancestry.Process
		nested bool
	}{
		{"Volta's shim under a terminal", []ancestry.Process{cli, shim, term}, false},
		{"Volta's shim from an agent's shell", []ancestry.Process{cli, shim, tool, outer}, true},
		{"Volta's shim exec'd by an agent's tool call", []ancestry.Process{cli, shim, outer}, true},
		{"a native CLI right above: an exec'd nested node", []ancestry.Process{cli, native, term}, true},
		{"a shim named as another CLI", []ancestry.Process{cli, codexShim, term}, true},
		{"Volta's shim replaced on disk while it runs", []ancestry.Process{cli, upgraded, term}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, got := nestedAgent(c.chain); got != c.nested {
				t.Errorf("nested %v, want %v", got, c.nested)
			}
		})
	}
}
