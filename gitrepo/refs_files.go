package gitrepo

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// refState is what the files say of a ref.
type refState int

const (
	refUnknown  refState = iota // the files cannot tell: ask git
	refAbsent                   // no such ref
	refDirect                   // a ref to an object id
	refSymbolic                 // a symbolic ref ("ref: <target>")
)

// readRefFiles reads one ref of the common dir (refs/heads/..., refs/remotes/...)
// from the files git's default ref backend keeps, without a git process:
// the loose file, then packed-refs. It answers refUnknown, and the caller
// runs git, for anything it does not know for sure: the reftable backend
// (HEAD names refs/heads/.invalid and refs/heads is not a folder), a file
// it cannot read, malformed content. value is the id or the symbolic
// target.
func readRefFiles(gitDir, commonDir, ref string) (state refState, value string) {
	if !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") {
		return refUnknown, ""
	}
	if b, err := boundedread.File(filepath.Join(gitDir, "HEAD"), boundedread.DefaultLimit); err != nil || strings.TrimSpace(string(b)) == "ref: refs/heads/.invalid" {
		return refUnknown, "" // reftable, or no HEAD to tell by
	}
	b, err := boundedread.File(filepath.Join(commonDir, filepath.FromSlash(ref)), boundedread.DefaultLimit)
	switch {
	case err == nil:
		s := strings.TrimSpace(string(b))
		if t, ok := strings.CutPrefix(s, "ref: "); ok {
			if strings.HasPrefix(t, "refs/") {
				return refSymbolic, t
			}
			return refUnknown, ""
		}
		if isHexID(s) {
			return refDirect, s
		}
		return refUnknown, ""
	case errors.Is(err, fs.ErrNotExist):
		// A folder on the path missing is absence too; a file where a
		// folder should be (ENOTDIR) is not ErrNotExist: unknown.
	default:
		return refUnknown, ""
	}
	packed, err := boundedread.File(filepath.Join(commonDir, "packed-refs"), boundedread.LargeLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return refAbsent, ""
	}
	if err != nil {
		return refUnknown, ""
	}
	for _, line := range strings.Split(string(packed), "\n") {
		if sha, name, ok := strings.Cut(strings.TrimRight(line, "\r"), " "); ok && name == ref {
			if !isHexID(sha) {
				return refUnknown, ""
			}
			return refDirect, sha
		}
	}
	return refAbsent, ""
}

// defaultBranchFromFiles is DefaultBranch read from the ref files, and
// whether refs/heads/<name> exists (CommitFacts counts it as shared); ok
// false: ask git. `git symbolic-ref --short` would print
// "remotes/origin/x" where a local ref named origin/x makes "origin/x"
// ambiguous; the name meant is x either way, which is what this answers.
func (r *Repo) defaultBranchFromFiles() (name string, local, ok bool) {
	st, target := readRefFiles(r.gitDir, r.commonDir, "refs/remotes/origin/HEAD")
	switch st {
	case refUnknown:
		return "", false, false
	case refSymbolic:
		n, isRemote := strings.CutPrefix(target, "refs/remotes/origin/")
		if !isRemote || n == "" {
			return "", false, false // an unusual target: git shortens it
		}
		switch ls, _ := readRefFiles(r.gitDir, r.commonDir, "refs/heads/"+n); ls {
		case refUnknown, refSymbolic:
			return "", false, false
		case refDirect:
			return n, true, true
		}
		return n, false, true
	}
	// No origin/HEAD, or one that is not symbolic: main, else master.
	for _, n := range []string{"main", "master"} {
		switch ls, _ := readRefFiles(r.gitDir, r.commonDir, "refs/heads/"+n); ls {
		case refUnknown, refSymbolic:
			return "", false, false
		case refDirect:
			return n, true, true
		}
	}
	return "", false, true
}

// maxSharedTips bounds the refs sharedSinceFromFiles checks one by one; a clone
// with more remote-tracking refs asks git.
const maxSharedTips = 32

// sharedTipsFromFiles lists the ids CommitFacts counts as shared tips
// (every remote-tracking ref, as `git rev-list --remotes` takes them, and
// the local default branch when it exists) from the ref files; ok false:
// ask git.
func (r *Repo) sharedTipsFromFiles(def string, local bool) (tips []string, ok bool) {
	names := map[string]bool{}
	remotes := filepath.Join(r.commonDir, "refs", "remotes")
	err := filepath.WalkDir(remotes, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(r.commonDir, p)
		if err != nil {
			return err
		}
		names[filepath.ToSlash(rel)] = true
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if packed, err := boundedread.File(filepath.Join(r.commonDir, "packed-refs"), boundedread.LargeLimit); err == nil {
		for _, line := range strings.Split(string(packed), "\n") {
			if _, name, ok := strings.Cut(strings.TrimRight(line, "\r"), " "); ok && strings.HasPrefix(name, "refs/remotes/") {
				names[name] = true
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if def != "" && local {
		names["refs/heads/"+def] = true
	}
	if len(names) > maxSharedTips {
		return nil, false
	}
	for name := range names {
		// A name git would not take as a ref (a leftover lock file) is
		// git's to judge.
		if strings.HasSuffix(name, ".lock") || strings.Contains(name, "/.") {
			return nil, false
		}
		st, v := readRefFiles(r.gitDir, r.commonDir, name)
		if st == refSymbolic { // origin/HEAD: the ref it names
			st, v = readRefFiles(r.gitDir, r.commonDir, v)
		}
		if st != refDirect {
			return nil, false
		}
		tips = append(tips, v)
	}
	return tips, true
}

// sharedSinceFromFiles answers, without git, which commits after since
// (a full id) up to head are shared, when the ref files settle it for all
// of them alike: all, when a shared tip is head itself (committing on the
// default branch); none, when every shared tip is since or one of its
// ancestors, so whatever a tip reaches since reaches too (the default
// branch still where the session started, no remote past it). ok false:
// ask git.
func (r *Repo) sharedSinceFromFiles(ctx context.Context, since, head, def string, local bool) (all, ok bool) {
	if len(since) != 40 || !isHexID(since) {
		return false, false
	}
	tips, ok := r.sharedTipsFromFiles(def, local)
	if !ok {
		return false, false
	}
	if slices.Contains(tips, head) {
		return true, true
	}
	for _, tip := range tips {
		if tip == since {
			continue
		}
		if is, ok := r.isAncestorFromObjects(ctx, tip, since); !ok || !is {
			return false, false
		}
	}
	return false, true
}
