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

// countingRepo counts the git reads the continued-work walk makes.
type countingRepo struct {
	session.Repo
	subjects, ancestors int
}

func (r *countingRepo) CommitSubjects(ctx context.Context, since string) ([]session.CommitSubject, error) {
	r.subjects++
	return r.Repo.CommitSubjects(ctx, since)
}

func (r *countingRepo) IsAncestor(ctx context.Context, a, b string) (bool, error) {
	r.ancestors++
	return r.Repo.IsAncestor(ctx, a, b)
}

// TestContinuedWalkGitReads: each start abandons the session before it, so
// a start walks every throwaway start before it. It read two commit lists
// per earlier session (a start after 184 sessions ran 254 git processes,
// and reliability's 160 starts cost ~290 CPU-s of CI): sessions that started
// where the next did need no git, and a list is read once per start commit.
func TestContinuedWalkGitReads(t *testing.T) {
	t.Parallel()
	e := newEnv(t, gateProtocol(`<!-- gate: unchanged "README.md" -->`))
	var ids []string
	for i := range 12 {
		ids = append(ids, e.start("throwaway"))
		if i%4 == 3 { // a commit every fourth session: three distinct start commits after the first
			gittest.Git(t, e.root, "commit", "-q", "--allow-empty", "-m", "feat: step\n\nSession-Id: "+ids[i])
		}
		e.now = e.now.Add(time.Minute)
	}
	r := &countingRepo{Repo: e.repo}
	res, err := e.engine.Start(context.Background(), session.StartRequest{Repo: r, Spec: e.spec, Objective: "the work"})
	if err != nil {
		t.Fatal(err)
	}
	// The chain holds all 12 (their commits carry their trailers); four
	// start commits: at most one list each, one ancestry check per change.
	if r.subjects > 4 || r.ancestors > 3 {
		t.Errorf("the walk over 12 earlier sessions at 4 start commits read %d commit lists and %d ancestry checks, want at most 4 and 3", r.subjects, r.ancestors)
	}
	evs, err := e.db.ListEvents(context.Background(), res.SessionID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range evs {
		if strings.HasPrefix(ev.Token, session.ContinuesToken) {
			n++
		}
	}
	if n != 12 {
		t.Errorf("the start recorded %d continued sessions, want 12", n)
	}
}
