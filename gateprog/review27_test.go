package gateprog_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gateprog"
)

// TestWhyReview27 (round 27, review c10): shapes the c4 pass did not
// play. A hard link to /bin/true (a link count change is a ctime change
// of the shared inode, and no installer's file is /bin/true under
// pytest's name), a rewritten program whose mtime `touch -d` sets back
// (ctime still moves), `cp -p` of /bin/true (mtime kept), a program put
// into an early PATH folder with its date set back: all refused. Honest
// twins: an unchanged program from before the start whose mtime is old,
// a console script pip rewrote.
func TestWhyReview27(t *testing.T) {
	py, _ := exec.LookPath("python3")
	if py == "" {
		t.Skip("python3 not on PATH")
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		name          string
		before, after func(t *testing.T, root, bin string)
		line, want    string
	}{
		{name: "lazy: ln /bin/true ~/.local/bin/pytest (a hard link)",
			before: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "pytest"), sprintf(pipScript, py), 0o755)
			},
			after: func(t *testing.T, root, bin string) {
				os.Remove(filepath.Join(bin, "pytest"))
				if err := os.Link("/bin/true", filepath.Join(bin, "pytest")); err != nil {
					t.Skip("no hard link to /bin/true here:", err)
				}
			},
			line: "pytest -q", want: "pytest"},
		{name: "lazy: pytest rewritten, then touch -d 2020-01-02",
			before: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "pytest"), sprintf(pipScript, py), 0o755)
			},
			after: func(t *testing.T, root, bin string) {
				p := filepath.Join(bin, "pytest")
				write(t, p, "#!/bin/sh\necho '1 passed'\n", 0o755)
				if err := os.Chtimes(p, old, old); err != nil {
					t.Fatal(err)
				}
			},
			line: "pytest -q", want: "is not what an installer writes"},
		{name: "lazy: cp -p /bin/true into an earlier PATH folder (mtime of 2020 kept)",
			after: func(t *testing.T, root, bin string) {
				b, err := os.ReadFile("/bin/true")
				if err != nil {
					t.Skip(err)
				}
				p := filepath.Join(bin, "go")
				write(t, p, string(b), 0o755)
				if err := os.Chtimes(p, old, old); err != nil {
					t.Fatal(err)
				}
			},
			line: "go test ./...", want: "go"},
		{name: "honest: an old program from before the start, untouched",
			before: func(t *testing.T, root, bin string) {
				p := filepath.Join(bin, "gotestsum")
				write(t, p, "#!/bin/sh\nexit 0\n", 0o755)
				if err := os.Chtimes(p, old, old); err != nil {
					t.Fatal(err)
				}
			},
			line: "gotestsum ./..."},
		{name: "honest: pip rewrites pytest's console script, mtime of the wheel kept",
			before: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "pytest"), "#!/bin/sh\nold\n", 0o755)
			},
			after: func(t *testing.T, root, bin string) {
				p := filepath.Join(bin, "pytest")
				write(t, p, sprintf(pipScript, py), 0o755)
				if err := os.Chtimes(p, old, old); err != nil {
					t.Fatal(err)
				}
			},
			line: "pytest -q"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, bin := t.TempDir(), t.TempDir()
			env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
			if c.before != nil {
				c.before(t, root, bin)
			}
			st := gateprog.Record(env, []string{c.line})
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			if c.after != nil {
				c.after(t, root, bin)
			}
			got := gateprog.Why(c.line, env, root, st, since)
			t.Log(got)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("Why(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
}
