package agenthook

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// TestR57H340ExecedToolCall: the sessions measured with the real CLIs
// (round 57, helper 340). A tool call's process leads a new session; a
// hook of Copilot CLI or Gemini CLI stays in the CLI's session. A hook
// that leads its session directly under one of them is a tool call's
// process that exec'd the hook (`exec python3 forge.py`). Such a hook is
// a candidate; the verdict is its CLI's: only a CLI whose first prompt's
// hook did not lead its session (cliShape) is held to it, so Codex's hooks
// and Claude Code's where sh is bash (both lead their sessions) pass.
func TestR57H340ExecedToolCall(t *testing.T) {
	copilot := proc(3602, 12639, "MainThread", "/x/node_modules/@github/copilot-linux-x64/copilot -p add hello.txt --allow-all-tools")
	copilotNode := proc(3569, 12639, "node", "node /x/node_modules/.bin/copilot -p add hello.txt --allow-all-tools")
	gemini := proc(10038, 12639, "node", "/x/bin/node --max-old-space-size=12052 /x/node_modules/.bin/gemini -p add hello.txt --yolo")
	geminiNode := proc(9912, 12639, "node", "node /x/node_modules/.bin/gemini -p add hello.txt --yolo")
	claude := proc(9314, 12639, "claude", "/x/node_modules/.bin/claude -p add hello.txt")
	hookSh := proc(9535, 9535, "sh", "/bin/sh -c /x/sessiongate agent-hook claude PreToolUse")
	codex := proc(9351, 12639, "codex", "/x/vendor/x86_64-unknown-linux-musl/bin/codex exec work")
	hook := func(pid, sid int) ancestry.Process {
		return proc(pid, sid, "sessiongate", "/x/sessiongate agent-hook x y")
	}
	cases := []struct {
		name  string
		self  ancestry.Process
		chain []ancestry.Process
		want  string // the CLI named, "" none
	}{
		{"measured: Copilot's hook in the CLI's session", hook(4119, 12639), []ancestry.Process{copilot, copilotNode}, ""},
		{"measured: Gemini CLI's hook in the CLI's session", hook(10318, 12639), []ancestry.Process{gemini, geminiNode}, ""},
		{"candidate: measured, Claude Code's sh -c leads its session (its shape lacks hook-not-leader, helper 341)", hook(9538, 9535), []ancestry.Process{hookSh, claude}, "claude"},
		{"candidate: Claude Code's hook when sh (bash) execs the command (its shape lacks hook-not-leader)", hook(9535, 9535), []ancestry.Process{claude}, "claude"},
		{"candidate: measured, Codex's hook leads its session (its shape lacks hook-not-leader)", hook(9733, 9733), []ancestry.Process{codex}, "codex"},
		{"unknown session (not Linux)", ancestry.Process{}, []ancestry.Process{copilot}, ""},
		{"no agent above", hook(70, 70), []ancestry.Process{proc(60, 50, "bash", "-bash")}, ""},
		{"lazy: measured, Copilot's tool shell exec'd the hook", hook(4400, 4400), []ancestry.Process{copilot, copilotNode}, "MainThread"},
		{"lazy: Gemini CLI's tool shell exec'd the hook", hook(10312, 10312), []ancestry.Process{gemini, geminiNode}, "node"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := execedToolCall(c.self, c.chain)
			if ok != (c.want != "") || ok && got.Name != c.want {
				t.Errorf("execedToolCall = %q, %v; want %q", got.Name, ok, c.want)
			}
		})
	}
}

// TestR57H340SessionRead: the hook process's own session is read (Linux):
// without it execedToolCall never has a verdict.
func TestR57H340SessionRead(t *testing.T) {
	if !ancestry.Readable() {
		t.Skip("processes are not read here")
	}
	self := ancestry.Self()
	if self.PID == 0 || self.Session == 0 {
		t.Errorf("ancestry.Self() = %+v: no pid or session read", self)
	}
}

// TestR57H340ClaudeStdinElsewhere: Claude Code hands each hook its input
// on a socket it made (measured: SO_PEERCRED names the claude process); a
// hook whose stdin is a file, a pipe or another process's socket is a
// candidate, refused when its CLI's first prompt's hook read such a
// socket (cliShape stdin-socket): exec'd by a tool call's process with a
// made-up payload (TestR57H340ClaudeExecForgedHook). Copilot's hooks read
// a pipe: its shape never holds stdin-socket.
func TestR57H340ClaudeStdinElsewhere(t *testing.T) {
	claude := proc(9314, 0, "claude", "/x/node_modules/.bin/claude -p add hello.txt")
	hookSh := proc(9535, 0, "sh", "/bin/sh -c /x/sessiongate agent-hook claude PreToolUse")
	nested := proc(9600, 0, "claude", "claude -p --continue x")
	toolBash := proc(9590, 0, "bash", "/bin/bash -c -l source snap && eval 'claude -p --continue x'")
	copilot := proc(3602, 0, "MainThread", "/x/node_modules/@github/copilot-linux-x64/copilot -p x")
	cases := []struct {
		name  string
		chain []ancestry.Process
		peer  int
		want  bool
	}{
		{"measured: Claude Code's socket, through sh -c", []ancestry.Process{hookSh, claude}, 9314, false},
		{"Claude Code's socket, sh exec'd the hook", []ancestry.Process{claude}, 9314, false},
		{"a nested CLI's own hook", []ancestry.Process{hookSh, nested, toolBash, claude}, 9600, false},
		{"not read (not Linux)", []ancestry.Process{claude}, -1, false},
		{"candidate: Copilot's pipe (its shape lacks stdin-socket)", []ancestry.Process{copilot}, 0, true},
		{"no agent above", []ancestry.Process{proc(70, 0, "bash", "-bash")}, 0, false},
		{"lazy: exec'd with a file on stdin", []ancestry.Process{claude}, 0, true},
		{"lazy: exec'd sh -c hook, a file on stdin", []ancestry.Process{hookSh, claude}, 0, true},
		{"lazy: exec'd with its own socketpair", []ancestry.Process{hookSh, claude}, 9535, true},
		{"lazy: the outer CLI's socket under a nested CLI", []ancestry.Process{hookSh, nested, toolBash, claude}, 9314, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, got := stdinElsewhere(c.chain, c.peer); got != c.want {
				t.Errorf("stdinElsewhere = %v, want %v", got, c.want)
			}
		})
	}
}
