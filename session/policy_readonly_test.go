package session_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/policy"
	"github.com/sessiongate/sessiongate/session"
)

// TestReadOnlyCallsDoNotDodgeRules: against a real engine and database,
// a forced advance followed by get_blocked_reason and validate_gate calls
// (however many) and another forced advance is still refused.
func TestReadOnlyCallsDoNotDodgeRules(t *testing.T) {
	for _, reads := range []int{1, 40} {
		e := newEnv(t, flowProtocol)
		ctx := context.Background()
		id := e.start("dodge")
		if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Force: true, Reason: "first"}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < reads; i++ {
			if _, err := e.engine.BlockedReason(ctx, id); err != nil {
				t.Fatal(err)
			}
			if _, err := e.engine.ValidateGate(ctx, id, ""); err != nil {
				t.Fatal(err)
			}
		}
		_, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Force: true, Reason: "second"})
		if !errors.Is(err, policy.ErrBlocked) || !strings.Contains(err.Error(), "repeated-forced-advance") {
			t.Fatalf("%d read-only call pairs in between: second force: %v", reads, err)
		}
	}
}

// TestWarningsInEveryResult: a warn rule's warning reaches the caller of
// record_evidence, validate_gate, get_blocked_reason, advance_phase and
// session_end.
func TestWarningsInEveryResult(t *testing.T) {
	e := newEnv(t, flowProtocol)
	var rules []policy.Rule
	for _, tok := range []string{"tool:record_evidence", "tool:validate_gate", "tool:get_blocked_reason", "tool:advance_phase", "tool:session_end"} {
		name := "warn-" + strings.ReplaceAll(strings.TrimPrefix(tok, "tool:"), "_", "-")
		rules = append(rules, policy.Rule{Name: name, Description: "seen " + tok, Pattern: []string{tok}, Action: policy.ActionWarn})
	}
	// Keyed by the configured path: the rules apply to this protocol only.
	e.engine.Config.ProtocolPath = ".agents/SESSION-PROTOCOL.md"
	e.engine.Config.Policy = &policy.Config{Protocols: map[string][]policy.Rule{".agents/SESSION-PROTOCOL.md": rules}}
	ctx := context.Background()
	id := e.start("warnings")
	want := func(call string, ws []string) {
		t.Helper()
		if len(ws) != 1 || !strings.Contains(ws[0], "seen tool:"+call) {
			t.Errorf("%s warnings = %q", call, ws)
		}
	}
	ev, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Kind: session.EvidenceToolOutput, Evidence: "notes read"})
	if err != nil {
		t.Fatal(err)
	}
	want("record_evidence", ev.Warnings)
	g, err := e.engine.ValidateGate(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	want("validate_gate", g.Warnings)
	rep, err := e.engine.BlockedReason(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want("get_blocked_reason", rep.Warnings)
	adv, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id})
	if err != nil {
		t.Fatal(err)
	}
	want("advance_phase", adv.Warnings[:min(1, len(adv.Warnings))])
	e.evidence(id, "ISSUE_CONTEXT", session.EvidenceManual, "issue read")
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING"}); err != nil {
		t.Fatal(err)
	}
	end, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if len(end.Warnings) == 0 || !strings.Contains(strings.Join(end.Warnings, " "), "seen tool:session_end") {
		t.Errorf("session_end warnings = %q", end.Warnings)
	}

	// Another protocol path: the per-protocol rules do not apply.
	e.engine.Config.ProtocolPath = "docs/OTHER.md"
	id2 := e.start("other protocol")
	ev, err = e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id2, Kind: session.EvidenceToolOutput, Evidence: "read the README and the notes"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Warnings) != 0 {
		t.Errorf("rules keyed by another path fired: %q", ev.Warnings)
	}
}
