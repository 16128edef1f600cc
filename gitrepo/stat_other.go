//go:build !linux

package gitrepo

import (
	"encoding/binary"
	"io/fs"
	"os"
)

// stampLen is the size of a stamp.
const stampLen = 24

// stamp is a file's size, modification time and mode, without following
// a symlink; all zero for a file that is gone.
func stamp(path string) (s [stampLen]byte) {
	fi, err := os.Lstat(path)
	if err != nil {
		return s
	}
	binary.LittleEndian.PutUint64(s[0:], uint64(fi.Size()))
	binary.LittleEndian.PutUint64(s[8:], uint64(fi.ModTime().UnixNano()))
	binary.LittleEndian.PutUint64(s[16:], uint64(fi.Mode()))
	return s
}

func keyOf(p statPath) fileKey {
	fi, err := os.Lstat(p.s)
	if err != nil {
		return fileKey{}
	}
	return fileKey{ino: inode(fi), size: uint64(fi.Size()), mtime: fi.ModTime().UnixNano(), exists: true}
}

// stampDiffers is not answered here: git decides what changed.
func stampDiffers(s [stampLen]byte, mode, index, size []byte) bool { return false }

// inode is not read here: the head cache is then never used (an inode of
// 0 is never trusted).
func inode(fs.FileInfo) uint64 { return 0 }

// stamper stamps files of a worktree by their full paths.
type stamper struct{ root string }

func newStamper(root string) *stamper { return &stamper{root: root} }

func (s *stamper) stamp(rel string) [stampLen]byte { return stamp(s.root + "/" + rel) }

func (s *stamper) close() {}
