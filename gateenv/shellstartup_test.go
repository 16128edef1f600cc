package gateenv_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/gateenv"
)

// TestShellStartupFiles: pass 27 played a `pytest` shell function (and
// an alias) in BASH_ENV, ~/.bashrc and an exported BASH_FUNC_, each
// printing "1 passed": the gate's `sh -c` and a `bash -c` line read none
// of them (BASH_ENV and BASH_FUNC_* are dropped, a non-interactive shell
// reads no ~/.bashrc), so the name stays unknown and the line fails.
// Honest twin: a real program on PATH still runs.
func TestShellStartupFiles(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	home := t.TempDir()
	fake := "shopt -s expand_aliases\nalias fakecheck='echo 1 passed'\nfakecheck() { echo 1 passed; }\n"
	for _, f := range []string{".bashrc", ".bash_profile", ".profile", "env.sh"} {
		if err := os.WriteFile(filepath.Join(home, f), []byte(fake), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	environ := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "BASH_ENV=" + filepath.Join(home, "env.sh"), "ENV=" + filepath.Join(home, "env.sh"), "BASH_FUNC_fakecheck%%=() {  echo 1 passed\n}"}
	env, _ := gateenv.CleanFor(environ, gateenv.Options{Root: "/nonexistent/w"})
	for _, c := range []struct {
		shell, line string
		ok          bool
	}{
		{"sh", "fakecheck", false},
		{bash, "fakecheck", false},
		{"sh", "bash -c fakecheck", false},
		{"sh", "true && test -n \"$HOME\"", true}, // honest
	} {
		cmd := exec.Command(c.shell, "-c", c.line)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if (err == nil) != c.ok {
			t.Errorf("%s -c %q: err %v, want ok=%v (%s)", c.shell, c.line, err, c.ok, out)
		}
	}
}
