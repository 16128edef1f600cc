package agenthook

import (
	"io/fs"
	"syscall"
)

// changeTime is the inode's change time (which no one can set back, unlike
// the modification time), 0 when unknown.
func changeTime(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctim.Nano()
	}
	return 0
}
