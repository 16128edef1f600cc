package filevalue_test

import (
	"bytes"
	"log/slog"
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

// TestLinesUnreadLogged: a file a line takes its values from that is there
// but not read (past MaxFile, a folder, a link loop) is logged with its
// path, never skipped unseen; a missing file and a file read are not.
func TestLinesUnreadLogged(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "names.txt"), []byte("SESSION-PROTOCOL.md\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Padded past MaxFile, the protected name last: read, it would be judged.
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("\n", filevalue.MaxFile)+"SESSION-PROTOCOL.md\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	loop := os.Symlink("loop.txt", filepath.Join(dir, "loop.txt")) == nil
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	for _, c := range []struct {
		file   string
		logged bool
	}{
		{"names.txt", false},
		{"missing.txt", false},
		{"big.txt", true},
		{"sub", true},
		{"loop.txt", loop},
	} {
		buf.Reset()
		filevalue.Lines(dir, []string{`X=$(cat ` + c.file + `); rm "$X"`})
		got := buf.String()
		if c.logged != (strings.Contains(got, "was not read") && strings.Contains(got, c.file)) {
			t.Errorf("%s: logged %q, want a warning naming it: %v", c.file, got, c.logged)
		}
	}
}
