//go:build unix

package transcript

import (
	"fmt"
	"os"
	"syscall"
)

// fileID is a file's device and inode: a file renamed over the path is
// another file.
func fileID(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	return ""
}
