package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// SQLite result codes a write that found no room can come back as.
const (
	sqliteIOErr = 10 // SQLITE_IOERR: "disk I/O error" (EFBIG, a failed ftruncate or mmap of -shm)
	sqliteFull  = 13 // SQLITE_FULL: "database or disk is full"
)

// DiskFullError: a write to the database found no room. SQLite reports it
// as "database or disk is full", or as "disk I/O error" when the failing
// call was not a plain write (EFBIG from a file size limit, a -shm file it
// could not extend); either way the next step is the same: free space.
type DiskFullError struct {
	Path  string // the database file
	Cause string // what the probe write got: "no space left on device", "file too large", ...
	Err   error  // SQLite's error
}

func (e *DiskFullError) Error() string {
	hint := "free space there, or pass --db a file on another disk"
	if e.Cause == syscall.EFBIG.Error() {
		hint = "a file size limit (ulimit -f) stops writes: raise it, or pass --db elsewhere"
	}
	return fmt.Sprintf("disk full at %s (writing there fails: %s): %s; nothing was changed", e.Path, e.Cause, hint)
}

func (e *DiskFullError) Unwrap() error { return e.Err }

// IsDiskFull reports whether err is a write that found no room.
func IsDiskFull(err error) bool {
	var d *DiskFullError
	return errors.As(err, &d)
}

// diskFull returns a *DiskFullError for err when it may come from a full
// disk and a probe write beside the database confirms it; else err. The
// probe tells "no room" from other I/O errors SQLite reports the same way.
func diskFull(err error, path string) error {
	if err == nil || IsDiskFull(err) {
		return err
	}
	var coded interface{ Code() int }
	errno := syscall.Errno(0)
	switch {
	case errors.As(err, &coded):
		if c := coded.Code() & 0xff; c != sqliteIOErr && c != sqliteFull {
			return err
		}
	case errors.As(err, &errno):
		if !noRoom(errno) {
			return err
		}
		return &DiskFullError{Path: path, Cause: errno.Error(), Err: err}
	default:
		return err
	}
	if cause := probeRoom(filepath.Dir(path)); cause != "" {
		return &DiskFullError{Path: path, Cause: cause, Err: err}
	}
	return err
}

func noRoom(e syscall.Errno) bool {
	return e == syscall.ENOSPC || e == syscall.EFBIG || e == syscall.EDQUOT
}

// probeSize is more than a new database's first pages and WAL need, so a
// limit that stops SQLite stops the probe too.
const probeSize = 1 << 20

// probeRoom writes probeSize bytes to a temporary file in dir (synced, so
// a file system that allocates late reports it) and removes it. It returns
// the error text when there was no room, "" otherwise.
func probeRoom(dir string) string {
	f, err := os.CreateTemp(dir, ".sessiongate-space-*")
	if err != nil {
		if e := errnoOf(err); e != 0 && noRoom(e) {
			return e.Error()
		}
		return ""
	}
	defer os.Remove(f.Name())
	defer f.Close()
	_, err = f.Write(make([]byte, probeSize))
	if err == nil {
		err = f.Sync()
	}
	if e := errnoOf(err); e != 0 && noRoom(e) {
		return e.Error()
	}
	return ""
}

func errnoOf(err error) syscall.Errno {
	var e syscall.Errno
	if errors.As(err, &e) {
		return e
	}
	return 0
}
