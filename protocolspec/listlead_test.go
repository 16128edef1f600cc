package protocolspec

import (
	"strings"
	"testing"
)

// TestR63H363ListUnderColonMust: the items of a list under an RFC 2119
// sentence ending in a colon ("Session context MUST go to:") are
// requirements of their own (helper 363): the real 2025-12-22 protocol's
// Serena memory and branch handoff were read as the sentence's content and
// owed nothing.
func TestR63H363ListUnderColonMust(t *testing.T) {
	spec, err := Parse(protocolV14, fixture(t, protocolV14))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	doc, _ := spec.Phase("DOCUMENTATION_UPDATE")
	type row struct {
		id, level, provenBy string
		conditional         bool
	}
	want := map[string]row{
		"DOCUMENTATION_UPDATE.session-log-agents-sessions":    {level: LevelMust, provenBy: "changed_since_start .agents/sessions/*"},
		"DOCUMENTATION_UPDATE.serena-memory-cross-session":    {level: LevelMust},
		"DOCUMENTATION_UPDATE.agents-handoffs-branch-session": {level: LevelMust, provenBy: "changed_since_start", conditional: true},
	}
	for _, r := range doc.Requirements {
		w, ok := want[r.ID]
		if !ok {
			continue
		}
		delete(want, r.ID)
		if r.Level != w.level || r.ProvenBy != w.provenBy || r.Conditional != w.conditional || r.Lead != "Session context MUST go to:" || !strings.HasPrefix(r.Text, r.Lead+" ") {
			t.Errorf("%s = %+v, want %+v under the lead", r.ID, r, w)
		}
	}
	for id := range want {
		t.Errorf("no requirement %s in %v", id, doc.RequirementIDs())
	}
	var owed []string
	for _, r := range doc.OwedRequirements() {
		owed = append(owed, r.ID)
	}
	if strings.Join(owed, " ") != "DOCUMENTATION_UPDATE.serena-memory-cross-session" {
		t.Errorf("owed = %v, want only the Serena memory (the session log and the branch handoff have their checks)", owed)
	}
	var branch, mustEv bool
	for _, c := range doc.Checks {
		if c.Kind == CheckChangedSinceStart && c.Arg == ".agents/handoffs/**" && c.When == CondFeatureBranch && c.Inferred != nil && c.Inferred.Rule == RuleListedFile {
			branch = true
		}
		mustEv = mustEv || c.Kind == CheckMustEvidence
	}
	if !branch || !mustEv {
		t.Errorf("checks = %+v, want the branch handoff's changed_since_start when=feature_branch and must_evidence", doc.Checks)
	}
	// "MUST complete the session log with:" names the log's sections: its
	// items stay template content.
	for _, r := range doc.Requirements {
		if strings.Contains(r.Text, "Decisions made") || strings.Contains(r.Text, "Tasks attempted") {
			t.Errorf("a section of the session log became requirement %s", r.ID)
		}
	}
}

// TestR63H363ListLeadShapes: what a lead is and what it is not.
func TestR63H363ListLeadShapes(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string // requirement "LEVEL text"
	}{
		{"paragraph lead", "The agent MUST notify:\n\n- the reviewer\n- the channel (if the change is public)\n",
			[]string{"MUST The agent MUST notify:", "MUST The agent MUST notify: the reviewer", "MUST The agent MUST notify: the channel (if the change is public)"}},
		{"item lead takes the colon sentence's level", "1. The agent MUST NOT do X. Context SHOULD go to:\n   - the log\n",
			[]string{"MUST NOT The agent MUST NOT do X. Context SHOULD go to:", "SHOULD Context SHOULD go to: the log"}},
		{"content intro stays content", "1. The agent MUST complete the log with:\n   - Tasks attempted\n   - Decisions made\n",
			[]string{"MUST The agent MUST complete the log with:"}},
		{"no key word in the colon sentence", "The agent MUST work. Steps:\n\n- one\n",
			[]string{"MUST The agent MUST work."}},
		{"items with their own key words", "- Parent MUST:\n  - Child SHOULD\n  - Child plain\n",
			[]string{"MUST Parent MUST:", "SHOULD Child SHOULD"}},
		{"alternatives", "The agent MUST use one of:\n\n- npm\n- yarn\n",
			[]string{"MUST The agent MUST use one of:"}},
		{"either", "1. The agent MUST record either:\n   - the test output\n   - the CI link\n",
			[]string{"MUST The agent MUST record either:"}},
		{"no colon", "The agent MUST notify the reviewer.\n\n- the reviewer\n",
			[]string{"MUST The agent MUST notify the reviewer."}},
		// Round 63's open LOW row: a lead whose items are examples owes
		// none of them; the sentence itself stays owed.
		{"e.g.", "The agent MUST record what it verified, e.g.:\n\n- the test output\n- the CI link\n",
			[]string{"MUST The agent MUST record what it verified, e.g.:"}},
		{"for example", "1. Context MUST go to a shared place, for example:\n   - the wiki\n   - the tracker\n",
			[]string{"MUST Context MUST go to a shared place, for example:"}},
		{"such as", "The agent SHOULD run a linter such as:\n\n- ruff\n- flake8\n",
			[]string{"SHOULD The agent SHOULD run a linter such as:"}},
		{"for instance", "The agent MUST note risks, for instance:\n\n- data loss\n",
			[]string{"MUST The agent MUST note risks, for instance:"}},
		{"an example word inside the lead", "Context, such as decisions, MUST go to:\n\n- the log\n",
			[]string{"MUST Context, such as decisions, MUST go to:", "MUST Context, such as decisions, MUST go to: the log"}},
		{"a word ending in an example word", "The agent MUST record what it dislike:\n\n- the log\n",
			[]string{"MUST The agent MUST record what it dislike:", "MUST The agent MUST record what it dislike: the log"}},
		{"examples in parentheses", "The agent MUST save context (e.g.):\n\n- the log\n",
			[]string{"MUST The agent MUST save context (e.g.):"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := parseOK(t, inStart("### Phase 1: A (REQUIRED)\n\n"+tc.body))
			var got []string
			for _, r := range spec.Phases[0].Requirements {
				got = append(got, r.Level+" "+r.Text)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("requirements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
	spec := parseOK(t, inStart("### Phase 1: A (REQUIRED)\n\nThe agent MUST notify:\n\n- the reviewer\n- the channel (if the change is public)\n"))
	rs := spec.Phases[0].Requirements
	if rs[1].ID != "A.reviewer" && !strings.HasSuffix(rs[1].ID, ".reviewer") || !strings.HasSuffix(rs[2].ID, ".channel-change-public") || !rs[2].Conditional {
		t.Errorf("ids = %s %s (conditional %v), want the items' own slugs, the second conditional", rs[1].ID, rs[2].ID, rs[2].Conditional)
	}
}
