package session

import (
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// Only what the protocol has the session write is exempt from the
// editorial check: a path it has the agent read (the project plan) and a
// whole top-level folder are not (exempting them let a new section in the
// plan pass as editorial).
func TestProtocolArtifactsAreWrites(t *testing.T) {
	spec, err := protocolspec.Parse("P.md", []byte("# P\n\n## Session Start\n\n### Phase 1: Context (BLOCKING)\n\n"+
		"1. The agent MUST read `.agents/planning/PLAN.md` and everything in `.agents/`.\n"+
		"3. The agent MUST read `.agents/governance/RULES.md`, then create `.agents/qa/report.md`.\n"+
		"2. The agent MUST create a session log at `.agents/sessions/log.md`.\n\n"+
		"## Session End\n\n### Phase 1: Commit (BLOCKING)\n\n"+
		"1. The agent MUST commit all changes (including .serena/memories).\n"))
	if err != nil {
		t.Fatal(err)
	}
	arts := protocolArtifacts(spec)
	for _, want := range []string{".agents/sessions/log.md", ".serena/memories/**", ".agents/qa/report.md"} {
		if !slices.Contains(arts, want) {
			t.Errorf("%s is written by the protocol but not exempt: %q", want, arts)
		}
	}
	for _, f := range []string{".agents/planning/PLAN.md", ".agents/notes.md", ".agents/governance/RULES.md"} {
		if matchAny(arts, f) {
			t.Errorf("%s is only read, yet exempt from the editorial check: %q", f, arts)
		}
	}
}
