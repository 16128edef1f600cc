package agenthook

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// TestNestedAgent (round 29, c4): a CLI started from an agent's tool call
// is nested; one Codex CLI, its npm launcher (node) above its native
// binary, is not (measured with the real Codex: before, its every prompt
// read as a nested CLI's and its CLI was never kept).
func TestNestedAgent(t *testing.T) {
	codexNative := ancestry.Process{PID: 30, Name: "codex", Args: "/x/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex exec work"}
	codexNode := ancestry.Process{PID: 29, Name: "node", Args: "node /x/node_modules/.bin/codex exec work"}
	claude := ancestry.Process{PID: 20, Name: "claude", Args: "claude -p go"}
	bash := ancestry.Process{PID: 21, Name: "bash", Args: "/bin/bash -c -l eval"}
	sh := ancestry.Process{PID: 40, Name: "sh", Args: "sh -c sessiongate agent-hook"}
	cases := []struct {
		name  string
		chain []ancestry.Process
		want  bool
	}{
		{"honest: Codex, its launcher above it", []ancestry.Process{sh, codexNative, codexNode}, false},
		{"honest: Claude Code alone", []ancestry.Process{sh, claude}, false},
		{"lazy: claude -p from Claude Code's shell", []ancestry.Process{sh, {PID: 50, Name: "claude", Args: "claude -p --continue x"}, bash, claude}, true},
		{"lazy: exec claude from Claude Code's shell", []ancestry.Process{sh, {PID: 50, Name: "claude", Args: "claude -p --continue x"}, claude}, true},
		{"lazy: Codex from Claude Code's shell", []ancestry.Process{sh, codexNative, codexNode, bash, claude}, true},
		{"lazy: claude from Codex's shell", []ancestry.Process{sh, claude, bash, codexNative, codexNode}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, got := nestedAgent(c.chain); got != c.want {
				t.Errorf("nested %v, want %v", got, c.want)
			}
		})
	}
}
