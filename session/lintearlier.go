package session

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
)

// earlierSessionChangeCap bounds the commits read looking for the one that
// last changed a lint file (a feature branch's, not a history's).
const earlierSessionChangeCap = 50

// earlierSessionChange names the commit, before this session's start and
// not yet on the default branch, that an agent session (its Session-Id
// trailer, not this session's) made changing file: "" when none.
//
// The rule (round 23, issue 25 item 4): a lint file weakened in an earlier
// session and committed there passed later sessions as "the team's, set
// before this session". It counts as the agent's until it is on the
// default branch, where a person merged it (reviewers who merged tuning
// are not failed); a person's commit (no trailer) on the branch is the
// team's. Read commit by commit in log order, up to 50 commits back.
func earlierSessionChange(ctx context.Context, repo Repo, s *Session, file string) (string, error) {
	if s.StartCommit == "" {
		return "", nil
	}
	rel, err := filepath.Rel(repo.Root(), file)
	if err != nil || !filepath.IsLocal(rel) {
		return "", nil
	}
	p := filepath.ToSlash(rel)
	facts, err := repo.CommitFacts(ctx, "")
	if err != nil {
		return "", fmt.Errorf("list commits: %w", err)
	}
	i := 0
	for i < len(facts) && facts[i].SHA != s.StartCommit {
		i++
	}
	if i == len(facts) {
		return "", nil // the start is not on HEAD's first 1,000 commits: not judged
	}
	def, _ := repo.DefaultBranch(ctx)
	read := func(sha string) ([]byte, bool) {
		if in, err := repo.ExistsAt(ctx, sha, p); err != nil || !in {
			return nil, false
		}
		b, err := repo.ReadAt(ctx, sha, p)
		return b, err == nil
	}
	for n := 0; i < len(facts) && n < earlierSessionChangeCap; i, n = i+1, n+1 {
		c := facts[i]
		if def != "" {
			if on, err := repo.IsAncestor(ctx, c.SHA, def); err == nil && on {
				return "", nil // merged: what the default branch holds is the team's
			}
		}
		now, inNow := read(c.SHA)
		var was []byte
		inWas := false
		if i+1 < len(facts) {
			was, inWas = read(facts[i+1].SHA)
		}
		if inNow == inWas && bytes.Equal(now, was) {
			continue
		}
		if c.SessionID != "" && c.SessionID != s.ID {
			return fmt.Sprintf("%.12s (session %s)", c.SHA, c.SessionID), nil
		}
		return "", nil // the file's last change is a person's
	}
	return "", nil
}
