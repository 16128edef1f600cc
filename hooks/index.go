package hooks

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
)

// cachedTree returns the root tree id that the index at path records in
// its cache tree (the TREE extension), which is what `git write-tree`
// would print, without running git: `git commit` brings the cache tree up
// to date before it runs pre-commit, and builds the commit from it.
//
// ok is false, and the caller runs git write-tree, for anything but a
// plain SHA-1 index (versions 2-4, no split or sparse index) whose root
// cache-tree entry is valid. The format: git's Documentation/gitformat-index.txt.
func cachedTree(path string) (tree string, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 12+20 || string(b[:4]) != "DIRC" {
		return "", false
	}
	const hashLen = 20 // SHA-1; SHA-256 repositories are sent to git write-tree
	version := binary.BigEndian.Uint32(b[4:])
	n := binary.BigEndian.Uint32(b[8:])
	if version < 2 || version > 4 {
		return "", false
	}
	end := len(b) - hashLen // the trailing checksum
	off := 12
	prevLen := 0 // version 4: length of the previous entry's path
	for range n {
		start := off
		fixed := 40 + hashLen + 2 // stat data, object id, flags
		if off+fixed > end {
			return "", false
		}
		flags := binary.BigEndian.Uint16(b[off+40+hashLen:])
		if flags&0x4000 != 0 { // extended flags
			if version < 3 {
				return "", false
			}
			fixed += 2
		}
		off += fixed
		if version == 4 {
			strip, k := gitVarint(b[off:end])
			if k == 0 || strip > uint64(prevLen) {
				return "", false
			}
			off += k
			nul := bytes.IndexByte(b[off:end], 0)
			if nul < 0 {
				return "", false
			}
			prevLen = prevLen - int(strip) + nul
			off += nul + 1
			continue
		}
		nul := bytes.IndexByte(b[off:end], 0)
		if nul < 0 {
			return "", false
		}
		// Versions 2 and 3 pad each entry with 1-8 NULs to a multiple of 8.
		off = start + (fixed+nul+8)&^7
	}
	for off+8 <= end {
		sig := string(b[off : off+4])
		size := int(binary.BigEndian.Uint32(b[off+4:]))
		if size < 0 || off+8+size > end {
			return "", false
		}
		data := b[off+8 : off+8+size]
		switch sig {
		case "link", "sdir": // split or sparse index: leave it to git
			return "", false
		case "TREE":
			return rootTree(data, hashLen)
		}
		off += 8 + size
	}
	return "", false
}

// rootTree reads the root entry of a TREE extension: an empty path, NUL,
// "<entries> <subtrees>\n", then the tree id unless entries is -1 (invalid).
func rootTree(data []byte, hashLen int) (string, bool) {
	if len(data) == 0 || data[0] != 0 {
		return "", false
	}
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		return "", false
	}
	counts := bytes.Fields(data[1:nl])
	if len(counts) != 2 {
		return "", false
	}
	entries, err := strconv.Atoi(string(counts[0]))
	if err != nil || entries < 0 || len(data) < nl+1+hashLen {
		return "", false
	}
	return hex.EncodeToString(data[nl+1 : nl+1+hashLen]), true
}

// gitVarint decodes git's offset varint (varint.c): 7 bits a byte, high
// bit set on all but the last, each continuation adding one. k is the
// bytes read, 0 on malformed input.
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
// (extensions.objectFormat), which cachedTree does not read.
func sha256Repo(commonDir string) bool {
	b, err := os.ReadFile(filepath.Join(commonDir, "config"))
	return err != nil || bytes.Contains(bytes.ToLower(b), []byte("objectformat"))
}
