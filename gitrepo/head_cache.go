package gitrepo

import (
	"os"
	"path/filepath"
	"sync"
)

// headCache keeps the last answer of ReadHeadFiles with the stat of each
// file it read: git replaces HEAD, a loose ref and packed-refs by renaming
// a new file over the old one, so an unchanged inode, size and
// modification time mean unchanged content. A long-lived Repo (the MCP
// server reconciles on every tool call) then reads HEAD with two or three
// stats instead of opening and reading the files each time.
type headCache struct {
	mu    sync.Mutex
	calls int // a hook process reads HEAD once or twice: it caches from the second read on
	headState
}

type headState struct {
	valid          bool
	head, ref, pkd fileKey // HEAD, the branch's loose ref, packed-refs
	refPath        string  // "" when HEAD is detached
	commit, branch string
}

// fileKey is what a stat says of a file; the zero key is "absent".
type fileKey struct {
	ino, size uint64
	mtime     int64
	exists    bool
}

func keyOf(path string) fileKey {
	fi, err := os.Lstat(path)
	if err != nil {
		return fileKey{}
	}
	return fileKey{ino: inode(fi), size: uint64(fi.Size()), mtime: fi.ModTime().UnixNano(), exists: true}
}

// headFromFiles is ReadHeadFiles through the cache.
func (r *Repo) headFromFiles() (commit, branch string, ok bool) {
	c := &r.headCache
	c.mu.Lock()
	defer c.mu.Unlock()
	headPath := filepath.Join(r.gitDir, "HEAD")
	packed := filepath.Join(r.commonDir, "packed-refs")
	head := keyOf(headPath)
	if c.valid && head == c.head && head.exists && head.ino != 0 {
		if (c.refPath == "" || keyOf(c.refPath) == c.ref) && keyOf(packed) == c.pkd {
			return c.commit, c.branch, true
		}
	}
	c.valid = false
	commit, branch, ok = ReadHeadFiles(r.gitDir, r.commonDir)
	if c.calls++; !ok || c.calls == 1 {
		return commit, branch, ok
	}
	refPath := ""
	if branch != "" {
		refPath = filepath.Join(r.commonDir, "refs", "heads", filepath.FromSlash(branch))
	}
	// Keep the answer only if it is the files' content at the stats: the
	// same answer read again after them.
	var ref fileKey
	if refPath != "" {
		ref = keyOf(refPath)
	}
	pkd := keyOf(packed)
	again, againBranch, ok2 := ReadHeadFiles(r.gitDir, r.commonDir)
	if ok2 && again == commit && againBranch == branch && keyOf(headPath) == head {
		c.headState = headState{valid: true, head: head, ref: ref, pkd: pkd, refPath: refPath, commit: commit, branch: branch}
	}
	return commit, branch, true
}
