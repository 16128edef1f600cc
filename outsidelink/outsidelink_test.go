package outsidelink

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestChanged: a repository tracking links made before the session (a
// person's set-up), then the row's change after the session started.
func TestChanged(t *testing.T) {
	gittest.Require(t)
	tests := []struct {
		name  string
		after func(t *testing.T, repo, outside string)
		want  string // substring of the one change; "" for none
	}{
		{"untouched links (a person's set-up)", nil, ""},
		{"the tests read the outside file", func(t *testing.T, repo, outside string) {
			if _, err := os.ReadFile(filepath.Join(repo, "greetlib.py")); err != nil {
				t.Fatal(err)
			}
		}, ""},
		{"a cache written in the linked folder", func(t *testing.T, repo, outside string) {
			write(t, filepath.Join(outside, "lib/__pycache__/util.cpython-312.pyc"), "x")
		}, ""},
		{"an in-repo link's target edited (git sees that)", func(t *testing.T, repo, outside string) {
			write(t, filepath.Join(repo, "real.py"), "x = 2\n")
		}, ""},
		{"the linked file edited outside", func(t *testing.T, repo, outside string) {
			write(t, filepath.Join(outside, "greetlib.py"), "def greet(name=None):\n    return 'hello ' + name\n")
		}, "greetlib.py -> "},
		{"a file of the linked folder edited outside", func(t *testing.T, repo, outside string) {
			write(t, filepath.Join(outside, "lib/util.py"), "y = 2\n")
		}, "util.py changed in this session"},
		{"a link added in the session", func(t *testing.T, repo, outside string) {
			write(t, filepath.Join(outside, "new.py"), "z = 1\n")
			link(t, filepath.Join(outside, "new.py"), filepath.Join(repo, "new.py"))
			gittest.Git(t, repo, "add", "new.py")
		}, "the link was made or changed in this session"},
		{"a link pointed elsewhere in the session", func(t *testing.T, repo, outside string) {
			write(t, filepath.Join(outside, "other.py"), "def greet(name=None):\n    return 'x'\n")
			os.Remove(filepath.Join(repo, "greetlib.py"))
			link(t, filepath.Join(outside, "other.py"), filepath.Join(repo, "greetlib.py"))
		}, "the link was made or changed in this session"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			outside := filepath.Join(base, "shared")
			write(t, filepath.Join(outside, "greetlib.py"), "def greet(name=None):\n    return 'hello'\n")
			write(t, filepath.Join(outside, "lib/util.py"), "y = 1\n")
			repo := gittest.New(t, map[string]string{"README.md": "# r\n", "real.py": "x = 1\n"})
			link(t, filepath.Join(outside, "greetlib.py"), filepath.Join(repo, "greetlib.py"))
			link(t, filepath.Join(outside, "lib"), filepath.Join(repo, "lib"))
			link(t, "real.py", filepath.Join(repo, "alias.py"))
			link(t, filepath.Join(base, "gone"), filepath.Join(repo, "dangling"))
			gittest.Git(t, repo, "add", "-A")
			gittest.Git(t, repo, "commit", "-q", "-m", "links")
			// ctime has the kernel's clock tick: step past it.
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			if tt.after != nil {
				tt.after(t, repo, outside)
			}
			got, err := Changed(context.Background(), repo, since)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if len(got) != 0 {
					t.Fatalf("want no change, got %v", got)
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0].String(), tt.want) {
				t.Fatalf("want one change with %q, got %v", tt.want, got)
			}
		})
	}
}

// TestChangedNotARepo: outside a repository the error says which step.
func TestChangedNotARepo(t *testing.T) {
	gittest.Require(t)
	_, err := Changed(context.Background(), t.TempDir(), time.Now())
	if err == nil || !strings.Contains(err.Error(), "list the tracked links") {
		t.Fatalf("want the listing's error, got %v", err)
	}
}

func write(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}
