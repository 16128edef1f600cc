package lintweakened

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/quietlint"
)

// maxWideFiles bounds the session's files read for a whole-file lint
// suppression, and maxWideSize each file.
const (
	maxWideFiles = 400
	maxWideSize  = 1 << 20
)

// fileWideVerdict: a file the team had at the session's start, given in
// the session the comment by which a linter the line runs skips it whole
// (quietlint.FileWide: `# flake8: noqa`, `# pylint: skip-file`, `/*
// eslint-disable */`, ...), makes the run no evidence: it could not fail
// on that file (round 21 review, c9). A new file is left alone: generated
// code (protobuf, OpenAPI clients) carries such comments honestly. Runs
// only for a line that runs a linter; one git listing then.
func fileWideVerdict(ctx context.Context, repo Repo, s *Session, line string) (string, error) {
	progs := quietlint.Linters(line)
	if len(progs) == 0 || s.StartCommit == "" {
		return "", nil
	}
	files, err := s.Files(ctx, repo)
	if err != nil {
		return "", fmt.Errorf("whole-file lint comments: list the session's files: %w", err)
	}
	if len(files) > maxWideFiles {
		files = files[:maxWideFiles]
	}
	for _, f := range files {
		p := filepath.Join(repo.Root(), filepath.FromSlash(f))
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() { // a folder: a submodule's commit
			continue
		}
		limit := int64(maxWideSize)
		if fi.Mode().IsRegular() && fi.Size() > maxWideSize {
			if !slices.ContainsFunc(progs, func(prog string) bool { return quietlint.Reads(prog, f) }) {
				continue // a lock file or an image: no linter of the line reads it
			}
			// A source file the linter reads, padded past maxWideSize: its
			// `# flake8: noqa` after a megabyte of blank lines turned every
			// rule off unread (round 30). Read whole, up to the limit; over
			// it, it is refused below and the run is no evidence.
			limit = boundedread.DefaultLimit
		}
		now, err := boundedread.File(p, limit)
		if boundedread.Refused(err) {
			// A FIFO or device in the session's files: what the linter read
			// is not what is judged here, so no lint run over it counts.
			return fmt.Sprintf("%s: %v: not judged here, so a lint run over it is no lint evidence", f, errors.Unwrap(err)), nil
		}
		if err != nil {
			continue
		}
		for _, prog := range progs {
			c := quietlint.FileWide(prog, f, now)
			if c == "" {
				continue
			}
			in, err := repo.ExistsAt(ctx, s.StartCommit, f)
			if err != nil {
				return "", fmt.Errorf("whole-file lint comments: look %s up at the session's start: %w", f, err)
			}
			if !in {
				// New here: the team's file renamed in the session is its old
				// self (round 22; it read as new, like generated code).
				old, then, err := renamedFrom(ctx, repo, s, files, now)
				if err != nil {
					return "", err
				}
				if old != "" && quietlint.FileWide(prog, old, then) == "" {
					return fmt.Sprintf("%s (renamed from %s in this session) gained %q: %s skips the whole file, so the lint could not fail on it; a lint run under it is no lint evidence (remove the comment and fix what %s reports)", f, old, c, prog, prog), nil
				}
				continue
			}
			then, err := repo.ReadAt(ctx, s.StartCommit, f)
			if err != nil {
				return "", fmt.Errorf("whole-file lint comments: read %s at the session's start: %w", f, err)
			}
			if quietlint.FileWide(prog, f, then) == "" {
				return fmt.Sprintf("%s gained %q in this session: %s skips the whole file, so the lint could not fail on it; a lint run under it is no lint evidence (remove the comment and fix what %s reports)", f, c, prog, prog), nil
			}
		}
	}
	return "", nil
}

// renamedFrom finds the file of the session's start, deleted in the
// session, that a new file is a rename of: the pair sharing at least half
// the lines of the longer (as git's rename detection judges, and
// testrun's moved inputs), the whole-file comment left out. "" when none.
func renamedFrom(ctx context.Context, repo Repo, s *Session, files []string, now []byte) (string, []byte, error) {
	for _, g := range files {
		if _, err := os.Lstat(filepath.Join(repo.Root(), filepath.FromSlash(g))); !os.IsNotExist(err) {
			continue // still there: not a rename's old path
		}
		in, err := repo.ExistsAt(ctx, s.StartCommit, g)
		if err != nil {
			return "", nil, fmt.Errorf("whole-file lint comments: look %s up at the session's start: %w", g, err)
		}
		if !in {
			continue
		}
		then, err := repo.ReadAt(ctx, s.StartCommit, g)
		if err != nil || len(then) > maxWideSize {
			continue
		}
		if quietlint.SameFile(then, now) {
			return g, then, nil
		}
	}
	return "", nil, nil
}
