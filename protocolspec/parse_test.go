package protocolspec

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden parses each testdata/*.md and compares the Spec's JSON with
// testdata/NAME.golden.json (go test -run TestGolden -update rewrites them).
func TestGolden(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no testdata documents: %v", err)
	}
	for _, doc := range docs {
		name := strings.TrimSuffix(filepath.Base(doc), ".md")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
			spec, err := Parse(filepath.Base(doc), data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got, err := json.MarshalIndent(spec, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", name+".golden.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update to create it): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s; run go test -run TestGolden -update and review the diff\n%s", doc, golden, got)
			}
			// The JSON round-trips: cached specs (the engine stores them) equal fresh ones.
			var back Spec
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(&back, spec) {
				t.Errorf("spec does not round-trip through JSON")
			}
		})
	}
}

// TestCRLFAndBOM: CRLF line endings and a UTF-8 BOM parse exactly like the
// LF original; only the sha256 (of the bytes as given) differs.
func TestCRLFAndBOM(t *testing.T) {
	docs, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	for _, doc := range docs {
		t.Run(filepath.Base(doc), func(t *testing.T) {
			lf, err := os.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
			variants := map[string][]byte{
				"crlf":     bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n")),
				"bom":      append([]byte("\xef\xbb\xbf"), lf...),
				"crlf+bom": append([]byte("\xef\xbb\xbf"), bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))...),
			}
			want, err := Parse("doc.md", lf)
			if err != nil {
				t.Fatal(err)
			}
			for name, data := range variants {
				got, err := Parse("doc.md", data)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got.SHA256 == want.SHA256 {
					t.Errorf("%s: sha256 must be of the original bytes, got the LF one", name)
				}
				g := *got
				g.SHA256 = want.SHA256
				if !reflect.DeepEqual(&g, want) {
					a, _ := json.MarshalIndent(g, "", " ")
					b, _ := json.MarshalIndent(want, "", " ")
					t.Errorf("%s parses differently:\n%s\nwant\n%s", name, a, b)
				}
			}
		})
	}
}

func TestSHA256OfOriginalBytes(t *testing.T) {
	data := []byte("\xef\xbb\xbf# Session Start\r\n## Phase 1: A\r\n# Session End\r\n## Phase 1: B\r\n")
	spec, err := Parse("x.md", data)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if want := hex.EncodeToString(sum[:]); spec.SHA256 != want {
		t.Errorf("sha256 = %s, want %s (of the bytes as given)", spec.SHA256, want)
	}
}

// parseOK parses an inline document that must be valid.
func parseOK(t *testing.T, doc string) *Spec {
	t.Helper()
	spec, err := Parse("t.md", []byte(doc))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, doc)
	}
	return spec
}

const frame = "# P\n\n## Session Start\n\n%s\n\n## Session End\n\n### Phase 9: End\n"

func inStart(body string) string { return strings.Replace(frame, "%s", body, 1) }

func TestPhaseHeadings(t *testing.T) {
	tests := []struct {
		name, heading string
		number, title string
		gate          GateLevel
		condition, id string
	}{
		{"plain", "### Phase 1: Serena Initialization (BLOCKING)", "1", "Serena Initialization", GateBlocking, "", "SERENA_INITIALIZATION"},
		{"decimal", "### Phase 2.5: QA Validation (BLOCKING)", "2.5", "QA Validation", GateBlocking, "", "QA_VALIDATION"},
		{"leading zero kept", "### Phase 0.5: Warm Up", "0.5", "Warm Up", GateUnspecified, "", "WARM_UP"},
		{"lower-case qualifier", "### Phase 3: Log (recommended)", "3", "Log", GateRecommended, "", "LOG"},
		{"condition", "### Phase 1.5: Issue Context (BLOCKING when issue context exists)", "1.5", "Issue Context", GateBlocking, "when issue context exists", "ISSUE_CONTEXT"},
		{"optional", "### Phase 4: Extra (Optional)", "4", "Extra", GateOptional, "", "EXTRA"},
		{"parens that are not a qualifier", "### Phase 4: Extra (see below)", "4", "Extra (see below)", GateUnspecified, "", "EXTRA_SEE_BELOW"},
		{"markup reduced", "### Phase 2: **Session** _Log_ `Creation` [here](x) (REQUIRED)", "2", "Session Log Creation here", GateRequired, "", "SESSION_LOG_CREATION_HERE"},
		{"atx closing sequence", "### Phase 2: Close ###", "2", "Close", GateUnspecified, "", "CLOSE"},
		{"bold qualifier", "### Phase 2: Gate (**BLOCKING**)", "2", "Gate", GateBlocking, "", "GATE"},
		{"upper-case PHASE", "#### PHASE 7: Deep (REQUIRED)", "7", "Deep", GateRequired, "", "DEEP"},
		{"escaped chars", `### Phase 1: A \*B\* &amp; C`, "1", "A *B* & C", GateUnspecified, "", "A_B_C"},
		{"empty title", "### Phase 6: (BLOCKING)", "6", "", GateBlocking, "", "PHASE_6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := parseOK(t, inStart(tt.heading+"\n\nText."))
			ps := spec.SectionPhases(SectionStart)
			if len(ps) != 1 {
				t.Fatalf("got %d start phases, want 1: %+v", len(ps), ps)
			}
			p := ps[0]
			got := []string{p.Number, p.Title, string(p.Gate), p.Condition, p.ID}
			want := []string{tt.number, tt.title, string(tt.gate), tt.condition, tt.id}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("number/title/gate/condition/id = %q, want %q", got, want)
			}
			if p.Line != 5 {
				t.Errorf("line = %d, want 5", p.Line)
			}
		})
	}
}

func TestSections(t *testing.T) {
	tests := []struct {
		name       string
		doc        string
		start, end []string // phase titles
	}{
		{"any level", "# Session START\n#### Phase 1: A\n# session end\n## Phase 1: B\n", []string{"A"}, []string{"B"}},
		{"setext", "Session Start Protocol\n===\nPhase 1: A\n---\nSession End Protocol\n===\nPhase 1: B\n---\n", []string{"A"}, []string{"B"}},
		{"same level ends the section", "## Session Start\n### Phase 1: A\n## Other\n### Phase 2: Lost\n## Session End\n### Phase 1: B\n", []string{"A"}, []string{"B"}},
		{"shallower level ends the section", "## Session Start\n### Phase 1: A\n# Other\n### Phase 2: Lost\n## Session End\n### Phase 1: B\n", []string{"A"}, []string{"B"}},
		{"same level as section is not a phase", "## Session Start\n## Phase 1: Lost\n### Phase 2: A\n## Session End\n### Phase 1: B\n", nil, []string{"B"}},
		{"deeper non-phase heading ends a phase, not the section", "## Session Start\n### Phase 1: A\n### Notes\n### Phase 2: C\n## Session End\n### Phase 1: B\n", []string{"A", "C"}, []string{"B"}},
		{"sub-heading stays in the phase", "## Session Start\n### Phase 1: A\n#### Session End notes\n### Phase 2: C\n## Session End\n### Phase 1: B\n", []string{"A", "C"}, []string{"B"}},
		{"checklist heading holds no phases", "## Session Start\n### Phase 1: A\n## Session Start Checklist\n### Phase 2: Lost\n## Session End\n### Phase 1: B\n", []string{"A"}, []string{"B"}},
		{"checklist heading nested in a section", "## Session End\n### Phase 1: B\n### Session End Checklist\n- [ ] x\n### Phase 2: C\n## Session Start\n### Phase 1: A\n", []string{"A"}, []string{"B", "C"}},
		{"phase title mentioning session end is a phase", "## Session Start\n### Phase 1: Before Session End\n## Session End\n### Phase 1: B\n", []string{"Before Session End"}, []string{"B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := parseOK(t, tt.doc)
			if got := titles(spec.SectionPhases(SectionStart)); !reflect.DeepEqual(got, tt.start) {
				t.Errorf("start phases = %q, want %q", got, tt.start)
			}
			if got := titles(spec.SectionPhases(SectionEnd)); !reflect.DeepEqual(got, tt.end) {
				t.Errorf("end phases = %q, want %q", got, tt.end)
			}
		})
	}
}

func titles(ps []Phase) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Title)
	}
	return out
}

// TestNotPhases: a reader of the rendered document sees no phase heading
// in a fence, indented code, an HTML block or comment, a blockquote or a
// list item, and neither does the parser.
func TestNotPhases(t *testing.T) {
	tests := map[string]string{
		"fence":          "```\n### Phase 2: X\n```",
		"tilde fence":    "~~~md\n### Phase 2: X\n~~~",
		"nested fence":   "````markdown\n```\n### Phase 2: X\n```\n### Phase 3: Y\n````",
		"indented code":  "    ### Phase 2: X",
		"html block":     "<details>\n### Phase 2: X\n</details>",
		"html comment":   "<!--\n### Phase 2: X\n-->",
		"blockquote":     "> ### Phase 2: X",
		"list item":      "- ### Phase 2: X",
		"ordered item":   "1. ### Phase 2: X",
		"paragraph text": "Phase 2: X is mentioned in text.",
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			spec := parseOK(t, inStart("### Phase 1: Real\n\n"+body+"\n"))
			if got := titles(spec.SectionPhases(SectionStart)); !reflect.DeepEqual(got, []string{"Real"}) {
				t.Errorf("start phases = %q, want only Real", got)
			}
		})
	}
}

func TestRequirements(t *testing.T) {
	type req struct{ level, text string }
	tests := []struct {
		name string
		body string
		want []req
	}{
		{"sentences", "The agent MUST read. The agent SHOULD write! Nothing here. MAY it?", []req{{LevelMust, "The agent MUST read."}, {LevelShould, "The agent SHOULD write!"}, {LevelMay, "MAY it?"}}},
		{"soft line breaks join a sentence", "The agent MUST read\nthe file.", []req{{LevelMust, "The agent MUST read the file."}}},
		{"hard line break splits", "First MUST  \nSecond SHOULD", []req{{LevelMust, "First MUST"}, {LevelShould, "Second SHOULD"}}},
		{"abbreviation", "Run a check, e.g. lint, and it MUST pass.", []req{{LevelMust, "Run a check, e.g. lint, and it MUST pass."}}},
		{"period in code span", "Read `a. B` then you MUST stop.", []req{{LevelMust, "Read a. B then you MUST stop."}}},
		{"key word in code span", "It says `MUST` now. It says `SHOULD NOT`.", nil},
		{"lower case", "You must and should and may.", nil},
		{"part of a word", "MUSTARD and MAYBE and SHOULDER.", nil},
		{"must not", "You MUST NOT skip.", []req{{LevelMustNot, "You MUST NOT skip."}}},
		{"emphasis across words", "You **MUST** NOT skip.", []req{{LevelMustNot, "You MUST NOT skip."}}},
		{"shall", "You SHALL go.", []req{{LevelMust, "You SHALL go."}}},
		{"shall not", "You SHALL NOT go.", []req{{LevelMustNot, "You SHALL NOT go."}}},
		{"required", "This is REQUIRED.", []req{{LevelMust, "This is REQUIRED."}}},
		{"should not", "You SHOULD NOT go.", []req{{LevelShouldNot, "You SHOULD NOT go."}}},
		{"recommended", "It is RECOMMENDED.", []req{{LevelShould, "It is RECOMMENDED."}}},
		{"not recommended", "It is NOT RECOMMENDED.", []req{{LevelShouldNot, "It is NOT RECOMMENDED."}}},
		{"optional", "It is OPTIONAL.", []req{{LevelMay, "It is OPTIONAL."}}},
		{"first key word wins", "You MAY read, but you MUST write.", []req{{LevelMay, "You MAY read, but you MUST write."}}},
		{"list items", "1. One MUST\n2. Two\n3. Three SHOULD", []req{{LevelMust, "One MUST"}, {LevelShould, "Three SHOULD"}}},
		{"list item is one requirement", "- The agent MUST do it. Then it SHOULD tell.", []req{{LevelMust, "The agent MUST do it. Then it SHOULD tell."}}},
		{"nested items, no double count", "- Parent MUST:\n  - Child SHOULD\n  - Child plain\n    - Grandchild MAY", []req{{LevelMust, "Parent MUST:"}, {LevelShould, "Child SHOULD"}, {LevelMay, "Grandchild MAY"}}},
		{"item with code block", "1. The agent MUST list:\n\n   ```sh\n   echo MUST\n   ```\n\n2. Next MUST", []req{{LevelMust, "The agent MUST list:"}, {LevelMust, "Next MUST"}}},
		{"loose item paragraphs join", "- First MUST.\n\n  Second para.\n- Other", []req{{LevelMust, "First MUST. Second para."}}},
		{"blockquote counts", "> The agent MUST note.", []req{{LevelMust, "The agent MUST note."}}},
		{"table does not count", "| A | B |\n|---|---|\n| MUST | x |", nil},
		{"checklist table does not count", "| Req | Step | Status | Evidence |\n|---|---|---|---|\n| MUST | x | [ ] | |", nil},
		{"fence does not count", "```\nMUST\n```", nil},
		{"html does not count", "<div>MUST</div>\n\nText <span>MUST</span> here.", []req{{LevelMust, "Text MUST here."}}},
		{"whitespace collapsed", "The   agent\tMUST   go.", []req{{LevelMust, "The agent MUST go."}}},
		{"link text", "The agent MUST read [the log](x.md).", []req{{LevelMust, "The agent MUST read the log."}}},
		{"task item is a requirement too", "- [ ] The agent MUST commit", []req{{LevelMust, "The agent MUST commit"}}},
		{"sub-heading text is not a requirement", "#### MUST heading\n\nBody.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := parseOK(t, inStart("### Phase 1: P\n\n"+tt.body+"\n"))
			var got []req
			for _, r := range spec.Phases[0].Requirements {
				got = append(got, req{r.Level, r.Text})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("requirements = %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestRequirementLines(t *testing.T) {
	doc := inStart("### Phase 1: P\n\nFirst MUST. Second\nline SHOULD. Third\n\nMAY.\n\n1. Item MUST\n   continued\n2.\n   Late MUST\n")
	// The body starts at line 7 (frame: "# P", "", "## Session Start", "", heading, "").
	spec := parseOK(t, doc)
	var got []int
	for _, r := range spec.Phases[0].Requirements {
		got = append(got, r.Line)
	}
	want := []int{7, 7, 10, 12, 15}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lines = %v, want %v (%+v)", got, want, spec.Phases[0].Requirements)
	}
}

func TestErrors(t *testing.T) {
	const ok = "## Session End\n### Phase 1: E\n"
	tests := []struct {
		name string
		doc  string
		want []string // exact FILE:LINE: message lines (prefix match on the message)
	}{
		{"no sections", "# Title\n\nText.\n", []string{"f.md:1: no Session Start section", "f.md:1: no Session End section"}},
		{"no start", "# P\n" + ok, []string{"f.md:1: no Session Start section"}},
		{"only a start checklist", "## Session Start Checklist\n- [ ] x\n" + ok, []string{"f.md:1: no Session Start section"}},
		{"no end", "## Session Start\n### Phase 1: S\n", []string{"f.md:1: no Session End section"}},
		{"unknown kind", "## Session Start\n### Phase 1: S\n\n<!-- gate: file_exist \"x\" -->\n" + ok, []string{`f.md:4: gate annotation: unknown check kind "file_exist"`}},
		{"missing arg", "## Session Start\n### Phase 1: S\n\n<!-- gate: file_exists -->\n" + ok, []string{"f.md:4: gate annotation: file_exists needs one argument"}},
		{"extra arg", "## Session Start\n### Phase 1: S\n\n<!-- gate: commit_since_start now -->\n" + ok, []string{`f.md:4: gate annotation: commit_since_start takes no argument, got "now"`}},
		{"two args", "## Session Start\n### Phase 1: S\n\n<!-- gate: command npx lint -->\n" + ok, []string{"f.md:4: gate annotation: command takes one argument, got 2"}},
		{"bad option", "## Session Start\n### Phase 1: S\n\n<!-- gate: command \"x\" retries=3 -->\n" + ok, []string{`f.md:4: gate annotation: unknown option "retries"`}},
		{"bad timeout", "## Session Start\n### Phase 1: S\n\n<!-- gate: command \"x\" timeout=soon -->\n" + ok, []string{`f.md:4: gate annotation: bad timeout "soon"`}},
		{"negative timeout", "## Session Start\n### Phase 1: S\n\n<!-- gate: command \"x\" timeout=-1s -->\n" + ok, []string{`f.md:4: gate annotation: bad timeout "-1s"`}},
		{"timeout on a file check", "## Session Start\n### Phase 1: S\n\n<!-- gate: file_exists \"x\" timeout=1s -->\n" + ok, []string{"f.md:4: gate annotation: timeout= applies only to command checks"}},
		{"bad hook", "## Session Start\n### Phase 1: S\n\n<!-- gate: clean_worktree hooks=post-commit -->\n" + ok, []string{`f.md:4: gate annotation: unknown hook "post-commit"`}},
		{"bad id", "## Session Start\n### Phase 1: S\n\n<!-- gate: id=qa-check -->\n" + ok, []string{`f.md:4: gate annotation: bad id "qa-check"`}},
		{"unterminated quote", "## Session Start\n### Phase 1: S\n\n<!-- gate: file_exists \"x -->\n" + ok, []string{"f.md:4: gate annotation: unterminated quoted string"}},
		{"duplicate option", "## Session Start\n### Phase 1: S\n\n<!-- gate: command \"x\" timeout=1s timeout=2s -->\n" + ok, []string{"f.md:4: gate annotation: option timeout given twice"}},
		{"empty directive", "## Session Start\n### Phase 1: S\n\n<!-- gate: -->\n" + ok, []string{"f.md:4: gate annotation: empty directive"}},
		{"unknown evidence kind", "## Session Start\n### Phase 1: S\n\n<!-- gate: evidence tool_ouput -->\n" + ok, []string{`f.md:4: gate annotation: unknown evidence kind "tool_ouput"`}},
		{"second line not a directive", "## Session Start\n### Phase 1: S\n\n<!-- gate: clean_worktree\n   and more\n-->\n" + ok, []string{`f.md:5: gate comment: line "and more" does not start with "gate:"`}},
		{"bad line inside a multi-line comment", "## Session Start\n### Phase 1: S\n\n<!--\ngate: clean_worktree\ngate: bogus\n-->\n" + ok, []string{`f.md:6: gate annotation: unknown check kind "bogus"`}},
		{"inline annotation", "## Session Start\n### Phase 1: S\n\nText\nmore <!-- gate: nope --> text.\n" + ok, []string{`f.md:5: gate annotation: unknown check kind "nope"`}},
		{"annotation in a list item", "## Session Start\n### Phase 1: S\n\n- item\n\n  <!-- gate: nope -->\n" + ok, []string{`f.md:6: gate annotation: unknown check kind "nope"`}},
		{"annotation in a blockquote", "## Session Start\n### Phase 1: S\n\n> <!--\n> gate: nope\n> -->\n" + ok, []string{`f.md:5: gate annotation: unknown check kind "nope"`}},
		{"duplicate derived ids", "## Session Start\n### Phase 1: Git Ops\n## Session End\n### Phase 1: Git Ops\n", []string{"f.md:4: duplicate phase id GIT_OPS (first at line 2)"}},
		{"duplicate ids across sections", "## Session Start\n### Phase 1: Git-Ops\n## Session End\n### Phase 2: Git Ops!\n", []string{"f.md:4: duplicate phase id GIT_OPS (first at line 2)"}},
		{"duplicate annotated id", "## Session Start\n### Phase 1: A\n### Phase 2: B\n\n<!-- gate: id=A -->\n" + ok, []string{"f.md:5: duplicate phase id A (first at line 2)"}},
		{"two ids in a phase", "## Session Start\n### Phase 1: A\n\n<!-- gate: id=X -->\n<!-- gate: id=Y -->\n" + ok, []string{`f.md:5: phase "A" has a second id Y (first id X at line 4)`}},
		{"errors in line order", "## Session Start\n### Phase 1: A\n<!-- gate: b1 -->\n\n<!-- gate: b2 -->\n", []string{"f.md:1: no Session End section", `f.md:3: gate annotation: unknown check kind "b1"`, `f.md:5: gate annotation: unknown check kind "b2"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, err := Parse("f.md", []byte(tt.doc))
			if err == nil {
				t.Fatalf("no error; want %q", tt.want)
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %T is not an ErrorList", err)
			}
			if spec == nil {
				t.Errorf("no partial spec returned with the errors")
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("got %d error lines, want %d:\n%s", len(lines), len(tt.want), err)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("error %d = %q\nwant prefix %q", i, lines[i], w)
				}
			}
		})
	}
}

func TestWarnings(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string // "LINE: message" prefixes, in order
	}{
		{"duplicate number", "## Session Start\n### Phase 1: A\n### Phase 1: B\n## Session End\n### Phase 1: C\n", []string{"3: duplicate phase number 1 in the Session Start section (also at line 2)"}},
		{"same number in both sections is fine", "## Session Start\n### Phase 1: A\n## Session End\n### Phase 1: C\n", nil},
		{"out of order", "## Session Start\n### Phase 2: A\n### Phase 1.5: B\n## Session End\n### Phase 1: C\n", []string{"3: phase 1.5 comes after phase 2 (line 2)"}},
		{"2.10 after 2.9 is in order", "## Session Start\n### Phase 2.9: A\n### Phase 2.10: B\n## Session End\n### Phase 1: C\n", nil},
		{"phase-like heading", "## Session Start\n### Phase 1: A\n### Phase 2 - B\n## Session End\n### Phase 1: C\n", []string{`3: heading "Phase 2 - B" looks like a phase`}},
		{"phase outside a section", "# Phase 0: Z\n## Session Start\n### Phase 1: A\n## Session End\n### Phase 1: C\n", []string{`1: phase heading "Phase 0: Z" is not under a Session Start or Session End section`}},
		{"phase under a checklist heading", "## Session Start\n### Phase 1: A\n## Session End Checklist\n### Phase 1: X\n## Session End\n### Phase 1: C\n", []string{`4: phase heading "Phase 1: X" is under "Session End Checklist"`}},
		{"phase in a blockquote", "## Session Start\n### Phase 1: A\n> ### Phase 2: Q\n## Session End\n### Phase 1: C\n", []string{`3: heading "Phase 2: Q" inside a blockquote or list item is not a phase`}},
		{"empty section", "## Session Start\n## Session End\n### Phase 1: C\n", []string{`1: section "Session Start" has no "Phase N: Title" headings`}},
		{"second section", "## Session Start\n### Phase 1: A\n## Session End\n### Phase 1: C\n## Session Start Again\n### Phase 2: B\n", []string{`5: second Session Start section "Session Start Again" (first at line 1)`}},
		{"annotation outside a phase", "<!-- gate: clean_worktree -->\n\n## Session Start\n### Phase 1: A\n## Session End\n### Phase 1: C\n", []string{"1: gate annotation outside a phase is ignored"}},
		{"empty title", "## Session Start\n### Phase 1:\n## Session End\n### Phase 1: C\n", []string{"2: phase 1 has no title"}},
		{"unknown checklist level", "## Session Start\n### Phase 1: A\n\n| Req | Step | Status |\n|--|--|--|\n| OFTEN | x | [ ] |\n## Session End\n### Phase 1: C\n", []string{`6: checklist row: unknown requirement level "OFTEN"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := parseOK(t, tt.doc)
			if len(spec.Warnings) != len(tt.want) {
				t.Fatalf("got warnings %v, want %q", spec.Warnings, tt.want)
			}
			for i, w := range tt.want {
				if got := spec.Warnings[i].String(); !strings.HasPrefix(got, w) {
					t.Errorf("warning %d = %q\nwant prefix %q", i, got, w)
				}
			}
		})
	}
}
