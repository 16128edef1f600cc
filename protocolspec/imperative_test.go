package protocolspec

import (
	"bytes"
	"reflect"
	"testing"
)

// TestImperativeRequirements: imperative sentences and list items are
// requirements (MUST, MUST NOT for "Do not" / "Never"); descriptions,
// questions, labels, headings, tables and code are not.
func TestImperativeRequirements(t *testing.T) {
	type req struct {
		level, text string
		imperative  bool
	}
	tests := []struct {
		name string
		body string
		want []req
	}{
		{"run", "Run checks that cover the changed behavior.", []req{{LevelMust, "Run checks that cover the changed behavior.", true}}},
		{"use", "Use conventional commits.", []req{{LevelMust, "Use conventional commits.", true}}},
		{"do not", "Do not bypass hooks.", []req{{LevelMustNot, "Do not bypass hooks.", true}}},
		{"do NOT", "Do NOT push to main.", []req{{LevelMustNot, "Do NOT push to main.", true}}},
		{"don't", "Don't skip the linter.", []req{{LevelMustNot, "Don't skip the linter.", true}}},
		{"never", "Never force-push a shared branch.", []req{{LevelMustNot, "Never force-push a shared branch.", true}}},
		{"re- prefix", "Re-verify the branch before commit.", []req{{LevelMust, "Re-verify the branch before commit.", true}}},
		{"code span object", "Read `.agents/HANDOFF.md`.", []req{{LevelMust, "Read .agents/HANDOFF.md.", true}}},
		{"leading adverb", "Always run the linter on changed files.", []req{{LevelMust, "Always run the linter on changed files.", true}}},
		{"leading clause", "Before committing, run the tests.", []req{{LevelMust, "Before committing, run the tests.", true}}},
		{"list items", "- Run the tests\n- Commit the changes", []req{{LevelMust, "Run the tests", true}, {LevelMust, "Commit the changes", true}}},
		{"task item", "- [ ] Push the branch", []req{{LevelMust, "Push the branch", true}}},
		{"key word wins", "Run the tests; you MAY skip slow ones.", []req{{LevelMay, "Run the tests; you MAY skip slow ones.", false}}},
		{"mixed paragraph", "This phase covers testing. Run the tests. Results go in the log.", []req{{LevelMust, "Run the tests.", true}}},

		{"description", "This phase covers quality checks.", nil},
		{"question", "Did you run the tests?", nil},
		{"imperative question", "Run the tests?", nil},
		{"label", "Evidence: test output in the transcript.", nil},
		{"label with verb after", "Verification: Run `git status`.", nil},
		{"noun use: commit sha", "- Commit SHA", nil},
		{"noun use: test output", "- Test output", nil},
		{"noun use: commit exists", "- Commit exists with conventional format", nil},
		{"noun use: review is", "Review is required before merge.", nil},
		{"noun use: log file", "- Log file path", nil},
		{"verb alone", "- Commit", nil},
		{"third person", "Runs the tests.", nil},
		{"gerund", "Running the tests is part of QA.", nil},
		{"cross-reference", "See the README for details.", nil},
		{"example", "For example, run `make lint`.", nil},
		{"read-only", "Read-only reference.", nil},
		{"heading", "#### Run the tests\n\nBody text.", nil},
		{"table cells", "| Kind | Evidence |\n|---|---|\n| Run the tests | transcript |", nil},
		{"fence", "```\nRun the tests.\n```", nil},
		{"content list after with:", "The agent MUST update `X.md` with:\n\n- Link to session log\n- Files changed", []req{{LevelMust, "The agent MUST update X.md with:", false}}},
		{"content list nested", "1. The agent MUST update `X.md` with:\n   - Link to session log\n   - Use of tools", []req{{LevelMust, "The agent MUST update X.md with:", false}}},
		{"steps list after a plain intro", "Steps:\n\n- Run the tests", []req{{LevelMust, "Run the tests", true}}},
		{"lower case must is not a key word", "Labels such as MANDATORY are not enforcement; each active requirement must name evidence that exists.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := parseOK(t, inStart("### Phase 1: P\n\n"+tt.body+"\n"))
			var got []req
			for _, r := range spec.Phases[0].Requirements {
				got = append(got, req{r.Level, r.Text, r.Imperative})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("requirements = %v\nwant %v", got, tt.want)
			}
		})
	}
}

// TestImperativeIDs: an imperative gets an id like an RFC 2119 sentence,
// from its leading significant words.
func TestImperativeIDs(t *testing.T) {
	spec := parseOK(t, inStart("### Phase 1: Git Operations\n\n- Use conventional commits\n- Do not bypass hooks\n- Re-verify the branch before commit\n"))
	var got []string
	for _, r := range spec.Phases[0].Requirements {
		got = append(got, r.ID)
	}
	want := []string{"GIT_OPERATIONS.use-conventional-commits", "GIT_OPERATIONS.do-not-bypass-hooks", "GIT_OPERATIONS.re-verify-branch-before"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ids = %q\nwant %q", got, want)
	}
}

// TestImperativeInference: imperatives get the checks their words name,
// as their RFC 2119 forms do; conditional ones and descriptions give none.
func TestImperativeInference(t *testing.T) {
	tests := []struct {
		name, body string
		want       string // "kind arg rule", "" for none
	}{
		{"conventional commits", "- Use conventional commits.", "commit_message conventional conventional-commits"},
		{"no hook bypass", "- Do not bypass hooks.", "no_hook_bypass  no-hook-bypass"},
		{"no-verify", "- Never commit with --no-verify.", "no_hook_bypass  no-hook-bypass"},
		{"RFC 2119 no-verify", "The agent MUST NOT use --no-verify.", "no_hook_bypass  no-hook-bypass"},
		{"not on main", "Do not work on `main`.", "not_default_branch  no-default-branch"},
		{"feature branch", "Create a feature branch before you change anything.", "not_default_branch  feature-branch"},
		{"file stays unchanged", "Do not update `.agents/HANDOFF.md` directly.", "unchanged .agents/HANDOFF.md must-not-modify"},
		{"must update", "Update `CHANGELOG.md` with the change.", "changed_since_start CHANGELOG.md must-update"},
		{"clean tree", "Commit all changes.", "clean_worktree  clean-tree"},
		{"conditional gives nothing", "If the team asks, use conventional commits.", ""},
		{"hooks described", "Hooks run the gates.", ""},
		{"should bypass is not a prohibition", "Run the hooks.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := parseOK(t, "# P\n\n## Session Start\n\n### Phase 1: Start\n\nThe agent MUST start.\n\n## Session End\n\n### Phase 1: Wrap Up\n\n"+tt.body+"\n")
			var got []string
			for _, ic := range spec.InferredChecks() {
				got = append(got, string(ic.Check.Kind)+" "+ic.Check.Arg+" "+ic.Check.Inferred.Rule)
			}
			switch {
			case tt.want == "" && len(got) != 0:
				t.Errorf("inferred %q, want none", got)
			case tt.want != "" && (len(got) != 1 || got[0] != tt.want):
				t.Errorf("inferred %q, want [%q]", got, tt.want)
			}
		})
	}
}

// TestImperativeFirstWordCheck: the first-word check that lets most
// sentences skip the word split never changes imperativeAt's answer, on
// every line of the real documents and on cases at its edges.
func TestImperativeFirstWordCheck(t *testing.T) {
	lines := append(fixtureLines(t),
		"Run the tests", "re-run the tests", "Re-verify the build", "Don't push to main", "dont skip hooks",
		"Do not bypass hooks", "Never commit secrets", "Always run lint", "Before committing, run the linter",
		"\x00\x00\x00 run it", "Commit SHA is recorded", "Note the time", "Internationalization-everywhere-always run",
		"   Use conventional commits", "**Run** the tests", "Run.", "", "?", "Summarize the session.")
	for _, l := range lines {
		b := []byte(l)
		lead := len(b) - len(bytes.TrimLeft(b, " "))
		tb := bytes.TrimSpace(b)
		if len(tb) == 0 || bytes.HasSuffix(bytes.TrimRight(tb, `)"'*_`), []byte("?")) {
			continue
		}
		l1, f1, v1 := imperativeAt(b)
		l2, f2, v2 := imperativeFrom(tb, lead)
		if l1 != l2 || f1 != f2 || v1 != v2 {
			t.Errorf("%q: with the first-word check %q %d %d, without %q %d %d", l, l1, f1, v1, l2, f2, v2)
		}
	}
}
