package session_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestAcceptedContentsCacheFollowsTheDatabase: one engine keeps the
// accepted contents between gate calls (trustedcache.go); at every step its
// validate_gate refuses exactly when a fresh engine over the same database
// does. A person's accept mid-session lets the next call through (honest),
// the agent's edit and its row written straight into the database are
// refused. Fails if the cache ignores the stamp (the accept is not seen).
func TestAcceptedContentsCacheFollowsTheDatabase(t *testing.T) {
	const weak = "# P\n\n## Session Start\n\n### Phase 1: Nothing (OPTIONAL)\n\nThe agent MAY look.\n"
	const weaker = "# P\n\n## Session Start\n\n### Phase 1: Less (OPTIONAL)\n\nThe agent MAY glance.\n"
	ctx := context.Background()
	e := newEnv(t, flowProtocol)
	e.engine.Config.Protect = true
	gittest.Commit(t, e.root, "protocol", map[string]string{"SESSION-PROTOCOL.md": flowProtocol})
	id := e.start("cache")
	refused := func(eng *session.Engine) bool {
		t.Helper()
		_, err := eng.ValidateGate(ctx, id, "")
		if err != nil && !errors.Is(err, session.ErrProtectedChanged) {
			t.Fatal(err)
		}
		return err != nil
	}
	steps := []struct {
		name    string
		do      func()
		refused bool
	}{
		{"unchanged", func() {}, false},
		{"unchanged again (cached)", func() {}, false},
		{"the agent weakens the protocol", func() { gittest.Write(t, e.root, "SESSION-PROTOCOL.md", weak) }, true},
		{"a person accepts it", func() { accept(t, e) }, false},
		{"accepted, asked again (cached)", func() {}, false},
		{"the agent weakens it further", func() { gittest.Write(t, e.root, "SESSION-PROTOCOL.md", weaker) }, true},
		{"and writes a row for it into the database", func() { insertRow(t, e, "SESSION-PROTOCOL.md", weaker, session.TrustAccept) }, true},
		{"the agent puts back what the person accepted", func() { gittest.Write(t, e.root, "SESSION-PROTOCOL.md", weak) }, false},
	}
	for _, s := range steps {
		s.do()
		fresh := session.NewEngine(e.db, e.engine.Config, func(ctx context.Context, wt string) (session.Repo, error) {
			return gitrepo.Open(ctx, wt)
		})
		fresh.Now = func() time.Time { return e.now }
		got, want := refused(e.engine), refused(fresh)
		if got != want || got != s.refused {
			t.Fatalf("%s: the kept engine refused=%v, a fresh one %v, want %v", s.name, got, want, s.refused)
		}
	}
}
