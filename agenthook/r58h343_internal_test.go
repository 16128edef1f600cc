package agenthook

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// TestR58H343WrapperScriptChains: nestedAgent skips a shell script named
// as the CLI right above it (a person's wrapper, a shim), and only that:
// an agent above it still makes the CLI nested.
func TestR58H343WrapperScriptChains(t *testing.T) {
	cli := proc(10, 5, "claude", "/opt/claude/bin/claude --resume")
	wrap := proc(9, 5, "claude", "/bin/sh /home/u/bin/claude --resume")
	term := proc(5, 5, "bash", "-bash")
	tool := proc(8, 8, "bash", "/bin/bash -c claude -p hi")
	outer := proc(7, 7, "claude", "claude")
	codexNative := proc(12, 5, "codex", "/x/vendor/codex/codex exec hi")
	codexJS := proc(11, 5, "node", "node /x/@openai/codex/bin/codex.js exec hi")
	codexShim := proc(10, 5, "codex", "bash /home/u/.asdf/shims/codex exec hi")
	for _, c := range []struct {
		name   string
		chain  []ancestry.Process
		nested bool
	}{
		{"wrapper script under a terminal", []ancestry.Process{cli, wrap, term}, false},
		{"shim above an npm launcher", []ancestry.Process{codexNative, codexJS, codexShim, term}, false},
		{"wrapper script from an agent's shell", []ancestry.Process{cli, wrap, tool, outer}, true},
		{"a -c line is no script", []ancestry.Process{cli, proc(9, 5, "claude", "sh -c claude"), term}, true},
		{"a script named as another CLI", []ancestry.Process{cli, proc(9, 5, "codex", "sh /home/u/bin/codex"), term}, true},
		{"the CLI's own parent, no wrapper", []ancestry.Process{cli, term}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, got := nestedAgent(c.chain); got != c.nested {
				t.Errorf("nested %v, want %v", got, c.nested)
			}
		})
	}
}
