package gitrepo

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strconv"
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
	r := &indexReader{r: bufio.NewReaderSize(bytes.NewReader(b), 64<<10), end: int64(len(b)) - hashLen}
	var hdr [12]byte
	if !r.full(hdr[:]) || string(hdr[:4]) != "DIRC" {
		return "", false
	}
	version := binary.BigEndian.Uint32(hdr[4:])
	n := binary.BigEndian.Uint32(hdr[8:])
	if version < 2 || version > 4 {
		return "", false
	}
	var fixed [40 + hashLen + 2]byte // stat data, object id, flags
	prevLen := 0                     // version 4: length of the previous entry's path
	for range n {
		start := r.off
		if !r.full(fixed[:]) {
			return "", false
		}
		size := int64(len(fixed))
		if binary.BigEndian.Uint16(fixed[40+hashLen:])&0x4000 != 0 { // extended flags
			if version < 3 || !r.skip(2) {
				return "", false
			}
			size += 2
		}
		if version == 4 {
			strip, ok := r.varint()
			if !ok || strip > uint64(prevLen) {
				return "", false
			}
			name, ok := r.name()
			if !ok {
				return "", false
			}
			prevLen = prevLen - int(strip) + name
			continue
		}
		name, ok := r.name()
		if !ok {
			return "", false
		}
		// Versions 2 and 3 pad each entry with 1-8 NULs to a multiple of 8;
		// name consumed the first.
		if !r.skip(start + (size+int64(name)+8)&^7 - r.off) {
			return "", false
		}
	}
	for r.off+8 <= r.end {
		var ext [8]byte
		if !r.full(ext[:]) {
			return "", false
		}
		size := int64(binary.BigEndian.Uint32(ext[4:]))
		if r.off+size > r.end {
			return "", false
		}
		switch string(ext[:4]) {
		case "link", "sdir": // split or sparse index: leave it to git
			return "", false
		case "TREE":
			return rootTree(io.LimitReader(r.r, size), hashLen)
		}
		if !r.skip(size) {
			return "", false
		}
	}
	return "", false
}

// indexReader reads an index front to back, counting the offset and
// refusing to read into the trailing checksum.
type indexReader struct {
	r   *bufio.Reader
	off int64
	end int64
}

func (x *indexReader) full(b []byte) bool {
	if x.off+int64(len(b)) > x.end {
		return false
	}
	n, err := io.ReadFull(x.r, b)
	x.off += int64(n)
	return err == nil
}

func (x *indexReader) skip(n int64) bool {
	if n < 0 || x.off+n > x.end {
		return false
	}
	d, err := x.r.Discard(int(n))
	x.off += int64(d)
	return err == nil
}

// name reads a NUL-terminated path and returns its length without the NUL.
func (x *indexReader) name() (int, bool) {
	total := 0
	for {
		b, err := x.r.ReadSlice(0)
		total += len(b)
		x.off += int64(len(b))
		if x.off > x.end {
			return 0, false
		}
		switch err {
		case nil:
			return total - 1, true
		case bufio.ErrBufferFull: // a path longer than the buffer
			continue
		default:
			return 0, false
		}
	}
}

// varint decodes git's offset varint (varint.c): 7 bits a byte, high bit
// set on all but the last, each continuation adding one.
func (x *indexReader) varint() (uint64, bool) {
	var buf [10]byte
	for i := range buf {
		c, err := x.r.ReadByte()
		if err != nil {
			return 0, false
		}
		x.off++
		buf[i] = c
		if c&128 == 0 {
			v, k := gitVarint(buf[:i+1])
			return v, k == i+1
		}
	}
	return 0, false
}

// rootTree reads the root entry of a TREE extension: an empty path, NUL,
// "<entries> <subtrees>\n", then the tree id unless entries is -1 (invalid).
func rootTree(r io.Reader, hashLen int) (string, bool) {
	br := bufio.NewReaderSize(r, 64)
	path, err := br.ReadBytes(0)
	if err != nil || len(path) != 1 {
		return "", false
	}
	line, err := br.ReadBytes('\n')
	if err != nil {
		return "", false
	}
	counts := bytes.Fields(line)
	if len(counts) != 2 {
		return "", false
	}
	entries, err := strconv.Atoi(string(counts[0]))
	if err != nil || entries < 0 {
		return "", false
	}
	id := make([]byte, hashLen)
	if _, err := io.ReadFull(br, id); err != nil {
		return "", false
	}
	return hex.EncodeToString(id), true
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
	b, err := os.ReadFile(filepath.Join(commonDir, "config"))
	return err != nil || bytes.Contains(bytes.ToLower(b), []byte("objectformat"))
}
