package delegate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestDelegateNameOnRealProtocols: on the real team's protocols only the
// requirements that ask for a sub-agent name one; "the agent MUST ..."
// everywhere else names none.
func TestDelegateNameOnRealProtocols(t *testing.T) {
	want := map[string]string{
		"QA_VALIDATION.invoke-qa-after-completing":    "qa",
		"QA_VALIDATION.route-qa-after-feature":        "qa",
		"RETROSPECTIVE.invoke-retrospective-sessions": "retrospective",
	}
	for _, f := range []string{"SESSION-PROTOCOL_2025-12-18_fd7d1d61d.md", "SESSION-PROTOCOL_2025-12-22_3821367d2.md"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "shared", "fixtures", "ai-agents", f))
		if err != nil {
			t.Fatalf("the real protocol in ../shared/fixtures: %v", err)
		}
		spec, err := protocolspec.Parse(f, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range spec.Phases {
			for _, r := range p.Requirements {
				got := Name(r)
				if w, ok := want[r.ID]; ok && got != w || !ok && got != "" {
					t.Errorf("%s %s (%q): sub-agent %q, want %q", f, r.ID, r.Text, got, want[r.ID])
				}
			}
		}
	}
}
