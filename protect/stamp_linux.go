package protect

import (
	"errors"

	"golang.org/x/sys/unix"
)

func lstatStamp(p string) (pathStamp, bool) {
	var st unix.Stat_t
	if unix.Lstat(p, &st) != nil {
		return pathStamp{}, false
	}
	return pathStamp{dev: st.Dev, ino: st.Ino, mode: st.Mode, size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(),
		isDir: st.Mode&unix.S_IFMT == unix.S_IFDIR, isReg: st.Mode&unix.S_IFMT == unix.S_IFREG}, true
}

// lstatAbsent: only ENOENT is an absence (ENOTDIR, EACCES are not).
func lstatAbsent(p string) bool {
	var st unix.Stat_t
	return errors.Is(unix.Lstat(p, &st), unix.ENOENT)
}
