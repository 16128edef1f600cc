//go:build unix

package boundedread

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestFile(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "p.md")
	if err := os.WriteFile(regular, []byte("# P\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, make([]byte, 101), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zeroLink := filepath.Join(dir, "zero.md")
	if err := os.Symlink("/dev/zero", zeroLink); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		want       error
		msg        string
	}{
		{"regular", regular, nil, ""},
		{"at the limit", big, ErrTooLarge, "more than 100 bytes"},
		{"missing", filepath.Join(dir, "nope"), fs.ErrNotExist, ""},
		{"directory", dir, ErrNotRegular, "a directory"},
		{"fifo", fifo, ErrNotRegular, "a FIFO"},
		{"/dev/zero", "/dev/zero", ErrNotRegular, "a character device"},
		{"symlink to /dev/zero", zeroLink, ErrNotRegular, "a character device"},
	} {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan struct{})
			var b []byte
			var err error
			go func() { b, err = File(c.path, 100); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("hung")
			}
			if c.want == nil {
				if err != nil || string(b) != "# P\n" {
					t.Fatalf("got %q, %v", b, err)
				}
				return
			}
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err %v, want %v with %q", err, c.want, c.msg)
			}
		})
	}
}
