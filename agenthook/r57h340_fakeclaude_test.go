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
// (claudeStdinElsewhere).
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
