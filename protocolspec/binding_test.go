package protocolspec

import (
	"strings"
	"testing"
)

// TestBinding: an unmarked phase binds by what it holds and says; a marked
// one as marked. Each row is one phase in the Session Start section.
func TestBinding(t *testing.T) {
	tests := []struct {
		name    string
		heading string
		body    string
		want    GateLevel
		reason  string // a substring of the reason
	}{
		{"marked blocking", "Phase 1: Context Retrieval (BLOCKING)", "Read the handoff.", GateBlocking, "marked (BLOCKING)"},
		{"marked optional stays optional", "Phase 1: Retro (OPTIONAL)", "The agent MUST write it.", GateOptional, "marked (OPTIONAL)"},
		{"marked with condition", "Phase 1: Issue (BLOCKING when issue context exists)", "Read the issue.", GateBlocking, "marked (BLOCKING when issue context exists)"},
		{"unmarked RFC 2119", "Phase 1: QA", "The agent MUST run the tests.", GateRequired, "unmarked, holds 1 requirement"},
		{"unmarked imperatives", "Phase 1: QA", "- Run the tests\n- Do not skip failing tests\n- Fix what fails", GateRequired, "unmarked, holds 3 requirements"},
		{"unmarked MUST table row", "Phase 1: QA", "| Req | Step | Status | Evidence |\n|---|---|---|---|\n| MUST | Tests pass | [ ] | |", GateRequired, "holds 1 requirement"},
		{"unmarked prohibition a machine checks", "Phase 1: Branch", "Do not work on `main`.", GateRequired, "1 prohibition a machine checks"},
		{"unmarked prohibition nothing sees", "Phase 1: Care", "Do not force-push a shared branch.", GateRecommended, "only prohibitions (1)"},
		{"unmarked SHOULD only", "Phase 1: Plan", "The agent SHOULD write a plan.", GateRecommended, "only SHOULD"},
		{"unmarked description only", "Phase 1: Notes", "This phase covers notes.", GateUnspecified, "holds no requirement"},
		{"title says optional", "Phase 1: Optional Retrospective", "Write a retrospective.", GateOptional, "title says Optional"},
		{"title conditional", "Phase 1: Retrospective if time allows", "Write a retrospective.", GateOptional, "conditional: title"},
		{"text: subject is optional", "Phase 1: Session Log", "Session logs are optional. Create one for long work.", GateOptional, `text says "Session logs are optional."`},
		{"text: this phase is optional", "Phase 1: Retro", "This phase is optional. Write a retrospective.", GateOptional, "text says"},
		{"text: Optional lead", "Phase 1: Retro", "Optional: write a retrospective.", GateOptional, "text says"},
		{"text: applies when", "Phase 1: Retro", "This phase applies only when the work produced durable learning. Write a retrospective.", GateOptional, "conditional: text says"},
		{"every MUST conditional", "Phase 1: Retrospective", "When the work produced durable learning, write a retrospective to `.agents/retrospective/`.", GateOptional, "conditional: every requirement"},
		{"one MUST unconditional", "Phase 1: QA", "If code changed, add tests. Run the full suite.", GateRequired, "holds 2 requirements"},
		{"other subject optional does not count", "Phase 1: QA", "Screenshots are optional. Run the tests.", GateRequired, "holds 1 requirement"},
		{"optional with a tail is required otherwise", "Phase 1: QA Validation", "Validation is optional for docs-only changes. Run the tests.", GateRequired, "holds 1 requirement"},
		{"Optional when X is required otherwise", "Phase 1: Retro", "Optional when the session was short. Write a retrospective.", GateRequired, "holds 1 requirement"},
		{"command gate binds even when optional", "Phase 1: Optional Lint", "<!-- gate: command \"make lint\" -->\n\nLint is nice.", GateRequired, "runs a command gate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := parseOK(t, inStart("### "+tt.heading+"\n\n"+tt.body+"\n"))
			p := spec.Phases[0]
			if p.Binding != tt.want || !strings.Contains(p.BindingReason, tt.reason) {
				t.Errorf("binding = %s (%s), want %s (%s)", p.Binding, p.BindingReason, tt.want, tt.reason)
			}
			if p.Mandatory() != tt.want.Mandatory() {
				t.Errorf("Mandatory() = %v, want %v", p.Mandatory(), tt.want.Mandatory())
			}
		})
	}
}

// TestBound: sessiongate.yaml's unmarked_phases and commands: change the
// binding of unmarked phases only, and never the parsed spec itself.
func TestBound(t *testing.T) {
	doc := inStart("### Phase 1: QA\n\nRun the tests.\n\n### Phase 2: Notes\n\nThis phase covers notes.\n\n### Phase 3: Optional Retro\n\nWrite one.\n\n### Phase 4: Marked (RECOMMENDED)\n\nThe agent MUST x.\n")
	spec := parseOK(t, doc)
	tests := []struct {
		name string
		o    BindOptions
		want []GateLevel // QA, NOTES, OPTIONAL_RETRO, MARKED, END
	}{
		{"no options", BindOptions{}, []GateLevel{GateRequired, GateUnspecified, GateOptional, GateRecommended, GateUnspecified}},
		{"unmarked recommended", BindOptions{Unmarked: GateRecommended}, []GateLevel{GateRecommended, GateRecommended, GateOptional, GateRecommended, GateRecommended}},
		{"unmarked blocking", BindOptions{Unmarked: GateBlocking}, []GateLevel{GateBlocking, GateBlocking, GateOptional, GateRecommended, GateBlocking}},
		{"commands entry binds", BindOptions{Commands: map[string]bool{"NOTES": true, "OPTIONAL_RETRO": true, "MARKED": true}}, []GateLevel{GateRequired, GateRequired, GateRequired, GateRecommended, GateUnspecified}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := spec.Bound(tt.o)
			var got []GateLevel
			for _, p := range b.Phases {
				got = append(got, p.Binding)
			}
			if strings.Join(levelStrings(got), ",") != strings.Join(levelStrings(tt.want), ",") {
				t.Errorf("bindings = %v, want %v", got, tt.want)
			}
			if spec.Phases[0].Binding != GateRequired || spec.Phases[1].Binding != GateUnspecified {
				t.Errorf("Bound changed the parsed spec: %s %s", spec.Phases[0].Binding, spec.Phases[1].Binding)
			}
		})
	}
}

func levelStrings(ls []GateLevel) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = string(l)
	}
	return out
}

// TestDroppedBuiltins: a built-in check the text contradicts is not given,
// and the phase says which and why.
func TestDroppedBuiltins(t *testing.T) {
	tests := []struct {
		name, heading, body string
		dropped             string // the dropped check's arg, "" for none
		reason              string
	}{
		{"session log optional", "Phase 1: Session Log", "Session logs are optional.", ".agents/sessions/*", "optional"},
		{"session log marked required", "Phase 1: Session Log (REQUIRED)", "The agent MUST create a session log.", "", ""},
		{"session log required", "Phase 1: Session Log", "Create a session log.", "", ""},
		{"qa evidence may be test output", "Phase 1: QA Validation", "Run the tests. The evidence may be test output from the transcript.", ".agents/qa/*", "test output"},
		{"qa report wanted", "Phase 1: QA Validation", "Write a QA report to `.agents/qa/`.", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := parseOK(t, inStart("### "+tt.heading+"\n\n"+tt.body+"\n"))
			p := spec.Phases[0]
			if tt.dropped == "" {
				if len(p.Dropped) != 0 {
					t.Fatalf("dropped %+v, want none", p.Dropped)
				}
				if p.Checks[0].Kind != CheckFileExists {
					t.Errorf("checks = %+v, want the built-in file_exists", p.Checks)
				}
				return
			}
			if len(p.Dropped) != 1 || p.Dropped[0].Check.Arg != tt.dropped || !strings.Contains(p.Dropped[0].Reason, tt.reason) {
				t.Fatalf("dropped = %+v, want %s (%s)", p.Dropped, tt.dropped, tt.reason)
			}
			for _, c := range p.Checks {
				if c.Kind == CheckFileExists {
					t.Errorf("still has %+v", c)
				}
			}
		})
	}
	// A sentence in any phase calling session logs optional drops the
	// documentation-update check that wants the session log changed.
	spec := parseOK(t, "# P\n\n## Session Start\n\n### Phase 1: Session Log\n\nSession logs are optional.\n\n## Session End\n\n### Phase 1: Documentation Update\n\nWrite down what you did.\n")
	p, _ := spec.Phase("DOCUMENTATION_UPDATE")
	if len(p.Dropped) != 1 || p.Dropped[0].Check.Kind != CheckChangedSinceStart {
		t.Errorf("documentation update dropped %+v, want its changed_since_start on session logs", p.Dropped)
	}
}
