package gitrepo

import (
	"encoding/binary"
	"io/fs"
	"path"
	"syscall"

	"golang.org/x/sys/unix"
)

// stampLen is the size of a stamp.
const stampLen = 40

// stamp is a file's size, modification and change times (the change time
// no one can set back), inode and mode, without following a symlink;
// all zero for a file that is gone.
func stamp(p string) (s [stampLen]byte) {
	var st unix.Stat_t
	if unix.Lstat(p, &st) != nil {
		return s
	}
	return encodeStat(&st)
}

func encodeStat(st *unix.Stat_t) (s [stampLen]byte) {
	binary.LittleEndian.PutUint64(s[0:], uint64(st.Size))
	binary.LittleEndian.PutUint64(s[8:], uint64(st.Mtim.Nano()))
	binary.LittleEndian.PutUint64(s[16:], uint64(st.Ctim.Nano()))
	binary.LittleEndian.PutUint64(s[24:], st.Ino)
	binary.LittleEndian.PutUint64(s[32:], uint64(st.Mode))
	return s
}

// keyOf is what the head cache keeps of a file, stat'ed by a path made
// once (statPath): no FileInfo, no name and no C string built on each of
// HEAD's three stats a gate call makes (round 25: os.Lstat allocated
// three times a stat).
func keyOf(p statPath) fileKey {
	var st unix.Stat_t
	if !lstatZ(p.z, &st) {
		return fileKey{}
	}
	return fileKey{ino: st.Ino, size: uint64(st.Size), mtime: st.Mtim.Nano(), exists: true}
}

// stamper stamps files of a worktree, given in path order, relative to a
// descriptor of their folder: the kernel then resolves one path component
// per file, not the whole absolute path (about half the cost of a stat
// in a deep worktree).
type stamper struct {
	root string
	dir  string // the folder fd is open on, with its trailing slash
	fd   int    // -1: none (stat by full path)
}

func newStamper(root string) *stamper { return &stamper{root: root, fd: -1} }

func (s *stamper) stamp(rel string) [stampLen]byte {
	dir, base := path.Split(rel)
	if dir != s.dir || s.fd < 0 {
		s.close()
		s.dir = dir
		fd, err := unix.Open(s.root+"/"+dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return stamp(s.root + "/" + rel)
		}
		s.fd = fd
	}
	var st unix.Stat_t
	if unix.Fstatat(s.fd, base, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return [stampLen]byte{}
	}
	return encodeStat(&st)
}

func (s *stamper) close() {
	if s.fd >= 0 {
		unix.Close(s.fd)
		s.fd = -1
	}
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
