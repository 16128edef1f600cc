package gitrepo

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// flaggedEntry is an index entry git no longer compares with the work
// tree: how ("skip-worktree" or "assume-unchanged") and its blob id.
type flaggedEntry struct{ how, blob string }

// indexFlagged reads, from the index file in process, the entries flagged
// skip-worktree or assume-unchanged: what `git ls-files -v -s` reports with
// an 'S' or a lower-case tag. HiddenFiles ran that process on every gate
// call (the protected-file check); the index is a few reads here. ok is
// false, and the caller asks git, for anything this reader does not take
// whole: no index file it can name (GIT_INDEX_FILE in the environment
// naming another file than SetIndexFile's: a hook names git's), a SHA-256
// repository, a version other than 2-4, a split index (its entries live in
// another file) or a sparse index (folders stand for their files), or a
// malformed one.
func (r *Repo) indexFlagged(ctx context.Context) (map[string]flaggedEntry, bool) {
	if !r.envIndexIsOwn() || r.isSHA256() {
		return nil, false
	}
	path := r.indexFile
	if path == "" {
		path = filepath.Join(r.gitDir, "index")
	}
	c := &r.flaggedCache
	st, at := r.indexStamp(ctx, path)
	cacheable := stampLen == 40 && st != [stampLen]byte{} &&
		at.Sub(time.Unix(0, int64(binary.LittleEndian.Uint64(st[16:])))) >= racyWindow
	if cacheable {
		c.mu.Lock()
		if c.valid && c.path == path && c.index == st {
			c.hits++
			out := c.entries
			c.mu.Unlock()
			return out, true
		}
		c.mu.Unlock()
	}
	b, release, err := mapIndex(path)
	if err != nil {
		if os.IsNotExist(err) {
			return map[string]flaggedEntry{}, true // no index yet: nothing flagged
		}
		return nil, false
	}
	defer release()
	out, ok := parseIndexFlagged(b)
	if ok && cacheable && stamp(path) == st {
		c.mu.Lock()
		c.valid, c.path, c.index, c.entries = true, path, st, out
		c.mu.Unlock()
	}
	return out, ok
}

// flaggedCache keeps indexFlagged's last reading under the index's stamp
// (size, modification and change times, inode, mode), as stagedCache
// keeps git's: an index git rewrote, or one changed in place, has another
// stamp; one younger than racyWindow is read again each time. The entries
// it returns are shared: callers only read them.
type flaggedCache struct {
	mu      sync.Mutex
	valid   bool
	path    string
	index   [stampLen]byte
	entries map[string]flaggedEntry
	hits    int // for tests
}

// isSHA256 reports whether r's objects are SHA-256, read once: a
// repository's object format is fixed when it is made.
func (r *Repo) isSHA256() bool {
	r.formatOnce.Do(func() { r.sha256 = sha256Repo(r.commonDir) })
	return r.sha256
}

// Index entry flags (git's read-cache.c): assume-valid in the 16-bit flags,
// skip-worktree in the extended flags that follow when 0x4000 is set.
const (
	ceValid        = 0x8000
	ceExtended     = 0x4000
	ceSkipWorktree = 0x4000
)

// parseIndexFlagged is indexFlagged on an index's bytes (SHA-1 ids).
func parseIndexFlagged(b []byte) (map[string]flaggedEntry, bool) {
	out := map[string]flaggedEntry{}
	ok := walkIndex(b, func(e *indexEntry) {
		how := ""
		switch {
		case e.ext&ceSkipWorktree != 0:
			how = "skip-worktree"
		case e.flags&ceValid != 0:
			how = "assume-unchanged"
		default:
			return
		}
		out[string(e.name)] = flaggedEntry{how: how, blob: hex.EncodeToString(e.id)}
	})
	if !ok {
		return nil, false
	}
	return out, true
}

// indexEntry is what walkIndex reads of one index entry. name and id point
// into the index's bytes (or a buffer the next entry reuses): valid only
// during the call.
type indexEntry struct {
	ctime, mtime uint32 // seconds
	mode         uint32
	id           []byte
	flags, ext   uint16 // ext: the extended flags, 0 when there are none
	name         []byte
}

// walkIndex calls fn for each entry of an index's bytes (SHA-1 ids), then
// checks the extensions. It is the one reader of the entries that
// indexFlagged and racyEntries share: false, and the caller asks git, for
// anything it does not take whole: a version other than 2-4, a split
// index (its entries live in another file) or a sparse index (folders
// stand for their files), or a malformed one. fn may have been called for
// some entries before false.
func walkIndex(b []byte, fn func(e *indexEntry)) bool {
	const hashLen = 20
	if len(b) < 12+hashLen || string(b[:4]) != "DIRC" {
		return false
	}
	version := binary.BigEndian.Uint32(b[4:])
	n := binary.BigEndian.Uint32(b[8:])
	if version < 2 || version > 4 {
		return false
	}
	end := len(b) - hashLen
	var e indexEntry
	var name []byte // version 4 edits the previous path in place
	off := 12
	for range n {
		start := off
		if 62 > end-off {
			return false
		}
		e.ctime = binary.BigEndian.Uint32(b[off:])
		e.mtime = binary.BigEndian.Uint32(b[off+8:])
		e.mode = binary.BigEndian.Uint32(b[off+24:])
		e.id = b[off+40 : off+40+hashLen]
		e.flags = binary.BigEndian.Uint16(b[off+60:])
		off += 62
		e.ext = 0
		if e.flags&ceExtended != 0 {
			if version < 3 || 2 > end-off {
				return false
			}
			e.ext = binary.BigEndian.Uint16(b[off:])
			off += 2
		}
		if version == 4 {
			strip, k := gitVarint(b[off:min(off+10, end)])
			if k == 0 || strip > uint64(len(name)) {
				return false
			}
			off += k
			i := bytes.IndexByte(b[off:end], 0)
			if i < 0 {
				return false
			}
			name = append(name[:len(name)-int(strip)], b[off:off+i]...)
			off += i + 1
		} else {
			i := bytes.IndexByte(b[off:end], 0)
			if i < 0 {
				return false
			}
			name = b[off : off+i]
			off = start + (off-start+i+8)&^7 // 1-8 NULs pad to a multiple of 8
			if off > end {
				return false
			}
		}
		if e.mode&0o170000 == 0o040000 {
			return false // a sparse index's folder entry: ask git, which expands it
		}
		e.name = name
		fn(&e)
	}
	// Extensions: a split index keeps entries in a shared index file.
	for off+8 <= end {
		sig := string(b[off : off+4])
		size := binary.BigEndian.Uint32(b[off+4:])
		if sig == "link" || sig == "sdir" {
			return false
		}
		if uint64(size) > uint64(end-off-8) {
			return false
		}
		off += 8 + int(size)
	}
	return off == end
}

// envIndexIsOwn reports whether the git processes r runs read the index r
// reads in process: GIT_INDEX_FILE unset, or naming SetIndexFile's file
// (inside pre-commit git sets it, and the hook names the same file; a
// relative one is taken from the work tree's top, where r runs git).
func (r *Repo) envIndexIsOwn() bool {
	env := os.Getenv("GIT_INDEX_FILE")
	if env == "" {
		return true
	}
	if r.indexFile == "" {
		return false
	}
	if !filepath.IsAbs(env) {
		env = filepath.Join(r.root, env)
	}
	return filepath.Clean(env) == filepath.Clean(r.indexFile)
}
