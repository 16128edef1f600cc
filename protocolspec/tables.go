package protocolspec

import (
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// celllessTables is goldmark's table paragraph transformer whose tables'
// cells are emptied of their lines, so goldmark does not parse the cells'
// inline markup. Nothing reads a cell's nodes: checklist rows are split
// again from their source lines (splitRow, cellText), and the walk skips
// a table's children. The tables themselves (which paragraphs become
// tables, their rows and positions) are goldmark's own; tables_test.go
// compares the trees with those of extension.Table.
type celllessTables struct{ parser.ParagraphTransformer }

func (t celllessTables) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	parent, prev, next := node.Parent(), node.PreviousSibling(), node.NextSibling()
	t.ParagraphTransformer.Transform(node, reader, pc)
	// A table made from the paragraph comes right after it, or takes its
	// place when no line of the paragraph is left.
	var after ast.Node
	switch {
	case node.Parent() != nil:
		after = node.NextSibling()
	case prev != nil:
		after = prev.NextSibling()
	case parent != nil:
		after = parent.FirstChild()
	}
	table, ok := after.(*east.Table)
	if !ok || after == next {
		return
	}
	for row := table.FirstChild(); row != nil; row = row.NextSibling() {
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cell.SetLines(text.NewSegments())
		}
	}
}
