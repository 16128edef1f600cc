package tmpleak

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRun: a run that leaves a file in its TMPDIR fails under CI=true
// (and only reports it locally); a run whose files are removed, or that
// used a folder it removed, passes; the folder is gone either way, and
// TMPDIR is the caller's again.
func TestRun(t *testing.T) {
	cases := []struct {
		name string
		ci   string
		body func(t *testing.T) int
		want int
	}{
		{"leaks a file under CI", "true", func(t *testing.T) int {
			write(t, filepath.Join(os.TempDir(), "left.txt"))
			return 0
		}, 1},
		{"leaks a mktemp folder under CI", "true", func(t *testing.T) int {
			d, err := os.MkdirTemp("", "x-")
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(d, "f"))
			return 0
		}, 1},
		{"leaks locally: reported, not failed", "", func(t *testing.T) int {
			write(t, filepath.Join(os.TempDir(), "left.txt"))
			return 0
		}, 0},
		{"honest: removes what it wrote", "true", func(t *testing.T) int {
			d, err := os.MkdirTemp("", "x-")
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(d, "f"))
			if err := os.RemoveAll(d); err != nil {
				t.Fatal(err)
			}
			return 0
		}, 0},
		{"a failing run keeps its code", "true", func(t *testing.T) int { return 3 }, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parent := t.TempDir()
			t.Setenv("TMPDIR", parent)
			t.Setenv("CI", c.ci)
			var used string
			got := Run(func() int {
				used = os.TempDir()
				return c.body(t)
			})
			if got != c.want {
				t.Fatalf("Run returned %d, want %d", got, c.want)
			}
			if filepath.Dir(used) != parent || used == parent {
				t.Fatalf("the run's TMPDIR %s is not a new folder in %s", used, parent)
			}
			if _, err := os.Stat(used); !os.IsNotExist(err) {
				t.Fatalf("the run's folder %s is still there (%v)", used, err)
			}
			if left, _ := Left(parent); len(left) != 0 {
				t.Fatalf("left in the parent: %v", left)
			}
			if os.Getenv("TMPDIR") != parent {
				t.Fatalf("TMPDIR is %q after the run, want %q", os.Getenv("TMPDIR"), parent)
			}
		})
	}
}

func write(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}
