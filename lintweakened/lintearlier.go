package lintweakened

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"

	"github.com/sessiongate/sessiongate/owncommit"
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
		if merged(ctx, repo, c, def) {
			return "", nil // merged: what the default branch holds is the team's
		}
		if !changedFile(ctx, repo, c.SHA, read) {
			continue
		}
		if c.SessionID != "" && c.SessionID != s.ID {
			return fmt.Sprintf("%.12s (session %s)", c.SHA, c.SessionID), nil
		}
		return "", nil // the file's last change is a person's
	}
	return "", nil
}

// changedFile reports whether commit sha changed the file read reads:
// it differs from the file in each of sha's parents. A merge that took
// the file from one side (main's config merged into the branch) did not
// change it, as git log -- path simplifies history. The round 23 rule
// compared each commit with the next one in log order, which for a merge
// is a commit of either side: an earlier session's merge of main, beside
// its own commit before it, read as that session changing the config (a
// false FAIL, TestLintConfigMergedFromMain).
func changedFile(ctx context.Context, repo Repo, sha string, read func(string) ([]byte, bool)) bool {
	now, inNow := read(sha)
	parents := 0
	for k := 1; k <= 16; k++ {
		p := fmt.Sprintf("%s^%d", sha, k)
		// A parent that does not exist is an error (git exits 128).
		if on, err := repo.IsAncestor(ctx, p, sha); err != nil || !on {
			break
		}
		parents++
		was, inWas := read(p)
		if inNow == inWas && bytes.Equal(now, was) {
			return false
		}
	}
	return parents > 0 || inNow
}

// merged: c is on the default branch, local or origin's (a CI checkout or
// a worktree may lack the local branch). With neither ref readable, a
// commit a remote holds counts as merged: a false FAIL of a team whose
// clone has no default branch weighs more than that route.
func merged(ctx context.Context, repo Repo, c owncommit.Fact, def string) bool {
	if def == "" {
		return c.Shared
	}
	known := false
	for _, ref := range []string{def, "refs/remotes/origin/" + def} {
		on, err := repo.IsAncestor(ctx, c.SHA, ref)
		if err == nil {
			known = true
			if on {
				return true
			}
		}
	}
	return !known && c.Shared
}

// AgentChanged names who, other than a person, made file (absolute, in
// the repository) what it is: "this session" when it differs from the
// session's start commit (or, not committed there, was changed since the
// start), or an earlier agent session's commit not yet on the default
// branch; "" when its content is a person's. The same rule as a lint
// config's, for any file whose content decides what a check trusts (an
// MCP server's program, session/mcpprogram.go).
func AgentChanged(ctx context.Context, repo Repo, s *Session, file string) (string, error) {
	if in, err := changedInSession(ctx, repo, s, file); err != nil || in {
		if err != nil {
			return "", fmt.Errorf("compare with the session's start: %w", err)
		}
		return "this session", nil
	}
	who, err := earlierSessionChange(ctx, repo, s, file)
	if err != nil || who == "" {
		return "", err
	}
	return "an earlier agent session's commit " + who, nil
}
