package gitrepo

import (
	"context"
	"encoding/binary"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// stagedCache keeps StagedProtected's last answer from git (a `git diff
// --cached` and one index read per staged file) for a long-lived Repo: the
// MCP server and `serve` check the protected files before every gate call
// (session.guardProtected). The answer is a function of the index's bytes
// and HEAD's commit alone, so it is keyed by both, the index the way git
// keys a file it has cached (racy-git): size, modification and change
// times, inode and mode. git writes the index by renaming a new file over
// it (new inode, new ctime); a change in place moves ctime, which no one
// can set back. An answer is kept only when the index's stamp and HEAD
// read the same before and after git ran, and only when the index's ctime
// is at least racyWindow old, so two writes within a coarse clock tick
// cannot share a stamp. It never replaces a read of the work tree: the
// work tree's protected files are hashed on every call
// (protect.State). Only where the stamp has a change time (Linux); with
// GIT_INDEX_FILE in the environment git reads another index: not cached.
type stagedCache struct {
	mu       sync.Mutex
	valid    bool
	patterns string
	head     string
	index    [stampLen]byte
	answer   map[string]string
	hits     int // for tests
	// lastList is the pattern list of the last call as given, lastKey its
	// sorted form.
	lastList []string
	lastKey  string
}

// racyWindow: an index younger than this is not cached (see stagedCache).
var racyWindow = 2 * time.Second

// stagedIndexPath is the index file `git diff --cached` reads in r, "" when
// it cannot be told (GIT_INDEX_FILE set: not cached).
func (r *Repo) stagedIndexPath() string {
	if stampLen != 40 || os.Getenv("GIT_INDEX_FILE") != "" {
		return ""
	}
	if r.indexFile != "" {
		return r.indexFile
	}
	return filepath.Join(r.gitDir, "index")
}

// stagedCached returns the kept answer for patterns when the index and
// HEAD are as they were; key is what to pass to stagedStore after asking git.
func (r *Repo) stagedCached(ctx context.Context, patterns []string, head string) (answer map[string]string, key stagedKey, ok bool) {
	path := r.stagedIndexPath()
	if path == "" || head == "" {
		return nil, stagedKey{}, false
	}
	c := &r.stagedCache
	c.mu.Lock()
	defer c.mu.Unlock()
	// Callers list the patterns in map order: the answer does not depend
	// on it. The sorted key of the last list is kept: a gate call passes
	// the same list in the same order as the one before.
	if !slices.Equal(c.lastList, patterns) {
		sorted := slices.Compact(slices.Sorted(slices.Values(patterns)))
		c.lastList, c.lastKey = slices.Clone(patterns), strings.Join(sorted, "\x00")
	}
	st, at := r.indexStamp(ctx, path) // shared with indexFlagged within a call
	key = stagedKey{path: path, patterns: c.lastKey, head: head, index: st, at: at}
	if c.valid && c.patterns == key.patterns && c.head == head && c.index == key.index {
		c.hits++
		return maps.Clone(c.answer), key, true
	}
	return nil, key, false
}

// stagedKey is what an answer from git is kept under.
type stagedKey struct {
	path, patterns, head string
	index                [stampLen]byte
	at                   time.Time // when the stamp was read, before git ran
}

// keepable reports whether git's answer under k could be kept: an index
// at least racyWindow old (stagedStore checks again after git ran).
func (k stagedKey) keepable() bool {
	if k.path == "" || k.head == "" || k.index == ([stampLen]byte{}) {
		return false
	}
	ctime := time.Unix(0, int64(binary.LittleEndian.Uint64(k.index[16:])))
	return k.at.Sub(ctime) >= racyWindow
}

// stagedStore keeps git's answer if nothing moved while git ran.
func (r *Repo) stagedStore(key stagedKey, headAfter string, answer map[string]string) {
	if key.path == "" || headAfter != key.head || stamp(key.path) != key.index {
		return
	}
	ctime := time.Unix(0, int64(binary.LittleEndian.Uint64(key.index[16:])))
	if key.index == ([stampLen]byte{}) || key.at.Sub(ctime) < racyWindow {
		return // no index, or one that may still change within its clock tick
	}
	c := &r.stagedCache
	c.mu.Lock()
	defer c.mu.Unlock()
	c.valid, c.patterns, c.head, c.index, c.answer = true, key.patterns, key.head, key.index, maps.Clone(answer)
}
