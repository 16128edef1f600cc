// Package testrun reads what a test run runs and covers, with no session:
// whether a command line runs a project's whole suite or part of it
// (PartialRun), which suites a change needs (SuitesNeeded), whether a
// runner's output says it ran nothing (RanNoTests), what a `make test`
// target or `npm test` script runs (ScriptBody, TrivialScript), how the
// files a run reads besides the tests changed since a commit
// (InputChanges), and which skips a change added to test files
// (SkipsAdded), whether a `make test` or `npm test` the session rewrote
// or emptied proves nothing (WeakScript), and whether a `go test` would
// build against Go source outside the work tree changed in the session
// (GoDepsChanged, GoDataFile). The session package decides what a QA phase accepts from
// these answers; this one only reads files and git.
package testrun

import (
	"context"

	"github.com/sessiongate/sessiongate/internal/shorten"
)

// Repo is the little of a git repository these readers need;
// gitrepo.Repo and session.Repo implement it.
type Repo interface {
	Root() string
	// ChangedFiles lists files changed since a commit: committed, staged,
	// unstaged and untracked.
	ChangedFiles(ctx context.Context, since string) ([]string, error)
	// ExistsAt reports whether path is in commit rev's tree.
	ExistsAt(ctx context.Context, rev, path string) (bool, error)
	// ReadAt returns a file's content in commit rev.
	ReadAt(ctx context.Context, rev, path string) ([]byte, error)
}

func truncate(s string, n int) string { return shorten.Bytes(s, n, "...") }
