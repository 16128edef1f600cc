package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// OpenHook opens the repository of a git hook run in dir. git runs a hook
// at the top of the work tree, where .git is the git dir (or, in a linked
// worktree, a file naming it, whose commondir file names the shared one), so
// the paths come from two small file reads instead of a git process. Any
// other layout, or GIT_WORK_TREE or GIT_COMMON_DIR in the environment (git
// was told otherwise), is Open's: one git rev-parse.
func OpenHook(ctx context.Context, dir string, getenv func(string) string) (*Repo, error) {
	if getenv("GIT_WORK_TREE") == "" && getenv("GIT_COMMON_DIR") == "" {
		// git sets GIT_DIR for hooks in a linked worktree: the same git
		// dir the .git file names is no other layout.
		if r := fromDotGit(dir); r != nil && sameGitDir(dir, getenv("GIT_DIR"), r.gitDir) {
			return r, nil
		}
	}
	return Open(ctx, dir)
}

// Find opens the work tree around dir (dir itself or a parent) for
// runtimes other than git hooks (agent hooks run in any folder of the
// project): from the .git entry without running git when the layout
// allows, else as OpenHook does.
func Find(ctx context.Context, dir string, getenv func(string) string) (*Repo, error) {
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
	return OpenHook(ctx, dir, getenv)
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
func fromDotGit(dir string) *Repo {
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
		return &Repo{root: root, commonDir: dotgit, gitDir: dotgit, fromDotGit: true}
	}
	b, err := boundedread.File(dotgit, boundedread.DefaultLimit)
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
	c, err := boundedread.File(filepath.Join(gitDir, "commondir"), boundedread.DefaultLimit)
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
	return &Repo{root: root, commonDir: common, gitDir: gitDir, fromDotGit: true}
}
