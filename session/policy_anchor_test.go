package session_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/policy"
	"github.com/sessiongate/sessiongate/session"
)

// TestCheckPolicyReadsHistoryWhenARuleCanFire: CheckPolicy skips the
// history read for rules whose last token cannot match the call; a rule
// that ends with the call (exactly, by prefix or by *) still sees the
// history and fires.
func TestCheckPolicyReadsHistoryWhenARuleCanFire(t *testing.T) {
	for _, c := range []struct {
		name    string
		pattern []string
		fires   bool
	}{
		{"ends with the call", []string{"gate:*:pass", "tool:validate_gate"}, true},
		{"ends with a wildcard", []string{"gate:*:pass", "tool:*"}, true},
		{"ends with a prefix of the call", []string{"gate:*:pass", "tool"}, true},
		{"history does not match", []string{"gate:*:fail", "tool:validate_gate"}, false},
		{"ends with another call", []string{"gate:*:pass", "tool:advance_phase"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, flowProtocol)
			e.engine.Config.Policy = &policy.Config{Default: []policy.Rule{
				{Name: "probe", Description: "probe rule", Pattern: c.pattern, Action: policy.ActionWarn},
			}}
			id := e.start("policy anchor")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read")
			ctx := context.Background()
			// The first check leaves gate:CONTEXT_RETRIEVAL:pass as the last event.
			if _, err := e.engine.ValidateGate(ctx, id, ""); err != nil {
				t.Fatal(err)
			}
			g, err := e.engine.ValidateGate(ctx, id, "")
			if err != nil {
				t.Fatal(err)
			}
			fired := len(g.Warnings) == 1 && strings.Contains(g.Warnings[0], "probe")
			if fired != c.fires {
				t.Fatalf("pattern %v: warnings %q, want the rule to fire: %v", c.pattern, g.Warnings, c.fires)
			}
			if got := slices.Contains(e.tokens(id), "policy:probe:warn"); got != c.fires {
				t.Fatalf("pattern %v: policy:probe:warn recorded: %v, want %v (events %v)", c.pattern, got, c.fires, e.tokens(id))
			}
		})
	}
}
