// Package docsaffected decides a docs check's when=docs_affected condition
// and what then answers it: whether a session's change touches a name a
// tracked doc mentions (a flag, an environment variable, an exported
// identifier, a file), read from the diff and the docs as the start
// commit holds them, and whether the session changed a doc that names it
// where it names it (not a CHANGELOG line, a whitespace edit or a comment).
// docmention holds the rules over names and text; docsgo the Go source.
//
// It needs no session: a Repo (what gitrepo.Repo and session.Repo have)
// and the session's change in a Change. session/ runs it under a check's
// condition (gatecondition.go) and turns its answer into a gate result.
package docsaffected

import "context"

// Repo is what the rules read of the repository.
type Repo interface {
	Root() string
	DiffLines(ctx context.Context, since, path string) (added, removed []string, addedAt []int, err error)
	ReadAt(ctx context.Context, rev, path string) ([]byte, error)
	// HiddenFiles lists the tracked files git is told to hide
	// (skip-worktree, assume-unchanged): read at the start, not the tree.
	HiddenFiles(ctx context.Context) (map[string]string, error)
}

// TreeLister lists the files of a commit (gitrepo.Repo); a Repo without
// it has no tracked docs to read.
type TreeLister interface {
	TreeFiles(ctx context.Context, rev string) ([]string, error)
}

// Change is the session's change the rules judge.
type Change struct {
	Repo Repo
	// Start is the session's starting commit ("" when unborn).
	Start string
	// Files are the files the session changed (session's sessionFiles).
	Files []string
	// IsRecord reports whether a path is a session record sessiongate
	// writes (never a doc, never a change to judge); nil: none is.
	IsRecord func(rel string) bool
}

func (ch Change) isRecord(rel string) bool { return ch.IsRecord != nil && ch.IsRecord(rel) }

// firstN keeps n of l, "..." standing for the rest.
func firstN(l []string, n int) []string {
	if len(l) > n {
		return append(l[:n:n], "...")
	}
	return l
}
