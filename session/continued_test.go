package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestContinuedWorkJudged: a session that supersedes one with commits on
// its branch (the first ABANDONED, its work continued) is judged on that
// work by the checks that read what the work changed. Lazy-agent pass 22:
// .agents/HANDOFF.md edited, or a "wip" commit made, in a first session,
// `session start` again: the second session's unchanged and commit_message
// checks passed on its own empty diff, and verify passed the first
// session's commits as continued. Honest twins: the first session's work
// done right passes; a commit between with no session's trailer (a branch
// name used again after a person's commits) ends the chain.
func TestContinuedWorkJudged(t *testing.T) {
	t.Parallel()
	type step func(t *testing.T, e *env, first string)
	cases := []struct {
		name       string
		annotation string
		first      step
		want       session.GateStatus
		msg        string
	}{
		{"lazy: a file not to update, committed in the superseded session", `<!-- gate: unchanged "README.md" -->`, func(t *testing.T, e *env, first string) {
			gittest.Write(t, e.root, "README.md", "# edited\n")
			gittest.Git(t, e.root, "commit", "-q", "-am", "docs: edit\n\nSession-Id: "+first)
		}, session.StatusFail, "README.md changed since the session started"},
		{"lazy: a wip commit in the superseded session", `<!-- gate: commit_message conventional -->`, func(t *testing.T, e *env, first string) {
			gittest.Git(t, e.root, "commit", "-q", "--allow-empty", "-m", "wip\n\nSession-Id: "+first)
		}, session.StatusFail, `first "wip"`},
		{"honest: a conventional commit in the superseded session", `<!-- gate: commit_message conventional -->`, func(t *testing.T, e *env, first string) {
			gittest.Git(t, e.root, "commit", "-q", "--allow-empty", "-m", "feat: greet by name\n\nSession-Id: "+first)
		}, session.StatusPass, "1 commit message(s) follow"},
		{"honest: another file committed in the superseded session", `<!-- gate: unchanged "README.md" -->`, func(t *testing.T, e *env, first string) {
			gittest.Write(t, e.root, "greet.sh", "echo hello\n")
			gittest.Git(t, e.root, "add", "greet.sh")
			gittest.Git(t, e.root, "commit", "-q", "-m", "feat: greet\n\nSession-Id: "+first)
		}, session.StatusPass, "unchanged"},
		{"honest: a commit with no session's trailer between ends the chain", `<!-- gate: unchanged "README.md" -->`, func(t *testing.T, e *env, first string) {
			gittest.Write(t, e.root, "README.md", "# a person's edit\n")
			gittest.Git(t, e.root, "commit", "-q", "-am", "Update README")
		}, session.StatusPass, "unchanged"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, gateProtocol(c.annotation))
			first := e.start("the work")
			c.first(t, e, first)
			e.now = e.now.Add(time.Minute)
			second := e.start("the work, continued")
			g, err := e.engine.ValidateGate(context.Background(), second, "")
			if err != nil {
				t.Fatal(err)
			}
			msg := g.Message + " " + g.Checks[0].Message
			if g.Status != c.want || !strings.Contains(msg, c.msg) {
				t.Fatalf("gate %s %q, want %s containing %q (checks %+v)", g.Status, g.Message, c.want, c.msg, g.Checks)
			}
			if from := "where session " + first + ", ABANDONED and continued by this one, started"; (c.want == session.StatusFail) != strings.Contains(msg, from) {
				t.Errorf("the failure should name the continued session exactly when it fails: %q", msg)
			}
		})
	}
}
