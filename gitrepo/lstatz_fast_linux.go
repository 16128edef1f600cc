//go:build linux && (amd64 || arm64)

package gitrepo

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

var atFDCWD = unix.AT_FDCWD

// lstatZ is unix.Lstat on a NUL-terminated path (z), without the copy
// unix.Lstat makes of a Go string on every call.
func lstatZ(z []byte, st *unix.Stat_t) bool {
	_, _, e := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(&z[0])),
		uintptr(unsafe.Pointer(st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
	return e == 0
}
