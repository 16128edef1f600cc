package session

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestRequirementStepNamesTheKindItTakes: the evidence a hint offers for a
// requirement is the kind the engine takes for it. A write requirement
// refuses a manual note ("writes no file"), so its hint is the file; a
// read requirement's hint is the read file's hash (adversarial pass: the
// handoff's write requirement was offered `--type manual`, then refused).
func TestRequirementStepNamesTheKindItTakes(t *testing.T) {
	spec, err := protocolspec.Parse("P.md", []byte("# P\n\n## Session Start\n\n### Phase 1: Context (BLOCKING)\n\n- The agent MUST run `git status`.\n\n## Session End\n\n### Phase 9: Handoff (REQUIRED)\n\n"+
		"- The agent MUST update `.agents/HANDOFF.md` with what is left.\n"+
		"- The agent MUST read `docs/plan.md` before it stops.\n"+
		"- The agent MUST tell the user what changed.\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := &spec.Phases[len(spec.Phases)-1]
	want := map[string]string{"update": "--type file_path --value .agents/HANDOFF.md", "read": "--type content_hash --value docs/plan.md", "tell": "--type manual"}
	seen := 0
	for _, r := range p.Requirements {
		for verb, w := range want {
			if !strings.Contains(strings.ToLower(r.Text), "must "+verb) {
				continue
			}
			seen++
			if got := requirementStep(p, r); !strings.Contains(got, w) {
				t.Errorf("%s (%q): hint %q, want it to hold %q", r.ID, r.Text, got, w)
			}
		}
	}
	if seen != len(want) {
		t.Fatalf("parsed %d of the %d requirements: %+v", seen, len(want), p.Requirements)
	}
}
