//go:build linux && !amd64 && !arm64

package gitrepo

import "golang.org/x/sys/unix"

// lstatZ is unix.Lstat on a NUL-terminated path (z).
func lstatZ(z []byte, st *unix.Stat_t) bool {
	return unix.Lstat(string(z[:len(z)-1]), st) == nil
}
