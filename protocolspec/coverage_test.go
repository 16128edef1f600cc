package protocolspec

import (
	"reflect"
	"strings"
	"testing"
)

func TestCoverage(t *testing.T) {
	doc := "## Session Start\n" +
		"### Phase 1: Serena Initialization (BLOCKING)\nThe agent MUST init. It MUST NOT skip. It SHOULD log.\n" +
		"### Phase 2: Checks (REQUIRED)\n<!-- gate: command \"make\" -->\n<!-- gate: evidence tool_output -->\n" +
		"## Session End\n### Phase 1: Wrap Up (REQUIRED)\nNothing required.\n" +
		"### Phase 2: Hand Off\nWrite the handoff.\n"
	spec := parseOK(t, doc)
	got := spec.Coverage()
	want := []PhaseCoverage{
		{ID: "SERENA_INITIALIZATION", Section: SectionStart, Number: "1", Title: "Serena Initialization", Gate: GateBlocking, Binding: GateBlocking, Line: 2, MachineChecked: false, Builtin: true, Kinds: []CheckKind{CheckEvidence}, Must: 2},
		{ID: "CHECKS", Section: SectionStart, Number: "2", Title: "Checks", Gate: GateRequired, Binding: GateRequired, Line: 4, MachineChecked: true, Builtin: false, Kinds: []CheckKind{CheckCommand, CheckEvidence}, Must: 0},
		{ID: "WRAP_UP", Section: SectionEnd, Number: "1", Title: "Wrap Up", Gate: GateRequired, Binding: GateRequired, Line: 8, MachineChecked: false, Builtin: true, Kinds: []CheckKind{CheckMustEvidence}, Must: 0},
		// unmarked, one imperative: it binds, so lint says it relies on evidence
		{ID: "HAND_OFF", Section: SectionEnd, Number: "2", Title: "Hand Off", Gate: GateUnspecified, Binding: GateRequired, Line: 10, MachineChecked: false, Builtin: true, Kinds: []CheckKind{CheckMustEvidence}, Must: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("coverage = %+v\nwant %+v", got, want)
	}

	var lint []string
	for _, w := range Lint(spec) {
		lint = append(lint, w.String())
	}
	wantLint := []string{
		"2: BLOCKING phase SERENA_INITIALIZATION relies on recorded evidence only",
		"4: phase CHECKS has no RFC 2119 requirements",
		"8: phase WRAP_UP has no RFC 2119 requirements",
		"8: REQUIRED phase WRAP_UP relies on recorded evidence only",
		"8: phase WRAP_UP has no MUST requirement",
		"10: REQUIRED phase HAND_OFF relies on recorded evidence only",
	}
	if len(lint) != len(wantLint) {
		t.Fatalf("lint = %q\nwant %q", lint, wantLint)
	}
	for i := range lint {
		if !strings.HasPrefix(lint[i], wantLint[i]) {
			t.Errorf("lint %d = %q, want prefix %q", i, lint[i], wantLint[i])
		}
	}
}
