// Package boundedread reads a file sessiongate was pointed at (a protocol,
// a config) or one the agent wrote (a test script, a file it sources, a
// venv's .pth) without trusting what is at the path: only a regular file,
// never more than a limit and, for a work-tree file (InRoot), nothing a
// link leads to outside the repository. A script that is /dev/zero (or a
// symbolic link to it) would otherwise fill memory, a FIFO would hang
// every gate and hook, and a FIFO fed by a background writer could show
// the gate one text and the test run another.
package boundedread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrNotRegular is returned for a path that is a device, FIFO, socket or
// directory.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned when the file holds more than the limit.
var ErrTooLarge = errors.New("file too large")

// ErrOutside is returned for a path that, or a link on whose way, leads
// out of the root InRoot was given.
var ErrOutside = errors.New("leads outside the repository")

// Refused reports an error that says the file is there but was not read:
// not a regular file, over the limit or outside the repository. A reader
// that judges the file never takes that for "unchanged" or "absent": it is
// not judged here, and says so with the error's text (path and why).
func Refused(err error) bool {
	return errors.Is(err, ErrNotRegular) || errors.Is(err, ErrTooLarge) || errors.Is(err, ErrOutside)
}

// DefaultLimit bounds documents people write by hand: far above any
// protocol or config (the parser has its own, smaller limits), far below
// what would hurt a hook's memory.
const DefaultLimit = 16 << 20

// File reads path, following symbolic links, when it is a regular file of
// at most limit bytes. A missing file keeps fs.ErrNotExist in its chain.
func File(path string, limit int64) ([]byte, error) {
	// O_NONBLOCK so opening a FIFO with no writer returns at once; the
	// mode check below then refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return read(f, path, limit)
}

// Head is the first n bytes (fewer when the file is shorter) of path, a
// regular file (links followed): a script's #! line, a file's magic. A
// FIFO or device is ErrNotRegular, never waited on.
func Head(path string, n int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(st.Mode()))}
	}
	return io.ReadAll(io.LimitReader(f, n))
}

// Open opens path (links followed) for a reader that streams it (a
// transcript, a log) when it is a regular file: opened O_NONBLOCK, so a
// FIFO put where the file was is refused at once instead of waited on,
// and checked after the open, so a swap between a check and the open
// cannot slip one in. The caller bounds how much it reads.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(st.Mode()))}
	}
	return f, nil
}

// InRoot reads rel (slash-separated, relative to root) as File does, and
// only while it and every link on its way stay inside root: a script
// symlinked to another file of the repository is read, one linked to
// ~/x or /dev/zero is not (os.Root resolves each link inside root, so a
// link swapped between a check and the open cannot lead out either).
func InRoot(root, rel string, limit int64) ([]byte, error) {
	clean := path.Clean(rel)
	if rel == "" || path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return nil, &fs.PathError{Op: "read", Path: rel, Err: ErrOutside}
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := r.OpenFile(filepath.FromSlash(clean), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if escapes(err) {
			return nil, &fs.PathError{Op: "read", Path: rel, Err: fmt.Errorf("%w (a symbolic link on its way points out of it)", ErrOutside)}
		}
		return nil, err
	}
	return read(f, rel, limit)
}

// escapes: os.Root refused a path that leads out of it. Its error has no
// exported value; TestInRoot pins the text.
func escapes(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes")
}

// read reads the open f (named name in errors) when it is a regular file
// of at most limit bytes, and closes it.
func read(f *os.File, path string, limit int64) ([]byte, error) {
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(st.Mode()))}
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)}
	}
	return b, nil
}

// Kind names what a file that is not regular is ("a FIFO", "a
// character device"), for a message.
func Kind(m fs.FileMode) string { return kind(m) }

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}
