package ctime

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestChangeTimeIsNotSetBack: setting the modification time back (touch
// -d) leaves the change time at the write, on the systems it is read on.
func TestChangeTimeIsNotSetBack(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the change time is read on linux and darwin only")
	}
	p := filepath.Join(t.TempDir(), "f")
	before := time.Now().Add(-time.Second)
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(string) (time.Time, error){"Of": Of, "OfLink": OfLink} {
		got, err := f(p)
		if err != nil {
			t.Fatal(err)
		}
		if got.Before(before) {
			t.Errorf("%s: %v, set back with the modification time (want after %v)", name, got, before)
		}
	}
	if _, err := Of(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Of of a missing file: no error")
	}
}
