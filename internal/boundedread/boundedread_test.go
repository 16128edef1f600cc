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
			b, err := notHung(t, func() ([]byte, error) { return File(c.path, 100) })
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

// TestInRoot: a work-tree file is read only when it is regular, within the
// limit and, links followed, inside the root (review c11 items 3-6). The
// honest twins: a script symlinked to another file of the repository and
// a folder link that stays inside.
func TestInRoot(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "scripts"), 0o755))
	must(os.WriteFile(filepath.Join(root, "scripts", "test.sh"), []byte("# P\n"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "x"), []byte("# P\n"), 0o644))
	must(os.Symlink("test.sh", filepath.Join(root, "scripts", "same.sh")))
	must(os.Symlink("scripts", filepath.Join(root, "s")))
	must(os.Symlink(filepath.Join(outside, "x"), filepath.Join(root, "scripts", "home.sh")))
	must(os.Symlink("../../"+filepath.Base(outside)+"/x", filepath.Join(root, "scripts", "rel.sh")))
	must(os.Symlink(outside, filepath.Join(root, "out")))
	must(os.Symlink("/dev/zero", filepath.Join(root, "scripts", "zero.sh")))
	must(syscall.Mkfifo(filepath.Join(root, "scripts", "lib.sh"), 0o644))
	must(os.WriteFile(filepath.Join(root, "big.sh"), make([]byte, 101), 0o644))
	for _, c := range []struct {
		name, rel string
		want      error
		msg       string
	}{
		{"honest: regular", "scripts/test.sh", nil, ""},
		{"honest: a link to a file of the repository", "scripts/same.sh", nil, ""},
		{"honest: through a folder link inside", "s/test.sh", nil, ""},
		{"a link to a file outside", "scripts/home.sh", ErrOutside, "points out of it"},
		{"a relative link out", "scripts/rel.sh", ErrOutside, "points out of it"},
		{"through a folder link out", "out/x", ErrOutside, "points out of it"},
		{"a link to /dev/zero", "scripts/zero.sh", ErrOutside, "scripts/zero.sh"},
		{"a FIFO", "scripts/lib.sh", ErrNotRegular, "scripts/lib.sh: not a regular file (a FIFO)"},
		{"over the limit", "big.sh", ErrTooLarge, "big.sh: file too large: more than 100 bytes"},
		{"dot-dot", "scripts/../../x", ErrOutside, ""},
		{"absolute", "/etc/passwd", ErrOutside, ""},
		{"missing", "scripts/nope.sh", fs.ErrNotExist, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := notHung(t, func() ([]byte, error) { return InRoot(root, c.rel, 100) })
			if c.want == nil {
				if err != nil || string(b) != "# P\n" {
					t.Fatalf("got %q, %v", b, err)
				}
				return
			}
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err %v, want %v with %q", err, c.want, c.msg)
			}
			if Refused(err) != (c.want != fs.ErrNotExist) {
				t.Errorf("Refused(%v) = %v", err, Refused(err))
			}
		})
	}
}

// notHung runs read, failing the test when it does not return within 5 s
// (a FIFO or device read the old code waited on).
func notHung(t *testing.T, read func() ([]byte, error)) ([]byte, error) {
	t.Helper()
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() { b, err := read(); done <- result{b, err} }()
	select {
	case r := <-done:
		return r.b, r.err
	case <-time.After(5 * time.Second):
		t.Fatal("hung")
		return nil, nil
	}
}

// TestOpen: a streamed file (a transcript) is opened only when regular; a
// FIFO put where it was is refused at once, naming the file (pass 29).
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(regular, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zeroLink := filepath.Join(dir, "zero.jsonl")
	if err := os.Symlink("/dev/zero", zeroLink); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, msg string
	}{
		{"honest: a regular transcript", regular, ""},
		{"fifo", fifo, "fifo.jsonl: not a regular file (a FIFO)"},
		{"link to /dev/zero", zeroLink, "zero.jsonl: not a regular file (a character device)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := notHung(t, func() ([]byte, error) {
				f, err := Open(c.path)
				if err != nil {
					return nil, err
				}
				return nil, f.Close()
			})
			if c.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err %v, want %q", err, c.msg)
			}
		})
	}
}
