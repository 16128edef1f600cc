//go:build unix

package filelock

import (
	"errors"
	"os"
	"syscall"
)

// TryLock takes an exclusive flock on f without waiting: false, nil when
// another process holds it.
func TryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
