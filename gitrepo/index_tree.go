package gitrepo

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"path/filepath"
	"strconv"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// SetIndexFile names the index the hook's git command uses (GIT_INDEX_FILE
// or the worktree's own): StagedProtected and CachedTree then read it
// directly when they can. Call it before sharing the Repo.
func (r *Repo) SetIndexFile(path string) { r.indexFile = path }

// CachedTree is the root tree the index named by SetIndexFile records in
// its cache tree (cachedTree); ok is false when git write-tree must answer.
func (r *Repo) CachedTree() (tree string, ok bool) {
	if r.indexFile == "" || sha256Repo(r.commonDir) {
		return "", false
	}
	return cachedTree(r.indexFile)
}

// cachedTree returns the root tree id that the index at path records in
// its cache tree (the TREE extension), which is what `git write-tree`
// would print, without running git: `git commit` brings the cache tree up
// to date before it runs pre-commit, and builds the commit from it.
//
// ok is false, and the caller runs git write-tree, for anything but a
// plain SHA-1 index (versions 2-4, no split or sparse index) whose root
// cache-tree entry is valid. The index is mapped, not read (mapIndex): it
// is megabytes in a large repository, and a hook must be quick. The
// format: git's Documentation/gitformat-index.txt.
func cachedTree(path string) (tree string, ok bool) {
	b, release, err := mapIndex(path)
	if err != nil {
		return "", false
	}
	defer release()
	const hashLen = 20 // SHA-1; SHA-256 repositories are sent to git write-tree
	off, ok := skipIndexEntries(b, hashLen)
	if !ok {
		return "", false
	}
	end := len(b) - hashLen
	for off+8 <= end {
		name := string(b[off : off+4])
		size := int64(binary.BigEndian.Uint32(b[off+4:]))
		off += 8
		if size > int64(end-off) {
			return "", false
		}
		switch name {
		case "link", "sdir": // split or sparse index: leave it to git
			return "", false
		case "TREE":
			return rootTree(b[off:off+int(size)], hashLen)
		}
		off += int(size)
	}
	return "", false
}

// skipIndexEntries returns the offset of the first extension of the index
// b, past its entries. It reads only what locates each entry's end, so a
// 20,000-entry index is crossed without copying it: in versions 2 and 3
// the name length the flags keep (a name of 0xFFF bytes or more is searched
// for its NUL), in version 4 the prefix varint and the NUL. ok is false for
// anything but a well-formed index of versions 2-4 with hashLen-byte ids.
func skipIndexEntries(b []byte, hashLen int) (off int, ok bool) {
	if len(b) < 12+hashLen || string(b[:4]) != "DIRC" {
		return 0, false
	}
	version := binary.BigEndian.Uint32(b[4:])
	n := binary.BigEndian.Uint32(b[8:])
	if version < 2 || version > 4 {
		return 0, false
	}
	end := len(b) - hashLen
	fixed := 40 + hashLen + 2 // stat data, object id, flags
	off = 12
	prevLen := 0 // version 4: length of the previous entry's path
	for range n {
		start := off
		if fixed > end-off {
			return 0, false
		}
		flags := binary.BigEndian.Uint16(b[off+fixed-2:])
		off += fixed
		if flags&0x4000 != 0 { // extended flags
			if version < 3 || 2 > end-off {
				return 0, false
			}
			off += 2
		}
		if version == 4 {
			strip, k := gitVarint(b[off:min(off+10, end)])
			if k == 0 || strip > uint64(prevLen) {
				return 0, false
			}
			off += k
			i := bytes.IndexByte(b[off:end], 0)
			if i < 0 {
				return 0, false
			}
			prevLen = prevLen - int(strip) + i
			off += i + 1
			continue
		}
		name := int(flags & 0xfff)
		if name == 0xfff {
			name = bytes.IndexByte(b[off:end], 0)
		}
		if name < 0 || name >= end-off || b[off+name] != 0 {
			return 0, false
		}
		// Versions 2 and 3 pad each entry with 1-8 NULs to a multiple of 8.
		off = start + (off-start+name+8)&^7
		if off > end {
			return 0, false
		}
	}
	return off, true
}

// rootTree reads the root entry of a TREE extension: an empty path, NUL,
// "<entries> <subtrees>\n", then the tree id unless entries is -1 (invalid).
func rootTree(b []byte, hashLen int) (string, bool) {
	if len(b) == 0 || b[0] != 0 {
		return "", false
	}
	b = b[1:]
	nl := bytes.IndexByte(b, '\n')
	if nl < 0 {
		return "", false
	}
	counts := bytes.Fields(b[:nl])
	if len(counts) != 2 {
		return "", false
	}
	entries, err := strconv.Atoi(string(counts[0]))
	if err != nil || entries < 0 {
		return "", false
	}
	if b = b[nl+1:]; len(b) < hashLen {
		return "", false
	}
	return hex.EncodeToString(b[:hashLen]), true
}

// gitVarint decodes git's offset varint from b. k is the bytes read, 0 on
// malformed input.
func gitVarint(b []byte) (v uint64, k int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v = uint64(c & 127)
	k = 1
	for c&128 != 0 {
		if k >= len(b) || k > 9 {
			return 0, 0
		}
		v++
		c = b[k]
		v = v<<7 + uint64(c&127)
		k++
	}
	return v, k
}

// sha256Repo reports whether the repository uses SHA-256 object ids
// (extensions.objectFormat), which cachedTree does not read; true when the
// config cannot be read, so the caller asks git.
func sha256Repo(commonDir string) bool {
	b, err := boundedread.File(filepath.Join(commonDir, "config"), boundedread.DefaultLimit)
	return err != nil || bytes.Contains(bytes.ToLower(b), []byte("objectformat"))
}
