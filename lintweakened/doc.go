// Package lintweakened says whether a lint run that passed ran under rules
// the session weakened, so that its pass proves nothing: a config that
// makes the linter unable to fail written or changed in the session (or
// by an earlier agent session's commit not yet on the default branch), a
// runner's target (npm run lint, make lint) loosened, a whole-file
// suppression comment a team's file gained, markdownlint-cli2's config or
// a rules-off comment changed. quietlint holds the rules over a line and a
// file's text; this package compares them with the session's start.
//
// It needs no session: a Repo (what gitrepo.Repo and session.Repo have)
// and the few facts of the session in a Session. session/ calls it from
// the lint gate and from the observed-run check.
package lintweakened

import (
	"context"
	"time"

	"github.com/sessiongate/sessiongate/owncommit"
)

// Repo is what the rules read of the repository: its root, files at a
// commit, the commits since one and their facts, and ancestry.
type Repo interface {
	Root() string
	ExistsAt(ctx context.Context, rev, path string) (bool, error)
	ReadAt(ctx context.Context, rev, path string) ([]byte, error)
	IsAncestor(ctx context.Context, a, b string) (bool, error)
	DefaultBranch(ctx context.Context) (string, error)
	CommitFacts(ctx context.Context, since string) ([]owncommit.Fact, error)
	DiffLines(ctx context.Context, since, path string) (added, removed []string, addedAt []int, err error)
}

// Session is what the rules need of the session being judged.
type Session struct {
	// ID tells the session's own commits from an earlier session's.
	ID string
	// Worktree is the work tree the lint ran in.
	Worktree string
	// StartCommit is the commit the session started at ("" when unborn:
	// nothing is judged against it).
	StartCommit string
	// CreatedAt dates a file not committed at the start: one changed since
	// is the session's.
	CreatedAt time.Time
	// Files lists the files the session changed (session's sessionFiles:
	// what git reports, and rewrites git status reads clean).
	Files func(ctx context.Context, repo Repo) ([]string, error)
}
