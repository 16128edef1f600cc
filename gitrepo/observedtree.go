package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protect"
)

// WorkTreeTree writes the tree a commit of every tracked file would hold
// now (the index, staged files included, with each tracked file's
// work-tree content: `git add -u` on a copy of the index, so the real
// index is never touched) and returns its id. Untracked files are not in
// it. A QA run records it: what the tests saw, compared later with what
// is committed (session/observedtree.go). It reads the repository's
// config files, never config from the caller's environment
// (gitenv.FileConfigOnly): a clean filter set there for one process made
// the recorded tree other than the files the tests read.
func (r *Repo) WorkTreeTree(ctx context.Context) (string, error) {
	return r.workTreeTree(ctx, "-u")
}

// WorkTreeTreeAll is WorkTreeTree with the untracked files git does not
// ignore (`git add -A` on the copy): what a test run outside the QA phase
// could read, where no untracked-file rule told the agent to stage a new
// file first; an honest `git add -A && git commit` then commits that tree.
func (r *Repo) WorkTreeTreeAll(ctx context.Context) (string, error) {
	return r.workTreeTree(ctx, "-A")
}

func (r *Repo) workTreeTree(ctx context.Context, add string) (string, error) {
	// Named without a git process when it can be (indexPath): each one
	// costs the agent's PostToolUse hook 5-10 ms.
	src, err := r.indexPath(ctx)
	if err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp("", "sessiongate-index-*")
	if err != nil {
		return "", fmt.Errorf("copy the index: %w", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	if b, err := boundedread.File(src, boundedread.LargeLimit); err == nil {
		if err := os.WriteFile(tmp.Name(), b, 0o600); err != nil {
			return "", fmt.Errorf("copy the index: %w", err)
		}
	} else if !os.IsNotExist(err) {
		return "", fmt.Errorf("read the index: %w", err)
	} else {
		os.Remove(tmp.Name()) // no index yet: git starts an empty one
	}
	env := []string{"GIT_INDEX_FILE=" + tmp.Name()}
	for _, args := range [][]string{{"add", add}, {"write-tree"}} {
		cmd := gitenv.Command(ctx, r.root, env, append(slices.Clip(statHonest), args...)...)
		cmd.Env = gitenv.Env(gitenv.FileConfigOnly(os.Environ()), env...)
		out, err := cmd.Output()
		if err != nil {
			msg := err.Error()
			if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
				msg = strings.TrimSpace(string(ee.Stderr))
			}
			return "", fmt.Errorf("git %s on a copy of the index: %s", args[0], msg)
		}
		if args[0] == "write-tree" {
			return strings.TrimSpace(string(out)), nil
		}
	}
	return "", nil
}

// TreeDiff lists the files that differ between two trees (or commits).
func (r *Repo) TreeDiff(ctx context.Context, a, b string) ([]string, error) {
	if strings.HasPrefix(a, "-") || strings.HasPrefix(b, "-") {
		return nil, fmt.Errorf("bad tree %q or %q", a, b)
	}
	out, err := run(ctx, r.root, "diff", "--no-renames", "--name-only", "-z", a, b, "--")
	if err != nil {
		return nil, err
	}
	return splitZ(out), nil
}

// TreeFiles lists the files of a tree or commit (ls-tree -r).
func (r *Repo) TreeFiles(ctx context.Context, rev string) ([]string, error) {
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("bad tree %q", rev)
	}
	out, err := run(ctx, r.root, "ls-tree", "-r", "-z", "--name-only", rev)
	if err != nil {
		return nil, err
	}
	return splitZ(out), nil
}

// TreeOnlyIn lists the files tree a has and tree b does not.
func (r *Repo) TreeOnlyIn(ctx context.Context, a, b string) ([]string, error) {
	if strings.HasPrefix(a, "-") || strings.HasPrefix(b, "-") {
		return nil, fmt.Errorf("bad tree %q or %q", a, b)
	}
	out, err := run(ctx, r.root, "diff", "--no-renames", "--diff-filter=D", "--name-only", "-z", a, b, "--")
	if err != nil {
		return nil, err
	}
	return splitZ(out), nil
}

// TreeNames reports whether a file of tree rev holds any of the fixed
// strings needles (git grep).
func (r *Repo) TreeNames(ctx context.Context, rev string, needles []string) (bool, error) {
	if strings.HasPrefix(rev, "-") {
		return false, fmt.Errorf("bad tree %q", rev)
	}
	if len(needles) == 0 {
		return false, nil
	}
	args := []string{"grep", "-q", "-F", "-I"}
	for _, n := range needles {
		args = append(args, "-e", n)
	}
	err := gitenv.Command(ctx, r.root, nil, append(args, rev, "--")...).Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("git grep in %s: %w", rev, err)
	}
	return true, nil
}

// FilesAt lists the files of commit rev that match one of the
// root-anchored globs (protect.Match), reading only the folders the globs
// name.
func (r *Repo) FilesAt(ctx context.Context, rev string, patterns []string) ([]string, error) {
	if strings.HasPrefix(rev, "-") || rev == "" {
		return nil, fmt.Errorf("bad revision %q", rev)
	}
	if files, ok := r.filesAtInProcess(ctx, rev, patterns); ok {
		slices.Sort(files)
		return files, nil
	}
	var dirs []string
	for _, p := range patterns {
		d := p
		if strings.ContainsAny(p, "*?[") {
			d = path.Dir(p)
		}
		if d == "." || strings.ContainsAny(d, "*?[") {
			dirs = nil // a glob at the root: the whole tree
			break
		}
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	args := append([]string{"ls-tree", "-r", "-z", "--name-only", "--full-tree", rev, "--"}, dirs...)
	out, err := gitenv.Command(ctx, r.root, []string{"GIT_LITERAL_PATHSPECS=1"}, args...).Output()
	if err != nil {
		return nil, fmt.Errorf("list files of %s: %w", shorten.SHA(rev), err)
	}
	var files []string
	for _, f := range splitZ(out) {
		if protect.Match(patterns, f) {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	return files, nil
}
