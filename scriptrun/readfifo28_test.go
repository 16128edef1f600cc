//go:build unix

package scriptrun

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadFIFO28: a FIFO in the repository where a script is named
// (review c11's class, round 28 c1): Read opened it before its
// regular-file check and waited for a writer forever on main.
func TestReadFIFO28(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "run.sh")
	if err := syscall.Mkfifo(p, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	done := make(chan struct{})
	var f *File
	go func() { f, _, _ = Places{Root: root}.Read(root, "run.sh"); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Read hung on a FIFO")
	}
	if f != nil {
		t.Fatalf("a FIFO was read as a script: %+v", f)
	}
}
