package protocolspec

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

func TestSplitRow(t *testing.T) {
	tests := []struct {
		row  string
		want []string
	}{
		{"| a | b | c |", []string{"a", "b", "c"}},
		{"a | b | c", []string{"a", "b", "c"}},
		{"| a | b |   ", []string{"a", "b"}},
		{"| a | | c |", []string{"a", "", "c"}},
		{"| `a | b` | c |", []string{"`a | b`", "c"}},
		{"| ``a ` | b`` | c |", []string{"``a ` | b``", "c"}},
		{"| `unclosed | c |", []string{"`unclosed", "c"}},
		{`| a \| b | c |`, []string{"a | b", "c"}},
		{"| `a \\| b` | c |", []string{"`a | b`", "c"}},
		{`| a \\| b |`, []string{`a \\`, "b"}}, // an escaped backslash, then a real separator
		{"| \\`a | b` |", []string{"\\`a", "b`"}},
		{"|", nil},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range splitRow([]byte(tt.row)) {
			got = append(got, string(c))
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitRow(%q) = %q, want %q", tt.row, got, tt.want)
		}
	}
}

// TestCodeSpanPipeGoldmarkSplits documents why rows are re-split: plain GFM
// (goldmark's table) splits a cell at a pipe inside a code span.
func TestCodeSpanPipeGoldmarkSplits(t *testing.T) {
	src := []byte("| Req | Step | Status | Evidence |\n|---|---|---|---|\n| MUST | Run `a | b` | [x] | ok |\n")
	doc := newParser(false, false).Parse(text.NewReader(src)) // with cells, as goldmark's table makes them
	tbl, ok := doc.FirstChild().(*east.Table)
	if !ok {
		t.Fatalf("not a table: %T", doc.FirstChild())
	}
	row := tbl.FirstChild().NextSibling()
	third := row.FirstChild().NextSibling().NextSibling()
	if got := textOf(newSource(src), third); got != "b`" {
		t.Logf("goldmark's third cell is %q now; the re-split below is what counts", got)
	}
	items, _, ok := tableItems(newSource(src), tbl, func(int, string, ...any) {})
	if !ok || len(items) != 1 {
		t.Fatalf("items = %+v", items)
	}
	want := ChecklistItem{Level: LevelMust, Step: "Run a | b", Checked: true, Evidence: "ok", Line: 3}
	if items[0] != want {
		t.Errorf("item = %+v, want %+v", items[0], want)
	}
}

func TestPhaseChecklists(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []ChecklistItem
	}{
		{"four columns", "| Req | Step | Status | Evidence |\n|--|--|--|--|\n| MUST | Do it | [x] | done |\n| SHOULD | Maybe | [ ] | |",
			[]ChecklistItem{{LevelMust, "Do it", true, "done", 9, ""}, {LevelShould, "Maybe", false, "", 10, ""}}},
		{"any case, no Req", "| STEP | status | Evidence |\n|--|--|--|\n| Do it | [X] | e |",
			[]ChecklistItem{{"", "Do it", true, "e", 9, ""}}},
		{"no Evidence", "| Req | Step | Status |\n|--|--|--|\n| MAY | Do it | [ ] |",
			[]ChecklistItem{{LevelMay, "Do it", false, "", 9, ""}}},
		{"columns in another order", "| Step | Req | Evidence | Status |\n|--|--|--|--|\n| Do it | shall | e | [x] |",
			[]ChecklistItem{{LevelMust, "Do it", true, "e", 9, ""}}},
		{"checkbox in the step cell", "| Step | Status | Evidence |\n|--|--|--|\n| [x] Done | PASS | sha |\n| [ ] Open | Pending | |",
			[]ChecklistItem{{"", "Done", true, "sha", 9, ""}, {"", "Open", false, "", 10, ""}}},
		{"PASS alone is not checked", "| Step | Status | Evidence |\n|--|--|--|\n| Done | PASS | sha |",
			[]ChecklistItem{{"", "Done", false, "sha", 9, ""}}},
		{"markup in cells", "| Req | Step | Status | Evidence |\n|--|--|--|--|\n| **MUST NOT** | Edit [HANDOFF](x) | [ ] | `git diff` empty |",
			[]ChecklistItem{{LevelMustNot, "Edit HANDOFF", false, "git diff empty", 9, ""}}},
		{"escaped and code pipes", "| Req | Step | Status | Evidence |\n|--|--|--|--|\n| MUST | `a|b` and c \\| d | [x] | `e \\| f` |",
			[]ChecklistItem{{LevelMust, "a|b and c | d", true, "e | f", 9, ""}}},
		{"cell that looks like a list", "| Step | Status | Evidence |\n|--|--|--|\n| 1. First | [ ] | # none |",
			[]ChecklistItem{{"", "1. First", false, "# none", 9, ""}}},
		{"not a checklist header", "| Req | Step |\n|--|--|\n| MUST | x |", nil},
		{"five columns", "| Req | Step | Status | Evidence | Note |\n|--|--|--|--|--|\n| MUST | x | [ ] | | |", nil},
		{"task list", "- [ ] Open\n- [x] Done SHOULD\n  - [X] Nested",
			[]ChecklistItem{{"", "Open", false, "", 7, ""}, {LevelShould, "Done SHOULD", true, "", 8, ""}, {"", "Nested", true, "", 9, ""}}},
		{"task list in a blockquote", "> - [x] Quoted", []ChecklistItem{{"", "Quoted", true, "", 7, ""}}},
		{"table in a list item", "- item\n\n  | Step | Status | Evidence |\n  |--|--|--|\n  | In item | [x] | e |",
			[]ChecklistItem{{"", "In item", true, "e", 11, ""}}},
		{"table and tasks in line order", "- [ ] Task first\n\n| Step | Status | Evidence |\n|--|--|--|\n| Row | [ ] | |",
			[]ChecklistItem{{"", "Task first", false, "", 7, ""}, {"", "Row", false, "", 11, ""}}},
		{"link reference is not a task", "- [List from directory scan]", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := parseOK(t, inStart("### Phase 1: P\n\n"+tt.body+"\n"))
			got := spec.Phases[0].Checklist
			if len(got) == 0 {
				got = nil
			}
			for i := range got { // ids have their own test (requirements_test.go)
				if !strings.HasPrefix(got[i].ID, "P.") {
					t.Errorf("row %d id %q: want P.<slug>", i, got[i].ID)
				}
				got[i].ID = ""
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("checklist = %+v\nwant %+v", got, tt.want)
			}
			if len(spec.Checklists) != 0 {
				t.Errorf("phase checklist leaked into templates: %+v", spec.Checklists)
			}
		})
	}
}

func TestTemplates(t *testing.T) {
	const end = "\n## Session End\n### Phase 1: E\n"
	type tpl struct {
		section, title string
		line, items    int
	}
	tests := []struct {
		name string
		doc  string
		want []tpl
	}{
		{"fenced table under a start checklist heading",
			"## Session Start\n### Phase 1: S\n## Session Start Checklist\n\n```markdown\n### Start\n\n| Req | Step | Status | Evidence |\n|--|--|--|--|\n| MUST | a | [ ] | |\n| MUST | b | [ ] | |\n```\n" + end,
			[]tpl{{SectionStart, "Start", 8, 2}}},
		{"md info string, title from the holder",
			"## Session Start\n### Phase 1: S\n## Session End Checklist\n\n~~~md\n- [ ] a\n- [ ] b\n- [x] c\n~~~\n" + end,
			[]tpl{{SectionEnd, "Session End Checklist", 6, 3}}},
		{"heading in the fence moves the section",
			"## Session Start\n### Phase 1: S\n## Session Start Checklist\n\n```markdown\n## Session End (before closing)\n- [ ] a\n```\n" + end,
			[]tpl{{SectionEnd, "Session End (before closing)", 7, 1}}},
		{"nested markdown fences are followed",
			"## Session Start\n### Phase 1: S\n## Session Start Checklist\n\n````markdown\nOuter.\n\n```markdown\n- [ ] deep\n```\n````\n" + end,
			[]tpl{{SectionStart, "Session Start Checklist", 9, 1}}},
		{"other languages are not",
			"## Session Start\n### Phase 1: S\n## Session Start Checklist\n\n```text\n- [ ] no\n```\n\n```\n- [ ] no\n```\n" + end,
			nil},
		{"fence in a phase body is an example",
			"## Session Start\n### Phase 1: S\n\n```markdown\n- [ ] no\n```\n" + end,
			nil},
		{"fence under a protocol section is not followed, a direct table is kept",
			"## Session Start\n\n```markdown\n- [ ] no\n```\n\n- [ ] yes\n\n### Phase 1: S\n" + end,
			[]tpl{{SectionStart, "Session Start", 7, 1}}},
		{"log template heading is not a checklist holder",
			"## Session Start\n### Phase 1: S\n## Session Log Template\n\n```markdown\n- [ ] no\n```\n" + end,
			nil},
		{"checklists outside sections are ignored",
			"# Intro\n\n- [ ] no\n\n## Session Start\n### Phase 1: S\n" + end,
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := parseOK(t, tt.doc)
			var got []tpl
			for _, c := range spec.Checklists {
				got = append(got, tpl{c.Section, c.Title, c.Line, len(c.Items)})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("templates = %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestFenceLinesMapBack(t *testing.T) {
	doc := "## Session Start\n### Phase 1: S\n## Session End\n### Phase 1: E\n## Session End Checklist\n\n- item\n\n  ```markdown\n  | Step | Status | Evidence |\n  |--|--|--|\n  | a | [ ] | |\n\n  | b | [x] | |\n  ```\n"
	spec := parseOK(t, doc)
	if len(spec.Checklists) != 1 {
		t.Fatalf("templates = %+v", spec.Checklists)
	}
	c := spec.Checklists[0]
	if c.Line != 10 || len(c.Items) != 1 || c.Items[0].Line != 12 || c.Items[0].Step != "a" {
		t.Errorf("template = %+v, want header at line 10 and row a at line 12", c)
	}
}

func TestParseChecklistsTitles(t *testing.T) {
	log := "# Session 1\n\n## Protocol Compliance\n\n### Session Start (COMPLETE ALL)\n\n- [x] a\n\n### Notes\n\n- [ ] b\n\n## Session End\n\n| Step | Status | Evidence |\n|--|--|--|\n| c | [x] | |\n"
	got := ParseChecklists([]byte(log))
	var summary []string
	for _, c := range got {
		summary = append(summary, c.Section+"/"+c.Title)
	}
	// "### Notes" is a sibling of "### Session Start", not inside it.
	want := []string{"start/Session Start (COMPLETE ALL)", "/Notes", "end/Session End"}
	if !reflect.DeepEqual(summary, want) {
		t.Errorf("checklists = %q, want %q", summary, want)
	}
	if got := ParseChecklists(nil); got == nil || len(got) != 0 {
		t.Errorf("ParseChecklists(nil) = %#v, want empty non-nil", got)
	}
}

func TestCellText(t *testing.T) {
	tests := map[string]string{
		"plain   text":          "plain text",
		"**bold** _it_":         "bold it",
		"`code *x*`":            "code *x*",
		"[link](u) ![img](p)":   "link img",
		"a &amp; b \\* c":       "a & b * c",
		"<b>html</b> stays out": "html stays out",
		"[ ]":                   "[ ]",
		"- not a list":          "- not a list",
	}
	for in, want := range tests {
		if got := cellText([]byte(in)); got != want {
			t.Errorf("cellText(%q) = %q, want %q", in, got, want)
		}
	}
	if strings.Contains(cellText([]byte("x")), "\n") {
		t.Error("newline in cell text")
	}
}

// codeSpanText reads every short unindented line over two alphabets
// (spans, emphasis runs, brackets, parentheses) as goldmark does, and
// gives up on the markup it leaves to goldmark.
func TestCodeSpanTextMatchesGoldmark(t *testing.T) {
	checked := 0
	check := func(line []byte) {
		// Callers pass trimmed cells; an indented line is goldmark's
		// indented code, which the plain path never read as it does.
		if len(line) > 0 && line[0] == ' ' {
			return
		}
		if b, ok := codeSpanText(nil, line); ok {
			checked++
			if got, want := string(bytes.TrimSpace(b)), parsedCellText(line); got != want {
				t.Fatalf("codeSpanText(%q) = %q, goldmark gives %q", line, got, want)
			}
		}
	}
	var line []byte
	var walk func(alphabet string, n int)
	walk = func(alphabet string, n int) {
		check(line)
		if n == 0 {
			return
		}
		for _, c := range []byte(alphabet) {
			line = append(line, c)
			walk(alphabet, n-1)
			line = line[:len(line)-1]
		}
	}
	walk("` a_", 8)
	walk("` a_*[]!(x", 5)
	for _, in := range []string{"Initialize Serena: `mcp__serena__activate_project`", "`a|b` \\| c", "x `` y ` z", "`\tx `", "` `", "a ` b ` c",
		"&amp; `x`", "`x` *y*", "Commit SHA: _______", "[ ]", "[x]", "QA report: `.agents/qa/[report].md`", "[a](b)", "![a]", "*a* b"} {
		check([]byte(in))
	}
	if checked < 1000 {
		t.Errorf("only %d lines read without goldmark", checked)
	}
}

// level's shortcut for cells already in key form changes no answer.
func TestLevelShortcut(t *testing.T) {
	for _, cell := range []string{"MUST", "MUST NOT", "must not", "MUST  NOT", " MUST", "MUST ", "Should", "SHOULD\tNOT", "MAY\u00a0", "NOT RECOMMENDED",
		"REQUIRED", "X", "MUST_NOT", "ＭUST", "\u212a", "", "-", "N/A"} {
		l, ok := keywordLevel[strings.ToUpper(strings.Join(strings.Fields(cell), " "))]
		if cell == "" {
			l, ok = "", true
		}
		if gl, gok := level(cell); gl != l || gok != ok {
			t.Errorf("level(%q) = %q, %v; want %q, %v", cell, gl, gok, l, ok)
		}
	}
}
