package session_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestValidateGateRecords: each check appends its events and records the
// result of a phase still open (FAILED, then PENDING), never over a
// settled one (PASSED after the advance).
func TestValidateGateRecords(t *testing.T) {
	e := newEnv(t, flowProtocol)
	ctx := context.Background()
	id := e.start("records")
	result := func() session.PhaseResult {
		t.Helper()
		rs, err := e.db.PhaseResults(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.PhaseID == "CONTEXT_RETRIEVAL" {
				return r
			}
		}
		t.Fatal("no result for CONTEXT_RETRIEVAL")
		return session.PhaseResult{}
	}
	validate := func(want session.GateStatus) {
		t.Helper()
		e.now = e.now.Add(time.Minute)
		before := len(e.tokens(id))
		g, err := e.engine.ValidateGate(ctx, id, "CONTEXT_RETRIEVAL")
		if err != nil || g.Status != want {
			t.Fatalf("validate_gate: %+v, %v; want %s", g, err, want)
		}
		got := e.tokens(id)[before:]
		if w := []string{"tool:validate_gate", "gate:CONTEXT_RETRIEVAL:" + map[session.GateStatus]string{session.StatusPass: "pass", session.StatusFail: "fail"}[want]}; !slices.Equal(got, w) {
			t.Fatalf("events %q, want %q", got, w)
		}
	}

	validate(session.StatusFail)
	if r := result(); r.Status != session.PhaseFailed || !r.EndedAt.Equal(e.now) || len(r.Checks) != 1 {
		t.Fatalf("after a failing check: %+v", r)
	}
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read")
	validate(session.StatusPass)
	if r := result(); r.Status != session.PhasePending || !r.EndedAt.Equal(e.now) || r.Checks[0].Status != session.StatusPass {
		t.Fatalf("after a passing check: %+v", r)
	}
	e.advance(id)
	passed := result()
	if passed.Status != session.PhasePassed {
		t.Fatalf("after the advance: %+v", passed)
	}
	validate(session.StatusPass)
	if r := result(); r.Status != session.PhasePassed || !r.EndedAt.Equal(passed.EndedAt) {
		t.Fatalf("a re-check rewrote the settled result: %+v, was %+v", r, passed)
	}
}
