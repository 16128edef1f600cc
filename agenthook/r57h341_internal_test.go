package agenthook

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// TestR57H341ExecedThroughSh: a Copilot (or Gemini) tool call's process
// that exec'd `sh -c 'SG agent-hook copilot postToolUse'` (python3 execs
// sh, dash forks the hook) leaves the hook inside the session sh leads:
// the hook itself does not lead it, so 340's rule, which read only the
// hook's own session, let the made-up pair through. The session is the
// outermost wrapper's; Claude Code's own sh -c leads its session, and its
// shape (read from the same process) says so, so it is not held to it.
func TestR57H341ExecedThroughSh(t *testing.T) {
	copilot := proc(3602, 12639, "MainThread", "/x/node_modules/@github/copilot-linux-x64/copilot -p add hello.txt --allow-all-tools")
	copilotNode := proc(3569, 12639, "node", "node /x/node_modules/.bin/copilot -p add hello.txt --allow-all-tools")
	forgedSh := proc(4400, 4400, "sh", "sh -c /x/sessiongate agent-hook copilot postToolUse")
	honestSh := proc(4390, 12639, "sh", "sh -c /x/sessiongate agent-hook copilot postToolUse")
	hook := func(pid, sid int) ancestry.Process {
		return proc(pid, sid, "sessiongate", "/x/sessiongate agent-hook copilot postToolUse")
	}
	if _, ok := execedToolCall(hook(4401, 4400), []ancestry.Process{forgedSh, copilot, copilotNode}); !ok {
		t.Error("lazy: the hook under an exec'd sh -c that leads its session under Copilot: no verdict")
	}
	if _, ok := execedToolCall(hook(4391, 12639), []ancestry.Process{honestSh, copilot, copilotNode}); ok {
		t.Error("honest: a hook under sh -c in Copilot's own session read as a tool call")
	}
	// The shape is read from the same outermost process: Claude Code's sh
	// -c leads its session, so its shape lacks hook-not-leader.
	claude := proc(9314, 12639, "claude", "/x/node_modules/.bin/claude -p add hello.txt")
	claudeSh := proc(9535, 9535, "sh", "/bin/sh -c /x/sessiongate agent-hook claude UserPromptSubmit")
	r := &Runner{Self: func() ancestry.Process { return hook(9538, 9535) }, StdinPeer: func() int { return 9314 }, Ancestors: func() []ancestry.Process { return nil }}
	if got := r.cliShape(claude, []ancestry.Process{claudeSh, claude}); got != shapeStdinSocket {
		t.Errorf("Claude Code's shape = %q, want %q", got, shapeStdinSocket)
	}
	r = &Runner{Self: func() ancestry.Process { return hook(4391, 12639) }, StdinPeer: func() int { return 0 }, Ancestors: func() []ancestry.Process { return nil }}
	if got := r.cliShape(copilot, []ancestry.Process{honestSh, copilot}); got != shapeNotLeader {
		t.Errorf("Copilot's shape = %q, want %q", got, shapeNotLeader)
	}
}

// TestR57H341OwnBinaryWrapper: install's machine-local config calls the
// binary it ran from by absolute path, whatever it is named
// (`'/home/u/bin/sg' agent-hook claude PreToolUse`), and Claude Code runs
// it through sh -c, which dash forks: that sh is the CLI's hook wrapper,
// not a tool call's process. Before, every such hook was refused
// (HOOK_NOT_FROM_CLI; SessionStart silently answered nothing). Another
// program spelled there still stands between.
func TestR57H341OwnBinaryWrapper(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "sg")
	if err := os.WriteFile(own, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "sg-link")
	if err := os.Symlink(own, link); err != nil {
		t.Fatal(err)
	}
	saved := ownBinary
	ownBinary = func() string { return own }
	defer func() { ownBinary = saved }()
	claude := ancestry.Process{PID: 10, Name: "claude", Args: "/x/node_modules/.bin/claude -p x", Start: 10}
	sh := func(script string) ancestry.Process {
		return ancestry.Process{PID: 50, Name: "sh", Args: "/bin/sh -c " + script, Start: 50}
	}
	for _, c := range []struct {
		script string
		want   bool // refused
	}{
		{own + " agent-hook claude PreToolUse", false},
		{"'" + own + "' agent-hook claude PreToolUse", false},
		{link + " agent-hook claude PreToolUse", false},
		{"/usr/bin/python3 agent-hook claude PreToolUse", true},
		{"sg agent-hook claude PreToolUse", true},
		{filepath.Join(dir, "other") + " agent-hook claude PreToolUse", true},
	} {
		if _, got := fromToolCall([]ancestry.Process{sh(c.script), claude}); got != c.want {
			t.Errorf("fromToolCall(sh -c %s) = %v, want %v", c.script, got, c.want)
		}
	}
}

// TestR57H341ProcessNamedLikeACLI (open in round 57, closed in 58): the
// nearest process named like an agent CLI is taken for a nested CLI
// running its own hooks, so no rule looks further. From the agent's
// bash call, python3 forge.py renames itself (prctl PR_SET_NAME "claude":
// comm is what AgentName reads first; or `cp /bin/sh /tmp/claude`, or
// exec -a claude) and runs the hook with a made-up pair on a socketpair it
// made: nothing stands between, it does not lead a session, and its stdin
// socket's maker is the "CLI". 340's F5 needed a second real CLI; this
// needs none.
func TestR57H341ProcessNamedLikeACLI(t *testing.T) {
	claude := proc(9314, 12639, "claude", "/x/node_modules/.bin/claude -p add hello.txt")
	toolBash := proc(9590, 9590, "bash", "/bin/bash -c -l source snap && eval 'python3 forge.py'")
	renamed := proc(9600, 9590, "claude", "/usr/bin/python3 forge.py")
	chain := []ancestry.Process{renamed, toolBash, claude}
	// Round 58: names can be forged, so the rule does not ask whether the
	// "CLI" is real: no CLI under the agent's shell witnesses a run
	// (nestedWitness; the runner keeps its run with status -1,
	// TestR58NestedCLINoWitness).
	if nestedWitness(chain) == "" {
		t.Error("a python3 renamed claude under the agent's bash is a witness of its made-up pair")
	}
	if why := nestedWitness([]ancestry.Process{claude}); why != "" {
		t.Errorf("the CLI's own hook is no witness: %s", why)
	}
}

// TestR57H341ShellPrefix: Claude Code runs its hooks through the user's
// CLAUDE_CODE_SHELL_PREFIX (measured, TestR57H341ClaudeShellPrefixHonest):
// `/bin/sh -c PREFIX 'HOOK'` runs `/bin/bash PREFIX HOOK`, which runs the
// hook. Both are the CLI's hook wrappers; the prefix running anything else,
// or a process of the tool call, still stands between.
func TestR57H341ShellPrefix(t *testing.T) {
	saved := shellPrefix
	shellPrefix = func() string { return "/home/u/audit.sh" }
	defer func() { shellPrefix = saved }()
	claude := proc(10, 0, "claude", "/x/node_modules/.bin/claude -p x")
	sh := proc(11, 0, "sh", "/bin/sh -c /home/u/audit.sh 'sessiongate agent-hook claude PostToolUse'")
	prefix := proc(12, 0, "audit.sh", "/bin/bash /home/u/audit.sh sessiongate agent-hook claude PostToolUse")
	toolBash := proc(13, 0, "bash", "/bin/bash -c -l source snap && eval 'python3 forge.py'")
	py := proc(14, 0, "python3", "/usr/bin/python3 forge.py")
	cases := []struct {
		name  string
		chain []ancestry.Process
		want  bool
	}{
		{"measured: the prefix under sh -c under claude", []ancestry.Process{prefix, sh, claude}, false},
		{"the prefix run directly", []ancestry.Process{proc(15, 0, "audit", "/home/u/audit.sh sessiongate agent-hook claude PostToolUse"), claude}, false},
		{"lazy: the prefix running python3", []ancestry.Process{proc(16, 0, "audit.sh", "/bin/bash /home/u/audit.sh python3 forge.py"), sh, claude}, true},
		{"lazy: python3 under the tool's shell under the prefix", []ancestry.Process{py, toolBash, prefix, sh, claude}, true},
		{"lazy: another script in the prefix's place", []ancestry.Process{proc(17, 0, "bash", "/bin/bash /tmp/other.sh sessiongate agent-hook claude PostToolUse"), claude}, true},
	}
	for _, c := range cases {
		if _, got := fromToolCall(c.chain); got != c.want {
			t.Errorf("%s: fromToolCall = %v, want %v", c.name, got, c.want)
		}
	}
	shellPrefix = func() string { return "" }
	if _, got := fromToolCall([]ancestry.Process{prefix, sh, claude}); !got {
		t.Error("no prefix set: the wrapper script read as the CLI's")
	}
}
