package godepchange

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSDKInstallRefusedWithAdvice: a Go installed in the session by
// golang.org/dl (`go install golang.org/dl/go1.26.0@latest && go1.26.0
// download`: the archive checked against a SHA-256 read from
// dl.google.com, unpacked into ~/sdk/go1.26.0 with a .unpacked-success
// marker, no record kept that a later check could read offline) cannot be
// told from a patched GOROOT, so it stays refused; round 24 refused it
// with "reinstall Go", which is no remedy. The refusal now names the
// install and what proves one: installing it before the session, or
// GOTOOLCHAIN (proven by the checksum database). Lazy twins: a std file
// patched in a GOROOT with no marker, and a marker older than the start
// in an sdk folder whose file was patched in the session, keep the old
// words; the marker is read only at the GOROOT the changed file lies in.
func TestSDKInstallRefusedWithAdvice(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	mk := func(root string, marker bool) string {
		f := filepath.Join(root, "src", "testing", "testing.go")
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "VERSION"), []byte("go1.26.0\ntime 2026-02-10T00:00:00Z\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if marker {
			if err := os.WriteFile(filepath.Join(root, ".unpacked-success"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return f
	}
	old := mk(filepath.Join(home, "sdk", "go1.25.0"), true)
	time.Sleep(20 * time.Millisecond)
	since := time.Now()
	time.Sleep(20 * time.Millisecond)
	if err := os.WriteFile(old, []byte("package testing // patched\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := mk(filepath.Join(home, "sdk", "go1.26.0"), true)
	if err := os.WriteFile(fresh, []byte("package testing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := mk(filepath.Join(home, "goroot"), false)
	if err := os.WriteFile(plain, []byte("package testing // patched\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		std  []string
		want string // in stdWhy's text
		not  string
	}{
		{"installed by golang.org/dl in the session", []string{fresh}, "golang.org/dl", ""},
		{"installed before the session, patched in it", []string{old}, "reinstall Go", "golang.org/dl"},
		{"a GOROOT without the marker", []string{plain}, "reinstall Go", "golang.org/dl"},
		{"one sdk install and one patched GOROOT", []string{fresh, plain}, "reinstall Go", "golang.org/dl"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := stdWhy(c.std, "", since)
			if !strings.Contains(got, c.want) || c.not != "" && strings.Contains(got, c.not) {
				t.Errorf("stdWhy = %q, want it to hold %q and not %q", got, c.want, c.not)
			}
			if c.want == "golang.org/dl" {
				for _, w := range []string{"GOTOOLCHAIN=go1.26.0", "before the session", filepath.Join(home, "sdk", "go1.26.0")} {
					if !strings.Contains(got, w) {
						t.Errorf("stdWhy = %q, want it to name %q", got, w)
					}
				}
			}
		})
	}
}
