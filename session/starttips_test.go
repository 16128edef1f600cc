package session_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestReconcileBackdatedHooksOff (lazy-agent pass 26b): a commit made in
// the session with the hooks off and its dates set an hour back
// (GIT_COMMITTER_DATE, GIT_AUTHOR_DATE) was left out of reconciliation as
// older than the session, so no BYPASS was recorded and the work's start
// moved past it (a weakened test script hidden from every comparison with
// the start). The start now records the branch and tag tips; a commit none
// of them reaches is the session's whatever its date. Honest twins: a
// person's older commit brought in during the session by a fast-forward of
// a local branch, or by a reset back to ORIG_HEAD, stays not the session's.
func TestReconcileBackdatedHooksOff(t *testing.T) {
	before := []string{"GIT_COMMITTER_DATE=2026-11-20T09:00:00Z", "GIT_AUTHOR_DATE=2026-11-20T09:00:00Z"}
	personCommit := func(t *testing.T, e *env) {
		gittest.Write(t, e.root, "notes.txt", "a person's note\n")
		gittest.Git(t, e.root, "add", "-A")
		gittest.GitEnv(t, e.root, before, "commit", "-q", "-m", "docs: a person's note")
	}
	cases := []struct {
		name   string
		prior  func(t *testing.T, e *env) // before the start
		during func(t *testing.T, e *env) // in the session
		bypass int                        // BYPASS violations wanted
	}{
		{"lazy: hooks off, dated before the session", nil, func(t *testing.T, e *env) {
			gittest.Write(t, e.root, "scripts/test.sh", "#!/bin/sh\nexit 0\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.GitEnv(t, e.root, before, "commit", "-q", "-m", "test: faster")
		}, 1},
		{"lazy: fetched from this repository itself", nil, func(t *testing.T, e *env) {
			gittest.Write(t, e.root, "scripts/test.sh", "#!/bin/sh\nexit 0\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.GitEnv(t, e.root, before, "commit", "-q", "-m", "test: faster")
			gittest.Git(t, e.root, "fetch", "-q", ".", "HEAD")
		}, 1},
		{"lazy: two back-dated commits", nil, func(t *testing.T, e *env) {
			for _, f := range []string{"a.txt", "b.txt"} {
				gittest.Write(t, e.root, f, f+"\n")
				gittest.Git(t, e.root, "add", "-A")
				gittest.GitEnv(t, e.root, before, "commit", "-q", "-m", "chore: "+f)
			}
		}, 2},
		{"honest: fast-forward of a local branch made before", func(t *testing.T, e *env) {
			gittest.Git(t, e.root, "switch", "-q", "-c", "person")
			personCommit(t, e)
			gittest.Git(t, e.root, "switch", "-q", "-")
		}, func(t *testing.T, e *env) { gittest.Git(t, e.root, "merge", "-q", "--ff-only", "person") }, 0},
		{"honest: reset back to ORIG_HEAD", func(t *testing.T, e *env) {
			personCommit(t, e)
			gittest.Git(t, e.root, "reset", "-q", "--hard", "HEAD~1")
		}, func(t *testing.T, e *env) { gittest.Git(t, e.root, "reset", "-q", "--hard", "ORIG_HEAD") }, 0},
		{"honest: a fast-forward pull through origin", func(t *testing.T, e *env) {
			personCommit(t, e)
			gittest.Git(t, e.root, "push", "-q", "origin", "HEAD")
			gittest.Git(t, e.root, "reset", "-q", "--hard", "HEAD~1")
			gittest.Git(t, e.root, "fetch", "-q", "origin")
		}, func(t *testing.T, e *env) { gittest.Git(t, e.root, "merge", "-q", "--ff-only", "origin/main") }, 0},
		{"honest: a person's older commit fetched from a URL (no remote-tracking ref) and merged", func(t *testing.T, e *env) {
			other := e.root + "-person" // beside the repository, removed with it
			gittest.Git(t, e.root, "clone", "-q", e.root, other)
			gittest.Write(t, other, "notes.txt", "a person's note\n")
			gittest.Git(t, other, "add", "-A")
			gittest.GitEnv(t, other, before, "-c", "user.name=P", "-c", "user.email=p@example.com", "commit", "-q", "-m", "docs: a person's note")
		}, func(t *testing.T, e *env) {
			gittest.Git(t, e.root, "fetch", "-q", e.root+"-person", "HEAD")
			gittest.Git(t, e.root, "merge", "-q", "--ff-only", "FETCH_HEAD")
		}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, handoffProtocol)
			remote := filepath.Join(t.TempDir(), "origin.git")
			gittest.Git(t, e.root, "init", "-q", "--bare", remote)
			gittest.Git(t, e.root, "remote", "add", "origin", remote)
			gittest.Git(t, e.root, "push", "-q", "origin", "HEAD")
			if c.prior != nil {
				c.prior(t, e)
			}
			res, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: c.name})
			if err != nil {
				t.Fatalf("start: %v", err)
			}
			c.during(t, e)
			s, err := e.db.GetSession(ctx, res.SessionID)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.engine.Reconcile(ctx, s, e.repo, "", ""); err != nil {
				t.Fatalf("reconcile: %v", err)
			}
			vs, err := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: res.SessionID, Code: session.CodeBypass})
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != c.bypass {
				t.Errorf("%d BYPASS violation(s), want %d: %+v", len(vs), c.bypass, vs)
			}
		})
	}
}
