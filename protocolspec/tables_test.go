package protocolspec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// shape prints a tree: every node's kind, position and lines, except a
// table cell's lines and what is inside it.
func shape(n ast.Node) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		fmt.Fprintf(&b, "%s@%d", c.Kind(), c.Pos())
		if _, ok := c.(*east.TableCell); ok {
			b.WriteByte('\n')
			return ast.WalkSkipChildren, nil
		}
		if c.Type() == ast.TypeBlock {
			for i := 0; i < c.Lines().Len(); i++ {
				seg := c.Lines().At(i)
				fmt.Fprintf(&b, " [%d,%d)", seg.Start, seg.Stop)
			}
		}
		if t, ok := c.(*ast.Text); ok {
			fmt.Fprintf(&b, " %d-%d", t.Segment.Start, t.Segment.Stop)
		}
		b.WriteByte('\n')
		return ast.WalkContinue, nil
	})
	return b.String()
}

// md's trees with every paragraph parsed (lazyinline_test.go compares
// the two) are extension.Table's, cell contents aside, on the real
// documents, their templates and thousands of edited ones.
func TestCelllessTablesMatchGoldmark(t *testing.T) {
	stock := goldmark.New(goldmark.WithExtensions(extension.Table, extension.TaskList))
	cellless := newParser(true, false)
	docs, fences := templateBodies(t)
	all := append(append(docs, fences...), mutants(append(docs, fences...), 4000)...)
	all = append(all, []byte("a\n| x |\n|---|\n| y |"), []byte("| a | b |\n|---|\nrow"), []byte("> | a |\n> |-|\n> | b |"),
		[]byte("- | a |\n  |-|\n  | `x\\|y` |"), []byte("|a|\n|-|\n\n|b|c|\n|-|-|\n|d|"))
	for _, d := range all {
		src := normalize(d)
		got, want := shape(cellless.Parse(text.NewReader(src))), shape(stock.Parser().Parse(text.NewReader(src)))
		if got != want {
			t.Fatalf("trees differ on %q:\n%s\nextension.Table:\n%s", d, got, want)
		}
	}
}

// FuzzCelllessTables: md's trees (every paragraph parsed) are
// extension.Table's, cell contents aside.
func FuzzCelllessTables(f *testing.F) {
	stock := goldmark.New(goldmark.WithExtensions(extension.Table, extension.TaskList))
	cellless := newParser(true, false)
	docs, fences := templateBodies(f)
	for _, b := range append(docs, fences...) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, d []byte) {
		if len(d) > 1<<16 || checkBounds("", d) != nil {
			return
		}
		if got, want := shape(cellless.Parse(text.NewReader(d))), shape(stock.Parser().Parse(text.NewReader(d))); got != want {
			t.Fatalf("trees differ on %q:\n%s\nextension.Table:\n%s", d, got, want)
		}
	})
}
