package session_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"

	_ "modernc.org/sqlite" // the hand-written rows' own connection
)

// TestGateEvidenceCacheFollowsTheDatabase: a long-lived engine (the MCP
// server's) reads a gate's evidence from its cache only while the
// session's evidence stamp is unchanged, and after each kind of change
// answers validate_gate exactly as a fresh engine does: evidence recorded
// by this engine, by another store handle (another process), a row
// inserted and one deleted by hand on a connection of its own, the phase advanced, a
// tracked file written, HEAD moved. The cached steps must be answered from
// the cache (or the cache would be tested by nothing).
func TestGateEvidenceCacheFollowsTheDatabase(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, flowProtocol)
	id := e.start("evidence cache")
	other, err := store.Open(ctx, e.db.Path()) // a second handle, as another process has
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	otherEngine := session.NewEngine(other, e.engine.Config, func(ctx context.Context, wt string) (session.Repo, error) {
		return gitrepo.Open(ctx, wt)
	})
	otherEngine.Now = func() time.Time { return e.now }
	// Rows written by hand: a connection of its own, as a sqlite3 shell
	// would be, outside any store code.
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
	steps := []struct {
		name   string
		do     func()
		cached bool   // answered from the evidence cache
		status string // a substring of the answer
	}{
		{"no evidence yet", func() {}, false, "FAIL"},
		{"asked again: recorded in full before, a repeat now", func() {}, false, "FAIL"},
		{"asked again", func() {}, true, "FAIL"},
		{"evidence recorded by this engine", func() { e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read") }, false, "PASS"},
		{"asked again after it", func() {}, false, "PASS"},
		{"and again", func() {}, true, "PASS"},
		{"deleted by hand", func() { byHand("DELETE FROM evidence WHERE session_id = '" + id + "'") }, false, "FAIL"},
		{"asked again after the delete", func() {}, false, "FAIL"},
		{"and again after the delete", func() {}, true, "FAIL"},
		{"evidence recorded through another handle", func() {
			if _, err := otherEngine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT_RETRIEVAL", Kind: session.EvidenceToolOutput, Evidence: "read"}); err != nil {
				t.Fatal(err)
			}
		}, false, "PASS"},
		{"deleted by hand again", func() { byHand("DELETE FROM evidence WHERE session_id = '" + id + "'") }, false, "FAIL"},
		{"a row inserted by hand", func() {
			byHand(fmt.Sprintf("INSERT INTO evidence (session_id, phase, kind, sha256, ref, size, created_at) VALUES ('%s', 'CONTEXT_RETRIEVAL', 'tool_output', '%s', '', 4, %d)",
				id, sha256hex("read"), e.now.UnixNano()))
		}, false, "PASS"},
		{"asked again after the insert", func() {}, false, "PASS"},
		{"and again after the insert", func() {}, true, "PASS"},
		{"the phase advanced", func() { e.advance(id) }, false, "PLAN"},
		{"asked again after the advance", func() {}, false, "PLAN"},
		{"and again after the advance", func() {}, true, "PLAN"},
		{"the plan's file written", func() { gittest.Write(t, e.root, "PLAN.md", "plan\n") }, true, "PASS"},
		{"HEAD moved", func() { gittest.Commit(t, e.root, "plan", map[string]string{"PLAN.md": "plan\n"}) }, false, "PASS"},
		{"asked again after the commit", func() {}, false, "PASS"},
		{"and again after the commit", func() {}, true, "PASS"},
	}
	for _, s := range steps {
		s.do()
		before := session.EvidenceCacheHits(e.engine)
		got := answer(e.engine)
		cached := session.EvidenceCacheHits(e.engine) > before
		// The fresh engine judges without recording: its record would move
		// the kept engine's stamp and hide what this test looks for.
		fresh := session.NewEngine(judgeOnly{e.db}, e.engine.Config, func(ctx context.Context, wt string) (session.Repo, error) {
			return gitrepo.Open(ctx, wt)
		})
		fresh.Now = func() time.Time { return e.now }
		want := answer(fresh)
		if got != want {
			t.Errorf("%s: the kept engine answered %q, a fresh one %q", s.name, got, want)
		}
		if !strings.Contains(got, s.status) {
			t.Errorf("%s: answered %q, want %s in it", s.name, got, s.status)
		}
		if cached != s.cached {
			t.Errorf("%s: from the evidence cache %v, want %v", s.name, cached, s.cached)
		}
	}
}

// judgeOnly is a store whose writes are dropped: an engine on it judges a
// gate as a fresh one would and records nothing.
type judgeOnly struct{ *store.DB }

func (judgeOnly) Update(context.Context, func(session.Writer) error) error        { return nil }
func (judgeOnly) UpdateGrouped(context.Context, func(session.Writer) error) error { return nil }
