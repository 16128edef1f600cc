package gitrepo

import (
	"encoding/binary"
	"io/fs"
	"syscall"
)

// stampLen is the size of a stamp.
const stampLen = 40

// stamp is a file's size, modification and change times (the change time
// no one can set back), inode and mode, without following a symlink;
// all zero for a file that is gone.
func stamp(path string) (s [stampLen]byte) {
	var st syscall.Stat_t
	if syscall.Lstat(path, &st) != nil {
		return s
	}
	binary.LittleEndian.PutUint64(s[0:], uint64(st.Size))
	binary.LittleEndian.PutUint64(s[8:], uint64(st.Mtim.Nano()))
	binary.LittleEndian.PutUint64(s[16:], uint64(st.Ctim.Nano()))
	binary.LittleEndian.PutUint64(s[24:], st.Ino)
	binary.LittleEndian.PutUint64(s[32:], uint64(st.Mode))
	return s
}

// stampDiffers reports a regular file whose size or modification time is
// not what its index entry caches (mode: the entry's, big-endian; index:
// its mtime seconds and nanoseconds; size: its 32-bit size).
func stampDiffers(s [stampLen]byte, mode, index, size []byte) bool {
	if binary.BigEndian.Uint32(mode)&0o170000 != 0o100000 || binary.LittleEndian.Uint64(s[32:])&syscall.S_IFMT != syscall.S_IFREG {
		return false
	}
	ns := binary.LittleEndian.Uint64(s[8:])
	return uint32(binary.LittleEndian.Uint64(s[0:])) != binary.BigEndian.Uint32(size) ||
		uint32(ns/1e9) != binary.BigEndian.Uint32(index[0:]) || uint32(ns%1e9) != binary.BigEndian.Uint32(index[4:])
}

// inode is a file's inode number, 0 when unknown.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}
