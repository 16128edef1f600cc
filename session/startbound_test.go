package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestStartingCommitBound (issue 25.7 route 5): a back-dated
// --starting-commit over work that is not the session's (an earlier
// session's HANDOFF.md update, a person's commit on the default branch) is
// refused at the start, so changed_since_start and {changed} cannot count
// it; an honest late start over the agent's own unpublished commit
// starts, and the session says HEAD was elsewhere.
func TestStartingCommitBound(t *testing.T) {
	cases := []struct {
		name    string
		prior   func(t *testing.T, e *env) // commits made before the start
		refused string                     // "" when the start is accepted
	}{
		{"an earlier session's handoff", func(t *testing.T, e *env) {
			gittest.Git(t, e.root, "switch", "-q", "-c", "feat/x")
			gittest.Write(t, e.root, "HANDOFF.md", "# Handoff\n\nThe earlier session's notes.\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "docs: handoff\n\nSession-Id: 0f6e2a9c-1d1b-4c55-9a43-5be1c1c1a001")
		}, "another session's"},
		{"a person's commit on the default branch", func(t *testing.T, e *env) {
			gittest.Write(t, e.root, "HANDOFF.md", "# Handoff\n\nA person's notes.\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.GitEnv(t, e.root, []string{"GIT_COMMITTER_DATE=2026-01-02T09:00:00Z"}, "commit", "-q", "-m", "docs: handoff")
		}, "already published"},
		{"honest: a late start over its own unpublished commit", func(t *testing.T, e *env) {
			gittest.Git(t, e.root, "switch", "-q", "-c", "feat/x")
			gittest.Write(t, e.root, "HANDOFF.md", "# Handoff\n\nThis work's notes.\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "docs: handoff")
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, commitProtocol)
			base := gittest.Git(t, e.root, "rev-parse", "HEAD")
			c.prior(t, e)
			head := gittest.Git(t, e.root, "rev-parse", "HEAD")
			res, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: c.name, StartingCommit: base})
			if c.refused != "" {
				if err == nil || !strings.Contains(err.Error(), c.refused) || !strings.Contains(err.Error(), "start at") {
					t.Fatalf("start at %s: err %v, want it refused as %q", base[:8], err, c.refused)
				}
				return
			}
			if err != nil {
				t.Fatalf("honest late start refused: %v", err)
			}
			got, err := e.engine.HeadAtStart(ctx, res.SessionID)
			if err != nil || got != head {
				t.Fatalf("HeadAtStart = %q, %v; want %s (the caller's starting commit differed)", got, err, head)
			}
			// A start at HEAD records nothing extra.
			res2, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "at head"})
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := e.engine.HeadAtStart(ctx, res2.SessionID); got != "" {
				t.Fatalf("HeadAtStart of a start at HEAD = %q, want none", got)
			}
		})
	}
}
