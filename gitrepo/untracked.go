package gitrepo

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/ctime"
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
	files := r.expandFolders(splitZ(b), false)
	hidden, err := r.ignoredSince(ctx, since)
	if err != nil {
		return nil, err
	}
	return append(files, hidden...), nil
}

// ignoredSince lists the ignored files made or changed after since, when a
// .gitignore of the work tree changed after since too (none otherwise): a
// .gitignore the session writes, and commits, is "the repository's own"
// by then, and hid an untracked zz_test.go from the QA gate. Folders test
// runners skip on their own (node_modules, venv, .venv, __pycache__) are
// left out, so an honest `npm ci` or virtualenv made in the same session
// does not count.
func (r *Repo) ignoredSince(ctx context.Context, since time.Time) ([]string, error) {
	if since.IsZero() {
		return nil, nil
	}
	// Every .gitignore, tracked, untracked or ignored: --others without
	// an exclude option lists ignored files too (one git process, not two).
	b, err := run(ctx, r.root, "ls-files", "-z", "--cached", "--others", "--", ".gitignore", "**/.gitignore")
	if err != nil {
		return nil, err
	}
	changed := false
	for _, f := range splitZ(b) {
		if t, err := ctime.Of(filepath.Join(r.root, filepath.FromSlash(f))); err == nil && t.After(since) {
			changed = true
			break
		}
	}
	if !changed {
		return nil, nil
	}
	b, err = run(ctx, r.root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	tracked, err := r.trackedDirs(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range splitZ(b) {
		if skippedByRunners(f) || !tracked[path.Dir(f)] {
			continue
		}
		if t, err := ctime.Of(filepath.Join(r.root, filepath.FromSlash(f))); err == nil && t.After(since) {
			out = append(out, f)
		}
	}
	return out, nil
}

// trackedDirs returns the folders that hold a tracked file, directly or
// below them ("." for the root). An ignored file newly made in a folder git tracks nothing in is
// build output (dist/, build/, coverage/ that the session added to
// .gitignore and then built, issue 25 route 4): a runner's hidden source
// works beside the sources it changes (Go's TestMain and init, pytest's
// conftest.py act on their own folder and below it), so only an ignored
// file in a folder of tracked files, or above them, is named.
func (r *Repo) trackedDirs(ctx context.Context) (map[string]bool, error) {
	b, err := run(ctx, r.root, "ls-files", "-z", "--cached")
	if err != nil {
		return nil, fmt.Errorf("list tracked files: %w", err)
	}
	dirs := map[string]bool{".": true}
	for _, f := range splitZ(b) {
		// The folder and every folder above it: a conftest.py in tests/
		// acts on tests/unit/ below it.
		for d := path.Dir(f); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	return dirs, nil
}

// skippedByRunners: a path inside a folder test runners do not collect
// from by default (pytest's norecursedirs, jest's testPathIgnorePatterns).
func skippedByRunners(f string) bool {
	for _, seg := range strings.Split(f, "/") {
		switch seg {
		case "node_modules", "venv", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".tox":
			return true
		}
	}
	return false
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
		if t, err := ctime.Of(f); err == nil && t.After(since) {
			return true
		}
	}
	return false
}

// maxIgnoredWalk bounds the files read under ignored folders by
// IgnoredMadeSince: a build folder can hold many.
const maxIgnoredWalk = 5000

// IgnoredMadeSince lists the ignored files made or changed after since,
// whichever ignore hides them (a committed .gitignore, .git/info/exclude,
// core.excludesFile) and whenever that ignore was written, each mapped to
// whether it is in a folder that holds tracked files. Folders test runners
// skip on their own and heavy dependency folders (node_modules, .venv,
// target, ...) are not read. A stub the tests read, made during the session
// in a path ignored before it (build/, *_local.go, an exclude written
// before `session start`), is in no tree git makes (round 27, c7); which
// of these a run read is testrun's call (IgnoredStubs).
func (r *Repo) IgnoredMadeSince(ctx context.Context, since time.Time) (map[string]bool, error) {
	if since.IsZero() {
		return nil, nil
	}
	b, err := run(ctx, r.root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
	if err != nil {
		return nil, err
	}
	var cands []string
	walked := 0
	for _, p := range splitZ(b) {
		if skippedByRunners(strings.TrimSuffix(p, "/")) || heavyFolder(strings.TrimSuffix(p, "/")) {
			continue
		}
		if !strings.HasSuffix(p, "/") {
			cands = append(cands, p)
			continue
		}
		base := filepath.Join(r.root, filepath.FromSlash(strings.TrimSuffix(p, "/")))
		_ = filepath.WalkDir(base, func(fp string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if d.Name() == ".git" || skippedByRunners(d.Name()) || heavyFolder(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			if walked++; walked > maxIgnoredWalk {
				return filepath.SkipAll
			}
			if rel, err := filepath.Rel(r.root, fp); err == nil {
				cands = append(cands, filepath.ToSlash(rel))
			}
			return nil
		})
	}
	if len(cands) == 0 {
		return nil, nil
	}
	var made []string
	for _, f := range cands {
		if t, err := ctime.Of(filepath.Join(r.root, filepath.FromSlash(f))); err == nil && t.After(since) {
			made = append(made, f)
		}
	}
	if len(made) == 0 {
		return nil, nil
	}
	tracked, err := r.trackedDirs(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, f := range made {
		out[f] = tracked[path.Dir(f)]
	}
	return out, nil
}

// heavyFolder: a dependency or build-cache folder no stub hides in that a
// test would not also find without it, too large to read on a hook's path.
func heavyFolder(seg string) bool {
	switch path.Base(seg) {
	case "target", ".git", ".cache", ".gradle", ".m2", ".npm", ".yarn", ".pnpm-store", "site-packages", ".eggs":
		return true
	}
	return false
}
