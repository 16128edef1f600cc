package lintweakened

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/cmdoutput"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/markdownlint"
	"github.com/sessiongate/sessiongate/shellline"
)

// Markdownlint says why a markdownlint-cli2 run that passed proves nothing
// about this session's markdown, or "": the session changed the linter's
// configuration (`default: false`, an ignore, a rule turned off: a run
// under rules the session wrote), or added a comment that turns every
// rule off for a file (`<!-- markdownlint-disable -->` with no rule
// named, `markdownlint-disable-file`, `markdownlint-configure-file`). A
// comment naming its rules (`<!-- markdownlint-disable MD033 -->`) is a
// targeted exception and is left alone; one that names all or nearly
// all rules (three quarters of them) is rules off. Other linters are not read.
func Markdownlint(ctx context.Context, repo Repo, s *Session, command string) (string, error) {
	if s == nil || s.StartCommit == "" || !slices.ContainsFunc(shellline.Keys(command), func(k string) bool {
		return strings.Contains(k, "markdownlint-cli2")
	}) {
		return "", nil
	}
	files, err := s.Files(ctx, repo)
	if err != nil {
		return "", fmt.Errorf("list changed files: %w", err)
	}
	for _, f := range files {
		if slices.Contains(cmdoutput.MarkdownlintConfigs, path.Base(f)) {
			return fmt.Sprintf("markdownlint-cli2's configuration %s changed in this session: a lint run under rules the session wrote proves nothing; restore it (a person changes lint rules outside a session)", f), nil
		}
	}
	for _, f := range files {
		if !strings.HasSuffix(strings.ToLower(f), ".md") && !strings.HasSuffix(strings.ToLower(f), ".markdown") {
			continue
		}
		// The file first (in process): a git diff only for one that holds
		// such a comment, to tell one the session added from an old one.
		body, err := boundedread.File(filepath.Join(repo.Root(), filepath.FromSlash(f)), boundedread.DefaultLimit)
		if boundedread.Refused(err) && !strings.Contains(err.Error(), "(a directory)") { // a folder: a submodule's commit
			return fmt.Sprintf("%s: %v: not judged here, so a markdownlint run over it is no lint evidence", f, errors.Unwrap(err)), nil
		}
		if err != nil || !slices.ContainsFunc(strings.Split(string(body), "\n"), markdownlint.DisablesAllRules) {
			continue // deleted, unreadable, or no such comment
		}
		added, _, at, err := repo.DiffLines(ctx, s.StartCommit, f)
		if err != nil {
			continue
		}
		for i, l := range added {
			if markdownlint.DisablesAllRules(l) {
				line := 0
				if i < len(at) {
					line = at[i]
				}
				return fmt.Sprintf("%s:%d turns every markdownlint rule off (%s): name the rules an exception is for, or fix what they report", f, line, shorten.Bytes(strings.TrimSpace(l), 80, "...")), nil
			}
		}
	}
	return "", nil
}
