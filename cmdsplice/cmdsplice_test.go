package cmdsplice_test

import (
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/cmdsplice"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestSpliceFiles: the placeholders become positional parameters for the
// quoting they sit in, a glob keeps its files, a file that looks like an
// option is made a path, and real sh -c gets every name as one word, the
// hostile ones too.
func TestSpliceFiles(t *testing.T) {
	files := []string{"a.md", "-rf.md", "x $(touch pwned).md", "b.go"}
	for _, c := range []struct {
		line, want string
		args       []string
		n          int
	}{
		{"go vet ./...", "go vet ./...", nil, -1},
		{"lint {changed:*.md}", `lint "${1}" "${2}" "${3}"`, []string{"a.md", "./-rf.md", "x $(touch pwned).md"}, 3},
		{`lint "{changed:*.go}"`, `lint "${1}"`, []string{"b.go"}, 1},
		{"lint '{staged:*.go}'", `lint ''"${1}"''`, []string{"b.go"}, 1},
		{"lint {changed:*.py}", "lint ", nil, 0},
	} {
		line, args, n := cmdsplice.SpliceFiles(c.line, files)
		if line != c.want || !reflect.DeepEqual(args, c.args) || n != c.n {
			t.Errorf("SpliceFiles(%q) = %q %q %d, want %q %q %d", c.line, line, args, n, c.want, c.args, c.n)
		}
	}
	// What sh makes of it: each file one argument, nothing run.
	line, args, _ := cmdsplice.SpliceFiles("printf '%s|' {changed:*.md}", files)
	dir := t.TempDir()
	cmd := exec.Command("sh", append([]string{"-c", line, "sh"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); got != "a.md|./-rf.md|x $(touch pwned).md|" {
		t.Errorf("sh printed %q", got)
	}
	if _, err := os.Stat(dir + "/pwned"); err == nil || strings.Contains(line, "pwned") {
		t.Error("a file name ran as shell")
	}
}
