//go:build linux

package gitrepo

import (
	"os"
	"syscall"
	"time"
)

// changeTime is a file's change time: the kernel stamps it on every write,
// and no user call sets it back.
func changeTime(p string) (time.Time, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return time.Time{}, err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Sec, st.Ctim.Nsec), nil
	}
	return fi.ModTime(), nil
}
