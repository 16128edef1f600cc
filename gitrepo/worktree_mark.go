package gitrepo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/boundedread"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// WorktreeMark fingerprints the worktree without a git process: HEAD, every
// index entry (path, mode, object id, stage), the size, times and mode of
// each tracked file on disk, and the same of every untracked file that no
// .gitignore or info/exclude pattern ignores. Equal marks mean nothing was
// committed, staged, edited, created or deleted in between; a file touched
// without a change also moves the mark. An agent hook takes one at the
// start of a turn and one at the stop, where a `git status` would cost a
// process and a pass over the same files.
//
// ok is false, and the caller asks git, for what it does not read: a
// SHA-256 repository, a split or sparse index, submodules, reftable HEAD.
// Patterns of core.excludesFile are not read: files only they ignore count
// as untracked, which can move the mark, never hide a change.
func (r *Repo) WorktreeMark() (WorktreeState, bool) {
	head, _, ok := ReadHeadFiles(r.gitDir, r.commonDir)
	if !ok || sha256Repo(r.commonDir) {
		return WorktreeState{}, false
	}
	h := sha256.New()
	fmt.Fprintf(h, "head %s\x00", head)
	// The untracked walk runs while the tracked files are stat'ed, into a
	// hash of its own that joins the mark after the index's.
	hw := sha256.New()
	walked, untrackedAttrs := false, false
	ix, ok := r.hashIndex(h, func(tracked map[string]bool) {
		w := &untrackedWalk{root: r.root, h: hw, tracked: tracked}
		defer func() { untrackedAttrs = w.attributes }()
		if b, err := boundedread.File(filepath.Join(r.commonDir, "info", "exclude"), boundedread.DefaultLimit); err == nil {
			ps, ok := ignorePatterns(b, nil)
			if !ok {
				return
			}
			w.base = ps
		}
		walked = w.dir("", nil, w.base) == nil
	})
	if !ok || !walked {
		return WorktreeState{}, false
	}
	h.Write(hw.Sum(nil))
	st := WorktreeState{Mark: hex.EncodeToString(h.Sum(nil)[:16]), Head: head}
	if len(ix.suspects) > 0 && !ix.attributes && !untrackedAttrs && r.plainCheckout() {
		// A hook reads at most a few files, none large: past that, git decides.
		const maxReads, maxBytes = 32, 4 << 20
		for i, e := range ix.suspects {
			if i == maxReads {
				break
			}
			p := filepath.Join(r.root, filepath.FromSlash(e.path))
			if fi, err := os.Lstat(p); err != nil || fi.Size() > maxBytes {
				continue
			}
			b, err := boundedread.File(p, boundedread.LargeLimit)
			if err == nil && gitBlobID(b) != e.oid {
				st.Modified = true
				break
			}
		}
	}
	return st, true
}

// WorktreeState is what WorktreeMark reads.
type WorktreeState struct {
	Mark string // the fingerprint
	Head string // HEAD commit, "" on an unborn branch
	// Modified: a tracked file's content differs from its index entry, so
	// the worktree has uncommitted changes. False says nothing: ask git.
	Modified bool
}

// indexScan is what hashIndex learns besides the hash.
type indexScan struct {
	tracked    map[string]bool // tracked paths, and their folders (true)
	suspects   []suspect       // regular files whose stat differs from the index's
	attributes bool            // a .gitattributes is tracked
}

// suspect is a tracked file that may differ from its index entry.
type suspect struct{ path, oid string }

// hashIndex adds each index entry and its file's stat to h. during runs
// with the tracked paths while the files are stat'ed on other goroutines.
func (r *Repo) hashIndex(h hash.Hash, during func(tracked map[string]bool)) (indexScan, bool) {
	if filepath.Separator != '/' {
		return indexScan{}, false // paths below are joined with '/'
	}
	b, release, err := mapIndex(filepath.Join(r.gitDir, "index"))
	if errors.Is(err, fs.ErrNotExist) {
		tracked := map[string]bool{} // nothing added yet: every file is untracked
		if during != nil {
			during(tracked)
		}
		return indexScan{tracked: tracked}, true
	}
	if err != nil {
		return indexScan{}, false
	}
	defer release()
	const hashLen = 20
	if len(b) < 12+hashLen || string(b[:4]) != "DIRC" {
		return indexScan{}, false
	}
	version := binary.BigEndian.Uint32(b[4:])
	if version < 2 || version > 4 {
		return indexScan{}, false
	}
	end := len(b) - hashLen
	const fixed = 40 + hashLen + 2 // stat data, object id, flags
	count := uint64(binary.BigEndian.Uint32(b[8:]))
	if count > uint64((end-12)/(fixed+2)) {
		return indexScan{}, false // more entries than the file can hold
	}
	n := int(count)
	tracked := make(map[string]bool, n+n/8)
	scan := indexScan{tracked: tracked}
	ents := make([]markEntry, 0, n)
	off, prev := 12, ""
	for range n {
		start := off
		if off+fixed > end {
			return indexScan{}, false
		}
		e := b[off : off+fixed]
		mode := binary.BigEndian.Uint32(e[24:])
		oid := e[40 : 40+hashLen]
		flags := binary.BigEndian.Uint16(e[40+hashLen:])
		off += fixed
		var ext uint16
		if flags&0x4000 != 0 {
			if version < 3 || off+2 > end {
				return indexScan{}, false
			}
			ext = binary.BigEndian.Uint16(b[off:])
			off += 2
		}
		var path string
		if version == 4 {
			strip, k := gitVarint(b[off:end])
			if k == 0 || strip > uint64(len(prev)) {
				return indexScan{}, false
			}
			off += k
			nul := bytes.IndexByte(b[off:end], 0)
			if nul < 0 {
				return indexScan{}, false
			}
			path = prev[:len(prev)-int(strip)] + string(b[off:off+nul])
			off += nul + 1
		} else {
			nul := bytes.IndexByte(b[off:end], 0)
			if nul < 0 {
				return indexScan{}, false
			}
			path = string(b[off : off+nul])
			off = start + (off-start+nul+8)&^7 // 1-8 NULs pad to a multiple of 8
			if off > end {
				return indexScan{}, false
			}
		}
		prev = path
		if !filepath.IsLocal(path) || strings.Contains(path, `\`) {
			return indexScan{}, false // git writes no such entry: not an index to trust
		}
		if mode&0o170000 == 0o160000 { // a submodule: its state is git's to read
			return indexScan{}, false
		}
		// Every entry is stat'ed: a sparse checkout's skip-worktree file that
		// appears on disk is a change git reports. Only the content check
		// trusts the flags (assume-unchanged 0x8000, skip-worktree).
		ents = append(ents, markEntry{path: path, meta: e[24:28], oid: oid, stage: byte(flags >> 12 & 3),
			onDisk: ext&0x4000 == 0 && flags&0x8000 == 0, index: e[8:16], size: e[36:40]})
		if path == ".gitattributes" || strings.HasSuffix(path, "/.gitattributes") {
			scan.attributes = true
		}
		tracked[path] = false
		for d := filepath.Dir(filepath.FromSlash(path)); d != "."; d = filepath.Dir(d) {
			ds := filepath.ToSlash(d)
			if tracked[ds] {
				break
			}
			tracked[ds] = true
		}
	}
	for off+8 <= end {
		sig, size := string(b[off:off+4]), uint64(binary.BigEndian.Uint32(b[off+4:]))
		if sig == "link" || sig == "sdir" { // split or sparse index
			return indexScan{}, false
		}
		if size > uint64(end-off-8) {
			return indexScan{}, false // an extension past the end
		}
		off += 8 + int(size)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		stampAll(r.root, ents)
	}()
	if during != nil {
		during(tracked)
	}
	<-done
	var buf []byte
	for i := range ents {
		e := &ents[i]
		buf = append(buf[:0], e.path...)
		buf = append(buf, 0)
		buf = append(buf, e.meta...)
		buf = append(buf, e.oid...)
		buf = append(buf, e.stage)
		buf = append(buf, e.stamp[:]...)
		h.Write(buf)
		if e.changed {
			scan.suspects = append(scan.suspects, suspect{path: e.path, oid: hex.EncodeToString(e.oid)})
		}
	}
	return scan, true
}

// markEntry is one index entry as the mark hashes it. meta and oid point
// into the mapped index, so the hashing is done before it is unmapped.
type markEntry struct {
	path   string
	meta   []byte // mode
	oid    []byte
	stage  byte
	onDisk bool // neither skip-worktree nor assume-unchanged: its content may be checked
	stamp  [stampLen]byte
	// index and size are the entry's mtime (seconds, nanoseconds) and
	// size as the index caches them; changed: a regular file on disk
	// whose stat differs from them.
	index, size []byte
	changed     bool
}

// stampAll stats the entries' files on a few goroutines: a stat is a
// system call of about a microsecond here, and a worktree has thousands.
func stampAll(root string, ents []markEntry) {
	const chunk = 256
	workers := min(runtime.GOMAXPROCS(0), (len(ents)+chunk-1)/chunk)
	if workers <= 1 {
		stampRange(root, ents)
		return
	}
	var wg sync.WaitGroup
	per := (len(ents) + workers - 1) / workers
	for lo := 0; lo < len(ents); lo += per {
		part := ents[lo:min(lo+per, len(ents))]
		wg.Go(func() { stampRange(root, part) })
	}
	wg.Wait()
}

func stampRange(root string, ents []markEntry) {
	st := newStamper(root)
	defer st.close()
	for i := range ents {
		e := &ents[i]
		e.stamp = st.stamp(e.path) // zero for a file that is not there
		if e.onDisk {
			e.changed = stampDiffers(e.stamp, e.meta, e.index, e.size)
		}
	}
}

// untrackedWalk hashes the untracked, not ignored files below root, in
// path order, as git status --untracked-files=all lists them.
type untrackedWalk struct {
	root    string
	h       hash.Hash
	tracked map[string]bool
	base    []gitignore.Pattern
	list    *[]string // tests: the untracked paths, as git status names them
	// attributes: a .gitattributes the index does not track is in a
	// walked folder (git reads it, ignored or not).
	attributes bool
}

// dir walks one folder (rel "" is the root) under the patterns that apply
// to it, its own .gitignore added.
func (w *untrackedWalk) dir(rel string, comps []string, patterns []gitignore.Pattern) error {
	abs := filepath.Join(w.root, filepath.FromSlash(rel))
	// git (2.32+) does not follow a symlinked .gitignore: nor does the walk.
	if fi, err := os.Lstat(filepath.Join(abs, ".gitignore")); err == nil && fi.Mode().IsRegular() {
		b, err := boundedread.File(filepath.Join(abs, ".gitignore"), boundedread.DefaultLimit)
		if err != nil {
			return err
		}
		ps, ok := ignorePatterns(b, comps)
		if !ok {
			return errUnsupportedPattern
		}
		patterns = append(patterns[:len(patterns):len(patterns)], ps...)
	}
	ents, err := os.ReadDir(abs)
	if err != nil {
		if rel != "" && errors.Is(err, fs.ErrNotExist) {
			return nil // removed while walking
		}
		return err
	}
	m := gitignore.NewMatcher(patterns)
	for _, e := range ents {
		name := e.Name()
		if name == ".git" {
			continue // git skips it at every depth
		}
		p := name
		if rel != "" {
			p = rel + "/" + name
		}
		isDir, inIndex := e.IsDir(), false
		folder, known := w.tracked[p]
		if known && folder == isDir {
			inIndex = true
		}
		if inIndex && !isDir {
			continue // hashed with the index
		}
		if name == ".gitattributes" {
			w.attributes = true
		}
		sub := append(comps[:len(comps):len(comps)], name)
		if m.Match(sub, isDir) {
			continue
		}
		if !isDir {
			st := stamp(filepath.Join(abs, name))
			fmt.Fprintf(w.h, "? %s\x00%s", p, st[:])
			w.note(p)
			continue
		}
		if !inIndex {
			if nestedRepo(filepath.Join(abs, name)) {
				fmt.Fprintf(w.h, "? %s/\x00", p) // a repository of its own: git lists the folder
				w.note(p + "/")
				continue
			}
		}
		if err := w.dir(p, sub, patterns); err != nil {
			return err
		}
	}
	return nil
}

func (w *untrackedWalk) note(p string) {
	if w.list != nil {
		*w.list = append(*w.list, p)
	}
}

// errUnsupportedPattern: an ignore pattern go-git's matcher would read
// otherwise than git; the caller asks git.
var errUnsupportedPattern = errors.New("an ignore pattern the in-process matcher does not read as git does")

// ignorePatterns parses a .gitignore or exclude file whose folder is
// domain. go-git's matcher differs from git's wildmatch in two ways it
// fixes here: `[!x]` is git's negated class (filepath.Match knows only
// `[^x]`), and `dir/**` matches what is in dir, not dir itself. ok is false
// for what it cannot fix (POSIX classes such as `[[:digit:]]`, escapes in
// a class).
func ignorePatterns(b []byte, domain []string) ([]gitignore.Pattern, bool) {
	var ps []gitignore.Pattern
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		if strings.Contains(line, "[[:") || strings.Contains(line, "[\\") || strings.Contains(line, "\\[") {
			return nil, false
		}
		line = strings.ReplaceAll(line, "[!", "[^")
		if t := strings.TrimRight(line, " "); strings.HasSuffix(strings.TrimSuffix(t, "/"), "/**") || strings.TrimSuffix(t, "/") == "**" {
			dirOnly := strings.HasSuffix(t, "/")
			line = strings.TrimSuffix(t, "/") + "/*"
			if dirOnly {
				line += "/"
			}
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps, true
}

// nestedRepo reports a folder git takes for a repository of its own: its
// .git is a folder holding HEAD, or a "gitdir: " file.
func nestedRepo(dir string) bool {
	p := filepath.Join(dir, ".git")
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		return false
	case fi.IsDir():
		_, err := os.Lstat(filepath.Join(p, "HEAD"))
		return err == nil
	case fi.Mode().IsRegular():
		b := make([]byte, 8)
		f, err := boundedread.Open(p)
		if err != nil {
			return false
		}
		defer f.Close()
		n, _ := f.Read(b)
		return string(b[:n]) == "gitdir: "
	}
	return false
}

// WorkStatus reads the worktree with one `git status --porcelain=v2
// --branch --untracked-files=all`: HEAD, whether anything is uncommitted
// (changed, staged or untracked), and a mark of that output plus each named
// file's stat (git's line for a changed file carries the HEAD and index
// ids, not the worktree's, so a second edit would not move it otherwise).
// It is WorktreeMark's fallback and the exact answer to "is it dirty".
func (r *Repo) WorkStatus(ctx context.Context) (mark, head string, dirty bool, err error) {
	out, err := run(ctx, r.root, "--no-optional-locks", "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all")
	if err != nil {
		return "", "", false, fmt.Errorf("git status: %w", err)
	}
	h := sha256.New()
	h.Write(out)
	recs := bytes.Split(out, []byte{0})
	for i := 0; i < len(recs); i++ {
		rec := recs[i]
		switch {
		case len(rec) == 0:
		case bytes.HasPrefix(rec, []byte("# branch.oid ")):
			if oid := string(rec[len("# branch.oid "):]); oid != "(initial)" {
				head = oid
			}
		case rec[0] == '#':
		default:
			dirty = true
			if p := porcelainPath(rec); p != "" {
				st := stamp(filepath.Join(r.root, filepath.FromSlash(p)))
				h.Write(st[:])
			}
			if rec[0] == '2' {
				i++ // a rename's record is followed by its original path
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), head, dirty, nil
}

// porcelainPath is the path of one porcelain v2 record: what follows its
// fixed fields ("1", "2" and "u" records have 8, 9 and 10 before the
// path, which may itself hold spaces; "?" and "!" one).
func porcelainPath(rec []byte) string {
	fields := map[byte]int{'1': 8, '2': 9, 'u': 10, '?': 1, '!': 1}[rec[0]]
	p := rec
	for range fields {
		_, rest, ok := bytes.Cut(p, []byte{' '})
		if !ok {
			return ""
		}
		p = rest
	}
	return string(p)
}

// plainCheckout reports that no setting can make a worktree file's bytes
// differ from its blob's (line-ending conversion, attributes, filters):
// then a tracked file whose bytes hash to another blob id is modified.
// Any attributes file outside the tree, and any config that names them,
// includes another file or cannot be read, says no.
func (r *Repo) plainCheckout() bool {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	attrs := []string{filepath.Join(r.commonDir, "info", "attributes"), filepath.Join(xdg, "git", "attributes")}
	if os.Getenv("GIT_ATTR_SOURCE") != "" {
		return false // git --attr-source: attributes are read from a tree, not the worktree
	}
	nosystem, ok := gitBool(os.Getenv("GIT_ATTR_NOSYSTEM"))
	if !ok {
		return false
	}
	if !nosystem {
		attrs = append(attrs, systemAttributes...)
	}
	for _, p := range attrs {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			return false
		}
	}
	// "attr" is attr.tree as well as core.attributesFile: attr.tree too
	// names a tree whose .gitattributes git reads.
	return !r.ConfigMentions(os.Getenv, "autocrlf", "eol", "attr", "include", "filter", "worktreeconfig")
}
