package protocolspec

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseDirective(t *testing.T) {
	tests := []struct {
		in    string
		check *Check
		id    string
	}{
		{`file_exists ".agents/sessions/*.json"`, &Check{Kind: CheckFileExists, Arg: ".agents/sessions/*.json"}, ""},
		{`file_exists .agents/qa/*`, &Check{Kind: CheckFileExists, Arg: ".agents/qa/*"}, ""},
		{`changed_since_start ".agents/HANDOFF.md"`, &Check{Kind: CheckChangedSinceStart, Arg: ".agents/HANDOFF.md"}, ""},
		{`content_hash ".agents/HANDOFF.md"`, &Check{Kind: CheckContentHash, Arg: ".agents/HANDOFF.md"}, ""},
		{`command "npx markdownlint-cli2 {changed:*.md}" timeout=120s`, &Check{Kind: CheckCommand, Arg: "npx markdownlint-cli2 {changed:*.md}", Timeout: Duration(120 * time.Second)}, ""},
		{`command "go test ./..." timeout=2m hooks=pre-push id=TESTS`, &Check{Kind: CheckCommand, Arg: "go test ./...", Timeout: Duration(2 * time.Minute), Hooks: []string{"pre-push"}}, "TESTS"},
		{`command timeout=5s "echo \"hi\" \\ \d"`, &Check{Kind: CheckCommand, Arg: `echo "hi" \ \d`, Timeout: Duration(5 * time.Second)}, ""},
		{`commit_since_start`, &Check{Kind: CheckCommitSinceStart}, ""},
		{`clean_worktree hooks=pre-commit,pre-push,pre-commit`, &Check{Kind: CheckCleanWorktree, Hooks: []string{"pre-commit", "pre-push"}}, ""},
		{`evidence tool_output`, &Check{Kind: CheckEvidence, Arg: "tool_output"}, ""},
		{`evidence "manual"`, &Check{Kind: CheckEvidence, Arg: "manual"}, ""},
		{`must_evidence`, &Check{Kind: CheckMustEvidence}, ""},
		{`id=QA_VALIDATION`, nil, "QA_VALIDATION"},
		{`id="QA_2"`, nil, "QA_2"},
		{"\tfile_exists\t\"a b\"  ", &Check{Kind: CheckFileExists, Arg: "a b"}, ""},
		{`unchanged ".agents/HANDOFF.md"`, &Check{Kind: CheckUnchanged, Arg: ".agents/HANDOFF.md"}, ""},
		{`not_default_branch`, &Check{Kind: CheckNotDefaultBranch}, ""},
		{`no_placeholders "notes/*.md"`, &Check{Kind: CheckNoPlaceholders, Arg: "notes/*.md"}, ""},
		{`commit_message conventional`, &Check{Kind: CheckCommitMessage, Arg: "conventional"}, ""},
		{`has_section ".agents/sessions/*.md" section="Protocol Compliance"`, &Check{Kind: CheckHasSection, Arg: ".agents/sessions/*.md", Section: "Protocol Compliance"}, ""},
		{`command "npx markdownlint-cli2 {changed:*.md}" proves="Linting: [1-9]"`, &Check{Kind: CheckCommand, Arg: "npx markdownlint-cli2 {changed:*.md}", Proves: "Linting: [1-9]"}, ""},
		{`changed_since_start "*.md" when=docs_affected`, &Check{Kind: CheckChangedSinceStart, Arg: "*.md", When: "docs_affected"}, ""},
		{`changed_since_start "docs/**" when_changed="cmd/**, *.go"`, &Check{Kind: CheckChangedSinceStart, Arg: "docs/**", WhenChanged: "cmd/**, *.go"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, err := parseDirective(tt.in)
			if err != nil {
				t.Fatalf("parseDirective: %v", err)
			}
			if !reflect.DeepEqual(d.check, tt.check) || d.id != tt.id {
				t.Errorf("got check %+v id %q, want %+v id %q", d.check, d.id, tt.check, tt.id)
			}
		})
	}
}

func TestParseDirectiveErrors(t *testing.T) {
	tests := map[string]string{
		``:                                "empty directive",
		`"x"`:                             "want a check kind first",
		`nope`:                            `unknown check kind "nope"`,
		`file_exists`:                     "file_exists needs one argument (a path or glob)",
		`file_exists ""`:                  "file_exists: empty argument",
		`file_exists a b`:                 "takes one argument, got 2",
		`clean_worktree x`:                `clean_worktree takes no argument, got "x"`,
		`command "x`:                      "unterminated quoted string",
		`command "x"y`:                    "missing space after quoted argument",
		`command a"b`:                     "unexpected quote",
		`command "x" timeout=0s`:          `bad timeout "0s"`,
		`command "x" timeout=10`:          `bad timeout "10"`,
		`command "x" timeout="1s`:         "unterminated quoted string",
		`file_exists x timeout=1s`:        "timeout= applies only to command checks",
		`file_exists x proves=y`:          "proves= applies only to command checks",
		`command "x" proves="("`:          "bad proves=",
		`has_section "a.md"`:              "has_section needs section=",
		`file_exists a.md section=X`:      "section= applies only to has_section",
		`commit_message angular`:          `unknown commit convention "angular"`,
		`not_default_branch main`:         "not_default_branch takes no argument",
		`id=X infer=sometimes`:            "bad infer=",
		`id=X hooks=pre-commit`:           "hooks= needs a check kind",
		`clean_worktree hooks=`:           `unknown hook ""`,
		`clean_worktree hooks=pre-rebase`: `unknown hook "pre-rebase"`,
		`id=lower`:                        `bad id "lower"`,
		`id=A id=A`:                       "option id given twice",
		`=x`:                              "option with no name",
		`clean_worktree retries=1`:        `unknown option "retries"`,
		`id=X "arg"`:                      `argument "arg" with no check kind`,
		`file_exists x=y`:                 `unknown option "x"`,
		`file_exists a=b=c`:               "quote the value",
		`evidence screenshot`:             `unknown evidence kind "screenshot"`,
		`changed_since_start "*.md" when=docs_changed`:   `unknown condition when="docs_changed" (want docs_affected`,
		`id=X when=docs_affected`:                        "when= needs a check kind",
		`changed_since_start "*.md" when_changed=","`:    `bad when_changed=","`,
		`changed_since_start "*.md" when_changed=../x`:   `bad when_changed="../x"`,
		`changed_since_start "*.md" when_changed="/etc"`: `bad when_changed="/etc"`,
	}
	for in, want := range tests {
		t.Run(in, func(t *testing.T) {
			_, err := parseDirective(in)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("parseDirective(%q) error = %v, want it to contain %q", in, err, want)
			}
		})
	}
}

func TestGateComments(t *testing.T) {
	body := "<!-- ordinary comment -->\n<!-- GATE: clean_worktree -->\n<!--\n  gate: commit_since_start\n\n  gate: id=GIT\n-->\n<!-- gate: evidence manual --> trailing text"
	dirs, errs := gateComments([]byte(body), func(i int) int { return 1 + strings.Count(body[:i], "\n") })
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	var got []string
	for _, d := range dirs {
		s := d.id
		if d.check != nil {
			s = string(d.check.Kind)
		}
		got = append(got, s+"@"+string(rune('0'+d.line)))
	}
	want := []string{"clean_worktree@2", "commit_since_start@4", "GIT@6", "evidence@8"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("directives = %v, want %v", got, want)
	}
}

func TestAnnotationsInDocument(t *testing.T) {
	doc := inStart("### Phase 1: Quality Checks (REQUIRED) <!-- gate: id=QC -->\n\n" +
		"Text <!-- gate: clean_worktree hooks=pre-commit --> inline.\n\n" +
		"<!--\ngate: command \"make lint\" timeout=30s\ngate: commit_since_start\n-->\n\n" +
		"- item\n\n  <!-- gate: file_exists \"out/report.txt\" -->\n")
	spec := parseOK(t, doc)
	p := spec.Phases[0]
	if p.ID != "QC" || p.Title != "Quality Checks" || p.Gate != GateRequired {
		t.Errorf("phase = %s %q %s", p.ID, p.Title, p.Gate)
	}
	want := []Check{
		{Kind: CheckCleanWorktree, Hooks: []string{"pre-commit"}, Line: 7},
		{Kind: CheckCommand, Arg: "make lint", Timeout: Duration(30 * time.Second), Line: 10},
		{Kind: CheckCommitSinceStart, Line: 11},
		{Kind: CheckFileExists, Arg: "out/report.txt", Line: 16},
	}
	if !reflect.DeepEqual(p.Checks, want) {
		t.Errorf("checks = %+v\nwant %+v", p.Checks, want)
	}
	if !p.MachineChecked() {
		t.Error("annotated phase is not machine-checked")
	}
}

func TestAnnotationInFenceIsIgnored(t *testing.T) {
	spec := parseOK(t, inStart("### Phase 1: Quality Checks\n\n```html\n<!-- gate: bogus -->\n```\n\n    <!-- gate: bogus -->\n\nUse `<!-- gate: bogus -->` like this.\n"))
	if c := spec.Phases[0].Checks; len(c) != 1 || !c[0].Builtin || c[0].Kind != CheckCommand {
		t.Errorf("checks = %+v, want the built-in command", c)
	}
}
