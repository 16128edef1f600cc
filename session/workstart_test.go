package session_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

const handoffProtocol = "# P\n\n## Session Start\n\n### Phase 1: Read (BLOCKING)\n\nRead the task.\n\n## Session End\n\n### Phase 1: Handoff (BLOCKING)\n\n<!-- gate: changed_since_start HANDOFF.md -->\n<!-- gate: commit_since_start -->\n\nUpdate HANDOFF.md and commit it.\n"

// TestWorkStartPastPreSessionCommits (issue 25 route 1): a session started
// at an older HEAD without --starting-commit (a detached checkout, or a
// reset and back to ORIG_HEAD) does not count a person's commit made before
// it started as its handoff; honest sessions (their own commit, a
// fast-forward pull of others' work before their own, a late start over
// their own earlier commit) pass.
func TestWorkStartPastPreSessionCommits(t *testing.T) {
	before := []string{"GIT_COMMITTER_DATE=2026-11-20T09:00:00Z", "GIT_AUTHOR_DATE=2026-11-20T09:00:00Z"}
	personHandoff := func(t *testing.T, e *env) {
		gittest.Write(t, e.root, "HANDOFF.md", "# Handoff\n\nA person's notes.\n")
		gittest.Git(t, e.root, "add", "-A")
		gittest.GitEnv(t, e.root, before, "commit", "-q", "-m", "docs: handoff")
	}
	cases := []struct {
		name string
		// prior runs before the start and returns the --starting-commit ("" none).
		prior func(t *testing.T, e *env) string
		// back runs after the start (HEAD returns to the branch's tip).
		back func(t *testing.T, e *env)
		// own: the session commits its own HANDOFF.md update.
		own  bool
		want session.GateStatus
	}{
		{"detached at HEAD~1, then back to main", func(t *testing.T, e *env) string {
			personHandoff(t, e)
			gittest.Git(t, e.root, "checkout", "-q", "HEAD~1")
			return ""
		}, func(t *testing.T, e *env) { gittest.Git(t, e.root, "checkout", "-q", "main") }, false, session.StatusFail},
		{"reset --hard HEAD~1, then ORIG_HEAD", func(t *testing.T, e *env) string {
			personHandoff(t, e)
			gittest.Git(t, e.root, "reset", "-q", "--hard", "HEAD~1")
			return ""
		}, func(t *testing.T, e *env) { gittest.Git(t, e.root, "reset", "-q", "--hard", "ORIG_HEAD") }, false, session.StatusFail},
		{"honest: its own handoff commit", func(t *testing.T, e *env) string { return "" }, nil, true, session.StatusPass},
		{"honest: a fast-forward pull of a person's handoff, then its own", func(t *testing.T, e *env) string {
			personHandoff(t, e)
			gittest.Git(t, e.root, "branch", "-q", "upstream")
			gittest.Git(t, e.root, "reset", "-q", "--hard", "HEAD~1")
			return ""
		}, func(t *testing.T, e *env) { gittest.Git(t, e.root, "merge", "-q", "--ff-only", "upstream") }, true, session.StatusPass},
		{"honest: a late start over its own earlier handoff commit", func(t *testing.T, e *env) string {
			gittest.Git(t, e.root, "switch", "-q", "-c", "feat/x")
			base := gittest.Git(t, e.root, "rev-parse", "HEAD")
			gittest.Write(t, e.root, "HANDOFF.md", "# Handoff\n\nThis work's notes.\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.GitEnv(t, e.root, before, "commit", "-q", "-m", "docs: handoff")
			return base
		}, nil, false, session.StatusPass},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, handoffProtocol)
			remote := filepath.Join(t.TempDir(), "origin.git")
			gittest.Git(t, e.root, "init", "-q", "--bare", remote)
			gittest.Git(t, e.root, "remote", "add", "origin", remote)
			gittest.Git(t, e.root, "push", "-q", "origin", "HEAD")
			startAt := c.prior(t, e)
			res, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: c.name, StartingCommit: startAt})
			if err != nil {
				t.Fatalf("start: %v", err)
			}
			if c.back != nil {
				c.back(t, e)
			}
			if c.own {
				gittest.Write(t, e.root, "HANDOFF.md", "# Handoff\n\nThe session's notes.\n")
				gittest.Git(t, e.root, "add", "-A")
				gittest.Git(t, e.root, "commit", "-q", "-m", "docs: handoff\n\nSession-Id: "+res.SessionID)
			}
			g, err := e.engine.ValidateGate(ctx, res.SessionID, "HANDOFF")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want {
				t.Fatalf("gate %s %q, want %s", g.Status, g.Message, c.want)
			}
			if c.want == session.StatusFail && !strings.Contains(strings.Join(g.Warnings, "\n"), "made before the session started") {
				t.Errorf("the gate does not say why the person's commit does not count: %q", g.Warnings)
			}
		})
	}
}

// TestWorkStartCacheFollowsHead: workStart's answer is kept per session and
// HEAD (issue 29); every HEAD the agent moves to between gate calls (back
// to the start, forward past a person's commit, its own commit, back again)
// gets the answer a fresh engine with nothing cached gives.
func TestWorkStartCacheFollowsHead(t *testing.T) {
	ctx := context.Background()
	before := []string{"GIT_COMMITTER_DATE=2026-11-20T09:00:00Z", "GIT_AUTHOR_DATE=2026-11-20T09:00:00Z"}
	e := newEnv(t, handoffProtocol)
	gittest.Write(t, e.root, "HANDOFF.md", "# Handoff\n\nA person's notes.\n")
	gittest.Git(t, e.root, "add", "-A")
	gittest.GitEnv(t, e.root, before, "commit", "-q", "-m", "docs: handoff")
	// A second person's commit, pulled later: the work's start moves again.
	gittest.Git(t, e.root, "checkout", "-q", "-b", "upstream")
	gittest.Write(t, e.root, "NOTES.md", "notes\n")
	gittest.Git(t, e.root, "add", "-A")
	gittest.GitEnv(t, e.root, before, "commit", "-q", "-m", "docs: notes")
	gittest.Git(t, e.root, "checkout", "-q", "main")
	gittest.Git(t, e.root, "checkout", "-q", "HEAD~1")
	res, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "cache"})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	steps := []struct {
		name string
		do   func()
		want session.GateStatus
	}{
		{"at the start", func() {}, session.StatusFail},
		{"back on main past the person's commit", func() { gittest.Git(t, e.root, "checkout", "-q", "main") }, session.StatusFail},
		{"detached at the start again", func() { gittest.Git(t, e.root, "checkout", "-q", "HEAD~1") }, session.StatusFail},
		{"main again (a HEAD seen before)", func() { gittest.Git(t, e.root, "checkout", "-q", "main") }, session.StatusFail},
		{"a fast-forward pull of the second person's commit", func() { gittest.Git(t, e.root, "merge", "-q", "--ff-only", "upstream") }, session.StatusFail},
		{"its own handoff commit", func() {
			gittest.Write(t, e.root, "HANDOFF.md", "# Handoff\n\nThe session's notes.\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "docs: handoff\n\nSession-Id: "+res.SessionID)
		}, session.StatusPass},
		{"the commit undone", func() { gittest.Git(t, e.root, "reset", "-q", "--hard", "HEAD~1") }, session.StatusFail},
	}
	for _, st := range steps {
		st.do()
		for round := range 2 { // the second call is answered from the cache
			g, err := e.engine.ValidateGate(ctx, res.SessionID, "HANDOFF")
			if err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
			fresh := session.NewEngine(e.engine.Store, e.engine.Config, e.engine.OpenRepo)
			fresh.Now = e.engine.Now
			f, err := fresh.ValidateGate(ctx, res.SessionID, "HANDOFF")
			if err != nil {
				t.Fatalf("%s (fresh engine): %v", st.name, err)
			}
			if g.Status != st.want || f.Status != st.want {
				t.Fatalf("%s, call %d: gate %s %q, a fresh engine %s %q, want %s", st.name, round+1, g.Status, g.Message, f.Status, f.Message, st.want)
			}
			if gw, fw := strings.Join(g.Warnings, "\n"), strings.Join(f.Warnings, "\n"); gw != fw {
				t.Fatalf("%s, call %d: warnings %q, a fresh engine %q", st.name, round+1, gw, fw)
			}
		}
	}
}
