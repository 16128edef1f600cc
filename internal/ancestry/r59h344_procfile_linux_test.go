package ancestry

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestR59H344ReadProcFile (helper 344): a file of /proc is read only when
// it is procfs's, and without blocking: a mount namespace of one's own
// can put any file over /proc/PID/stat (a made-up one, a FIFO that held
// the hook at open).
func TestR59H344ReadProcFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	plain := filepath.Join(dir, "stat")
	if err := os.WriteFile(plain, []byte("1 (claude) S 0 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 7 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		want       int
	}{
		{"the kernel's", "/proc/self/stat", procOK},
		{"a made-up file", plain, procForged},
		{"a FIFO", fifo, procForged},
		{"nothing there", filepath.Join(dir, "none"), procAbsent},
	} {
		done := make(chan int, 1)
		go func() { _, st := readProcFile(c.path); done <- st }()
		select {
		case got := <-done:
			if got != c.want {
				t.Errorf("%s: readProcFile = %d, want %d", c.name, got, c.want)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s: readProcFile blocked", c.name)
		}
	}
	if _, _, st := readProc(os.Getpid()); st != procOK {
		t.Errorf("readProc(self) = %d, want procOK", st)
	}
}
