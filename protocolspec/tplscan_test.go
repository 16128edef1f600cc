package protocolspec

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// templateBodies are the documents of testdata and of the shared fixtures
// (every protocol version and session log), and the body of every
// ```markdown fence in them, nested ones included.
func templateBodies(t testing.TB) (docs, fences [][]byte) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	shared, _ := filepath.Glob(filepath.Join("..", "..", "shared", "fixtures", "*", "*.md"))
	if len(shared) == 0 && os.Getenv("CI") != "" {
		t.Fatal("no fixtures in ../shared/fixtures")
	}
	for _, p := range append(paths, shared...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
		fences = append(fences, markdownFences(newSource(normalize(b)))...)
	}
	return docs, fences
}

func markdownFences(s *source) [][]byte {
	var out [][]byte
	doc := md().Parse(text.NewReader(s.src))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if fb, ok := n.(*ast.FencedCodeBlock); ok && entering && isMarkdownFence(s, fb) {
			sub := s.subSource(fb.Lines())
			out = append(out, sub.src)
			out = append(out, markdownFences(sub)...)
		}
		return ast.WalkContinue, nil
	})
	return out
}

// mutants edits bodies line by line with lines that sit near the edge of
// what the scanner reads, deterministically.
func mutants(bodies [][]byte, n int) [][]byte {
	pool := []string{"```markdown", "```", "````md", "~~~", "~~~ md", "```md `x`", "---", "***", "* * *", "___", "| a | b |", "|---|---|", "|:-|-:|",
		"| Req | Step | Status | Evidence |", "|-----|------|--------|----------|", "--- | ---", "- | -", "| MUST | Do `x` | [ ] | e |", "| FOO | y | [x] | |",
		"- [ ] MUST do it", "- [x] SHOULD *do* `MUST`", "* [ ] b", "+ [X] c", "- [ ]  two  spaces MAY", "- [ ]", "- [ ]x", "- [\t] t", "- [x]: d",
		"  - [ ] nested MUST", "- plain", "-  two", "- **Status**: [x]", "- [Decision]: [Rationale]", "> quote", "<div>", "<!-- gate: id=X -->",
		"Title", "===", "[decision]: /u", "[Task/Topic]: x", "[task/topic]:", "1. one", "2) two", "# Session Start", "## Session End Checklist",
		"### Heading #", "### [Task/Topic]", "### [Decision]", "#### A **b** `c` &amp;", "#\tTab", "####### seven", "#", "\t- tab", "    code",
		"  ```", "text line", "", "", ":--", "-|-", "Copy:", "\\# not", "## Phase 1: X (BLOCKING)", "- a\u00a0b", "# K\u212a"}
	r := rand.New(rand.NewSource(12))
	var out [][]byte
	for k := 0; k < n; k++ {
		lines := bytes.Split(bodies[r.Intn(len(bodies))], []byte("\n"))
		for m := 1 + r.Intn(6); m > 0; m-- {
			i := r.Intn(len(lines))
			switch r.Intn(5) {
			case 0:
				lines = append(lines[:i], lines[i+1:]...)
			case 1, 2:
				lines = append(lines[:i], append([][]byte{[]byte(pool[r.Intn(len(pool))])}, lines[i:]...)...)
			case 3:
				if i+1 < len(lines) {
					lines[i], lines[i+1] = lines[i+1], lines[i]
				}
			case 4:
				lines = append(lines[:i], append([][]byte{bytes.Clone(lines[r.Intn(len(lines))])}, lines[i:]...)...)
			}
			if len(lines) == 0 {
				lines = [][]byte{{}}
			}
		}
		out = append(out, bytes.Join(lines, []byte("\n")))
	}
	return out
}

// sameAsGoldmark checks that, when the scanner reads body, it gives what
// goldmark's parse gives: headings, checklists, warnings, nested fences'
// headings, and Headings. It reports whether the scanner read it.
func sameAsGoldmark(t *testing.T, body []byte) bool {
	t.Helper()
	s := newSource(normalize(body))
	blocks, ok := scanTemplate(s)
	if !ok {
		return false
	}
	ctx := tplCtx{kind: SectionStart, title: "Outer", depth: 1, fences: true}
	fast, slow := &walker{spec: &Spec{}}, &walker{spec: &Spec{}}
	fh, sh := fast.scannedTemplate(s, blocks, ctx), slow.parsedTemplate(s, ctx)
	if !reflect.DeepEqual(fh, sh) || !reflect.DeepEqual(fast.spec, slow.spec) || !reflect.DeepEqual(fast.fenceHeadings, slow.fenceHeadings) {
		t.Fatalf("scanner and goldmark differ on %q:\nheadings %q\n      vs %q\nspec %+v\n  vs %+v\nfences %q\n    vs %q",
			body, fh, sh, fast.spec, slow.spec, fast.fenceHeadings, slow.fenceHeadings)
	}
	if got, want := Headings(body), parsedHeadings(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("Headings(%q) = %q, goldmark gives %q", body, got, want)
	}
	return true
}

// TestTemplateScannerMatchesGoldmark: on every real template the scanner
// is used (so it is what Parse runs) and agrees with goldmark; on
// thousands of edited templates and documents it agrees whenever it
// does not give up.
func TestTemplateScannerMatchesGoldmark(t *testing.T) {
	docs, fences := templateBodies(t)
	for _, b := range fences {
		if !sameAsGoldmark(t, b) {
			t.Errorf("the scanner gives up on a real template:\n%s", b)
		}
	}
	for _, b := range docs {
		sameAsGoldmark(t, b)
	}
	read, all := 0, append(mutants(fences, 6000), mutants(docs, 1000)...)
	for _, b := range all {
		if sameAsGoldmark(t, b) {
			read++
		}
	}
	t.Logf("scanner read %d of %d edited bodies", read, len(all))
	if read < len(all)/4 {
		t.Errorf("the scanner read only %d of %d edited bodies: the comparison tests little", read, len(all))
	}
}

// FuzzTemplateScanner: whatever the scanner reads, it reads as goldmark does.
func FuzzTemplateScanner(f *testing.F) {
	docs, fences := templateBodies(f)
	for _, b := range append(fences, docs...) {
		f.Add(b)
	}
	for _, b := range mutants(fences, 200) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 1<<16 {
			return
		}
		sameAsGoldmark(t, body)
	})
}
