//go:build linux

package linttrust

import (
	"os"
	"syscall"
	"time"
)

// ctime is a file's change time (the link itself, not what it points at).
func ctime(p string) (time.Time, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return time.Time{}, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fi.ModTime(), nil
	}
	return time.Unix(st.Ctim.Sec, st.Ctim.Nsec), nil
}
