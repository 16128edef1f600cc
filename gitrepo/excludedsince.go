package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/boundedread"
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
//
// atStart is ExcludeLines at the session's start: a file whose exclude
// line already stood then is the person's (an app's log under a
// long-standing `*.log`), though another line was added to the same
// file during the session, say from the developer's other worktree, which
// shares .git/info/exclude (review 28, c9). nil: every exclude counts.
func (r *Repo) ExcludedSince(ctx context.Context, since time.Time, atStart []string) ([]string, error) {
	if since.IsZero() {
		return nil, nil
	}
	selfHidden, err := r.selfIgnoredSince(ctx, since)
	// With the start's patterns known, a pattern new since counts whatever
	// file holds it: `git config core.excludesFile` pointed at an old file
	// (the project's .dockerignore listing docs/) changes no exclude
	// file's ctime (review 28, c9).
	if err != nil || atStart == nil && !r.excludeFileSince(ctx, since) {
		return selfHidden, err
	}
	if atStart != nil {
		// No exclude line new since the start: nothing newlyExcluded
		// could keep, so the two listings of every untracked file are
		// not run (110 ms on an 80,000-file tree; final review of round 28).
		now := r.ExcludeLines(ctx)
		if now != nil && !slices.ContainsFunc(now, func(l string) bool { return !slices.Contains(atStart, l) }) {
			return selfHidden, nil
		}
	}
	out, err := r.excludedSince(ctx, since, atStart)
	return append(out, selfHidden...), err
}

func (r *Repo) excludedSince(ctx context.Context, since time.Time, atStart []string) ([]string, error) {
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
	if len(out) == 0 || atStart == nil {
		return out, nil
	}
	return r.newlyExcluded(ctx, out, atStart)
}

// newlyExcluded keeps the files whose matching exclude line (`git
// check-ignore -v`) was not among the lines at the start.
func (r *Repo) newlyExcluded(ctx context.Context, files, atStart []string) ([]string, error) {
	return newlyExcludedIn(ctx, r.root, files, atStart)
}

// newlyExcludedIn is newlyExcluded in the worktree dir.
func newlyExcludedIn(ctx context.Context, dir string, files, atStart []string) ([]string, error) {
	cmd := gitenv.Command(ctx, dir, nil, "check-ignore", "-v", "-n", "-z", "--stdin")
	cmd.Stdin = strings.NewReader(strings.Join(files, "\x00") + "\x00")
	b, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) { // 1: none ignored
		return nil, fmt.Errorf("git check-ignore -v: %w", err)
	}
	// -z -v: source NUL linenum NUL pattern NUL path NUL, per path.
	f := splitZ(b)
	var out []string
	for i := 0; i+3 < len(f); i += 4 {
		if !slices.Contains(atStart, strings.TrimSpace(f[i+2])) {
			out = append(out, f[i+3])
		}
	}
	return out, nil
}

// maxExcludeLines bounds what the start records of the exclude files.
const maxExcludeLines = 1024

// ExcludeLines lists the patterns the per-clone and per-user exclude files
// hold now (ExcludedSince's atStart); an empty, non-nil list when none,
// nil when over maxExcludeLines or when an exclude file is there but could
// not be read (over boundedread's limit, a directory, a link loop, no
// permission), logged: ExcludedSince then asks git which pattern hides
// each file. Skipping such a file read no new line, so a line appended to
// a .git/info/exclude padded past the limit (git reads it whole) hid the
// session's new file.
func (r *Repo) ExcludeLines(ctx context.Context) []string {
	out := []string{}
	for _, p := range r.excludeFiles(ctx) {
		b, err := boundedread.File(p, boundedread.DefaultLimit)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			slog.Warn("could not read a git exclude file: its patterns are judged through git check-ignore", "path", p, "err", err)
			return nil
		}
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") || slices.Contains(out, l) {
				continue
			}
			if len(out) == maxExcludeLines {
				// Too many to record: nil, so ExcludedSince falls back
				// to the exclude files' ctime (a long global ignore's
				// later lines would otherwise all read as new).
				return nil
			}
			out = append(out, l)
		}
	}
	return out
}

// excludeFileSince reports whether an exclude file (not git config, which
// an honest `git push -u` writes) changed after since.
func (r *Repo) excludeFileSince(ctx context.Context, since time.Time) bool {
	for _, f := range r.excludeFiles(ctx) {
		if t, err := ctime.Of(f); err == nil && t.After(since) {
			return true
		}
	}
	return false
}

// excludeFiles are the per-clone and per-user exclude files.
func (r *Repo) excludeFiles(ctx context.Context) []string {
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
	return files
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

// selfIgnoredSince lists the untracked files made after since under a
// .gitignore, made after since too, that ignores itself: `git status`
// then shows neither (review 28, c9: docs/usage.md left out of every
// commit by docs/.gitignore holding "*"). A tool's own folder that does
// the same (pytest's and a venv's "*", a build folder's CACHEDIR.TAG,
// meson's build folder) is left out.
func (r *Repo) selfIgnoredSince(ctx context.Context, since time.Time) ([]string, error) {
	b, err := run(ctx, r.root, "ls-files", "--others", "--ignored", "--exclude-standard", "-z", "--", ":(glob)**/.gitignore")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, gi := range splitZ(b) {
		dir := filepath.Join(r.root, filepath.FromSlash(filepath.Dir(gi)))
		if t, err := ctime.Of(filepath.Join(r.root, filepath.FromSlash(gi))); err != nil || !t.After(since) || skippedByRunners(gi) || toolFolder(dir, since) {
			continue
		}
		under, err := run(ctx, r.root, "ls-files", "--others", "-z", "--", filepath.ToSlash(filepath.Dir(gi))+"/")
		if err != nil {
			return nil, err
		}
		for _, f := range splitZ(under) {
			if f == gi || path.Base(f) == ".gitignore" {
				continue
			}
			if t, err := ctime.Of(filepath.Join(r.root, filepath.FromSlash(f))); err == nil && t.After(since) && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// toolFolder reports a folder a tool marks as its own: a build or cache
// folder by its name (cargo's target, meson's builddir, pytest's and
// ruff's caches), a venv (pyvenv.cfg beside its python), or a folder whose
// mark (CACHEDIR.TAG, meson-private) stood before since. A mark the
// session made in any other folder is no tool's: `CACHEDIR.TAG` beside
// docs/new/.gitignore holding "*" hid docs/new/usage.md (final review of
// round 28).
func toolFolder(dir string, since time.Time) bool {
	switch filepath.Base(dir) {
	case "build", "builddir", "target", "dist", "out", ".cache", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", ".tox", ".nox":
		return true
	}
	if _, err := os.Lstat(filepath.Join(dir, "pyvenv.cfg")); err == nil {
		for _, py := range []string{"bin/python", "bin/python3", "Scripts/python.exe"} {
			if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(py))); err == nil {
				return true
			}
		}
	}
	for _, m := range []string{"CACHEDIR.TAG", "meson-private"} {
		if t, err := ctime.Of(filepath.Join(dir, m)); err == nil && !t.After(since) {
			return true
		}
	}
	return false
}
