// Package boundedread reads a file sessiongate was pointed at (a protocol,
// a config) without trusting what is at the path: only a regular file, and
// never more than a limit. A protocol that is /dev/zero (or a symbolic link
// to it) would otherwise fill memory, and a FIFO would hang every hook.
package boundedread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is returned for a path that is a device, FIFO, socket or
// directory.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned when the file holds more than the limit.
var ErrTooLarge = errors.New("file too large")

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
