package protect

import (
	"github.com/sessiongate/sessiongate/repopath"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The protected-file check runs before every gate call (session's
// guardProtected): fifteen paths, most of them absent, each hashed from the
// work tree. This file keeps, per worktree root and path, the answer with
// the lstat stamps it was computed under, so that a call whose stamps are
// unchanged reuses it: one lstat of the root answers for every absent
// root-level path, and a present file is not resolved, read and hashed
// again.
//
// Why this cannot hide a change: a stamp is the inode, mode, size,
// modification and change time (ctime, which no one can set back without
// root) of the root, of every folder on the path and of the file. Writing,
// replacing, renaming, chmod-ing the file, or adding, removing or renaming
// an entry of a folder changes one of them. An answer is stored only when
// every stamp was taken before the hash and is older than racyWindow (as
// git's racy-clean rule: a change made within the file system's timestamp
// granularity of the stamp could leave it equal). Links anywhere on the
// path, a non-folder in place of a folder, and globs whose folder exists
// are never cached: they take the full resolution on every call.

// racyWindow: a stamp younger than this is not trusted (coarse ctime
// granularity, clock steps).
const racyWindow = 2 * time.Second

// stampNow is the clock the racy rule reads (tests move it forward rather
// than sleep for two seconds).
var stampNow = time.Now

// SetStampNow moves the racy-rule clock: tests of the packages that call
// State make a file written just now count as old instead of sleeping.
func SetStampNow(f func() time.Time) { stampNow = f }

// pathStamp is what lstat says of one path; zero when lstat failed.
type pathStamp struct {
	dev, ino     uint64
	mode         uint32
	size         int64
	mtime, ctime int64 // nanoseconds
	isDir, isReg bool
}

// stampEntry is a cached answer: the stamps of root, each folder and (when
// present) the file, and the hash Hash gave (or the glob's
// matches, none while the glob's folder is absent).
type stampEntry struct {
	chain []pathStamp
	rels  []string // the path of each chain entry ("" the root), as valid reads them
	hash  string
}

var protectStamps = struct {
	sync.Mutex
	m map[string]stampEntry
}{m: map[string]stampEntry{}}

// stampMemo holds one call's lstats, so the root is stat'ed once per call
// however many protected paths sit under it.
type stampMemo struct {
	root string
	m    map[string]pathStamp
	err  map[string]bool // lstat failed (absent, or unreadable)
}

func newStampMemo(root string) *stampMemo {
	return &stampMemo{root: root, m: map[string]pathStamp{}, err: map[string]bool{}}
}

func (s *stampMemo) stat(rel string) (pathStamp, bool) {
	if st, ok := s.m[rel]; ok {
		return st, true
	}
	if s.err[rel] {
		return pathStamp{}, false
	}
	p := s.root
	if rel != "" {
		p = filepath.Join(s.root, filepath.FromSlash(rel))
	}
	st, ok := lstatStamp(p)
	if !ok {
		s.err[rel] = true
		return pathStamp{}, false
	}
	s.m[rel] = st
	return st, true
}

// chain stamps root, each folder of c and c itself, stopping after the
// first absent component. complete is false when the chain cannot be
// cached: a link or a non-folder on the way, a failed lstat that is not an
// absence, or no stamping on this platform.
func (s *stampMemo) chain(c string) (chain []pathStamp, absent, complete bool) {
	segs := strings.Split(c, "/")
	root, ok := s.stat("")
	if !ok || !root.isDir {
		return nil, false, false
	}
	chain = append(chain, root)
	for i := range segs {
		rel := strings.Join(segs[:i+1], "/")
		st, ok := s.stat(rel)
		if !ok {
			if !lstatAbsent(filepath.Join(s.root, filepath.FromSlash(rel))) {
				return nil, false, false
			}
			return chain, true, true
		}
		last := i == len(segs)-1
		if !last && !st.isDir || last && !st.isReg {
			return nil, false, false
		}
		chain = append(chain, st)
	}
	return chain, false, true
}

// valid reports whether every stamp of e is unchanged in this call.
func (s *stampMemo) valid(e stampEntry) bool {
	if len(e.rels) != len(e.chain) {
		return false
	}
	for i, want := range e.chain {
		got, ok := s.stat(e.rels[i])
		if !ok || got != want {
			return false
		}
	}
	return true
}

// chainRels is the path of each of n chain entries of c: the root, then
// each folder and the file (kept with the entry: a gate call validates
// them all without splitting the path again).
func chainRels(c string, n int) []string {
	segs := strings.Split(c, "/")
	rels := make([]string, n)
	for i := 1; i < n; i++ {
		rels[i] = strings.Join(segs[:i], "/")
	}
	return rels
}

// old reports whether every stamp predates the racy window before t0.
func old(chain []pathStamp, t0 time.Time) bool {
	limit := t0.Add(-racyWindow).UnixNano()
	for _, st := range chain {
		if st.mtime >= limit || st.ctime >= limit {
			return false
		}
	}
	return true
}

func stampKey(root, kind, c string) string { return root + "\x00" + kind + "\x00" + c }

// hashProtectedStamped is Hash answered from the stamp cache when
// nothing on the path changed.
func hashProtectedStamped(memo *stampMemo, rel string) string {
	// Keyed by rel as given: its cleaned form is a function of it, and the
	// entry's paths were cleaned when it was stored.
	key := stampKey(memo.root, "f", rel)
	protectStamps.Lock()
	e, hit := protectStamps.m[key]
	protectStamps.Unlock()
	if hit && memo.valid(e) {
		return e.hash
	}
	c, err := repopath.Clean(rel)
	if err != nil {
		return Hash(memo.root, rel)
	}
	t0 := stampNow()
	chain, absent, complete := memo.chain(c) // stamps first, then the hash
	h := Hash(memo.root, rel)
	protectStamps.Lock()
	defer protectStamps.Unlock()
	if complete && old(chain, t0) && (absent == (h == "")) && h != "outside-repository" && h != "unreadable" {
		protectStamps.m[key] = stampEntry{chain: chain, rels: chainRels(c, len(chain)), hash: h}
	} else {
		delete(protectStamps.m, key)
	}
	return h
}

// globStamped lists a glob's matches; a glob whose folder (all but its last
// segment, with no pattern characters) is absent is answered from the
// cache while the stamps up to the absent component are unchanged. Any
// other glob is expanded on disk.
func globStamped(memo *stampMemo, p string) ([]string, error) {
	c, err := repopath.Clean(p)
	dir := path.Dir(c)
	if err != nil || strings.Contains(c, "**") || dir == "." || repopath.HasMeta(dir) {
		return repopath.Glob(memo.root, p)
	}
	key := stampKey(memo.root, "g", dir)
	protectStamps.Lock()
	e, hit := protectStamps.m[key]
	protectStamps.Unlock()
	if hit && memo.valid(e) {
		return nil, nil
	}
	t0 := stampNow()
	chain, absent, complete := memo.chain(dir)
	ms, err := repopath.Glob(memo.root, p)
	if err == nil && complete && absent && len(ms) == 0 && old(chain, t0) {
		protectStamps.Lock()
		protectStamps.m[key] = stampEntry{chain: chain, rels: chainRels(dir, len(chain))}
		protectStamps.Unlock()
	}
	return ms, err
}
