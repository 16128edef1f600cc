// Package commitcheckout checks a commit out beside the work tree to run
// a project's commands on its files alone: a detached worktree in a
// temporary folder, made with no hook run, with the work tree's installed
// packages, virtualenv and other ignored files linked in where the commit
// has nothing, as a command run in the work tree would find them. The
// hooks-off judge runs an earlier commit's gates there; the QA gate runs
// its command at the session's start commit there.
package commitcheckout

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
)

// depDirs are ignored folders a project's commands run from (installed
// packages, a virtualenv) that a checkout lacks: linked into it from the
// work tree, as a live pre-commit in the work tree would have used them.
var depDirs = []string{"node_modules", ".venv", "venv"}

// Commit checks sha out into a new temporary folder of
// sessiongate's (a detached worktree, made with no hook run) and returns
// it and what removes it. The folder's name is random and made here, so
// nothing in it is the agent's but the commit's files (round 23 left the
// earlier commits' command gates running on the work tree: a first
// commit that broke the tests passed on the second's fixed files).
func Commit(ctx context.Context, root, sha string) (string, func(), error) {
	parent, err := os.MkdirTemp("", "sessiongate-commit-")
	if err != nil {
		return "", nil, err
	}
	if found := foreignConfig(filepath.Dir(parent)); found != "" {
		os.RemoveAll(parent)
		return "", nil, fmt.Errorf("%w: %s (remove it, or set TMPDIR to a folder with none above it)", ErrForeignConfig, found)
	}
	dir := filepath.Join(parent, "tree")
	remove := func() {
		gitenv.Command(context.WithoutCancel(ctx), root, nil, "worktree", "remove", "--force", dir).Run()
		os.RemoveAll(parent)
		gitenv.Command(context.WithoutCancel(ctx), root, nil, "worktree", "prune").Run()
	}
	out, err := gitenv.Command(ctx, root, nil, "-c", "core.hooksPath=/dev/null", "worktree", "add", "--detach", "--quiet", dir, sha).CombinedOutput()
	if err != nil {
		remove()
		return "", nil, fmt.Errorf("git worktree add: %v: %s", err, strings.TrimSpace(string(out)))
	}
	// git copies a sparse checkout's patterns into a new worktree: the
	// commit's files outside them would be missing (gitrepo.AddFullWorktree).
	if b, _ := gitenv.Command(ctx, dir, nil, "config", "--type=bool", "--default=false", "--get", "core.sparseCheckout").Output(); strings.TrimSpace(string(b)) == "true" {
		if out, err := gitenv.Command(ctx, dir, nil, "-c", "core.hooksPath=/dev/null", "sparse-checkout", "disable").CombinedOutput(); err != nil {
			remove()
			return "", nil, fmt.Errorf("git sparse-checkout disable: %v: %s", err, strings.TrimSpace(string(out)))
		}
	}
	for _, d := range depDirs {
		src := filepath.Join(root, d)
		if fi, err := os.Lstat(src); err != nil || !fi.IsDir() {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, d)); err == nil {
			continue // the commit has it: its own
		}
		os.Symlink(src, filepath.Join(dir, d))
	}
	linkIgnored(ctx, root, dir)
	return dir, remove, nil
}

// ErrForeignConfig is a file above the temporary folder that a test
// runner in the checkout would read as its own configuration: the
// commit's run there would not be its own (lazy pass 36: a pytest.ini
// in a TMPDIR the agent chose silenced the start commit's run).
var ErrForeignConfig = errors.New("a test runner's configuration lies above the folder a commit is checked out in")

// runnerConfigs are the names runners look for in a folder's ancestors
// even when the project has its own: pytest's ini files and conftest,
// node test runners' configs, Go's workspace. (Not package.json or
// node_modules: node stops at the project's own, and a stray one in a
// home folder is common.)
var runnerConfigs = []string{
	"pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg", "conftest.py",
	".mocharc.js", ".mocharc.json", ".mocharc.yml", ".mocharc.yaml",
	"jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs", "vitest.config.ts", "vitest.config.js",
	"go.work",
}

// foreignConfig names the first runner configuration in dir or a folder
// above it, "" when none.
func foreignConfig(dir string) string {
	for {
		for _, n := range runnerConfigs {
			if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
				return filepath.Join(dir, n)
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// maxLinkedIgnored bounds the ignored entries linked into a checkout.
const maxLinkedIgnored = 2000

// linkIgnored links the work tree's ignored files and folders (a .env,
// generated code, an ignored vendor/) into the checkout dir where the
// commit has nothing at that path: the tests of an earlier commit read
// them as the work tree's gate does, and their absence made an honest
// first commit a false BYPASS (round 25, TestHooksOffEarlierCommitGatedOnItsOwnTree).
// Only ignored entries: untracked files that are not ignored are work
// not committed, and a tracked file (the last commit's) is never linked,
// so an earlier commit cannot borrow a later one's files. What is linked
// is what the last commit's own gate sees in the work tree anyway.
func linkIgnored(ctx context.Context, root, dir string) {
	// --directory: an ignored folder is one entry, not descended.
	out, err := gitenv.Command(ctx, root, nil, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--no-empty-directory").Output()
	if err != nil {
		return
	}
	n := 0
	for _, e := range strings.Split(string(out), "\x00") {
		rel := strings.TrimSuffix(e, "/")
		if rel == "" || rel == ".git" || strings.HasPrefix(rel, ".git/") || slices.Contains(depDirs, rel) {
			continue
		}
		if n++; n > maxLinkedIgnored {
			return
		}
		dst := filepath.Join(dir, filepath.FromSlash(rel))
		if _, err := os.Lstat(dst); err == nil {
			continue // the commit has it: its own
		}
		if !realFolders(dir, path.Dir(rel)) {
			continue
		}
		os.Symlink(filepath.Join(root, filepath.FromSlash(rel)), dst)
	}
}

// realFolders makes sure each folder of rel (slash-separated) under dir is
// a real folder, making the missing ones: the commit may lack the folder
// an ignored file sits in. A path through a file or a symbolic link of
// the commit is refused, so nothing is written outside the checkout.
func realFolders(dir, rel string) bool {
	if rel == "." {
		return true
	}
	cur := dir
	for _, part := range strings.Split(rel, "/") {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		switch {
		case err == nil && fi.IsDir():
			continue
		case err == nil:
			return false // a file or a link of the commit
		case !os.IsNotExist(err):
			return false
		}
		if err := os.Mkdir(cur, 0o755); err != nil {
			return false
		}
	}
	return true
}
