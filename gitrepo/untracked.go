package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// UntrackedFiles lists the work tree's untracked files that git does not
// ignore (paths relative to the root). The repository's own .gitignore
// files always apply; the per-clone and per-user ones (.git/info/exclude,
// core.excludesFile, by default ~/.config/git/ignore) apply only when none
// of them, nor the user's git config that names one, changed after since:
// the agent can hide an untracked zz_test.go there without a tracked change
// (issue 25.7 route 3), while a person's long-standing exclude of .venv/
// keeps working.
func (r *Repo) UntrackedFiles(ctx context.Context, since time.Time) ([]string, error) {
	args := []string{"ls-files", "--others", "-z"}
	if r.personalExcludesSince(since) {
		args = append(args, "--exclude-per-directory=.gitignore")
	} else {
		args = append(args, "--exclude-standard")
	}
	b, err := run(ctx, r.root, args...)
	if err != nil {
		return nil, err
	}
	return splitZ(b), nil
}

// personalExcludesSince reports whether a per-clone or per-user exclude
// source changed after since (zero: never).
func (r *Repo) personalExcludesSince(since time.Time) bool {
	if since.IsZero() {
		return false
	}
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	files := []string{filepath.Join(r.commonDir, "info", "exclude"), filepath.Join(r.gitDir, "info", "exclude"), filepath.Join(r.commonDir, "config")}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	if xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "config"), filepath.Join(xdg, "git", "ignore"))
	}
	if out, err := run(context.Background(), r.root, "config", "--get", "core.excludesFile"); err == nil {
		if p := strings.TrimSpace(string(out)); p != "" {
			if strings.HasPrefix(p, "~/") && home != "" {
				p = filepath.Join(home, p[2:])
			}
			files = append(files, p)
		}
	}
	for _, f := range files {
		if t, err := changeTime(f); err == nil && t.After(since) {
			return true
		}
	}
	return false
}
