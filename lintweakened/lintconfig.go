package lintweakened

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/ctime"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/quietlint"
)

// Verdict judges the config files a lint line run in dir reads
// that make it unable to fail (quietlint.ConfigCannotFail) (round 21
// c1). One the session wrote or changed (absent from or different from
// the start commit, or outside the work tree and changed since the
// session started) makes the run no evidence: fail says why. One the team
// committed before the session, unchanged, is the team's choice: the run
// counts, and note says it could not fail (no false FAIL on an honest
// team that keeps such a config). getenv is the run's environment; open
// gives the repository, opened only when such a file is found.
func Verdict(ctx context.Context, open func() (Repo, error), s *Session, dir, line string, getenv func(string) string) (fail, note string, err error) {
	return verdictAt(ctx, open, s, dir, line, getenv, 0)
}

func verdictAt(ctx context.Context, open func() (Repo, error), s *Session, dir, line string, getenv func(string) string, depth int) (fail, note string, err error) {
	if s == nil || open == nil {
		return "", "", nil
	}
	root := s.Worktree
	if dir == "" {
		dir = root
	}
	if depth < 2 {
		// A runner's target (npm run lint, make lint, tox -e lint,
		// pre-commit run): what its file says it runs is judged as the
		// line (round 22).
		if fail, note, err = runnerVerdict(ctx, open, s, dir, line, getenv, depth); err != nil || fail != "" {
			return fail, "", err
		}
	}
	home, _ := os.UserHomeDir()
	if h := getenv("HOME"); h != "" {
		home = h
	}
	var repo Repo
	for _, f := range quietlint.ConfigCannotFail(line, dir, root, home, getenv) {
		if repo == nil {
			if repo, err = open(); err != nil {
				return "", "", fmt.Errorf("lint config %s: open the repository: %w", f.File, err)
			}
		}
		changed, err := changedInSession(ctx, repo, s, f.File)
		if err != nil {
			return "", "", fmt.Errorf("lint config %s: %w", f.File, err)
		}
		// A shared config it brings in (node_modules, a local file) the
		// session emptied makes the team's unchanged config empty (round 22).
		for _, a := range f.Also {
			if changed {
				break
			}
			if changed, err = changedInSession(ctx, repo, s, a); err != nil {
				return "", "", fmt.Errorf("lint config %s: %w", a, err)
			}
		}
		shown, abs := f.File, f.File
		if rel, err := filepath.Rel(root, f.File); err == nil && filepath.IsLocal(rel) {
			shown = filepath.ToSlash(rel)
		}
		f.File = shown
		if changed {
			return f.Message() + "; the file was written or changed in this session: a lint run that could not fail is no lint evidence (restore it; a person changes lint rules outside a session)", "", nil
		}
		if by, err := earlierSessionChange(ctx, repo, s, abs); err != nil {
			return "", "", fmt.Errorf("lint config %s: %w", shown, err)
		} else if by != "" {
			return f.Message() + "; the file was last changed by commit " + by + ", an agent session's, not on the default branch: a lint run that could not fail is no lint evidence (a person merges lint tuning to the default branch, or restores it)", "", nil
		}
		if note == "" {
			note = f.Message() + " (set before this session): the lint could not fail"
		}
	}
	if len(quietlint.Linters(line)) > 0 {
		if repo == nil {
			if repo, err = open(); err != nil {
				return "", "", fmt.Errorf("lint run: open the repository: %w", err)
			}
		}
		if fail, err := fileWideVerdict(ctx, repo, s, line); err != nil || fail != "" {
			return fail, "", err
		}
	}
	return "", note, nil
}

// changedInSession: the file differs from the session's start commit
// (or is not in it and was changed since the session started).
func changedInSession(ctx context.Context, repo Repo, s *Session, file string) (bool, error) {
	rel, err := filepath.Rel(repo.Root(), file)
	if err == nil && filepath.IsLocal(rel) && s.StartCommit != "" {
		now, err := boundedread.File(file, boundedread.DefaultLimit)
		if err != nil {
			return true, nil // gone since it was read: not the team's
		}
		p := filepath.ToSlash(rel)
		in, err := repo.ExistsAt(ctx, s.StartCommit, p)
		if err != nil {
			return false, fmt.Errorf("look it up at the session's start: %w", err)
		}
		if in {
			then, err := repo.ReadAt(ctx, s.StartCommit, p)
			if err != nil {
				return false, fmt.Errorf("read it at the session's start: %w", err)
			}
			return !bytes.Equal(now, then), nil
		}
		// Not committed at the start: a local file, judged by its age.
	}
	t, err := ctime.Of(file)
	if err != nil {
		return true, nil
	}
	return !t.Before(s.CreatedAt), nil
}

// EnvLookup reads NAME from a KEY=VALUE list (a gate's environment).
func EnvLookup(env []string) func(string) string {
	return func(name string) string {
		v := ""
		for _, kv := range env {
			if s, ok := strings.CutPrefix(kv, name+"="); ok {
				v = s
			}
		}
		return v
	}
}

// runnerVerdict judges the lint lines a runner's target runs
// (quietlint.Scripts): one that cannot fail, or one looser than the
// start's (quietlint.Loosened), in a runner file the session changed
// makes the run no evidence; the team's unchanged file is noted. The
// lines are then judged as a line of their own (configs, whole-file
// comments).
func runnerVerdict(ctx context.Context, open func() (Repo, error), s *Session, dir, line string, getenv func(string) string, depth int) (fail, note string, err error) {
	scripts := quietlint.Scripts(line, dir, s.Worktree)
	if len(scripts) == 0 {
		return "", "", nil
	}
	repo, err := open()
	if err != nil {
		return "", "", fmt.Errorf("lint runner: open the repository: %w", err)
	}
	for _, sc := range scripts {
		if sc.Unread != "" {
			return "`" + shorten.Bytes(line, 120, "...") + "`: " + sc.Unread + ", so what it runs cannot be read; a lint run whose rules are unknown is no lint evidence (name the file on the line: " + sc.Kind + " -f lint.mk)", "", nil
		}
		shown := sc.File
		if rel, err := filepath.Rel(s.Worktree, sc.File); err == nil && filepath.IsLocal(rel) {
			shown = filepath.ToSlash(rel)
		}
		what := fmt.Sprintf("%s's %q runs %s", shown, sc.Target, shorten.Bytes(strings.Join(sc.Lines, " && "), 160, "..."))
		if sc.Target == "" {
			what = fmt.Sprintf("%s runs %s", shown, shorten.Bytes(strings.Join(sc.Lines, " && "), 160, "..."))
		}
		changed, err := changedInSession(ctx, repo, s, sc.File)
		if err != nil {
			return "", "", fmt.Errorf("lint runner %s: %w", shown, err)
		}
		joined, base := strings.Join(sc.Lines, " && "), strings.Join(sc.Base, " && ")
		// What the line adds to the script (`npm run lint -- --exit-zero`,
		// `make lint FLAGS=--exit-zero`) is the runner's caller's own,
		// whoever wrote the file.
		added := quietlint.Loosened(sc.Base, sc.Lines)
		if w := quietlint.CannotFail(joined); added == "" && w != "" && quietlint.CannotFail(base) == "" {
			added = w
		}
		if added != "" {
			return what + ", with what the line adds: " + added + "; a lint run loosened on its own line is no lint evidence", "", nil
		}
		why := quietlint.CannotFail(base)
		if why == "" && changed && s.StartCommit != "" {
			var was []string
			if rel, err := filepath.Rel(repo.Root(), sc.File); err == nil && filepath.IsLocal(rel) {
				if b, err := repo.ReadAt(ctx, s.StartCommit, filepath.ToSlash(rel)); err == nil {
					was = quietlint.ScriptLines(sc.Kind, b, sc.Target)
				}
			}
			why = quietlint.Loosened(was, sc.Base)
		}
		if why != "" && !changed {
			by, err := earlierSessionChange(ctx, repo, s, sc.File)
			if err != nil {
				return "", "", fmt.Errorf("lint runner %s: %w", shown, err)
			}
			if by != "" {
				return what + ", last changed by commit " + by + ", an agent session's, not on the default branch: " + why + "; a lint run an agent session loosened is no lint evidence (a person merges lint tuning to the default branch, or restores it)", "", nil
			}
		}
		switch {
		case why != "" && changed:
			return what + ", changed in this session: " + why + "; a lint run the session loosened is no lint evidence (restore it; a person changes lint rules outside a session)", "", nil
		case why != "" && note == "":
			why = strings.TrimSuffix(why, ": a lint run that cannot fail is no lint evidence")
			note = what + " (set before this session): the lint could not fail: " + why
		}
		f, n, err := verdictAt(ctx, open, s, dir, joined, getenv, depth+1)
		if err != nil || f != "" {
			return f, "", err
		}
		if note == "" {
			note = n
		}
	}
	return "", note, nil
}
