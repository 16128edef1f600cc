package session

import (
	"context"
	"github.com/sessiongate/sessiongate/identity"
	"time"

	"github.com/sessiongate/sessiongate/policy"
	"github.com/sessiongate/sessiongate/protocolspec"
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
	// CommitFacts lists them with their committer times, Session-Id
	// trailers and whether a remote-tracking or the default branch has
	// them (ownwork.go).
	CommitFacts(ctx context.Context, since string) ([]CommitFact, error)
	// Status returns porcelain status entries; none means clean.
	Status(ctx context.Context) ([]string, error)

	// What the checks, reconciliation, identity and records need. Every
	// implementation has all of it: a check that found a method missing
	// would have to skip, and a skipped check is a gate passed without
	// the work.

	// DefaultBranch names the default branch ("" when none is found).
	DefaultBranch(ctx context.Context) (string, error)
	// CommitSubjects lists the commits after since with their subjects.
	CommitSubjects(ctx context.Context, since string) ([]CommitSubject, error)
	// StartCopy names the file of commit since that the work tree's file
	// at rel repeats: the same bytes anywhere in that tree, or the same
	// words (white space aside) in the same folder, rel itself included;
	// "" when the file is new work.
	StartCopy(ctx context.Context, since, rel string, known ...string) (string, error)
	// DiffLines returns a file's added and removed lines since a commit.
	DiffLines(ctx context.Context, since, path string) (added, removed []string, addedAt []int, err error)
	// VerifyStart checks a caller-supplied starting commit against HEAD.
	VerifyStart(ctx context.Context, commit, head string) (string, error)
	// LandedCommits lists the commits reachable from HEAD but neither from
	// since, from before (commits that existed when the session started)
	// nor from a remote-tracking branch (pulled work is not the session's),
	// oldest first.
	LandedCommits(ctx context.Context, since string, before []string) ([]LandedCommit, error)
	// LooseCommit reads one commit without starting git when it is a loose
	// object; ok is false otherwise.
	LooseCommit(sha string) (c LandedCommit, parents []string, ok bool)
	// StagedProtected returns, for each staged change (index vs HEAD) to a
	// file matching one of the root-anchored globs, the sha256 of its staged
	// content ("" for a staged deletion).
	StagedProtected(ctx context.Context, patterns []string) (map[string]string, error)
	// StagedPaths returns each file matching one of the root-anchored
	// globs whose index entry differs from HEAD's, with whether the index
	// deleted it.
	StagedPaths(ctx context.Context, patterns []string) (map[string]bool, error)
	// FilesAt lists the files of commit rev matching one of the
	// root-anchored globs.
	FilesAt(ctx context.Context, rev string, patterns []string) ([]string, error)
	// ReadCommitted is ReadAt for a commit id, read in process when it
	// can: the pre-commit hook's reads of HEAD's CI files.
	// ok is false when rev has no such file.
	ReadCommitted(ctx context.Context, rev, path string) (b []byte, ok bool, err error)
	// CommittedSHA256 returns, for each path, the sha256 of its content in
	// HEAD ("" when HEAD does not have it); nil when HEAD is unborn.
	CommittedSHA256(ctx context.Context, paths []string) (map[string]string, error)
	// SHA256sAt returns, for each path, the sha256 of its content in
	// commit rev ("" when rev does not have it).
	SHA256sAt(ctx context.Context, rev string, paths []string) (map[string]string, error)
	// ExistsAt reports whether path (a file or folder) is in commit rev's
	// tree.
	ExistsAt(ctx context.Context, rev, path string) (bool, error)
	// WorkTreeTree writes the tree a commit of every tracked file would
	// hold now (staged files and work-tree content; no untracked file) and
	// returns its id: what a QA run saw.
	WorkTreeTree(ctx context.Context) (string, error)
	// TreeDiff lists the files that differ between two trees or commits.
	TreeDiff(ctx context.Context, a, b string) ([]string, error)
	// ReadAt returns a file's content in commit rev (an error when rev
	// does not have it: ask ExistsAt first).
	ReadAt(ctx context.Context, rev, path string) ([]byte, error)
	// IsAncestor reports whether commit a is an ancestor of commit b (or b).
	IsAncestor(ctx context.Context, a, b string) (bool, error)
	// HiddenFiles lists tracked files whose work-tree content differs from
	// what git commits or compares, hidden from `git status` (skip-worktree,
	// assume-unchanged, a clean filter): path -> how.
	HiddenFiles(ctx context.Context) (map[string]string, error)
	// SparseLeftOut lists which of paths a sparse checkout leaves out of
	// the work tree (skip-worktree in the index, absent, not kept by the
	// configured patterns): not deleted, git commits them as indexed.
	// Not when its patterns changed at or after since (non-zero).
	SparseLeftOut(ctx context.Context, paths []string, since time.Time) (map[string]bool, error)
	// StatHiddenFiles lists tracked files whose content differs from the
	// index though their stat data matches it (an in-place rewrite with
	// the mtime set back), which `git status` reads clean. It hashes
	// every tracked file.
	StatHiddenFiles(ctx context.Context) ([]string, error)
	// ReplayedFrom returns the commit among candidates whose patch (git
	// patch-id --stable) equals commit c's, "" when none does.
	ReplayedFrom(ctx context.Context, c string, candidates []string) (string, error)
	// ReplayOriginals lists commits git's replay state names (hints the
	// agent can write: checked before use).
	ReplayOriginals(ctx context.Context) ([]LandedCommit, error)
	identity.Repo
	RecordRefWriter
	AcceptanceRepo
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
	// RecordsPush is the remote publishViolations pushes the records ref
	// to once an unlaunderable violation is on it ("" never: the
	// pre-push hook sends it with the code).
	RecordsPush string
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
	// UnmarkedPhases is the level of unmarked phases that neither a
	// command nor their text decides (unmarked_phases:; "" keeps the rule).
	UnmarkedPhases protocolspec.GateLevel
	// DefaultBranch is default_branch: the branch not_default_branch
	// guards besides origin/HEAD's ("" when the config names none).
	DefaultBranch string
	// MCPServersElsewhere is mcp_servers_elsewhere: servers configured
	// where sessiongate cannot read (mcpclaim.go).
	MCPServersElsewhere []string

	// transcript is set per session by the calls that read its agent
	// transcripts (ingestTranscripts) before deciding requirements.
	transcript transcriptInfo
	// sessionEvidence is the session's evidence of every phase, loaded by
	// the gate for a phase with a "before commit" requirement whose own
	// phase made no commit (beforecommit.go); nil elsewhere.
	sessionEvidence []Evidence
	// headBranch is the branch HEAD is on, read with sessionEvidence: a
	// branch check run on another branch is stale (beforecommit.go).
	headBranch string
	// branchHolds reports whether a branch holds a commit (nil: unknown):
	// a branch check is stale only when the commit it preceded is not on
	// the branch it showed (beforecommit.go).
	branchHolds func(branch, sha string) bool
}

// BindOptions are the parts of the config that change a phase's binding.
func (c Config) BindOptions() protocolspec.BindOptions {
	o := protocolspec.BindOptions{Unmarked: c.UnmarkedPhases}
	if len(c.Commands) > 0 {
		o.Commands = make(map[string]bool, len(c.Commands))
		for id := range c.Commands {
			o.Commands[id] = true
		}
	}
	return o
}
