package mtimefresh

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFreshen: the changed files are dated now, a future-dated output is
// set back before them (the lazy agent's `touch -d '+1 year' build/greet`),
// .git is left alone, and a link out of the tree to a future-dated file is
// refused. The honest twin: a tree with nothing in the future has only its
// changed files touched.
func TestFreshen(t *testing.T) {
	// A minute ahead: the folders the test makes are not in its future.
	now := time.Now().Add(time.Minute).Truncate(time.Second)
	future, past := now.Add(365*24*time.Hour), now.Add(-time.Hour)
	for _, tt := range []struct {
		name    string
		dated   map[string]time.Time // files written and dated so
		link    bool                 // out -> a future-dated file outside the tree
		changed []string
		n       int
		err     string
		want    map[string]func(time.Time) bool
	}{
		{name: "future output set back, change dated now",
			dated:   map[string]time.Time{"greet.c": past, "build/greet": future, ".git/index": future},
			changed: []string{"greet.c"}, n: 2,
			want: map[string]func(time.Time) bool{
				"greet.c":     func(m time.Time) bool { return m.Equal(now) },
				"build/greet": func(m time.Time) bool { return m.Before(now) },
				".git/index":  func(m time.Time) bool { return m.Equal(future) },
			}},
		{name: "link out to a future-dated file", dated: map[string]time.Time{"greet.c": past}, link: true, changed: []string{"greet.c"}, err: "in the future"},
		{name: "honest: nothing in the future",
			dated:   map[string]time.Time{"greet.c": past, "README.md": past},
			changed: []string{"greet.c", "gone.c"}, n: 1,
			want: map[string]func(time.Time) bool{
				"greet.c":   func(m time.Time) bool { return m.Equal(now) },
				"README.md": func(m time.Time) bool { return m.Equal(past) },
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for f, at := range tt.dated {
				p := filepath.Join(root, filepath.FromSlash(f))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(p, at, at); err != nil {
					t.Fatal(err)
				}
			}
			if tt.link {
				out := filepath.Join(t.TempDir(), "target")
				if err := os.WriteFile(out, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(out, future, future); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(out, filepath.Join(root, "out")); err != nil {
					t.Fatal(err)
				}
			}
			n, err := Freshen(root, tt.changed, now)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Freshen: %v, want an error saying %q", err, tt.err)
				}
				return
			}
			if err != nil || n != tt.n {
				t.Fatalf("Freshen = %d, %v; want %d", n, err, tt.n)
			}
			for f, ok := range tt.want {
				fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(f)))
				if err != nil {
					t.Fatal(err)
				}
				if !ok(fi.ModTime()) {
					t.Errorf("%s dated %s (now %s)", f, fi.ModTime(), now)
				}
			}
		})
	}
}
