// Package hiddenwork lists the files whose work tree differs from what is
// committed by a means git status does not show: update-index flags
// (skip-worktree, assume-unchanged), a clean filter, stat data kept over
// a rewrite, CRLF scripts git converts, and tree gaps (a test file left
// out of the work tree, a changed link out of git). A test run over such
// a tree ran what no clone has, so QA evidence and a QA gate's own run
// are refused on it.
//
// It needs no session: a Repo (gitrepo.Repo and session.Repo have it),
// when the session started and a lister of its changed files.
package hiddenwork

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/sessiongate/sessiongate/repopath"
)

// Repo is what List reads of the repository.
type Repo interface {
	// HiddenFiles lists the files git status is told not to show, with how.
	HiddenFiles(ctx context.Context) (map[string]string, error)
	// StatHiddenFiles lists tracked files whose content changed under
	// unchanged stat data.
	StatHiddenFiles(ctx context.Context) ([]string, error)
}

// ConvertedScripter lists tracked shell scripts whose work tree has CRLF
// line ends git converts away (gitrepo.Repo.ConvertedScripts).
type ConvertedScripter interface {
	ConvertedScripts(ctx context.Context) ([]string, error)
}

// TreeGapper lists tracked paths whose work tree lets a run read what the
// commit does not hold and git status does not report (an absent
// skip-worktree file, a changed link out of the tree: gitrepo.Repo.TreeGaps).
type TreeGapper interface {
	TreeGaps(ctx context.Context, since time.Time, changed []string) (map[string]string, error)
}

// List lists, as "path: how", the files other than documentation
// (docGlobs) whose work tree differs from what is committed by a means
// git status does not show: update-index flags, a clean filter, kept stat
// data, CRLF scripts git converts, and TreeGaps (a test file left out of
// the work tree, a changed link out of git). session's staleQA blocks the end on
// them, and a QA command gate refuses to run on them: the gate ran `go
// test ./...` itself at session end on a tree with greet_test.go flagged
// skip-worktree (or assume-unchanged) and removed, and the session ended
// COMPLETE clean.
//
// started is when the session started (a tree gap is judged from then);
// changed lists the session's changed files, asked only of a Repo that
// reports tree gaps.
func List(ctx context.Context, repo Repo, started time.Time, changed func() ([]string, error), docGlobs []string) ([]string, error) {
	// Changes git hides from status (update-index flags, a clean filter)
	// are changes the commit does not hold, like the dirty ones.
	hidden, err := repo.HiddenFiles(ctx)
	if err != nil {
		return nil, err
	}
	// A rewrite that kept size, inode and mtime is clean to status and to
	// the flags above; only its content tells.
	statHidden, err := repo.StatHiddenFiles(ctx)
	if err != nil {
		return nil, err
	}
	for _, f := range statHidden {
		if _, ok := hidden[f]; !ok {
			hidden[f] = "its stat data (size, mtime, inode) was kept, so git status reads it unchanged"
		}
	}
	// CRLF line ends git converts away: bash ran a script the commit
	// does not hold (set -e fails on "-e\r" and the script goes on).
	if cs, ok := repo.(ConvertedScripter); ok {
		conv, err := cs.ConvertedScripts(ctx)
		if err != nil {
			return nil, err
		}
		for _, f := range conv {
			if _, ok := hidden[f]; !ok {
				hidden[f] = "its work tree has CRLF line ends that git converts away (core.autocrlf or an eol attribute), so bash ran each line with a trailing CR"
			}
		}
	}
	// A test file left out of the work tree (skip-worktree, a sparse
	// checkout set in the session) or a changed link to a file outside
	// git: the run read a tree no clone has.
	if tg, ok := repo.(TreeGapper); ok {
		changed, err := changed()
		if err != nil {
			return nil, err
		}
		gaps, err := tg.TreeGaps(ctx, started, changed)
		if err != nil {
			return nil, err
		}
		for f, how := range gaps {
			if _, ok := hidden[f]; !ok {
				hidden[f] = how
			}
		}
	}
	var hiddenCode []string
	for _, f := range slices.Sorted(maps.Keys(hidden)) {
		if !isDocIn(docGlobs, f) {
			hiddenCode = append(hiddenCode, f+": "+hidden[f])
		}
	}
	return hiddenCode, nil
}

// isDocIn reports whether f matches one of the documentation globs.
func isDocIn(globs []string, f string) bool {
	for _, g := range globs {
		if repopath.Match(g, f) {
			return true
		}
	}
	return false
}
