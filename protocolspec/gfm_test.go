package protocolspec

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// goldmarkGFM is goldmark's own parser with its Table and TaskList
// extensions: what gfm.go must match node for node. Only tests link it.
func goldmarkGFM() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.Table, extension.TaskList)).Parser()
}

// dumpTree writes every node of a tree with what the protocol parser can
// read of it: kind, positions, line segments, text segments and flags, and
// the fields of headings, lists, links, code, tables and check boxes.
func dumpTree(src []byte, doc ast.Node) string {
	var b strings.Builder
	depth := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			depth--
			return ast.WalkContinue, nil
		}
		fmt.Fprintf(&b, "%s%s pos=%d", strings.Repeat(" ", depth), n.Kind(), n.Pos())
		depth++
		if n.Type() == ast.TypeBlock {
			for i := 0; i < n.Lines().Len(); i++ {
				s := n.Lines().At(i)
				fmt.Fprintf(&b, " line=%d:%d+%d", s.Start, s.Stop, s.Padding)
			}
			fmt.Fprintf(&b, " blankBefore=%v", n.HasBlankPreviousLines())
		}
		switch x := n.(type) {
		case *ast.Text:
			fmt.Fprintf(&b, " seg=%d:%d soft=%v hard=%v raw=%v %q", x.Segment.Start, x.Segment.Stop, x.SoftLineBreak(), x.HardLineBreak(), x.IsRaw(), x.Segment.Value(src))
		case *ast.String:
			fmt.Fprintf(&b, " %q raw=%v code=%v", x.Value, x.IsRaw(), x.IsCode())
		case *ast.Heading:
			fmt.Fprintf(&b, " level=%d", x.Level)
		case *ast.List:
			fmt.Fprintf(&b, " marker=%q start=%d tight=%v", x.Marker, x.Start, x.IsTight)
		case *ast.ListItem:
			fmt.Fprintf(&b, " offset=%d", x.Offset)
		case *ast.FencedCodeBlock:
			if x.Info != nil {
				fmt.Fprintf(&b, " info=%q", x.Info.Segment.Value(src))
			}
		case *ast.Link:
			fmt.Fprintf(&b, " dest=%q title=%q", x.Destination, x.Title)
		case *ast.Image:
			fmt.Fprintf(&b, " dest=%q title=%q", x.Destination, x.Title)
		case *ast.AutoLink:
			fmt.Fprintf(&b, " url=%q", x.URL(src))
		case *ast.Emphasis:
			fmt.Fprintf(&b, " level=%d", x.Level)
		case *ast.RawHTML:
			for i := 0; i < x.Segments.Len(); i++ {
				s := x.Segments.At(i)
				fmt.Fprintf(&b, " seg=%d:%d", s.Start, s.Stop)
			}
		case *east.Table:
			fmt.Fprintf(&b, " aligns=%v", x.Alignments)
		case *east.TableRow:
			fmt.Fprintf(&b, " aligns=%v", x.Alignments)
		case *east.TableCell:
			fmt.Fprintf(&b, " align=%v", x.Alignment)
		case *east.TaskCheckBox:
			fmt.Fprintf(&b, " checked=%v", x.IsChecked)
		}
		b.WriteByte('\n')
		return ast.WalkContinue, nil
	})
	return b.String()
}

// sameTree reports the first line where the two parsers' trees differ.
func sameTree(t *testing.T, name string, src []byte, want, got parser.Parser) {
	t.Helper()
	w := dumpTree(src, want.Parse(text.NewReader(src)))
	g := dumpTree(src, got.Parse(text.NewReader(src)))
	if w == g {
		return
	}
	wl, gl := strings.Split(w, "\n"), strings.Split(g, "\n")
	for i := range max(len(wl), len(gl)) {
		var a, b string
		if i < len(wl) {
			a = wl[i]
		}
		if i < len(gl) {
			b = gl[i]
		}
		if a != b {
			t.Fatalf("%s: trees differ at node %d:\ngoldmark: %s\nours:     %s", name, i, a, b)
		}
	}
}

// gfmSamples are tables, check boxes and link reference definitions
// (linkref.go) at the edges of the syntax.
var gfmSamples = []string{
	"[a]: /u\n\n[a] and [b]\n\n [b]:\n/v 'title'\nrest of the paragraph\n",
	"text\n[c]: /u\n\n[c]\n",
	"\t[d]: /x\n\n   [e]: /y\n[f]: /z \"t\"\n[d][e][f]\n",
	"> [g]: /g\n> x\n\n- [h]: /h\n\n[g] [h]\n",
	"[i]\n[i]: /i\n\n[]: /j\n[k]:\n\n[k]\n",
	"| [l] |\n| - |\n[l]: /l\n\n[l]\n",
	"| a | b |\n| --- | :-: |\n| 1 | 2 |\n",
	"a | b\n--|--\n1 | 2 | 3\n4\n",
	"intro line\n| a | b |\n|:--|--:|\n| x |\n\nafter\n",
	"| a |\n| - |\n| `x \\| y` | z \\| w |\n| `a` \\| `b\\|c` |\n",
	"| a | b |\n| --- |\n| 1 | 2 |\n",
	"| a |\n|---|\n",
	"|a|\n|:-:|\n|b|\n|c|\n",
	"    | a |\n    | - |\n",
	"| a | b |\n   | -- | -- |\n",
	"| a | b |\n    | -- | -- |\n",
	"| a |\n| :: |\n",
	"| a |\n| : |\n",
	"| a |\n| - - |\n",
	"| a |\n|\t-\t|\n| b |\n",
	"---|---\na|b\n",
	"a\n---\n",
	"| a |\n| --- |\n| b |\nnot a row? yes a row\n> quote\n",
	"- [ ] open\n- [x] done\n- [X] done too\n- [\t] tab\n- [] none\n- [ ]\n- [y] no\n",
	"1. [ ] ordered\n2. [x] item\n   - [ ] nested\n",
	"- text [ ] later\n- [link](x) [ ] first\n",
	"* [ ] a\n\n  [ ] second paragraph\n",
	"- [x]trailing\n- [ ]  two spaces\n",
	"> - [ ] in a quote\n> | a |\n> | - |\n> | b |\n",
	"```markdown\n| a |\n| - |\n- [ ] in a fence\n```\n",
	"| a | b |\n| --- | --- |\n| [ ] | - [ ] |\n",
	"Req | Step | Status | Evidence\n--- | --- | --- | ---\nMUST | run `go test` | [ ] | `a\\|b`\n",
	"|\n|-|\n|\n",
	"| a |\n|-|\n||\n| |\n|x||\n",
}

func TestGFMMatchesGoldmark(t *testing.T) {
	want, got := goldmarkGFM(), newParser(false, false)
	for i, s := range gfmSamples {
		sameTree(t, fmt.Sprintf("sample %d", i), []byte(s), want, got)
	}
	var files []string
	for _, pattern := range []string{
		filepath.Join("..", "..", "shared", "fixtures", "*", "*.md"),
		filepath.Join("testdata", "*.md"),
		filepath.Join("testdata", "*", "*.md"),
		filepath.Join("..", "docs", "*.md"),
		filepath.Join("..", "cmd", "sessiongate", "starter", "*.md"),
	} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	fixtures := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(f, "fixtures") {
			fixtures++
		}
		sameTree(t, f, data, want, got)
		// As Parse sees it: line endings normalized.
		sameTree(t, f+" (normalized)", normalize(data), want, got)
	}
	if fixtures == 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("no fixture under ../shared/fixtures")
		}
		t.Log("no fixture under ../shared/fixtures: samples and local documents only")
	}
	t.Logf("%d documents and %d samples compared", len(files), len(gfmSamples))
}

// FuzzGFM: on any input our tables and check boxes are goldmark's.
func FuzzGFM(f *testing.F) {
	for _, s := range gfmSamples {
		f.Add([]byte(s))
	}
	want, got := goldmarkGFM(), newParser(false, false)
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		sameTree(t, "input", src, want, got)
	})
}
