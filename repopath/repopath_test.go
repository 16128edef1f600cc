package repopath

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// These pin what the helpers judged in session/ before they moved here.
func TestClean(t *testing.T) {
	cases := []struct {
		in, want string
		outside  bool
	}{
		{"docs/a.md", "docs/a.md", false},
		{"./docs//a.md", "docs/a.md", false},
		{"../etc/passwd", "", true},
		{"/etc/passwd", "", true},
		{"C:/x", "", true},
		{"a\x00b", "", true},
		{".", "", false},
	}
	for _, c := range cases {
		got, err := Clean(c.in)
		if got != c.want || errors.Is(err, ErrOutsideRepo) != c.outside || (c.want == "") != (err != nil) {
			t.Errorf("Clean(%q) = %q, %v; want %q (outside %v)", c.in, got, err, c.want, c.outside)
		}
	}
}

func TestMatch(t *testing.T) {
	cases := []struct {
		pattern, name string
		want          bool
	}{
		{"*.md", "docs/a.md", true},
		{"docs/*.md", "docs/a.md", true},
		{"docs/*.md", "docs/sub/a.md", false},
		{"docs/**/*.md", "docs/sub/a.md", true},
		{"./README.md", "README.md", true},
		{"[", "x", false},
	}
	for _, c := range cases {
		if got := Match(c.pattern, c.name); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}

// A symlink that leaves the root is refused, not followed.
func TestResolveAndGlob(t *testing.T) {
	root, out := t.TempDir(), t.TempDir()
	for _, f := range []string{"docs/a.md", "docs/b.txt"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok, err := Resolve(root, "docs/a.md"); !ok || err != nil {
		t.Fatalf("Resolve(docs/a.md) = %v, %v; want found", ok, err)
	}
	if _, ok, err := Resolve(root, "docs/none.md"); ok || err != nil {
		t.Fatalf("Resolve(missing) = %v, %v; want not found, no error", ok, err)
	}
	if got, err := Glob(root, "**/*.md"); err != nil || len(got) != 1 || got[0] != "docs/a.md" {
		t.Fatalf("Glob(**/*.md) = %v, %v", got, err)
	}
	if err := os.Symlink(out, filepath.Join(root, "docs", "away")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if _, _, err := Resolve(root, "docs/away"); !errors.Is(err, ErrOutsideRepo) {
		t.Fatalf("Resolve(symlink out) err = %v, want ErrOutsideRepo", err)
	}
}
