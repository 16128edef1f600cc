package session_test

import (
	"context"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// interleaved runs between's change of the session once, at the first
// write after it is armed: what another process (a `session end`) does
// between a hook's read of the session and its write, made certain.
type interleaved struct {
	session.Store
	armed   bool
	between func(ctx context.Context)
}

func (s *interleaved) Update(ctx context.Context, fn func(w session.Writer) error) error {
	if s.armed {
		s.armed = false
		s.between(ctx)
	}
	return s.Store.Update(ctx, fn)
}

// TestPostCommitAfterTheEnd: post-commit read the session while it was
// active, and the session ended before post-commit wrote. Before, the
// commit was written as the ended session's evidence, dated before its
// end (the date was taken before the write): evidence that arrived after
// the end, counted as the session's. Now the write re-reads the session in
// its transaction and records nothing on an ended one. The honest twins:
// the same commit with nothing in between, and one made while an end runs
// (ending_at set, still active: commits made during an end are kept),
// are recorded, dated in the write lock.
func TestPostCommitAfterTheEnd(t *testing.T) {
	t.Parallel()
	requireGit(t)
	for _, c := range []struct {
		name     string
		between  func(ctx context.Context, e *env, id string)
		recorded bool
	}{
		{"ended in between", func(ctx context.Context, e *env, id string) {
			if _, err := e.engine.Terminate(ctx, id, "the end ran"); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"honest: nothing in between", nil, true},
		{"honest: an end began in between", func(ctx context.Context, e *env, id string) {
			if err := e.db.Update(ctx, func(w session.Writer) error {
				s, err := w.GetSession(ctx, id)
				if err != nil {
					return err
				}
				s.EndingAt = e.now
				return w.UpdateSession(ctx, s)
			}); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, flowProtocol)
			id := e.start("after the end")
			e.toWorking(id)
			ctx := context.Background()
			gittest.Write(t, e.root, "a.txt", "a\n")
			gittest.Git(t, e.root, "add", "a.txt")
			req := session.HookRequest{Repo: e.repo, Tree: func(context.Context) (string, error) { return gittest.Git(t, e.root, "write-tree"), nil }}
			if d, err := e.engine.PreCommit(ctx, req); err != nil || !d.Allowed {
				t.Fatalf("pre-commit: %+v %v", d, err)
			}
			gittest.Git(t, e.root, "commit", "-q", "--no-verify", "-m", "feat: a")
			req.Commit, req.CommitTree = gittest.Git(t, e.root, "rev-parse", "HEAD"), gittest.Git(t, e.root, "rev-parse", "HEAD^{tree}")
			wrap := &interleaved{Store: e.db}
			if c.between != nil {
				wrap.armed = true
				wrap.between = func(ctx context.Context) { c.between(ctx, e, id) }
			}
			e.engine.Store = wrap
			e.now = e.now.Add(time.Minute)
			if _, err := e.engine.PostCommit(ctx, req); err != nil {
				t.Fatalf("post-commit: %v", err)
			}
			e.engine.Store = e.db
			if wrap.armed {
				t.Fatal("post-commit never wrote: the interleaving did not happen")
			}
			got, err := e.db.RecordedCommits(ctx, id, req.Commit)
			if err != nil {
				t.Fatal(err)
			}
			if got[req.Commit] != c.recorded {
				t.Errorf("commit recorded as the session's evidence: %v, want %v", got[req.Commit], c.recorded)
			}
			s, err := e.db.GetSession(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			evs, err := e.db.ListEvidence(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				if !s.EndedAt.IsZero() && ev.CreatedAt.After(s.EndedAt) {
					t.Errorf("evidence %s %s dated %s, after the session ended at %s", ev.Kind, ev.Ref, ev.CreatedAt, s.EndedAt)
				}
			}
		})
	}
}
