package atomicfile_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sessiongate/sessiongate/internal/atomicfile"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hook")
	for _, tc := range []struct {
		body string
		mode os.FileMode
	}{{"first\n", 0o755}, {"second\n", 0o644}} {
		if err := atomicfile.Write(p, []byte(tc.body), tc.mode); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil || string(b) != tc.body {
			t.Fatalf("read %q %v, want %q", b, err, tc.body)
		}
		if st, _ := os.Stat(p); runtime.GOOS != "windows" && st.Mode().Perm() != tc.mode {
			t.Errorf("mode %v, want %v", st.Mode().Perm(), tc.mode)
		}
	}
	// A symbolic link at the path is replaced, not written through.
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := atomicfile.Write(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("wrote through the link: target holds %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("%d entries, want hook, target and link (no temporary file left)", len(entries))
	}
	// A folder that does not exist fails, naming the path.
	if err := atomicfile.Write(filepath.Join(dir, "no", "such"), nil, 0o644); err == nil {
		t.Error("write into a missing folder succeeded")
	}
}
