package session

import (
	"context"
	"time"

	"github.com/sessiongate/sessiongate/policy"
)

// Repo is the engine's view of a worktree; gitrepo.Repo implements it.
type Repo interface {
	Root() string
	// MainRoot names the repository across its worktrees.
	MainRoot() string
	Name() string
	// Head returns the HEAD commit ("" when unborn) and branch ("" when detached).
	Head(ctx context.Context) (commit, branch string, err error)
	// ChangedFiles lists files changed since a commit: committed, staged,
	// unstaged and untracked. since == "" means every file.
	ChangedFiles(ctx context.Context, since string) ([]string, error)
	// StagedFiles lists the files the next commit records.
	StagedFiles(ctx context.Context) ([]string, error)
	// CommitsSince lists commits on HEAD after since, newest first.
	CommitsSince(ctx context.Context, since string) ([]string, error)
	// Status returns porcelain status entries; none means clean.
	Status(ctx context.Context) ([]string, error)
}

// Config is the part of the configuration the engine uses.
type Config struct {
	// IdleTimeout ends a session's right to advance after this much inactivity.
	IdleTimeout time.Duration
	// StoreRawEvidence keeps evidence bodies, not only their hashes.
	StoreRawEvidence bool
	// Commands overrides or adds the command check of a phase, by phase id.
	// Commands come only from here or from the protocol, never from a caller.
	Commands map[string]string
	// CommandTimeout is the default timeout of a command check.
	CommandTimeout time.Duration
	// HistorySize is how many ended sessions session_start returns.
	HistorySize int
	// DocGlobs are the files that count as documentation for skip_qa.
	DocGlobs []string
	// Policy holds the sequence rules (nil: the shipped defaults).
	Policy *policy.Config
	// SessionRecord is where session_end writes the session record file, a
	// repository-relative template with {session_id}; "" writes none.
	SessionRecord string
	// Version is reported in snapshot envelopes.
	Version string
	// Protect turns on the protection of the protocol, the config and the
	// agent and git hook configs during a session (protect.go).
	Protect bool
	// ProtectedPaths are extra root-anchored globs to protect.
	ProtectedPaths []string
	// ObservedPhases are phase ids whose evidence must be observed (a
	// command sessiongate saw run), never only claimed.
	ObservedPhases []string
	// ProtocolPath is the repository-relative protocol document the config
	// names ("" when it names none).
	ProtocolPath string
}
