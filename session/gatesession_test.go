package session_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// TestGateSessionCacheFollowsTheDatabase: a long-lived engine (the MCP
// server's) takes a gate call's session from its kept row only while the
// store's change stamp is unchanged, and after each kind of change answers
// validate_gate exactly as a fresh engine does: evidence recorded by this
// engine and by another store handle (another process), evidence deleted
// by hand on a connection of its own (a sqlite3 shell), a tracked file
// written, git config edited, HEAD moved, the phase advanced, a protected
// file edited, the session ended by hand, the idle timeout passed. Steps
// marked kept must be answered from the kept row (or the cache would be
// tested by nothing).
func TestGateSessionCacheFollowsTheDatabase(t *testing.T) {
	session.SetStampNow(func() time.Time { return time.Now().Add(time.Minute) }) // file stamps count as old
	t.Cleanup(func() { session.SetStampNow(time.Now) })
	ctx := context.Background()
	e := newEnv(t, flowProtocol)
	e.engine.Config.Protect = true
	gittest.Commit(t, e.root, "protocol", map[string]string{"SESSION-PROTOCOL.md": flowProtocol})
	id := e.start("session cache")
	other, err := store.Open(ctx, e.db.Path()) // a second handle, as another process has
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	otherEngine := session.NewEngine(other, e.engine.Config, func(ctx context.Context, wt string) (session.Repo, error) {
		return gitrepo.Open(ctx, wt)
	})
	otherEngine.Now = func() time.Time { return e.now }
	raw, err := sql.Open("sqlite", "file:"+e.db.Path()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	byHand := func(q string) {
		t.Helper()
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	answer := func(eng *session.Engine) string {
		t.Helper()
		g, err := eng.ValidateGate(ctx, id, "")
		if err != nil {
			return "error: " + err.Error()
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s %s", g.Phase, g.Status, g.Message)
		for _, c := range g.Checks {
			fmt.Fprintf(&b, "; %s %s %s", c.Kind, c.Status, c.Message)
		}
		return b.String()
	}
	protocolPath := filepath.Join(e.root, "SESSION-PROTOCOL.md")
	steps := []struct {
		name string
		do   func()
		kept bool   // the session came from the kept row
		want string // a substring of the answer
	}{
		{"first call", func() {}, false, "FAIL"},
		{"asked again: recorded in full before, a repeat now", func() {}, false, "FAIL"},
		{"asked again", func() {}, true, "FAIL"},
		{"and again", func() {}, true, "FAIL"},
		{"evidence recorded by this engine", func() { e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read") }, false, "PASS"},
		{"asked again after it", func() {}, false, "PASS"},
		{"and again", func() {}, true, "PASS"},
		{"evidence deleted by hand", func() { byHand("DELETE FROM evidence WHERE session_id = '" + id + "'") }, false, "FAIL"},
		{"asked again after the delete", func() {}, false, "FAIL"},
		{"and again after the delete", func() {}, true, "FAIL"},
		{"evidence recorded through another handle", func() {
			if _, err := otherEngine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT_RETRIEVAL", Kind: session.EvidenceToolOutput, Evidence: "read"}); err != nil {
				t.Fatal(err)
			}
		}, false, "PASS"},
		{"asked again after the other handle", func() {}, false, "PASS"},
		{"and again after the other handle", func() {}, true, "PASS"},
		{"a tracked file written", func() { gittest.Write(t, e.root, "README.md", "# changed\n") }, true, "PASS"},
		{"git config edited", func() { gittest.Git(t, e.root, "config", "filter.strip.clean", "cat") }, true, "PASS"},
		{"the phase advanced", func() { e.advance(id) }, false, "PLAN"},
		{"asked again after the advance", func() {}, false, "PLAN"},
		{"and again after the advance", func() {}, true, "PLAN"},
		{"HEAD moved", func() { gittest.Commit(t, e.root, "plan", map[string]string{"PLAN.md": "plan\n"}) }, true, "PASS"},
		{"asked again after the commit", func() {}, false, "PASS"},
		{"and again after the commit", func() {}, true, "PASS"},
		{"the session's row changed by hand", func() {
			byHand("UPDATE sessions SET objective = 'changed by hand' WHERE id = '" + id + "'")
		}, false, "PASS"},
		{"a protected file edited", func() {
			if err := os.WriteFile(protocolPath, []byte(strings.Replace(flowProtocol, "MUST", "MAY", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, true, "error"},
		{"the protected file put back", func() {
			if err := os.WriteFile(protocolPath, []byte(flowProtocol), 0o644); err != nil {
				t.Fatal(err)
			}
		}, false, ""},
		{"the idle timeout passed", func() { e.now = e.now.Add(48 * time.Hour) }, false, "expired"},
	}
	for _, s := range steps {
		s.do()
		// The fresh engine judges first and without recording: its record
		// would move the kept engine's stamp and hide what this test looks
		// for, and the kept engine's own record (an expired session marked
		// abandoned) would change what the fresh one reads.
		fresh := session.NewEngine(judgeOnly{e.db}, e.engine.Config, func(ctx context.Context, wt string) (session.Repo, error) {
			return gitrepo.Open(ctx, wt)
		})
		fresh.Now = func() time.Time { return e.now }
		want := answer(fresh)
		before := session.GateSessionHits(e.engine)
		got := answer(e.engine)
		kept := session.GateSessionHits(e.engine) > before
		if got != want {
			t.Errorf("%s: the kept engine answered %q, a fresh one %q", s.name, got, want)
		}
		if !strings.Contains(got, s.want) {
			t.Errorf("%s: answered %q, want %q in it", s.name, got, s.want)
		}
		if kept != s.kept {
			t.Errorf("%s: from the kept session %v, want %v (answer %q)", s.name, kept, s.kept, got)
		}
	}
}
