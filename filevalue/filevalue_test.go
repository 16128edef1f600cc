package filevalue_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/filevalue"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestLines: a line that takes its operand from a file is given back with
// the file's value in place (relative to dir or absolute); a line that
// reads none, a missing file, a folder and a file past MaxFile give
// nothing back.
func TestLines(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("names.txt", "SESSION-PROTOCOL.md\n")
	write("big.txt", strings.Repeat("x", filevalue.MaxFile+1))
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		line, want string // want: a word of a line given back, "" for none
	}{
		{`X=$(cat names.txt); rm "$X"`, "SESSION-PROTOCOL.md"},
		{`rm "$(cat ` + filepath.Join(dir, "names.txt") + `)"`, "SESSION-PROTOCOL.md"},
		{`rm -f build/out.txt`, ""},
		{`X=$(cat missing.txt); rm "$X"`, ""},
		{`X=$(cat sub); rm "$X"`, ""},
		{`X=$(cat big.txt); rm "$X"`, ""},
	} {
		got := strings.Join(filevalue.Lines(dir, []string{c.line}), "\n")
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("Lines(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
