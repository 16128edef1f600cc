// Package gitrepo is sessiongate's one view of a git repository, used by
// the CLI, the servers and every hook: go-git for refs, HEAD, log and
// config; the git CLI for the index and the work tree (staged files honour
// GIT_INDEX_FILE, and status is much faster than go-git's Worktree.Status,
// which must never run in a hook). A Repo is safe for concurrent use.
package gitrepo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"

	"github.com/go-git/go-billy/v5/osfs"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/identity"
	"github.com/sessiongate/sessiongate/internal/gitmemo"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/session"
)

// Repo is one worktree of a git repository. Its paths are fixed when it is
// opened; go-git is opened on first use (most hooks never need it) and
// used under a lock, since go-git's storage is not documented as safe for
// concurrent use; the git processes need no lock.
type Repo struct {
	root      string // worktree top level, absolute
	commonDir string // shared .git dir, absolute
	gitDir    string // this worktree's git dir, absolute
	// fromDotGit: located from the .git entry without git (OpenHook).
	fromDotGit bool
	// indexFile is the index a hook's git command uses (SetIndexFile);
	// "" means always ask git about the index.
	indexFile string

	mu   sync.Mutex // guards repo and every go-git read through it
	repo *filesystem.Storage

	headCache   headCache   // Head's file reads (head_cache.go)
	stagedCache stagedCache // StagedProtected's git answers (staged_cache.go)
	filterCache filterCache // cleanFilters' git answers (config_cache.go)
	configList  configList  // configFiles per environment (config_cache.go)
	systemPlace systemPlace // the system config file git reads (system_config.go)
	// HEAD's and packed-refs' paths for the head cache (head_cache.go)
	headPathsOnce        sync.Once
	headPath, packedPath statPath
	flaggedCache         flaggedCache // indexFlagged's reading (index_flags.go)
	formatOnce           sync.Once
	sha256               bool      // SHA-256 objects (isSHA256)
	headFiles            headFiles // CommittedSHA256's answers by commit (committed_cache.go)
	facts                factsMemo // CommitFacts' answers within one hook run (commitfacts.go)
}

// Open finds the repository containing dir with one `git rev-parse` call.
func Open(ctx context.Context, dir string) (*Repo, error) {
	out, err := run(ctx, dir, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir", "--git-dir")
	if err != nil {
		return nil, fmt.Errorf("find git repository from %s: %w", dir, err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 3 {
		return nil, fmt.Errorf("find git repository from %s: unexpected rev-parse output %q", dir, out)
	}
	r := &Repo{root: lines[0], commonDir: lines[1], gitDir: lines[2]}
	return r, nil
}

// Root is the worktree's top-level directory.
func (r *Repo) Root() string { return r.root }

// CommonDir is the git dir shared by all worktrees (where the database lives).
func (r *Repo) CommonDir() string { return r.commonDir }

// GitDir is this worktree's own git dir.
func (r *Repo) GitDir() string { return r.gitDir }

// MainRoot is the main worktree's top level: the common dir's parent for a
// normal repository, which names the repository across worktrees.
func (r *Repo) MainRoot() string {
	if filepath.Base(r.commonDir) == ".git" {
		return filepath.Dir(r.commonDir)
	}
	return r.commonDir // bare or unusual layout: the common dir itself
}

// Name is a short name for the repository: the last path segment of the
// origin remote's URL when there is one (so every clone of a project, in
// any folder, has the same name and snapshot ids do not depend on where it
// was checked out), else the main worktree's folder name.
func (r *Repo) Name() string {
	if n := urlName(r.OriginURL()); n != "" {
		return n
	}
	return strings.TrimSuffix(filepath.Base(r.MainRoot()), ".git")
}

// NameSource says where Name came from, for messages that compare names.
func (r *Repo) NameSource() string {
	if u := r.OriginURL(); urlName(u) != "" {
		return "the last path segment of remote origin's URL " + u
	}
	return "the folder name of " + r.MainRoot() + " (no origin remote)"
}

// urlName is the last segment of a remote URL, without ".git":
// "git@github.com:o/proj.git" and "https://host/o/proj" both give "proj".
func urlName(u string) string {
	u = strings.TrimRight(strings.TrimSpace(u), "/")
	if i := strings.LastIndexAny(u, "/:"); i >= 0 {
		u = u[i+1:]
	}
	return strings.TrimSuffix(u, ".git")
}

// withGoGit runs fn on the go-git repository under the lock, opening it on
// first use. A failing read is retried once on a freshly opened repository
// (a repack may have replaced the packs an old one had open), so a Repo
// shared by a long-running server never stays broken.
func (r *Repo) withGoGit(ctx context.Context, fn func(*filesystem.Storage) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	fresh := r.repo == nil
	if fresh {
		if err := r.openGoGit(); err != nil {
			return err
		}
	}
	err := fn(r.repo)
	if err == nil || fresh || ctx.Err() != nil {
		return err
	}
	if r.openGoGit() != nil {
		return err
	}
	return fn(r.repo)
}

// openGoGit opens go-git's storage on the git dirs rev-parse (or the .git
// entry) named, as go-git's PlainOpen would with EnableDotGitCommonDir, but
// through the storage package: go-git's top-level package links every
// transport (ssh, http, git), whose package init every process, each hook
// included, would pay for nothing.
func (r *Repo) openGoGit() error {
	dot := osfs.New(r.gitDir)
	if _, err := dot.Stat(""); err != nil {
		return fmt.Errorf("open git repository %s: %w", r.root, err)
	}
	var fs = dot
	if filepath.Clean(r.commonDir) != filepath.Clean(r.gitDir) {
		fs = dotgit.NewRepositoryFilesystem(dot, osfs.New(r.commonDir))
	}
	r.repo = filesystem.NewStorage(fs, cache.NewObjectLRUDefault())
	return nil
}

// Head returns the HEAD commit ("" on an unborn branch) and the branch name
// ("" when detached).
func (r *Repo) Head(ctx context.Context) (commit, branch string, err error) {
	snap := snapshotOf(ctx)
	if snap != nil {
		if h, ok := snap.head(r); ok {
			return h.commit, h.branch, nil
		}
		defer func() {
			if err == nil {
				snap.putHead(r, snapHead{commit, branch})
			}
		}()
	}
	// The files answer without go-git in the common layouts; every engine
	// call reads HEAD (to reconcile unseen commits), so this is a hot path.
	if commit, branch, ok := r.headFromFiles(); ok {
		return commit, branch, nil
	}
	err = r.withGoGit(ctx, func(repo *filesystem.Storage) error {
		ref, err := repo.Reference(plumbing.HEAD)
		if err != nil {
			return fmt.Errorf("read HEAD: %w", err)
		}
		if ref.Type() != plumbing.SymbolicReference {
			commit, branch = ref.Hash().String(), ""
			return nil
		}
		branch = ref.Target().Short()
		target, err := storer.ResolveReference(repo, ref.Target())
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			commit = "" // unborn branch
			return nil
		}
		if err != nil {
			return fmt.Errorf("resolve HEAD: %w", err)
		}
		commit = target.Hash().String()
		return nil
	})
	if err != nil {
		return "", "", err
	}
	return commit, branch, nil
}

// CommitsSince lists commits reachable from HEAD but not from since, newest
// first. since == "" (session started on an unborn branch) means every commit.
func (r *Repo) CommitsSince(ctx context.Context, since string) ([]string, error) {
	head, _, err := r.Head(ctx)
	if err != nil || head == "" {
		return nil, err
	}
	if head == since {
		return nil, nil
	}
	var out []string
	err = r.withGoGit(ctx, func(repo *filesystem.Storage) error {
		out = out[:0]
		stop := map[plumbing.Hash]bool{}
		if since != "" {
			// Everything reachable from since is excluded (merges included).
			iter, err := logFrom(repo, since)
			if err != nil {
				return fmt.Errorf("log from start commit %s: %w", since, err)
			}
			_ = iter.ForEach(func(c *object.Commit) error { stop[c.Hash] = true; return nil })
		}
		iter, err := logFrom(repo, head)
		if err != nil {
			return fmt.Errorf("log from HEAD: %w", err)
		}
		err = iter.ForEach(func(c *object.Commit) error {
			if !stop[c.Hash] {
				out = append(out, c.Hash.String())
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("walk log: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// logFrom walks the commits reachable from hash, newest first, as go-git's
// Repository.Log does by default (pre-order, depth first).
func logFrom(repo *filesystem.Storage, hash string) (object.CommitIter, error) {
	c, err := object.GetCommit(repo, plumbing.NewHash(hash))
	if err != nil {
		return nil, err
	}
	return object.NewCommitPreorderIter(c, nil, nil), nil
}

// ChangedFilesSince is ChangedFiles with the tracked files whose index
// entry's ctime is not older than start (a session's start: the files it
// touched) compared by content: a rewrite in place at the same size, its
// mtime set back within the second of a refresh, reads clean to git
// status (racyctime.go). Only those entries are hashed, so a session that
// touched few files pays for few; an index the in-process reader does not
// take is left to git status (the end compares every file).
func (r *Repo) ChangedFilesSince(ctx context.Context, since string, start time.Time) ([]string, error) {
	// One gate's checks ask this many times (internal/gitmemo).
	out, err := gitmemo.Tree(ctx, "since\x00"+r.root+"\x00"+r.indexFile+"\x00"+since+"\x00"+start.UTC().Format(time.RFC3339Nano), func() ([]string, error) {
		return r.changedFilesSince(ctx, since, start)
	})
	return slices.Clone(out), err
}

func (r *Repo) changedFilesSince(ctx context.Context, since string, start time.Time) ([]string, error) {
	if since == "" {
		return r.ChangedFiles(ctx, since) // every file already
	}
	var racy []string
	var racyErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		racy, racyErr = r.racyCompare(ctx, start, false)
	}()
	out, err := r.ChangedFiles(ctx, since)
	<-done
	if err != nil {
		return nil, err
	}
	if racyErr != nil {
		return nil, fmt.Errorf("compare the files touched since the start by content: %w", racyErr)
	}
	for _, p := range racy {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// ChangedFiles lists files changed since the commit `since`: committed,
// staged, unstaged and untracked (not ignored). since == "" means every
// tracked or untracked file counts as changed (the session started before the
// first commit).
func (r *Repo) ChangedFiles(ctx context.Context, since string) ([]string, error) {
	out, err := gitmemo.Tree(ctx, "changed\x00"+r.root+"\x00"+r.indexFile+"\x00"+since, func() ([]string, error) {
		return r.changedFiles(ctx, since)
	})
	return slices.Clone(out), err
}

func (r *Repo) changedFiles(ctx context.Context, since string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(fs []string) {
		for _, f := range fs {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	if since == "" {
		b, err := run(ctx, r.root, "ls-files", "-z")
		if err != nil {
			return nil, fmt.Errorf("list tracked files: %w", err)
		}
		add(splitZ(b))
		b, err = run(ctx, r.root, "ls-files", "--others", "--exclude-standard", "-z")
		if err != nil {
			return nil, fmt.Errorf("list untracked files: %w", err)
		}
		add(r.expandFolders(splitZ(b), false))
		return out, nil
	}
	// One scan of the work tree (git status: staged, unstaged and untracked
	// against HEAD) and, when HEAD moved since the start, a tree-to-tree
	// diff for what was committed, which reads no work tree; both at once.
	head, _, err := r.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("list files changed since %s: %w", shorten.SHA(since), err)
	}
	var committed []byte
	var diffErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if head != "" && head != since {
			committed, diffErr = run(ctx, r.root, "diff", "--name-only", "-z", "--no-renames", since, head, "--")
		}
	}()
	status, err := run(ctx, r.root, "--no-optional-locks", "status", "--porcelain", "-z", "--no-renames", "--untracked-files=all")
	<-done
	if err != nil {
		return nil, fmt.Errorf("list changed files: %w", err)
	}
	if diffErr != nil {
		return nil, fmt.Errorf("list files committed since %s: %w", shorten.SHA(since), diffErr)
	}
	add(r.expandFolders(splitZ(committed), true))
	add(r.expandFolders(statusPaths(status), true))
	return out, nil
}

// statusPaths returns the paths of `git status --porcelain -z --no-renames`
// entries ("XY path").
func statusPaths(b []byte) []string {
	var out []string
	for _, e := range splitZ(b) {
		if len(e) > 3 {
			out = append(out, e[3:])
		}
	}
	return out
}

// StagedFiles lists files in the index that differ from HEAD, the files a
// commit is about to record (deleted files excluded). It honours
// GIT_INDEX_FILE, so `git commit -a` and `git commit <paths>` are right.
func (r *Repo) StagedFiles(ctx context.Context) ([]string, error) {
	b, err := run(ctx, r.root, "diff", "--cached", "--name-only", "-z", "--diff-filter=ACMRT", "--no-renames")
	if err != nil {
		return nil, fmt.Errorf("list staged files: %w", err)
	}
	return splitZ(b), nil
}

// Status returns `git status --porcelain` entries; none means clean. A
// tracked file whose change its stat data hides, an entry refreshed in
// the second of its ctime (racyctime.go), is listed as modified
// (" M path") too.
func (r *Repo) Status(ctx context.Context) ([]string, error) {
	return r.StatusSince(ctx, time.Time{})
}

// StatusSince is Status that also compares by content every tracked file
// whose ctime is not older than since (a session's start): the files a
// session touched, where a rewrite hidden in a refresh's second stays
// hidden after git writes the index again.
func (r *Repo) StatusSince(ctx context.Context, since time.Time) ([]string, error) {
	b, err := run(ctx, r.root, "status", "--porcelain", "-z", "--untracked-files=normal")
	if err != nil {
		return nil, fmt.Errorf("git status: %w", err)
	}
	out := splitZ(b)
	racy, err := r.racyChanged(ctx, since)
	if err != nil {
		return nil, fmt.Errorf("compare racily clean files by content: %w", err)
	}
	for _, p := range racy {
		if !slices.ContainsFunc(out, func(e string) bool { return len(e) > 3 && e[3:] == p }) {
			out = append(out, " M "+p)
		}
	}
	return out, nil
}

func splitZ(b []byte) []string {
	var out []string
	for _, p := range bytes.Split(b, []byte{0}) {
		if len(p) > 0 {
			out = append(out, string(p))
		}
	}
	return out
}

// statHonest makes sessiongate's own git compare files as they are, over
// config that trusts something else:
//   - core.fsmonitor names a program whose answer git trusts over the
//     files, so a hook that says "nothing changed" would hide an edited
//     file from status and diff. Reading every file costs a stat each,
//     which status pays anyway without a monitor;
//   - core.trustctime=false (or core.checkStat=minimal) leaves git only
//     mtime, size and inode to tell a changed file: the lazy agent set it,
//     rewrote a file in place at the same size and set its mtime back
//     (`touch -d`), and the fix its tests passed on stayed out of every
//     commit while status read clean (TestAdvStatHidesFix). ctime cannot be
//     set back, so trusting it makes git read such a file's content. Git
//     config from the environment (GIT_CONFIG_COUNT, GIT_CONFIG_PARAMETERS)
//     does not override -c.
var statHonest = []string{"-c", "core.fsmonitor=false", "-c", "core.trustctime=true", "-c", "core.checkStat=default"}

// run executes git in dir with gitenv's environment: inside a hook git's
// GIT_INDEX_FILE applies, replace refs and grafts do not.
func run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := gitenv.Command(ctx, dir, nil, append(slices.Clip(statHonest), args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		name := args[0]
		for i := 0; i+2 < len(args) && args[i] == "-c"; i += 2 {
			name = args[i+2] // the subcommand, after -c settings
		}
		return nil, fmt.Errorf("git %s: %s", name, msg)
	}
	return out, nil
}

// Commit is one commit of a range, with its trailers and changed files.
type Commit struct {
	SHA      string
	Subject  string
	Trailers map[string][]string // key as written (e.g. "Session-Id") -> values
	Files    []string
}

// Log lists the commits of a revision range (anything `git log` takes,
// e.g. "origin/main..HEAD"), oldest first, in one git process, without
// their files (Files: FilesOf, for the few commits that need them).
func (r *Repo) Log(ctx context.Context, rng string) ([]Commit, error) {
	if strings.HasPrefix(rng, "-") {
		return nil, fmt.Errorf("bad revision range %q", rng)
	}
	b, err := run(ctx, r.root, "log", "--reverse", "--format=%x1e%H%x1f%s%x1f%(trailers:only,unfold)%x1f", rng, "--")
	if err != nil {
		if strings.Contains(err.Error(), "bad revision") {
			if depth, shallow := r.shallowDepth(ctx); shallow {
				return nil, fmt.Errorf("list commits %s: the range reaches past this shallow clone's %d commit(s) of history: "+
					"fetch it with `git fetch --unshallow` (or `git fetch --deepen=N`); in GitHub Actions set `fetch-depth: 0` on actions/checkout, in GitLab CI `GIT_DEPTH: 0`: %w", rng, depth, err)
			}
		}
		return nil, fmt.Errorf("list commits %s: %w", rng, err)
	}
	out, err := parseLog(string(b))
	if err != nil {
		return nil, fmt.Errorf("list commits %s: %w", rng, err)
	}
	return out, nil
}

// ErrNoFile is returned by ReadAt for a path absent from the revision.
var ErrNoFile = errors.New("no such file in revision")

// ExistsAt reports whether path (a file, folder or submodule) is in rev's
// tree, with one `git rev-parse`, which reads trees and no blob.
func (r *Repo) ExistsAt(ctx context.Context, rev, path string) (bool, error) {
	if strings.HasPrefix(rev, "-") || rev == "" {
		return false, fmt.Errorf("bad revision %q", rev)
	}
	if !isObjectID(rev) {
		return r.existsAt(ctx, rev, path)
	}
	return gitmemo.Object(ctx, "exists\x00"+r.root+"\x00"+rev+":"+path, func() (bool, error) {
		return r.existsAt(ctx, rev, path)
	})
}

func (r *Repo) existsAt(ctx context.Context, rev, path string) (bool, error) {
	// ls-tree finds the path in the trees and reads no blob: `git
	// cat-file -e` fetched the file in a partial clone and exited 128
	// alike for "no such path" and "could not fetch ... from promisor
	// remote", and reading that as absent left a weakened test script
	// out of verify's rerun guard (TestPartialCloneReads). Not `rev-parse
	// REV:path`: rev-parse reads ".." and "..." anywhere in its argument
	// as a range, so `go test ./...` made its word "..." an error, and
	// "^!"/"^@" as parent shorthands (TestExistsAtRangeLikePaths). The
	// path is literal (GIT_LITERAL_PATHSPECS); a trailing slash would
	// list the folder's entries instead of the folder. Nothing printed
	// is "not there"; an unknown revision is absent; anything else is
	// an error, not an answer.
	p := strings.TrimRight(strings.TrimPrefix(filepath.ToSlash(path), "./"), "/")
	if !treePath(p) {
		return false, nil
	}
	args := []string{"ls-tree", "-z", "--full-tree", "--name-only", rev}
	if p != "" && p != "." {
		args = append(args, "--", p)
	}
	cmd := gitenv.Command(ctx, r.root, []string{"GIT_LITERAL_PATHSPECS=1"}, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return stdout.Len() > 0 || p == "" || p == ".", nil
	case errors.As(err, &exit) && (absentMsg(stderr.String()) || gitSays(stderr.String(), "is outside repository", "invalid object name", "not a tree object")):
		return false, nil
	}
	return false, fmt.Errorf("git ls-tree %s -- %s: %v: %s", shorten.SHA(rev), path, err, strings.TrimSpace(stderr.String()))
}

// treePath reports a path a tree can hold as written: relative, without
// "." or ".." or empty parts (ls-tree would clean "d/../x" into "x", a
// name no tree entry has; rev-parse read it literally).
func treePath(p string) bool {
	if p == "" || p == "." {
		return true
	}
	if strings.HasPrefix(p, "/") {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
	}
	return true
}

func gitSays(msg string, words ...string) bool {
	if strings.Contains(msg, "from promisor remote") {
		return false
	}
	for _, w := range words {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// absentMsg: git's words for a path or revision that is not there, and
// no object it failed to fetch (a partial clone's tree may be what is
// missing: tree:0).
func absentMsg(msg string) bool {
	if strings.Contains(msg, "from promisor remote") {
		return false
	}
	return strings.Contains(msg, "does not exist") || strings.Contains(msg, "Not a valid object name") || strings.Contains(msg, "exists on disk, but not in")
}

// ReadAt returns a file's content at a revision.
func (r *Repo) ReadAt(ctx context.Context, rev, path string) ([]byte, error) {
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("bad revision %q", rev)
	}
	if !isObjectID(rev) {
		return r.readAt(ctx, rev, path)
	}
	// A file at a commit or tree id never changes: one gate's checks read
	// the start commit's copy of a file, or find it absent, once.
	type answer struct {
		b      []byte
		absent error
	}
	a, err := gitmemo.Object(ctx, "read\x00"+r.root+"\x00"+rev+":"+path, func() (answer, error) {
		b, err := r.readAt(ctx, rev, path)
		if errors.Is(err, ErrNoFile) {
			return answer{absent: err}, nil
		}
		return answer{b: b}, err
	})
	if err != nil {
		return nil, err
	}
	if a.absent != nil {
		return nil, a.absent
	}
	return slices.Clone(a.b), nil
}

// isObjectID reports a full SHA-1 or SHA-256 object id: what it names
// never changes, unlike HEAD or a branch.
func isObjectID(rev string) bool {
	if len(rev) != 40 && len(rev) != 64 {
		return false
	}
	for _, c := range rev {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func (r *Repo) readAt(ctx context.Context, rev, path string) ([]byte, error) {
	cmd := gitenv.Command(ctx, r.root, nil, "cat-file", "blob", rev+":"+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := stderr.String()
		if absentMsg(msg) {
			return nil, fmt.Errorf("%s:%s: %w", shorten.SHA(rev), path, ErrNoFile)
		}
		return nil, fmt.Errorf("read %s:%s: %s", shorten.SHA(rev), path, strings.TrimSpace(msg))
	}
	return out, nil
}

// ResolveRev returns the commit id a revision names.
func (r *Repo) ResolveRev(ctx context.Context, rev string) (string, error) {
	if strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("bad revision %q", rev)
	}
	b, err := run(ctx, r.root, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", rev, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// HeadAndParents lists HEAD and its parents (first parent first), ids
// and subjects: what a review of the recent commits must show
// (toolneed.ShowsLog). Two git processes.
func (r *Repo) HeadAndParents(ctx context.Context) (shas, subjects []string, err error) {
	b, err := run(ctx, r.root, "log", "-n", "1", "--format=%H%x00%P%x00%s", "HEAD", "--")
	if err != nil {
		return nil, nil, fmt.Errorf("read HEAD's commit: %w", err)
	}
	f := strings.SplitN(strings.TrimRight(string(b), "\n"), "\x00", 3)
	if len(f) != 3 {
		return nil, nil, fmt.Errorf("read HEAD's commit: %q", b)
	}
	shas, subjects = []string{f[0]}, []string{f[2]}
	parents := strings.Fields(f[1])
	if len(parents) == 0 {
		return shas, subjects, nil
	}
	b, err = run(ctx, r.root, append(append([]string{"log", "--no-walk=unsorted", "--format=%H%x00%s"}, parents...), "--")...)
	if err != nil {
		return nil, nil, fmt.Errorf("read HEAD's parents: %w", err)
	}
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if sha, subj, ok := strings.Cut(l, "\x00"); ok {
			shas, subjects = append(shas, sha), append(subjects, subj)
		}
	}
	return shas, subjects, nil
}

// NonMergeHead returns the newest two commits of HEAD's history that are
// not merges, with their subjects: what `git log --no-merges` shows first.
func (r *Repo) NonMergeHead(ctx context.Context) (shas, subjects []string, err error) {
	b, err := run(ctx, r.root, "log", "--no-merges", "-n", "2", "--format=%H%x00%s", "HEAD", "--")
	if err != nil {
		return nil, nil, fmt.Errorf("read HEAD's newest commits that are no merges: %w", err)
	}
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if sha, subj, ok := strings.Cut(l, "\x00"); ok {
			shas, subjects = append(shas, sha), append(subjects, subj)
		}
	}
	return shas, subjects, nil
}

// ObjectsWithPrefix returns every object id of the repository that starts
// with prefix (4 to 64 hex digits): none when no object has it. A run of
// digits in a handoff ("committed 39621777") may be a commit abbreviated or
// a number; only the repository tells them apart (commitcite.Judge).
func (r *Repo) ObjectsWithPrefix(ctx context.Context, prefix string) ([]string, error) {
	if len(prefix) < 4 || len(prefix) > 64 || strings.Trim(strings.ToLower(prefix), "0123456789abcdef") != "" {
		return nil, fmt.Errorf("bad object id prefix %q", prefix)
	}
	b, err := run(ctx, r.root, "rev-parse", "--disambiguate="+strings.ToLower(prefix))
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(b)), nil
}

// VerifyStart resolves a caller-supplied starting commit and checks that it
// is an ancestor of head: a starting commit from elsewhere would make
// "changed since start" and "commit since start" pass without any work.
func (r *Repo) VerifyStart(ctx context.Context, commit, head string) (string, error) {
	full, err := r.ResolveRev(ctx, commit)
	if err != nil || full == "" {
		return "", fmt.Errorf("%s is not a commit in this repository", commit)
	}
	if head == "" {
		return "", fmt.Errorf("the branch has no commits yet, so %s cannot be its starting commit", shorten.SHA(full))
	}
	cmd := gitenv.Command(ctx, r.root, nil, "merge-base", "--is-ancestor", full, head)
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return full, nil
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return "", fmt.Errorf("%s is not an ancestor of HEAD (%s)", shorten.SHA(full), shorten.SHA(head))
	default:
		return "", fmt.Errorf("check %s against HEAD: %w", shorten.SHA(full), err)
	}
}

// StagedProtected returns, for each file matching one of the
// repository-relative globs (`**` allowed, case ignored) whose index entry
// differs from HEAD, the hex sha256 of its staged content, or "" for a
// staged deletion. It honours GIT_INDEX_FILE, so inside pre-commit it sees
// exactly what the commit records.
func (r *Repo) StagedProtected(ctx context.Context, patterns []string) (out map[string]string, err error) {
	out = map[string]string{}
	if len(patterns) == 0 {
		return out, nil
	}
	if r.indexFile != "" { // a hook: its index is fresh, so read it first
		if fast, ok := r.stagedProtectedFromIndex(ctx, patterns); ok {
			return fast, nil
		}
	}
	head, _, _ := r.Head(ctx)
	cached, key, ok := r.stagedCached(ctx, patterns, head)
	if ok {
		return cached, nil
	}
	// A long-lived Repo (MCP, serve): the kept answer is one stat. An index
	// younger than racyWindow (after every git add or commit) cannot be
	// kept, and git ran on every gate call until it aged: the index file
	// read in process answers there where it can
	// (TestValidateGateGitProcessesFreshIndex). Its answer is never kept
	// (it holds for the work tree as read, not for the index alone), so an
	// aged index is asked of git once, and kept.
	if r.indexFile == "" && !key.keepable() {
		if fast, ok := r.stagedProtectedFromIndex(ctx, patterns); ok {
			return fast, nil
		}
	}
	return r.stagedProtectedFromGit(ctx, patterns, key)
}

// stagedProtectedFromGit is StagedProtected asked of git (`git diff
// --cached`), its answer kept under key when nothing moved while git ran.
func (r *Repo) stagedProtectedFromGit(ctx context.Context, patterns []string, key stagedKey) (out map[string]string, err error) {
	out = map[string]string{}
	defer func() {
		if out != nil {
			// HEAD now, not the call's snapshot: kept only if git's
			// answer is for the HEAD the key names.
			after, _, _ := r.Head(withoutSnapshot(ctx))
			r.stagedStore(key, after, out)
		}
	}()
	// index.sparse=false: git expands a sparse index as it reads it. Its
	// pathspec matching skips paths inside a sparse folder entry (git
	// 2.39: `git diff --cached -- .claude/settings.json` listed nothing
	// for a staged edit collapsed into `.claude/`;
	// TestStagedInsideSparseFolder). The index file is not rewritten.
	args := []string{"-c", "index.sparse=false", "diff", "--cached", "--name-status", "-z", "--no-renames", "--"}
	for _, p := range patterns {
		args = append(args, ":(glob,icase)"+p)
	}
	b, err := run(ctx, r.root, args...)
	if err != nil {
		return nil, fmt.Errorf("list staged protected files: %w", err)
	}
	f := splitZ(b)
	for i := 0; i+1 < len(f); i += 2 {
		status, p := f[i], f[i+1]
		if strings.HasPrefix(status, "D") {
			out[p] = ""
			continue
		}
		content, err := r.ReadAt(ctx, "", p)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(content)
		out[p] = hex.EncodeToString(sum[:])
	}
	return out, nil
}

// IsAncestor reports whether commit a is an ancestor of commit b (or b itself).
func (r *Repo) IsAncestor(ctx context.Context, a, b string) (bool, error) {
	if strings.HasPrefix(a, "-") || strings.HasPrefix(b, "-") {
		return false, fmt.Errorf("bad revision %q or %q", a, b)
	}
	if is, ok := r.isAncestorFromObjects(ctx, a, b); ok {
		return is, nil
	}
	cmd := gitenv.Command(ctx, r.root, nil, "merge-base", "--is-ancestor", a, b)
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return false, nil
	default:
		return false, fmt.Errorf("is %s an ancestor of %s: %w", shorten.SHA(a), shorten.SHA(b), err)
	}
}

// CommittedSHA256 returns, for each repository-relative path, the hex
// sha256 of its content in HEAD, or "" when HEAD does not have it. It
// returns nil when HEAD is unborn: nothing is committed yet. One git
// process for every path (the protection check runs it in hooks).
func (r *Repo) CommittedSHA256(ctx context.Context, paths []string) (map[string]string, error) {
	head, _, err := r.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	if head == "" {
		return nil, nil
	}
	out := make(map[string]string, len(paths))
	if len(paths) == 0 {
		return out, nil
	}
	if kept, ok := r.headFiles.get(head, paths); ok {
		return kept, nil
	}
	out, err = r.committedAt(ctx, head, paths, out)
	if err != nil {
		return nil, err
	}
	r.headFiles.put(head, out)
	return out, nil
}

// committedAt is CommittedSHA256 at the commit head, read from git.
func (r *Repo) committedAt(ctx context.Context, head string, paths []string, out map[string]string) (map[string]string, error) {
	// In process first: the protection check runs this in every hook.
	err := r.withGoGit(ctx, func(repo *filesystem.Storage) error {
		c, err := object.GetCommit(repo, plumbing.NewHash(head))
		if err != nil {
			return err
		}
		tree, err := c.Tree()
		if err != nil {
			return err
		}
		for _, p := range paths {
			f, err := tree.File(p)
			if err != nil {
				if errors.Is(err, object.ErrFileNotFound) || errors.Is(err, object.ErrDirectoryNotFound) || errors.Is(err, object.ErrEntryNotFound) {
					out[p] = ""
					continue
				}
				return err
			}
			rd, err := f.Reader()
			if err != nil {
				return err
			}
			h := sha256.New()
			_, err = io.Copy(h, rd)
			rd.Close()
			if err != nil {
				return err
			}
			out[p] = hex.EncodeToString(h.Sum(nil))
		}
		return nil
	})
	if err == nil {
		return out, nil
	}
	args, in := batchRequests(head, paths)
	cmd := gitenv.Command(ctx, r.root, nil, args...)
	cmd.Stdin = strings.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("read the committed files at %s: %v: %s", shorten.SHA(head), err, strings.TrimSpace(stderr.String()))
	}
	for _, p := range paths {
		// "<oid> <type> <size>\n<content>\n", or "<spec> missing\n"
		// (the spec may hold a newline: matched whole).
		if miss := head + ":" + p + " missing\n"; bytes.HasPrefix(b, []byte(miss)) {
			out[p] = ""
			b = b[len(miss):]
			continue
		}
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return nil, fmt.Errorf("read the committed %s: short cat-file output", p)
		}
		f := strings.Fields(string(b[:nl]))
		if len(f) >= 2 && f[len(f)-1] == "missing" || len(f) == 3 && f[1] != "blob" {
			out[p] = "" // absent, or a folder: no content
			if len(f) == 3 {
				n, _ := strconv.Atoi(f[2])
				b = b[min(len(b), nl+1+n+1):]
			} else {
				b = b[nl+1:]
			}
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("read the committed %s: cat-file said %q", p, b[:nl])
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || nl+1+n > len(b) {
			return nil, fmt.Errorf("read the committed %s: cat-file size %q", p, f[2])
		}
		sum := sha256.Sum256(b[nl+1 : nl+1+n])
		out[p] = hex.EncodeToString(sum[:])
		b = b[min(len(b), nl+1+n+1):]
	}
	return out, nil
}

// shallowDepth reports whether the repository is a shallow clone and how
// many commits HEAD has in it.
func (r *Repo) shallowDepth(ctx context.Context) (int, bool) {
	b, err := run(ctx, r.root, "rev-parse", "--is-shallow-repository")
	if err != nil || strings.TrimSpace(string(b)) != "true" {
		return 0, false
	}
	n := 0
	if b, err := run(ctx, r.root, "rev-list", "--count", "HEAD"); err == nil {
		fmt.Sscan(strings.TrimSpace(string(b)), &n)
	}
	return n, true
}

// LooseCommit reads a commit stored as a loose object without starting git
// (ReadLooseCommit).
func (r *Repo) LooseCommit(sha string) (session.LandedCommit, []string, bool) {
	return ReadLooseCommit(r.CommonDir(), sha)
}

// LandedCommits lists the commits reachable from HEAD but neither from
// since ("" for none), from the commits of before (the branch tips when the
// session started) nor from any remote-tracking branch, oldest first, with
// their trees, parent counts and committer times: the commits made in this
// clone since since. At most the newest 1000.
func (r *Repo) LandedCommits(ctx context.Context, since string, before []string) ([]session.LandedCommit, error) {
	args := []string{"log", "-n", "1000", "--format=%H %T %ct %P", "HEAD", "--not"}
	if since != "" {
		if strings.HasPrefix(since, "-") {
			return nil, fmt.Errorf("bad revision %q", since)
		}
		args = append(args, since)
	}
	for _, b := range before {
		if hexRev(b) {
			args = append(args, b)
		}
	}
	args = append(args, "--remotes", "--")
	b, err := run(ctx, r.root, args...)
	if err != nil {
		return nil, fmt.Errorf("list landed commits: %w", err)
	}
	var out []session.LandedCommit
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		ct, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("list landed commits: bad time in %q", line)
		}
		out = append(out, session.LandedCommit{SHA: f[0], Tree: f[1], CommitTime: time.Unix(ct, 0), Parents: len(f) - 3})
	}
	slices.Reverse(out)
	return out, nil
}

// VerifyCommit checks a commit's signature with git's own verification
// (`git verify-commit`: gpg, or ssh with gpg.ssh.allowedSignersFile). An
// unsigned commit, an unknown key or a bad signature is an error with git's
// message.
func (r *Repo) VerifyCommit(ctx context.Context, sha string) error {
	if strings.HasPrefix(sha, "-") {
		return fmt.Errorf("bad commit %q", sha)
	}
	cmd := gitenv.Command(ctx, r.root, nil, "verify-commit", sha)
	out, err := cmd.CombinedOutput()
	if err == nil {
		return nil
	}
	msg := strings.TrimSpace(string(out))
	if msg == "" {
		msg = "no signature"
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 && len(msg) > 300 {
		msg = msg[:i]
	}
	return fmt.Errorf("git verify-commit %.12s: %s", sha, msg)
}

// parseLog reads Log's git output: records separated by \x1e, fields by
// \x1f (sha, subject, trailers, then the changed files).
func parseLog(b string) ([]Commit, error) {
	var out []Commit
	for _, rec := range strings.Split(b, "\x1e") {
		if strings.TrimSpace(rec) == "" {
			continue
		}
		f := strings.SplitN(rec, "\x1f", 4)
		if len(f) != 4 {
			return nil, errors.New("unexpected log output")
		}
		c := Commit{SHA: f[0], Subject: f[1], Trailers: map[string][]string{}}
		for _, line := range strings.Split(f[2], "\n") {
			k, v, ok := strings.Cut(line, ":")
			if ok {
				c.Trailers[strings.TrimSpace(k)] = append(c.Trailers[strings.TrimSpace(k)], strings.TrimSpace(v))
			}
		}
		for _, line := range strings.Split(f[3], "\n") {
			if line = strings.TrimSpace(line); line != "" {
				c.Files = append(c.Files, line)
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// DiffLines returns the lines added to and removed from one file between
// since and the work tree, and the work-tree line number of each added
// line. An untracked file, or any file when since is "" (an unborn branch),
// is all added lines.
func (r *Repo) DiffLines(ctx context.Context, since, path string) (added, removed []string, addedAt []int, err error) {
	if strings.HasPrefix(since, "-") {
		return nil, nil, nil, fmt.Errorf("bad revision %q", since)
	}
	b, err := run(ctx, r.root, "ls-files", "--others", "--exclude-standard", "-z", "--", path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("diff %s: %w", path, err)
	}
	if len(b) > 0 || since == "" {
		body, err := boundedread.File(filepath.Join(r.root, path), boundedread.LargeLimit)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("diff %s: %w", path, err)
		}
		added = strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
		for i := range added {
			addedAt = append(addedAt, i+1)
		}
		return added, nil, addedAt, nil
	}
	// --text: a NUL byte in the file or a `-diff`/`binary` attribute made
	// git print "Binary files differ" and no line, so a new section read as
	// an editorial change and an added rules-off comment as none (adversarial
	// pass 4); --no-textconv: a textconv driver shows other text than the file's.
	b, err = run(ctx, r.root, "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--text", "--no-renames", "-U0", since, "--", path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("diff %s: %w", path, err)
	}
	next := 0 // work-tree line number of the next added line
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			// @@ -a,b +c,d @@: added lines start at c.
			if i := strings.Index(l, " +"); i >= 0 {
				f := strings.FieldsFunc(l[i+2:], func(r rune) bool { return r == ',' || r == ' ' })
				if len(f) > 0 {
					next, _ = strconv.Atoi(f[0])
				}
			}
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		case strings.HasPrefix(l, "+"):
			added = append(added, l[1:])
			addedAt = append(addedAt, next)
			next++
		case strings.HasPrefix(l, "-"):
			removed = append(removed, l[1:])
		}
	}
	return added, removed, addedAt, nil
}

// DiffMoves reports the first hunk of path's change since since that
// removes and adds a different number of lines ("" when each hunk
// replaces lines where they stand): a line moved elsewhere is one hunk
// that drops it and another that adds it, which paired across hunks read
// as a line replaced by itself (round 55, helpers 331 and 332: a
// requirement moved from "Before every release" to "Not needed", its
// full stop dropped, skipped QA as editorial).
func (r *Repo) DiffMoves(ctx context.Context, since, path string) (string, error) {
	if strings.HasPrefix(since, "-") {
		return "", fmt.Errorf("bad revision %q", since)
	}
	b, err := run(ctx, r.root, "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--text", "--no-renames", "-U0", since, "--", path)
	if err != nil {
		return "", fmt.Errorf("diff %s: %w", path, err)
	}
	count := func(f string) int { // "a,b" or "a": b lines, 1 without it
		if _, n, ok := strings.Cut(f, ","); ok {
			v, _ := strconv.Atoi(n)
			return v
		}
		return 1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "@@ -") {
			continue
		}
		f := strings.Fields(l)
		if len(f) < 3 || !strings.HasPrefix(f[2], "+") {
			continue
		}
		if count(f[1][1:]) != count(f[2][1:]) {
			return strings.Join(f[:4], " "), nil
		}
	}
	return "", nil
}

// OriginURL is the origin remote's first URL as configured, "" without
// one (the engine normalizes it into the repository's identity). go-git
// parses the repository's config file alone, as its Repository.Config
// does, without opening the object store: hooks ask for it too.
func (r *Repo) OriginURL() string { return r.RemoteURL("origin") }

// RemoteURL is a remote's first URL as the repository's config file
// names it, "" for a remote it does not configure.
func (r *Repo) RemoteURL(name string) string {
	f, err := boundedread.Open(filepath.Join(r.commonDir, "config"))
	if err != nil {
		return ""
	}
	defer f.Close()
	cfg, err := gitconfig.ReadConfig(f)
	if err != nil {
		return ""
	}
	if rem, ok := cfg.Remotes[name]; ok && len(rem.URLs) > 0 {
		return rem.URLs[0]
	}
	return ""
}

// GitUser is user.name and user.email as git resolves them in this
// repository (system, global, local and included files); "" for what is
// not set. The git CLI, since go-git ignores includeIf.
func (r *Repo) GitUser(ctx context.Context) (name, email string) {
	out, err := run(ctx, r.root, "config", "--get-regexp", `^user\.(name|email)$`)
	if err != nil {
		return "", "" // exit 1: neither is set
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "user.name":
			name = strings.TrimSpace(val)
		case "user.email":
			email = strings.TrimSpace(val)
		}
	}
	return name, email
}

// Repo is the engine's repository everywhere: the CLI, the servers and
// the hooks.
var _ session.Repo = (*Repo)(nil)

// ReplayedFrom returns the commit among candidates whose change (`git
// patch-id --stable`) equals commit c's; "" when none does. A rebase or
// cherry-pick changes a commit's tree and id but not its patch.
func (r *Repo) ReplayedFrom(ctx context.Context, c string, candidates []string) (string, error) {
	if len(candidates) == 0 {
		return "", nil
	}
	revs := append([]string{c}, candidates...)
	for _, s := range revs {
		if strings.HasPrefix(s, "-") {
			return "", fmt.Errorf("bad revision %q", s)
		}
	}
	ids, err := r.patchIDs(ctx, revs)
	if err != nil {
		return "", err
	}
	want := ids[c]
	if want == "" {
		return "", nil // an empty change or a merge: nothing to compare
	}
	for _, s := range candidates {
		if s != c && ids[s] == want {
			return s, nil
		}
	}
	return "", nil
}

// patchIDs maps each commit to its stable patch id ("" for a commit whose
// diff against its first parent is empty, or a merge).
func (r *Repo) patchIDs(ctx context.Context, revs []string) (map[string]string, error) {
	args := append(append([]string{"-c", "diff.noprefix=false", "log", "--no-walk=unsorted", "-p", "--no-color", "--format=commit %H"}, patchAsStored...), revs...)
	args = append(args, "--")
	diff, err := run(ctx, r.root, args...)
	if err != nil {
		return nil, fmt.Errorf("read the commits' patches: %w", err)
	}
	cmd := gitenv.Command(ctx, r.root, nil, "patch-id", "--stable")
	cmd.Stdin = bytes.NewReader(diff)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git patch-id: %w", err)
	}
	ids := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			ids[f[1]] = f[0]
		}
	}
	return ids, nil
}

// ReplayOriginals lists, with their trees, the commits a replay may have
// copied: what git's state files name (CHERRY_PICK_HEAD, REVERT_HEAD,
// rebase-merge/done, rebase-apply/original-commit) and ORIG_HEAD's
// commits that no remote-tracking branch has (a rebase sets it to the
// branch's old tip; at most 50). Hints only: the agent can write these
// files, so the engine takes one only when pre-commit checked its tree
// and its patch equals the replayed commit's.
func (r *Repo) ReplayOriginals(ctx context.Context) ([]session.LandedCommit, error) {
	gd := r.GitDir()
	var revs []string
	for _, f := range []string{"CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-apply/original-commit"} {
		if b, err := boundedread.File(filepath.Join(gd, f), boundedread.DefaultLimit); err == nil {
			revs = append(revs, strings.Fields(string(b))...)
		}
	}
	if b, err := boundedread.File(filepath.Join(gd, "rebase-merge", "done"), boundedread.DefaultLimit); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && (f[0] == "pick" || f[0] == "p" || f[0] == "reword" || f[0] == "r" || f[0] == "edit" || f[0] == "e") {
				revs = append(revs, f[1])
			}
		}
	}
	var out []session.LandedCommit
	seen := map[string]bool{}
	add := func(b []byte) {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) == 2 && !seen[f[0]] {
				seen[f[0]] = true
				out = append(out, session.LandedCommit{SHA: f[0], Tree: f[1]})
			}
		}
	}
	for _, rev := range revs {
		if !hexRev(rev) {
			continue
		}
		if b, err := run(ctx, r.root, "log", "--no-walk", "--format=%H %T", rev, "--"); err == nil {
			add(b)
		}
	}
	if b, err := run(ctx, r.root, "log", "-n", "50", "--format=%H %T", "ORIG_HEAD", "--not", "--remotes", "--"); err == nil {
		add(b)
	}
	return out, nil
}

func hexRev(s string) bool {
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// ReplayCurrent is the commit the replay in progress copies now, from git's
// state files alone (CHERRY_PICK_HEAD, REVERT_HEAD,
// rebase-apply/original-commit, the last pick of rebase-merge/done), with
// its tree; ok is false when none names one. ORIG_HEAD is not read: an
// earlier rebase leaves it naming the session's own commits.
func (r *Repo) ReplayCurrent(ctx context.Context) (c session.LandedCommit, ok bool, err error) {
	gd := r.GitDir()
	rev := ""
	for _, f := range []string{"CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-apply/original-commit"} {
		if b, err := boundedread.File(filepath.Join(gd, f), boundedread.DefaultLimit); err == nil {
			if fs := strings.Fields(string(b)); len(fs) > 0 {
				rev = fs[0]
				break
			}
		}
	}
	if rev == "" {
		if b, err := boundedread.File(filepath.Join(gd, "rebase-merge", "done"), boundedread.DefaultLimit); err == nil {
			for _, l := range strings.Split(string(b), "\n") {
				if f := strings.Fields(l); len(f) >= 2 && (f[0] == "pick" || f[0] == "p" || f[0] == "reword" || f[0] == "r" || f[0] == "edit" || f[0] == "e") {
					rev = f[1]
				}
			}
		}
	}
	if rev == "" || !hexRev(rev) {
		return c, false, nil
	}
	b, err := run(ctx, r.root, "log", "--no-walk", "--format=%H %T", rev, "--")
	if err != nil {
		return c, false, err
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return c, false, nil
	}
	return session.LandedCommit{SHA: f[0], Tree: f[1]}, true, nil
}

// RefTips lists, once each, the commits (or tag objects) the local
// branches and tags point at, and ORIG_HEAD: what a session's start
// records so that a commit none of them reaches reads as made after the
// start, whatever its committer date (session/starttips.go).
func (r *Repo) RefTips(ctx context.Context) ([]string, error) {
	b, err := run(ctx, r.root, "for-each-ref", "--format=%(refname) %(objectname)", "refs/")
	if err != nil {
		return nil, fmt.Errorf("list the branch and tag tips: %w", err)
	}
	var keep []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		// Every local ref that can hold work (localRef), so a note or a
		// ref outside heads and tags made before the start is no parked
		// work of the session's (session/parked.go).
		if ref, sha, ok := strings.Cut(l, " "); ok && localRef(ref) {
			keep = append(keep, sha)
		}
	}
	b = []byte(strings.Join(keep, "\n"))
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, l := range strings.Fields(string(b)) {
		add(l)
	}
	if b, err := run(ctx, r.root, "rev-parse", "-q", "--verify", "ORIG_HEAD^{commit}"); err == nil {
		add(strings.TrimSpace(string(b)))
	}
	return out, nil
}

// RemoteTips maps each remote-tracking ref (refs/remotes/...) to the
// commit it points at, and each remote's url key (remote.NAME.url) to
// its URL. A session's start records them: a remote-tracking
// ref is a local ref the agent can move (`git update-ref
// refs/remotes/origin/main HEAD`), so what it holds now is the remote's
// only when a fetch brought it (FetchedBranchTips).
func (r *Repo) RemoteTips(ctx context.Context) (map[string]string, error) {
	b, err := run(ctx, r.root, "for-each-ref", "--format=%(refname) %(objectname)", "refs/remotes")
	if err != nil {
		return nil, fmt.Errorf("list the remote-tracking tips: %w", err)
	}
	out := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if ref, sha, ok := strings.Cut(strings.TrimSpace(l), " "); ok {
			out[ref] = sha
		}
	}
	// The remotes' URLs too, keyed as in the config (remote.origin.url):
	// whom HoldsRemoteVersion asks, as the start knew it, whatever the
	// agent points origin at since. `git remote -v` gives them with
	// insteadOf applied, as git fetches and pushes; a remote whose push
	// URL is another repository than its fetch URL (url set to a copy of
	// the agent's, pushurl to the team's: pass 45's RA6) is recorded as
	// "-", asked nothing.
	if b, err := run(ctx, r.root, "remote", "-v"); err == nil {
		fetch, push := map[string]string{}, map[string]string{}
		for _, l := range strings.Split(string(b), "\n") {
			name, rest, ok := strings.Cut(strings.TrimSpace(l), "\t")
			if !ok {
				continue
			}
			if u, ok := strings.CutSuffix(rest, " (fetch)"); ok {
				fetch[name] = u
			} else if u, ok := strings.CutSuffix(rest, " (push)"); ok {
				push[name] = u
			}
		}
		for name, u := range fetch {
			if p, ok := push[name]; ok && identity.NormalizeRemoteURL(p) != identity.NormalizeRemoteURL(u) {
				u = "-"
			} else if filepath.IsAbs(u) {
				// A path is kept relative to the work tree, as git reads a
				// relative one: the record holds no machine-local path, and
				// a copy of the repository with its remote beside it asks
				// its own (askedRemoteTip joins it back).
				if rel, err := filepath.Rel(r.root, u); err == nil {
					u = rel
				}
			}
			out["remote."+name+".url"] = u
		}
	}
	return out, nil
}

// FetchedTips lists the commits FETCH_HEAD names from another repository
// (lines whose source is "." or this repository are left out: those are
// this clone's own commits).
func (r *Repo) FetchedTips(ctx context.Context) []string { return r.fetched("") }

// FetchedBranchTips is FetchedTips of the lines that fetched a branch of
// this name ("branch 'main' of URL").
func (r *Repo) FetchedBranchTips(name string) []string {
	if name == "" {
		return nil
	}
	return r.fetched(name)
}

// fetched reads FETCH_HEAD's tips from another repository, of branch
// name only when name is not "".
func (r *Repo) fetched(name string) []string {
	b, err := boundedread.File(filepath.Join(r.GitDir(), "FETCH_HEAD"), boundedread.DefaultLimit)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 || len(f[0]) < 40 {
			continue
		}
		src := f[2] // "branch 'x' of URL", or the URL alone for its HEAD
		if name != "" && !strings.HasPrefix(src, "branch '"+name+"' of ") {
			continue
		}
		if i := strings.LastIndex(src, " of "); i >= 0 {
			src = src[i+len(" of "):]
		}
		src = strings.TrimSpace(src)
		if src == "" || src == "." || filepath.Clean(src) == filepath.Clean(r.root) || filepath.Clean(src) == filepath.Clean(r.CommonDir()) {
			continue
		}
		out = append(out, f[0])
	}
	return out
}

// Stashes lists the commits of the stash's entries, newest first (none
// without a stash). A session's start records them, so a clean work tree's
// check can tell a change stashed during the session (parked.go in
// session).
func (r *Repo) Stashes(ctx context.Context) ([]string, error) {
	b, err := run(ctx, r.root, "stash", "list", "--format=%H")
	if err != nil {
		return nil, fmt.Errorf("list the stash: %w", err)
	}
	return strings.Fields(string(b)), nil
}

// StashKey says what a stash entry holds: the files it changes against
// the commit it was made on (paths, modes and contents) and the tree of
// its untracked files. A change popped and stashed again is a new entry
// with another commit and the same key (round 39's re-check, HP4).
func (r *Repo) StashKey(ctx context.Context, c string) (string, error) {
	if !hexRev(c) {
		return "", fmt.Errorf("bad stash entry %q", c)
	}
	b, err := run(ctx, r.root, "diff-tree", "-r", "--no-renames", c+"^1", c)
	if err != nil {
		return "", fmt.Errorf("read stash entry %.12s: %w", c, err)
	}
	var key []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		meta, path, ok := strings.Cut(l, "\t")
		if f := strings.Fields(meta); ok && len(f) == 5 {
			key = append(key, f[1]+" "+f[3]+" "+f[4]+" "+path) // new mode, new blob, status
		}
	}
	// What it staged, too: a change kept in the index alone, the work
	// tree's file put back (round 40's re-check, PA7).
	if b, err := run(ctx, r.root, "diff-tree", "-r", "--no-renames", c+"^1", c+"^2"); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			meta, path, ok := strings.Cut(l, "\t")
			if f := strings.Fields(meta); ok && len(f) == 5 {
				key = append(key, "index "+f[1]+" "+f[3]+" "+f[4]+" "+path)
			}
		}
	}
	slices.Sort(key)
	if u, err := run(ctx, r.root, "rev-parse", "--verify", "--quiet", c+"^3^{tree}"); err == nil {
		key = append(key, "untracked "+strings.TrimSpace(string(u)))
	}
	return strings.Join(key, "\n"), nil
}

// Worktrees lists the linked worktrees by their names under the common
// git dir's worktrees/ (read without git): a session's start records
// them, so the clean work tree's check can tell a worktree made since.
func (r *Repo) Worktrees() []string {
	ents, err := os.ReadDir(filepath.Join(r.commonDir, "worktrees"))
	if err != nil {
		return []string{}
	}
	out := []string{}
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// LinkedWorktree reads a linked worktree named as Worktrees names it: its
// folder, the commit its HEAD is on and whether it holds changes: what git
// status shows (untracked files included), hidden flags, and untracked
// files only a per-clone or per-user exclude hides, unless the exclude
// line is among keep (ExcludeLines at the session's start; nil: none
// kept). Two to five git processes. err when its folder is gone (a
// worktree to prune).
func (r *Repo) LinkedWorktree(ctx context.Context, name string, keep []string) (dir, head string, dirty bool, err error) {
	if name == "" || strings.ContainsAny(name, "/\\") || name == "." || name == ".." {
		return "", "", false, fmt.Errorf("bad worktree name %q", name)
	}
	b, err := boundedread.File(filepath.Join(r.commonDir, "worktrees", name, "gitdir"), 64<<10)
	if err != nil {
		return "", "", false, fmt.Errorf("read worktree %s: %w", name, err)
	}
	dir = filepath.Dir(strings.TrimSpace(string(b))) // gitdir names its .git file
	if _, err := os.Stat(dir); err != nil {
		// Its folder deleted or moved: what it held is out of reach; its
		// HEAD is still in the admin folder (round 40's re-check, PA4, PA5).
		h, _ := boundedread.File(filepath.Join(r.commonDir, "worktrees", name, "HEAD"), 4<<10)
		if head = strings.TrimSpace(string(h)); !hexRev(head) {
			head = ""
		}
		return dir, head, false, fmt.Errorf("worktree %s: its folder %s is gone: %w", name, dir, session.ErrWorktreeGone)
	}
	// -uall: whatever status.showUntrackedFiles says (PA6b).
	out, err := run(ctx, dir, "status", "--porcelain=v2", "--branch", "--untracked-files=all", "--ignore-submodules=none")
	if err != nil {
		return dir, "", false, fmt.Errorf("git status in worktree %s: %w", name, err)
	}
	// A file git status is told not to look at (skip-worktree,
	// assume-unchanged: PA6) may hold a change status does not show.
	if flags, err := run(ctx, dir, "ls-files", "-v"); err == nil {
		for _, l := range strings.Split(string(flags), "\n") {
			if len(l) <= 2 {
				continue
			}
			// A skip-worktree file a sparse checkout left out is not
			// there; one that is there may hold a change.
			if l[0] == 'S' {
				if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(l[2:]))); err != nil {
					continue
				}
			}
			if l[0] == 'S' || l[0] >= 'a' && l[0] <= 'z' {
				dirty = true
				break
			}
		}
	}
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(l, "# branch.oid "):
			head = strings.TrimSpace(strings.TrimPrefix(l, "# branch.oid "))
		case strings.HasPrefix(l, "? ") && skippedByRunners(l[2:]):
			// A folder a test runner makes (.venv, node_modules), as in
			// UntrackedFiles: an honest review worktree's virtualenv.
		case l != "" && !strings.HasPrefix(l, "#"):
			dirty = true
		}
	}
	if !dirty {
		// git status leaves out what info/exclude (shared by every
		// worktree), core.excludesFile or a worktree's own config tells it
		// to: an agent can hide a new worktree's files there (W3, W4).
		// Only the .gitignore files, the folders test runners make and
		// the exclude lines that stood at the start (keep) hide a file,
		// and an untracked .gitignore, which could ignore itself, is a
		// change.
		if b, err := run(ctx, dir, "ls-files", "-z", "--others", "--", ":(glob)**/.gitignore"); err == nil && len(selfIgnoring(ctx, dir, splitZ(b))) > 0 {
			dirty = true
		} else if b, err := run(ctx, dir, "ls-files", "-z", "--others", "--exclude-per-directory=.gitignore"); err == nil {
			hidden := slices.DeleteFunc(splitZ(b), skippedByRunners)
			if len(hidden) > 0 && keep != nil {
				hidden, _ = newlyExcludedIn(ctx, dir, hidden, keep)
			}
			dirty = len(hidden) > 0
		}
	}
	if !hexRev(head) {
		head = "" // "(initial)"
	}
	return dir, head, dirty, nil
}

// selfIgnoring keeps the untracked .gitignore files (gis) that could hide
// work: not one a tool writes into its own folder (`.venv/.gitignore`,
// `.pytest_cache/.gitignore`, `.ruff_cache/.gitignore`), in a test
// runner's folder or under a folder the .gitignore files alone ignore.
func selfIgnoring(ctx context.Context, dir string, gis []string) []string {
	gis = slices.DeleteFunc(gis, skippedByRunners)
	var folders []string
	for _, g := range gis {
		if d := path.Dir(g); d != "." {
			folders = append(folders, d) // "d/" would read d's own .gitignore
		}
	}
	if len(folders) == 0 {
		return gis // at the top: nothing above it to ignore it
	}
	// Which rule ignores each folder: only a .gitignore above it counts
	// (not its own, not .git/info/exclude or core.excludesFile, which the
	// agent writes). -n -v -z: source, line, pattern, path per folder.
	cmd := gitenv.Command(ctx, dir, nil, "check-ignore", "--no-index", "-v", "-n", "-z", "--stdin")
	cmd.Stdin = strings.NewReader(strings.Join(folders, "\x00") + "\x00")
	b, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		return gis
	}
	byGitignore := map[string]bool{}
	f := splitZ(b)
	for k := 0; k+3 < len(f); k += 4 {
		if path.Base(filepath.ToSlash(f[k])) == ".gitignore" && !strings.HasPrefix(f[k+2], "!") {
			byGitignore[f[k+3]] = true
		}
	}
	return slices.DeleteFunc(gis, func(g string) bool { return byGitignore[path.Dir(g)] })
}

// BranchTips maps each local ref that can hold work to its commit (a
// tag's peeled): branches, tags, notes and any other ref under refs/ but
// the remote-tracking ones, sessiongate's records, the stash (Stashes)
// and the refs a host fetches for its reviews (localRef).
func (r *Repo) BranchTips(ctx context.Context) (map[string]string, error) {
	b, err := run(ctx, r.root, "for-each-ref", "--format=%(refname) %(objectname) %(*objectname)", "refs/")
	if err != nil {
		return nil, fmt.Errorf("list the local ref tips: %w", err)
	}
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || !localRef(f[0]) {
			continue
		}
		out[f[0]] = f[len(f)-1] // the peeled commit of an annotated tag
	}
	return out, nil
}

// localRef reports whether a ref is one a session's work can be parked
// on: not a remote-tracking ref, sessiongate's own (its records, the
// temporary ref a records fetch uses), the stash, or a host's review and
// pipeline refs (refs/pull, refs/merge-requests, refs/pipelines,
// refs/changes, refs/cache), which a fetch brings by the thousand.
func localRef(ref string) bool {
	// refs/original (filter-branch's backups) and refs/keep-around are
	// read: neither comes by the thousand in a clone, and an update-ref
	// parked work there (round 40's re-check, PA11, PA12).
	for _, p := range []string{"refs/remotes/", "refs/sessiongate/", "refs/sessiongate-incoming/", "refs/pull/", "refs/merge-requests/", "refs/pipelines/", "refs/changes/", "refs/cache/"} {
		if strings.HasPrefix(ref, p) {
			return false
		}
	}
	return ref != "refs/stash"
}

// NewOnBranch counts the commits tip holds that neither HEAD, a
// remote-tracking ref (for self's own commits: one of pushed) nor any of
// not reaches, and that have no
// patch-equivalent on HEAD (git cherry) nor a commit there with their
// author and author date (a cherry-pick with a conflict resolved): a
// branch's own new work, not a backup of commits HEAD holds rebased, nor a
// person's fetched commits.
//
// A commit whose Session-Id trailer names another session than self is
// that session's work, made through its own hooks in its own worktree
// (TestAdv26bSecondWorktreeOwnDatabase: a second session in a worktree
// added beside the first), not work self parked: every commit made in
// self's worktree gets self's trailer from its hooks.
func (r *Repo) NewOnBranch(ctx context.Context, tip string, not []string, self string, pushed []string) (int, error) {
	args := append([]string{"rev-list", tip, "--not", "HEAD", "--remotes"}, not...)
	b, err := run(ctx, r.root, args...)
	if err != nil {
		return 0, fmt.Errorf("list the commits only %.12s holds: %w", tip, err)
	}
	cands := map[string]bool{}
	for _, c := range strings.Fields(string(b)) {
		cands[c] = true
	}
	if self != "" {
		// A remote-tracking ref is anyone's to write (`git update-ref
		// refs/remotes/origin/parking parking`: lazy pass 40's P3). A
		// commit of self's (its trailer) counts as pushed only when a
		// push self's pre-push hook let through sent it; a person's
		// fetched commits carry no trailer of self's.
		args := append([]string{"log", "--ignore-missing", "--format=%H %(trailers:key=" + session.TrailerKey + ",valueonly,separator=%x20)", tip, "--not", "HEAD"}, not...)
		b, err := run(ctx, r.root, append(args, pushed...)...)
		if err != nil {
			return 0, fmt.Errorf("read the session trailers of the commits only %.12s holds: %w", tip, err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[len(f)-1] == self {
				cands[f[0]] = true
			}
		}
	}
	if len(cands) == 0 {
		return 0, nil
	}
	b, err = run(ctx, r.root, "cherry", "HEAD", tip)
	if err != nil {
		return 0, fmt.Errorf("compare %.12s's commits with HEAD's: %w", tip, err)
	}
	var left []string
	for _, l := range strings.Split(string(b), "\n") {
		if sha, ok := strings.CutPrefix(l, "+ "); ok && cands[strings.TrimSpace(sha)] {
			left = append(left, strings.TrimSpace(sha))
		}
	}
	if len(left) == 0 {
		return 0, nil
	}
	// A commit cherry-picked onto HEAD with a conflict resolved has
	// another patch, but keeps its author, author date and subject: HEAD holds it
	// (honest26's "cherry-pick with a conflict resolved").
	authored := func(args ...string) (map[string]string, error) {
		b, err := run(ctx, r.root, append([]string{"log", "--no-walk=unsorted", "--format=%H %an <%ae> %at %s"}, args...)...)
		if err != nil {
			return nil, err
		}
		out := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if sha, who, ok := strings.Cut(l, " "); ok {
				out[sha] = who
			}
		}
		return out, nil
	}
	mine, err := authored(left...)
	if err != nil {
		return 0, fmt.Errorf("read %.12s's commits' authors: %w", tip, err)
	}
	if self != "" {
		b, err := run(ctx, r.root, append([]string{"log", "--no-walk=unsorted", "--format=%H %(trailers:key=" + session.TrailerKey + ",valueonly,separator=%x20)"}, left...)...)
		if err != nil {
			return 0, fmt.Errorf("read %.12s's commits' session trailers: %w", tip, err)
		}
		others := map[string]bool{}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			f := strings.Fields(l)
			if len(f) >= 2 && f[len(f)-1] != self {
				others[f[0]] = true
			}
		}
		left = slices.DeleteFunc(left, func(c string) bool { return others[c] })
	}
	b, err = run(ctx, r.root, append([]string{"log", "--format=%an <%ae> %at %s", "HEAD", "--not"}, not...)...)
	if err != nil {
		return 0, fmt.Errorf("read HEAD's commits' authors: %w", err)
	}
	onHead := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		onHead[l] = true
	}
	n := 0
	for _, c := range left {
		if !onHead[mine[c]] {
			n++
		}
	}
	return n, nil
}

// NotesAnnotated lists the objects the notes under ref annotate (`git
// notes --ref REF list`), for the parked-work check: a note on a commit
// HEAD reaches is shown by `git log` beside it, not parked out of sight.
func (r *Repo) NotesAnnotated(ctx context.Context, ref string) ([]string, error) {
	b, err := run(ctx, r.root, "notes", "--ref="+ref, "list")
	if err != nil {
		return nil, fmt.Errorf("list the notes of %s: %w", ref, err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			out = append(out, f[1])
		}
	}
	return out, nil
}
