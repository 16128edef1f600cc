package agenthook_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// fakeClaudeSocket is a stand-in CLI named claude that runs its arguments
// as Claude Code runs a hook: the child's stdin is a Unix socket this
// process made (socketpair), fed with this process's own stdin. Claude
// Code's hooks get their input so (measured, round 57, helper 340), and a
// hook under claude whose stdin is anything else is refused
// (stdinElsewhere).
const fakeClaudeSocket = `import os, socket, subprocess, sys
a, b = socket.socketpair()
p = subprocess.Popen(sys.argv[1:], stdin=b)
b.close()
try:
    data = sys.stdin.buffer.read()
    if data:
        a.sendall(data)
except OSError:
    pass
a.shutdown(socket.SHUT_WR)
sys.exit(p.wait())
`

// writeFakeClaude writes fakeClaudeSocket at path (executable); without
// python3 the test is skipped.
func writeFakeClaude(t *testing.T, path string) {
	t.Helper()
	// The interpreter itself, not a version manager's shim (a script that
	// execs it would rename the process).
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	py := strings.TrimSpace(string(out))
	if err != nil || py == "" {
		t.Skip("python3 not found (the stand-in claude needs it)")
	}
	// python3 by path on the #! line, not through env: one exec, so the
	// process keeps the name claude.
	if err := os.WriteFile(path, []byte("#!"+py+"\n"+fakeClaudeSocket), 0o755); err != nil {
		t.Fatal(err)
	}
}

// fakeClaudeLines is a stand-in CLI named claude that runs a script's
// lines (argv: SCRIPT, or -c LINE with the input on stdin) as one CLI
// process: a hook line (`'BIN' agent-hook AGENT EVENT [< 'FILE'] [>
// /dev/null]`) runs the hook as Claude Code does, its input on a socket
// this process made; any other line runs under sh -c.
const fakeClaudeLines = `import re, socket, subprocess, sys
args = sys.argv[1:]
if args and args[0] == "-c":
    lines, feed = [args[1]], sys.stdin.buffer.read()
else:
    lines, feed = open(args[0]).read().splitlines(), b""
hook = re.compile(r"^'([^']*)' agent-hook (\S+) (\S+)(?: < '([^']*)')?( > /dev/null)?$")
rc = 0
for line in lines:
    line = line.strip()
    if not line:
        continue
    m = hook.match(line)
    if not m:
        rc = subprocess.call(["sh", "-c", line])
        continue
    data = open(m.group(4), "rb").read() if m.group(4) else feed
    a, b = socket.socketpair()
    p = subprocess.Popen([m.group(1), "agent-hook", m.group(2), m.group(3)], stdin=b, stdout=subprocess.DEVNULL if m.group(5) else None)
    b.close()
    a.sendall(data)
    a.shutdown(socket.SHUT_WR)
    rc = p.wait()
    a.close()
sys.exit(rc)
`

// writeFakeClaudeLines writes fakeClaudeLines at path (executable).
func writeFakeClaudeLines(t *testing.T, path string) {
	t.Helper()
	writeFakeClaude(t, path)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(string(b), "\n", 2)[0]
	if err := os.WriteFile(path, []byte(first+"\n"+fakeClaudeLines), 0o755); err != nil {
		t.Fatal(err)
	}
}
