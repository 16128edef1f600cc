package gitrepo

import (
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
	head, ref, pkd fileKey  // HEAD, the branch's loose ref, packed-refs
	refPath        statPath // s "" when HEAD is detached
	commit, branch string
}

// fileKey is what a stat says of a file; the zero key is "absent".
type fileKey struct {
	ino, size uint64
	mtime     int64
	exists    bool
}

// headFromFiles is ReadHeadFiles through the cache. The lock guards only
// the copy of the kept state in and out, never the stats and reads: held
// across them it serialized every concurrent tool call of a server on one
// Repo (issue 29: 69% of the MCP server's lock waits over HTTP with eight
// clients). Two calls that miss at once both read the files; the state
// kept is whichever verified answer is stored last, and every hit is
// still checked against fresh stats, so a state kept from older files
// is only a miss.
func (r *Repo) headFromFiles() (commit, branch string, ok bool) {
	c := &r.headCache
	c.mu.Lock()
	st := c.headState
	c.mu.Unlock()
	headPath, packed := r.headPaths()
	head := keyOf(headPath)
	if st.valid && head == st.head && head.exists && head.ino != 0 {
		if (st.refPath.s == "" || keyOf(st.refPath) == st.ref) && keyOf(packed) == st.pkd {
			return st.commit, st.branch, true
		}
	}
	commit, branch, ok = ReadHeadFiles(r.gitDir, r.commonDir)
	c.mu.Lock()
	c.calls++
	first := c.calls == 1
	c.mu.Unlock()
	if !ok || first {
		return commit, branch, ok
	}
	var refPath statPath
	if branch != "" {
		refPath = newStatPath(filepath.Join(r.commonDir, "refs", "heads", filepath.FromSlash(branch)))
	}
	// Keep the answer only if it is the files' content at the stats: the
	// same answer read again after them.
	var ref fileKey
	if refPath.s != "" {
		ref = keyOf(refPath)
	}
	pkd := keyOf(packed)
	again, againBranch, ok2 := ReadHeadFiles(r.gitDir, r.commonDir)
	if ok2 && again == commit && againBranch == branch && keyOf(headPath) == head {
		c.mu.Lock()
		c.headState = headState{valid: true, head: head, ref: ref, pkd: pkd, refPath: refPath, commit: commit, branch: branch}
		c.mu.Unlock()
	}
	return commit, branch, true
}

// headPaths are HEAD's and packed-refs' paths, made once: a Repo's folders
// do not move.
func (r *Repo) headPaths() (head, packed statPath) {
	r.headPathsOnce.Do(func() {
		r.headPath = newStatPath(filepath.Join(r.gitDir, "HEAD"))
		r.packedPath = newStatPath(filepath.Join(r.commonDir, "packed-refs"))
	})
	return r.headPath, r.packedPath
}
