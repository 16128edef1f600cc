package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/ctime"
)

// ExcludedSince lists the untracked files made or changed after since that
// only a per-clone or per-user exclude hides (.git/info/exclude,
// core.excludesFile, ~/.config/git/ignore), when such an exclude file
// itself changed after since: "Commit all changes" read `git status`, and
// the lazy agent left its new docs/usage.md out of every commit with one
// line appended to .git/info/exclude (lazy pass 28). A person's
// long-standing exclude (.venv/, an editor's files) hides nothing here,
// and folders test runners make (node_modules, .venv, __pycache__) are
// left out, as in UntrackedFiles.
func (r *Repo) ExcludedSince(ctx context.Context, since time.Time) ([]string, error) {
	if since.IsZero() || !r.excludeFileSince(ctx, since) {
		return nil, nil
	}
	all, err := run(ctx, r.root, "ls-files", "--others", "-z", "--exclude-per-directory=.gitignore")
	if err != nil {
		return nil, err
	}
	shown, err := run(ctx, r.root, "ls-files", "--others", "-z", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	seen := splitZ(shown)
	var out []string
	for _, f := range splitZ(all) {
		if slices.Contains(seen, f) || skippedByRunners(f) {
			continue
		}
		if t, err := ctime.Of(filepath.Join(r.root, filepath.FromSlash(f))); err == nil && t.After(since) {
			out = append(out, f)
		}
	}
	return out, nil
}

// excludeFileSince reports whether an exclude file (not git config, which
// an honest `git push -u` writes) changed after since.
func (r *Repo) excludeFileSince(ctx context.Context, since time.Time) bool {
	files := []string{filepath.Join(r.commonDir, "info", "exclude"), filepath.Join(r.gitDir, "info", "exclude")}
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "ignore"))
	}
	if out, err := run(ctx, r.root, "config", "--get", "core.excludesFile"); err == nil {
		if p := strings.TrimSpace(string(out)); p != "" {
			if strings.HasPrefix(p, "~/") && home != "" {
				p = filepath.Join(home, p[2:])
			}
			files = append(files, p)
		}
	}
	for _, f := range files {
		if t, err := ctime.Of(f); err == nil && t.After(since) {
			return true
		}
	}
	return false
}

// FlaggedSince lists the tracked files changed after since whose change
// the skip-worktree or assume-unchanged flag hides from `git status`
// (HiddenFiles), each with how: the lazy agent's README edit left out of
// every commit behind `git update-index --skip-worktree` (lazy pass 28). A
// person's flag on a local config the session never touched, and a clean
// filter (nbstripout, Git LFS: what they change is how the project
// commits), are not listed.
func (r *Repo) FlaggedSince(ctx context.Context, since time.Time) (map[string]string, error) {
	hidden, err := r.HiddenFiles(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for p, how := range hidden {
		if !strings.Contains(how, "git update-index") {
			continue
		}
		if t, err := ctime.Of(filepath.Join(r.root, filepath.FromSlash(p))); err == nil && t.After(since) {
			out[p] = how
		}
	}
	return out, nil
}
