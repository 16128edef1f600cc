package godepchange

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/dirhash"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestHashDir: the hash is go's own h1: (dirhash.HashDir), so an unchanged
// module matches go.sum and one byte changed does not.
func TestHashDir(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"go.mod": "module example.com/check\n", "check.go": "package check\n", "sub/a.go": "package sub\n"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := dirhash.HashDir(dir, "example.com/check@v1.0.0", dirhash.DefaultHash)
	if err != nil {
		t.Fatal(err)
	}
	got, err := hashDir(dir, "example.com/check@v1.0.0")
	if err != nil || got != want {
		t.Fatalf("hashDir = %q, %v; want %q", got, err, want)
	}
	if err := os.WriteFile(filepath.Join(dir, "check.go"), []byte("package check // patched\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := hashDir(dir, "example.com/check@v1.0.0"); got == want {
		t.Fatal("a patched file hashes as the original")
	}
}

func TestModuleDir(t *testing.T) {
	for _, tt := range []struct{ pkg, mod, want string }{
		{"/c/mod/example.com/check@v1.0.0", "example.com/check@v1.0.0", "/c/mod/example.com/check@v1.0.0"},
		{"/c/mod/example.com/check@v1.0.0/sub/x", "example.com/check@v1.0.0", "/c/mod/example.com/check@v1.0.0"},
		{"/c/mod/github.com/!burnt!sushi/toml@v1.2.0", "github.com/BurntSushi/toml@v1.2.0", "/c/mod/github.com/!burnt!sushi/toml@v1.2.0"},
		{"/home/me/other", "example.com/other@", ""},
		{"/c/mod/example.com/check@v1.0.0", "example.com/check", ""},
	} {
		if got := moduleDir(filepath.FromSlash(tt.pkg), tt.mod); got != filepath.FromSlash(tt.want) {
			t.Errorf("moduleDir(%q, %q) = %q, want %q", tt.pkg, tt.mod, got, tt.want)
		}
	}
}

func TestSumOf(t *testing.T) {
	sums := []byte("example.com/check v1.0.0 h1:abc=\nexample.com/check v1.0.0/go.mod h1:def=\nexample.com/other v1.1.0 h1:ghi=\n")
	for _, tt := range []struct{ mod, want string }{
		{"example.com/check@v1.0.0", "h1:abc="},
		{"example.com/other@v1.1.0", "h1:ghi="},
		{"example.com/check@v1.0.1", ""},
	} {
		if got := sumOf(sums, tt.mod); got != tt.want {
			t.Errorf("sumOf(%q) = %q, want %q", tt.mod, got, tt.want)
		}
	}
}

// TestChangedIn: a file whose change time is after since is named; one
// dated back with touch (mtime) still is, since ctime moves on any write.
func TestChangedIn(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "testing.go")
	if err := os.WriteFile(p, []byte("package testing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := changedIn(dir, time.Now().Add(time.Hour), false); err != nil || got != "" {
		t.Fatalf("changedIn before the write = %q, %v; want none", got, err)
	}
	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	if got, err := changedIn(dir, time.Now().Add(-time.Hour), false); err != nil || got != p {
		t.Fatalf("changedIn = %q, %v; want %s (mtime set back, ctime not)", got, err, p)
	}
}
