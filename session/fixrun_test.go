package session_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// TestFixOfARunRequirement: a QA requirement only an observed run meets
// (field pass, a docs-only session in a project without tests). The
// gate's fix said `sessiongate session evidence --requirement R --type
// manual`, a claim that is recorded and never counts there: an honest
// agent following it stays blocked. The fix is now the run. (Only the
// hint changed: what meets the requirement is as before.)
func TestFixOfARunRequirement(t *testing.T) {
	requireGit(t)
	doc, err := os.ReadFile(filepath.Join("..", "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, string(doc))
	id := e.start("fix a README typo")
	var fix *session.NextStep
	var open string
	for _, c := range e.gate(id, "QA_VALIDATION").Checks {
		if c.Kind == protocolspec.CheckMustEvidence && c.Status == session.StatusFail {
			fix = c.Fix
			if len(c.Open) > 0 {
				open = c.Open[0].ID
			}
		}
	}
	if fix == nil || open == "" {
		t.Fatalf("no failing must_evidence check with an open requirement: %+v", e.gate(id, "QA_VALIDATION").Checks)
	}
	if fix.Action != session.StepRunObserved || fix.Requirement != open {
		t.Errorf("fix %+v, want a run bound to %s", fix, open)
	}
}
