package session

import (
	"context"
	"fmt"
	"github.com/sessiongate/sessiongate/repopath"

	"github.com/sessiongate/sessiongate/editorial"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// Whether a documentation change is strictly editorial is editorial/'s
// (the protocol's sentence, the files the protocol has the session write,
// the rule over changed lines); this file reads the diff and the file.

// checkEditorial returns "" when every documentation change is editorial,
// else the first file that is not and why.
func (e *Engine) checkEditorial(ctx context.Context, repo Repo, s *Session, spec *protocolspec.Spec, docs []string) (string, error) {
	arts := editorial.ProtocolArtifacts(spec)
	for _, f := range docs {
		if e.Config.isRecord(f) || matchAny(arts, f) {
			continue
		}
		added, removed, addedAt, err := repo.DiffLines(ctx, s.StartCommit, f)
		if err != nil {
			return "", err
		}
		why, err := editorial.Lines(f, added, removed, addedAt, func() (map[int]bool, error) { return fencedLines(repo.Root(), f) })
		if why != "" || err != nil {
			return why, err
		}
		if m, ok := repo.(moveFinder); ok && len(removed) > 0 {
			hunk, err := m.DiffMoves(ctx, s.StartCommit, f)
			if err != nil {
				return "", err
			}
			if hunk != "" {
				return fmt.Sprintf("%s moves, adds or drops lines (%s): lines replaced one for one stay where they stand", f, hunk), nil
			}
		}
	}
	return "", nil
}

// moveFinder finds a hunk that is no in-place replacement (gitrepo's).
type moveFinder interface {
	DiffMoves(ctx context.Context, since, path string) (string, error)
}

// matchAny reports whether f matches one of globs.
func matchAny(globs []string, f string) bool {
	for _, g := range globs {
		if repopath.Match(g, f) {
			return true
		}
	}
	return false
}

// fencedLines returns the 1-based line numbers of a file that sit inside a
// fenced code block (fences included).
func fencedLines(root, rel string) (map[int]bool, error) {
	_, ok, err := repopath.Resolve(root, rel)
	if err != nil || !ok {
		return nil, err
	}
	b, err := readWorkFile(root, rel)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	return editorial.FencedLines(b), nil
}
