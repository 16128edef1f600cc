package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/policy"
	"github.com/sessiongate/sessiongate/server/mcpserver"
	"github.com/sessiongate/sessiongate/session"
)

// TestMCPRecordEvidenceWarnings: a sequence rule's warning reaches the
// MCP caller of record_evidence (it used to be dropped), in the structured
// result and in the text a model reads; validate_gate's text carries it too.
func TestMCPRecordEvidenceWarnings(t *testing.T) {
	f := newMCPFixture(t)
	f.engine.Config.Policy = &policy.Config{Default: []policy.Rule{
		{Name: "evidence-seen", Description: "evidence recorded", Pattern: []string{"tool:record_evidence"}, Action: policy.ActionWarn},
		{Name: "gate-seen", Description: "gate validated", Pattern: []string{"tool:validate_gate"}, Action: policy.ActionWarn},
	}}
	cs := mcpConnectStdio(t, mcpserver.New(f.opts))
	id := mcpOK[session.StartResult](t, cs, "session_start", map[string]any{"objective": "warnings"}).SessionID
	res := mcpCall(t, cs, "record_evidence", map[string]any{"session_id": id, "phase": "CONTEXT_RETRIEVAL", "evidence_type": "tool_output", "evidence": "read the notes"})
	out := mcpStructured[struct {
		Warnings []string `json:"warnings"`
	}](t, res)
	if len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0], "evidence-seen") {
		t.Errorf("structured warnings = %q", out.Warnings)
	}
	if !strings.Contains(mcpText(res), "Warning: sequence rule evidence-seen") {
		t.Errorf("text = %q", mcpText(res))
	}
	res = mcpCall(t, cs, "validate_gate", map[string]any{"session_id": id})
	if !strings.Contains(mcpText(res), "Warning: sequence rule gate-seen") {
		t.Errorf("validate_gate text = %q", mcpText(res))
	}
}
