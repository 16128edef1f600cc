package gitrepo

import (
	"bytes"
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
func (r *Repo) indexFlagged() (map[string]flaggedEntry, bool) {
	if !r.envIndexIsOwn() || r.isSHA256() {
		return nil, false
	}
	path := r.indexFile
	if path == "" {
		path = filepath.Join(r.gitDir, "index")
	}
	c := &r.flaggedCache
	st := stamp(path)
	cacheable := stampLen == 40 && st != [stampLen]byte{} &&
		time.Since(time.Unix(0, int64(binary.LittleEndian.Uint64(st[16:])))) >= racyWindow
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
	const hashLen = 20
	if len(b) < 12+hashLen || string(b[:4]) != "DIRC" {
		return nil, false
	}
	version := binary.BigEndian.Uint32(b[4:])
	n := binary.BigEndian.Uint32(b[8:])
	if version < 2 || version > 4 {
		return nil, false
	}
	end := len(b) - hashLen
	out := map[string]flaggedEntry{}
	var name []byte // version 4 edits the previous path in place
	off := 12
	for range n {
		start := off
		if 62 > end-off {
			return nil, false
		}
		mode := binary.BigEndian.Uint32(b[off+24:])
		id := b[off+40 : off+40+hashLen]
		flags := binary.BigEndian.Uint16(b[off+60:])
		off += 62
		var ext uint16
		if flags&ceExtended != 0 {
			if version < 3 || 2 > end-off {
				return nil, false
			}
			ext = binary.BigEndian.Uint16(b[off:])
			off += 2
		}
		if version == 4 {
			strip, k := gitVarint(b[off:min(off+10, end)])
			if k == 0 || strip > uint64(len(name)) {
				return nil, false
			}
			off += k
			i := bytes.IndexByte(b[off:end], 0)
			if i < 0 {
				return nil, false
			}
			name = append(name[:len(name)-int(strip)], b[off:off+i]...)
			off += i + 1
		} else {
			i := bytes.IndexByte(b[off:end], 0)
			if i < 0 {
				return nil, false
			}
			name = b[off : off+i]
			off = start + (off-start+i+8)&^7 // 1-8 NULs pad to a multiple of 8
			if off > end {
				return nil, false
			}
		}
		if mode&0o170000 == 0o040000 {
			return nil, false // a sparse index's folder entry: ask git, which expands it
		}
		how := ""
		switch {
		case ext&ceSkipWorktree != 0:
			how = "skip-worktree"
		case flags&ceValid != 0:
			how = "assume-unchanged"
		default:
			continue
		}
		out[string(name)] = flaggedEntry{how: how, blob: hex.EncodeToString(id)}
	}
	// Extensions: a split index keeps entries in a shared index file.
	for off+8 <= end {
		sig := string(b[off : off+4])
		size := binary.BigEndian.Uint32(b[off+4:])
		if sig == "link" || sig == "sdir" {
			return nil, false
		}
		if uint64(size) > uint64(end-off-8) {
			return nil, false
		}
		off += 8 + int(size)
	}
	if off != end {
		return nil, false
	}
	return out, true
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
