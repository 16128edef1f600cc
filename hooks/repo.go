package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/session"
)

// hookRepo is the hook's view of its worktree. git runs a hook at the top
// of the work tree, where .git is the git dir (or, in a linked worktree, a
// file naming it, whose commondir file names the shared one), so the paths
// a hook needs to find its session and database come from two small file
// reads instead of a git process. Everything else (HEAD, staged and changed
// files, status) opens the real gitrepo.Repo on first use: only gates need it.
type hookRepo struct {
	root, commonDir, gitDir string
	// indexFile is the index the hook's git command uses (GIT_INDEX_FILE
	// or the default), set by pre-commit; "" means always ask git.
	indexFile string

	once sync.Once
	repo *gitrepo.Repo
	err  error
}

// locateRepo finds the repository for a hook run in dir: from the .git
// entry when git's layout is the plain one, else with gitrepo.Open (one
// git rev-parse). GIT_DIR, GIT_WORK_TREE or GIT_COMMON_DIR in the
// environment mean git was told otherwise: ask git.
func locateRepo(ctx context.Context, dir string, getenv func(string) string) (*hookRepo, error) {
	if getenv("GIT_WORK_TREE") == "" && getenv("GIT_COMMON_DIR") == "" {
		// git sets GIT_DIR for hooks in a linked worktree: the same git
		// dir the .git file names is no other layout.
		if r := fromDotGit(dir); r != nil && sameGitDir(dir, getenv("GIT_DIR"), r.gitDir) {
			return r, nil
		}
	}
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		return nil, err
	}
	r := &hookRepo{root: repo.Root(), commonDir: repo.CommonDir(), gitDir: repo.GitDir(), repo: repo}
	r.once.Do(func() {})
	return r, nil
}

// sameGitDir reports whether GIT_DIR (relative to dir) is unset or names
// gitDir.
func sameGitDir(dir, env, gitDir string) bool {
	if env == "" {
		return true
	}
	if !filepath.IsAbs(env) {
		env = filepath.Join(dir, env)
	}
	real, err := filepath.EvalSymlinks(env)
	return err == nil && real == gitDir
}

// fromDotGit reads dir/.git; nil when dir is not a work tree's top or the
// layout is unusual (a submodule's git dir has no commondir file).
func fromDotGit(dir string) *hookRepo {
	root, err := filepath.EvalSymlinks(dir) // git reports real paths
	if err != nil {
		return nil
	}
	dotgit := filepath.Join(root, ".git")
	st, err := os.Stat(dotgit)
	if err != nil {
		return nil
	}
	if st.IsDir() {
		if _, err := os.Stat(filepath.Join(dotgit, "HEAD")); err != nil {
			return nil
		}
		return &hookRepo{root: root, commonDir: dotgit, gitDir: dotgit}
	}
	b, err := os.ReadFile(dotgit)
	if err != nil {
		return nil
	}
	gitDir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return nil
	}
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(root, gitDir)
	}
	c, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return nil
	}
	common := strings.TrimSpace(string(c))
	if !filepath.IsAbs(common) {
		common = filepath.Join(gitDir, common)
	}
	if gitDir, err = filepath.EvalSymlinks(gitDir); err != nil {
		return nil
	}
	if common, err = filepath.EvalSymlinks(common); err != nil {
		return nil
	}
	return &hookRepo{root: root, commonDir: common, gitDir: gitDir}
}

func (r *hookRepo) open(ctx context.Context) (*gitrepo.Repo, error) {
	r.once.Do(func() { r.repo, r.err = gitrepo.Open(ctx, r.root) })
	return r.repo, r.err
}

func (r *hookRepo) Root() string      { return r.root }
func (r *hookRepo) CommonDir() string { return r.commonDir }
func (r *hookRepo) GitDir() string    { return r.gitDir }

// MainRoot and Name follow gitrepo.Repo: the common dir's parent names the
// repository across its worktrees.
func (r *hookRepo) MainRoot() string {
	if filepath.Base(r.commonDir) == ".git" {
		return filepath.Dir(r.commonDir)
	}
	return r.commonDir
}

func (r *hookRepo) Name() string {
	return strings.TrimSuffix(filepath.Base(r.MainRoot()), ".git")
}

func (r *hookRepo) Head(ctx context.Context) (string, string, error) {
	if commit, branch, ok := gitrepo.ReadHeadFiles(r.gitDir, r.commonDir); ok {
		return commit, branch, nil
	}
	repo, err := r.open(ctx)
	if err != nil {
		return "", "", err
	}
	return repo.Head(ctx)
}

func (r *hookRepo) ChangedFiles(ctx context.Context, since string) ([]string, error) {
	repo, err := r.open(ctx)
	if err != nil {
		return nil, err
	}
	return repo.ChangedFiles(ctx, since)
}

func (r *hookRepo) StagedFiles(ctx context.Context) ([]string, error) {
	repo, err := r.open(ctx)
	if err != nil {
		return nil, err
	}
	return repo.StagedFiles(ctx)
}

func (r *hookRepo) CommitsSince(ctx context.Context, since string) ([]string, error) {
	repo, err := r.open(ctx)
	if err != nil {
		return nil, err
	}
	return repo.CommitsSince(ctx, since)
}

func (r *hookRepo) Status(ctx context.Context) ([]string, error) {
	repo, err := r.open(ctx)
	if err != nil {
		return nil, err
	}
	return repo.Status(ctx)
}

// Worktree is a located work tree: what the engine needs plus the git
// folders the runtimes use to find the database.
type Worktree interface {
	session.Repo
	CommonDir() string
	GitDir() string
}

// LocateWorktree finds the work tree around dir (dir itself or a parent)
// for runtimes other than git hooks (agent hooks run in any folder of the
// project): from the .git entry without running git when the layout
// allows, else with one git rev-parse.
func LocateWorktree(ctx context.Context, dir string, getenv func(string) string) (Worktree, error) {
	if getenv("GIT_DIR") == "" && getenv("GIT_WORK_TREE") == "" && getenv("GIT_COMMON_DIR") == "" {
		for d := dir; ; {
			if r := fromDotGit(d); r != nil {
				return r, nil
			}
			if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
				break // a .git entry fromDotGit cannot read: ask git
			}
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
	}
	return locateRepo(ctx, dir, getenv)
}

func (r *hookRepo) LandedCommits(ctx context.Context, since string) ([]session.LandedCommit, error) {
	return gitrepo.LandedCommitsAt(ctx, r.root, since)
}

// LooseCommit reads a commit from the object store without git when it is
// a loose object (see session.Reconcile).
func (r *hookRepo) LooseCommit(sha string) (session.LandedCommit, []string, bool) {
	return gitrepo.ReadLooseCommit(r.commonDir, sha)
}

// OriginURL and GitUser serve the session's identity (session.IdentityRepo);
// only a session start asks, so opening the repository is no hook's cost.
func (r *hookRepo) OriginURL() string {
	repo, err := r.open(context.Background())
	if err != nil {
		return ""
	}
	return repo.OriginURL()
}

func (r *hookRepo) GitUser(ctx context.Context) (name, email string) {
	repo, err := r.open(ctx)
	if err != nil {
		return "", ""
	}
	return repo.GitUser(ctx)
}

// DefaultBranch, CommitSubjects, DiffLines and VerifyStart are what a gate
// run at hook time may ask beyond the fast paths above: the repository
// is opened (one git rev-parse) only then.

func (r *hookRepo) DefaultBranch(ctx context.Context) (string, error) {
	repo, err := r.open(ctx)
	if err != nil {
		return "", err
	}
	return repo.DefaultBranch(ctx)
}

func (r *hookRepo) CommitSubjects(ctx context.Context, since string) ([]session.CommitSubject, error) {
	repo, err := r.open(ctx)
	if err != nil {
		return nil, err
	}
	return repo.CommitSubjects(ctx, since)
}

func (r *hookRepo) DiffLines(ctx context.Context, since, path string) (added, removed []string, addedAt []int, err error) {
	repo, err := r.open(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	return repo.DiffLines(ctx, since, path)
}

func (r *hookRepo) VerifyStart(ctx context.Context, commit, head string) (string, error) {
	repo, err := r.open(ctx)
	if err != nil {
		return "", err
	}
	return repo.VerifyStart(ctx, commit, head)
}
