package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestToldBranches: a follow-up branch is told where a reader takes it as
// a branch's name, not where the name stands in passing (round 40's
// re-checks).
func TestToldBranches(t *testing.T) {
	for _, c := range []struct {
		text, name string
		want       bool
	}{
		{"The README change waits on branch `docs/readme`, not yet pushed.", "docs/readme", true},
		{"waits on the follow-up branch\ndocs/readme, not yet pushed.", "docs/readme", true},
		{"Follow-up branches, not yet pushed:\n\n- docs/readme: the README usage line", "docs/readme", true},
		{"Unpushed branches\n\n1. docs/readme", "docs/readme", true},
		{"Pushed nothing yet; see `docs/readme` (branch).", "docs/readme", true},
		{"**Branch:** `docs/readme`", "docs/readme", true},
		{"on the branch named `docs/readme`", "docs/readme", true},
		{"a branch (`docs/readme`)", "docs/readme", true},
		{"Get it with `git switch docs/readme`.", "docs/readme", true},
		{"| Follow-up | Branch name | State |\n|---|---|---|\n| README | **docs/readme** | not yet pushed |", "docs/readme", true},
		{"| Task | Branches |\n|---|---|\n| docs | docs/readme, docs/usage |", "docs/usage", true},
		{"The parked change is on branch `parking`.", "parking", true},
		// In passing.
		{"All work stayed on the feature branch.", "work", false},
		{"All work stayed on the feature branch.", "feature", false},
		{"Everything is on this branch.", "this", false},
		{"Document the name argument in `README.md`.", "README.md", false},
		{"feat(scripts): greet branches on an optional name", "name", false},
		{"scripts/greet.sh takes an optional name; no parking needed.", "parking", false},
	} {
		if got := toldIn([]string{c.text})(c.name); got != c.want {
			t.Errorf("told %q in %q = %v, want %v", c.name, c.text, got, c.want)
		}
	}
}

// TestLogAskedOneCommit: the team's 2025-12-22 protocol quotes `git log
// --oneline -1` to note the starting commit; HEAD alone answers it, and
// the history rule (HEAD and a parent) holds only where the quoted log
// shows more (CI run of round 40: four honest real-CLI sessions blocked).
func TestLogAskedOneCommit(t *testing.T) {
	spec, err := protocolspec.Parse("SESSION-PROTOCOL.md", readFixture(t, "SESSION-PROTOCOL_2025-12-22_3821367d2.md"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range spec.Phases {
		one, ok := logAsked(spec, p.ID, "git log --oneline -1", "")
		if !ok {
			continue
		}
		found = true
		if !one {
			t.Errorf("phase %s: its quoted `git log --oneline -1` read as asking for the history", p.ID)
		}
	}
	if !found {
		t.Fatal("no phase of the 2025-12-22 protocol asks for a git log")
	}
}

// readFixture reads a protocol of ../shared/fixtures/ai-agents.
func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "shared", "fixtures", "ai-agents", name))
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("fixture %s not available (%v); it lives in ../shared/fixtures/ai-agents", name, err)
		}
		t.Fatalf("fixture %s: %v", name, err)
	}
	return b
}
