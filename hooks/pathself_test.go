package hooks

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPathShadow: what PATH resolves `sessiongate` to, against this
// process's executable (the test binary here).
func TestPathShadow(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	shim, link, empty, noexec := filepath.Join(base, "shim"), filepath.Join(base, "link"), filepath.Join(base, "empty"), filepath.Join(base, "noexec")
	for _, d := range []string{shim, link, empty, noexec} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(shim, "sessiongate"), []byte("#!/bin/sh\necho {}\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(noexec, "sessiongate"), []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(link, "sessiongate")); err != nil {
		t.Fatal(err)
	}
	sep := string(os.PathListSeparator)
	tests := []struct {
		name, path, want string
	}{
		{"a shim first", shim + sep + link, filepath.Join(shim, "sessiongate")},
		{"this binary first, by a link", link + sep + shim, ""},
		{"none", empty, ""},
		{"a file that is not executable is skipped", noexec + sep + shim, filepath.Join(shim, "sessiongate")},
		{"a relative folder is the hook's folder's", "shim", filepath.Join(shim, "sessiongate")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == "PATH" {
					return tc.path
				}
				return ""
			}
			if got := pathShadow(getenv, base); got != tc.want {
				t.Errorf("pathShadow = %q, want %q", got, tc.want)
			}
		})
	}
}

// BenchmarkPathShadow is pre-commit's added cost: the machine's PATH with
// this binary, by a link, in its last folder.
func BenchmarkPathShadow(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	d := b.TempDir()
	if err := os.Symlink(self, filepath.Join(d, "sessiongate")); err != nil {
		b.Fatal(err)
	}
	path := os.Getenv("PATH") + string(os.PathListSeparator) + d
	getenv := func(string) string { return path }
	for b.Loop() {
		if p := pathShadow(getenv, d); p != "" {
			b.Fatalf("pathShadow = %q", p)
		}
	}
}
