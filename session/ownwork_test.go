package session_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// commitProtocol's one end phase asks for a commit of the session.
const commitProtocol = "# P\n\n## Session Start\n\n### Phase 1: Read (BLOCKING)\n\nRead the task.\n\n## Session End\n\n### Phase 1: Commit (BLOCKING)\n\n<!-- gate: commit_since_start -->\n\nCommit your work.\n"

// TestCommitSinceStartIsTheSessionsOwn (issue 25 route 2): a session
// started at a back-dated commit does not count a commit it did not make
// (a person's, already pushed before it started; another session's, by
// its trailer) as its commit_since_start work. The session's own commit,
// and an honest late start over the agent's own unpublished commit on a
// feature branch, count.
func TestCommitSinceStartIsTheSessionsOwn(t *testing.T) {
	before := []string{"GIT_COMMITTER_DATE=2026-11-20T09:00:00Z", "GIT_AUTHOR_DATE=2026-11-20T09:00:00Z"}
	cases := []struct {
		name string
		// prior makes commits before the session starts, which starts at
		// the returned commit (HEAD when "").
		prior func(t *testing.T, e *env) string
		// during is the session's own work (nil: none).
		during bool
		want   session.GateStatus
	}{
		{"a person's pushed commit, start back-dated", func(t *testing.T, e *env) string {
			base := gittest.Git(t, e.root, "rev-parse", "HEAD")
			gittest.Write(t, e.root, "person.txt", "a person's work\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.GitEnv(t, e.root, before, "commit", "-q", "-m", "feat: a person's work")
			gittest.Git(t, e.root, "push", "-q", "origin", "HEAD")
			gittest.Git(t, e.root, "fetch", "-q", "origin")
			return base
		}, false, session.StatusFail},
		{"a person's commit on main, not pushed, start back-dated", func(t *testing.T, e *env) string {
			base := gittest.Git(t, e.root, "rev-parse", "HEAD")
			gittest.Write(t, e.root, "person.txt", "a person's work\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.GitEnv(t, e.root, before, "commit", "-q", "-m", "feat: a person's work")
			return base
		}, false, session.StatusFail},
		{"another session's commit on a branch, start back-dated", func(t *testing.T, e *env) string {
			gittest.Git(t, e.root, "switch", "-q", "-c", "feat/x")
			base := gittest.Git(t, e.root, "rev-parse", "HEAD")
			gittest.Write(t, e.root, "other.txt", "another session's work\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "feat: other work\n\nSession-Id: 0f6e2a9c-1d1b-4c55-9a43-5be1c1c1a001")
			return base
		}, false, session.StatusFail},
		{"honest: the session's own commit", func(t *testing.T, e *env) string {
			gittest.Git(t, e.root, "switch", "-q", "-c", "feat/x")
			return ""
		}, true, session.StatusPass},
		{"honest: a late start over its own unpublished commit", func(t *testing.T, e *env) string {
			gittest.Git(t, e.root, "switch", "-q", "-c", "feat/x")
			base := gittest.Git(t, e.root, "rev-parse", "HEAD")
			gittest.Write(t, e.root, "mine.txt", "the work, committed before the session was started\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.GitEnv(t, e.root, before, "commit", "-q", "-m", "feat: the work")
			return base
		}, false, session.StatusPass},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, commitProtocol)
			remote := filepath.Join(t.TempDir(), "origin.git")
			gittest.Git(t, e.root, "init", "-q", "--bare", remote)
			gittest.Git(t, e.root, "remote", "add", "origin", remote)
			gittest.Git(t, e.root, "push", "-q", "origin", "HEAD")
			startAt := c.prior(t, e)
			res, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: c.name, StartingCommit: startAt})
			if err != nil && c.want == session.StatusFail && startAt != "" {
				// A back-dated start over others' work is refused at the
				// start now (startbound.go), before any gate can count it.
				if !strings.Contains(err.Error(), "not this session's work") {
					t.Fatalf("start refused without saying why: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("start: %v", err)
			}
			if c.during {
				gittest.Write(t, e.root, "mine.txt", "the session's work\n")
				gittest.Git(t, e.root, "add", "-A")
				gittest.Git(t, e.root, "commit", "-q", "-m", "feat: the work\n\nSession-Id: "+res.SessionID)
			}
			g, err := e.engine.ValidateGate(ctx, res.SessionID, "COMMIT")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want {
				t.Fatalf("gate %s %q, want %s", g.Status, g.Message, c.want)
			}
			if c.want == session.StatusFail && !strings.Contains(g.Message, "another session's or were already published") {
				t.Errorf("the failure does not say why the commits do not count: %q", g.Message)
			}
		})
	}
}
