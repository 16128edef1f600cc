package protocolspec

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// GFM tables and task-list check boxes, parsed into goldmark's own
// extension nodes (east) with the behaviour of goldmark's extension package
// (gfm_test.go compares the two trees on every fixture and on fuzzed
// input). That package is not linked: its package init compiles the
// autolink regexps ({1,256} repetitions), 0.75 ms of every sessiongate
// process, hooks included, for a feature the protocol parser never uses.

// newParser is goldmark's default CommonMark parser plus the two GFM
// extensions, at the priorities goldmark's extensions register them. With
// cellless, table cells get no lines, so goldmark does not parse their
// inline markup: nothing reads a cell's nodes (checklist rows are split
// again from their source lines by splitRow and cellText, and the walk
// skips a table's children). tables_test.go compares those trees with
// extension.Table's, cell contents aside.
//
// With lazy, paragraphs nothing reads get no inline nodes (lazyinline.go),
// and table rows no cells at all: the walk reads a row's position only.
func newParser(cellless, lazy bool) parser.Parser {
	t := &gfmTable{escaped: parser.NewContextKey(), cellless: cellless || lazy, rowsOnly: lazy}
	blocks := parser.DefaultBlockParsers()
	paragraphs := []util.PrioritizedValue{util.Prioritized(linkRefs{}, 100), util.Prioritized(t, 200)}
	asts := []util.PrioritizedValue{util.Prioritized(gfmTableEscapes{t}, 0)}
	if lazy {
		z := lazyInline{key: parser.NewContextKey()}
		blocks = z.blockParsers()
		paragraphs = append(paragraphs, util.Prioritized(z, 1000)) // last: goldmark runs lower priorities first
		asts = append(asts, util.Prioritized(lazyRestore{z}, 100))
	}
	return parser.NewParser(
		parser.WithBlockParsers(blocks...),
		parser.WithInlineParsers(append(parser.DefaultInlineParsers(), util.Prioritized(gfmCheckBox{}, 0))...),
		parser.WithParagraphTransformers(paragraphs...),
		parser.WithASTTransformers(asts...),
	)
}

// gfmTable turns a paragraph whose line after the first holds a delimiter
// row into a table: the line before it is the header, the lines after it
// the rows; lines before the header stay a paragraph.
type gfmTable struct {
	escaped  parser.ContextKey // []*escapedPipes of the document
	cellless bool              // cells get no lines (newParser)
	rowsOnly bool              // rows get no cells: nothing reads them (newParser with lazy)
}

// escapedPipes are the offsets of the backslashes of `\|` in a cell that
// holds a code span: inside code the backslash is dropped (gfmTableEscapes).
type escapedPipes struct {
	cell *east.TableCell
	at   []int
	done bool
}

func (t *gfmTable) Transform(p *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := p.Lines()
	if lines.Len() < 2 {
		return
	}
	src := reader.Source()
	for i := 1; i < lines.Len(); i++ {
		delim := lines.At(i)
		aligns := delimiterRow(delim.Value(src))
		if aligns == nil {
			continue
		}
		// The rows, and each row's cells, are allocated together: a
		// node at a time, cells were most of a table's allocations.
		rows := make([]east.TableRow, lines.Len()-i)
		header, cells := t.row(&rows[0], lines.At(i-1), aligns, true, src, pc)
		if len(aligns) != cells {
			return
		}
		table := east.NewTable()
		table.Alignments = aligns
		table.SetPos(p.Pos())
		table.AppendChild(table, east.NewTableHeader(header))
		for j := i + 1; j < lines.Len(); j++ {
			row, _ := t.row(&rows[j-i], lines.At(j), aligns, false, src, pc)
			table.AppendChild(table, row)
		}
		lines.SetSliced(0, i-1)
		p.Parent().InsertAfter(p.Parent(), p, table)
		if lines.Len() == 0 {
			p.Parent().RemoveChild(p.Parent(), p)
		} else {
			last := lines.At(i - 2)
			last.Stop-- // the paragraph's last line loses its newline
			lines.Set(i-2, last)
		}
		return
	}
}

// delimiterRow returns the column alignments of a delimiter row such as
// "| :-- | --: |", nil when line is not one.
func delimiterRow(line []byte) []east.Alignment {
	if w, _ := util.IndentWidth(line, 0); w > 3 {
		return nil
	}
	dashesOnly := true
	for _, c := range line {
		if c != '-' {
			dashesOnly = false
		}
		if !util.IsSpace(c) && c != '-' && c != '|' && c != ':' {
			return nil
		}
	}
	if dashesOnly {
		return nil
	}
	cols := bytes.Split(line, []byte{'|'})
	if util.IsBlank(cols[0]) {
		cols = cols[1:]
	}
	if len(cols) > 0 && util.IsBlank(cols[len(cols)-1]) {
		cols = cols[:len(cols)-1]
	}
	var aligns []east.Alignment
	for _, col := range cols {
		col = bytes.TrimFunc(col, func(r rune) bool { return r < 0x80 && reSpace(byte(r)) })
		left, right := len(col) > 0 && col[0] == ':', len(col) > 0 && col[len(col)-1] == ':'
		dashes := col
		if left {
			dashes = dashes[1:]
		}
		if right && len(dashes) > 0 {
			dashes = dashes[:len(dashes)-1]
		}
		if len(dashes) == 0 || len(bytes.Trim(dashes, "-")) != 0 {
			return nil
		}
		switch {
		case left && right:
			aligns = append(aligns, east.AlignCenter)
		case left:
			aligns = append(aligns, east.AlignLeft)
		case right:
			aligns = append(aligns, east.AlignRight)
		default:
			aligns = append(aligns, east.AlignNone)
		}
	}
	return aligns
}

// reSpace is Go's regexp \s (the class goldmark's delimiter and check-box
// patterns use): unlike util.IsSpace it takes a form feed.
func reSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// row splits a table line into cells at each pipe not escaped by a
// backslash. A body row keeps as many cells as the delimiter row has
// columns (padding a short row, dropping extra cells); the header keeps
// all, so a header of another width is refused by the caller. row is
// the zero TableRow to fill; n is its number of cells (made or not).
func (t *gfmTable) row(row *east.TableRow, line text.Segment, aligns []east.Alignment, header bool, src []byte, pc parser.Context) (_ *east.TableRow, n int) {
	start, padding := line.Start, line.Padding
	line = line.TrimLeftSpace(src)
	line = line.TrimRightSpace(src)
	b := line.Value(src)
	row.Alignments = aligns // as east.NewTableRow
	row.SetPos(start)
	var cells []east.TableCell
	if !t.rowsOnly {
		cells = make([]east.TableCell, len(aligns))
	}
	pos, limit := 0, len(b)
	if len(b) > 0 && b[0] == '|' {
		pos++
	}
	if len(b) > 0 && b[limit-1] == '|' {
		limit--
	}
	i := 0
	for ; pos < limit; i++ {
		align := east.AlignNone
		switch {
		case i < len(aligns):
			align = aligns[i]
		case !header:
			return row, i
		}
		if t.rowsOnly {
			pos = cellEnd(b, pos, limit) + 1
			continue
		}
		var cell *east.TableCell
		if i < len(cells) {
			cell = &cells[i]
		} else {
			cell = east.NewTableCell() // a header cell beyond the delimiter row's columns
		}
		cell.SetPos(start + pos - padding)
		cell.Alignment = align
		var esc *escapedPipes
		code := false
		end := pos
		for ; end < limit; end++ {
			if b[end] == '`' {
				code = true
			}
			if b[end] != '|' {
				continue
			}
			if end == 0 || b[end-1] != '\\' {
				break
			}
			if code && !t.cellless {
				if esc == nil {
					esc = &escapedPipes{cell: cell}
					list, _ := pc.Get(t.escaped).([]*escapedPipes)
					pc.Set(t.escaped, append(list, esc))
				}
				esc.at = append(esc.at, line.Start+end-1)
			}
		}
		seg := text.NewSegment(line.Start+pos, line.Start+end)
		seg = seg.TrimLeftSpace(src)
		seg = seg.TrimRightSpace(src)
		if !t.cellless {
			cell.Lines().Append(seg)
		}
		row.AppendChild(row, cell)
		pos = end + 1
	}
	if t.rowsOnly {
		return row, max(i, len(aligns))
	}
	for ; i < len(aligns); i++ {
		cells[i].Alignment = east.AlignNone // as east.NewTableCell
		row.AppendChild(row, &cells[i])
	}
	return row, i
}

// cellEnd is the end of the cell starting at pos: the next pipe no
// backslash escapes, or limit.
func cellEnd(b []byte, pos, limit int) int {
	end := pos
	for ; end < limit; end++ {
		if b[end] == '|' && (end == 0 || b[end-1] != '\\') {
			break
		}
	}
	return end
}

// gfmTableEscapes drops the backslash of `\|` inside the code spans of
// table cells: the pipe was escaped only to keep the cell whole.
type gfmTableEscapes struct{ t *gfmTable }

func (x gfmTableEscapes) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	list, _ := pc.Get(x.t.escaped).([]*escapedPipes)
	if list == nil {
		return
	}
	pc.Set(x.t.escaped, nil)
	for _, e := range list {
		if e.done {
			continue
		}
		_ = ast.Walk(e.cell, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering || n.Kind() != ast.KindCodeSpan {
				return ast.WalkContinue, nil
			}
			for c := n.FirstChild(); c != nil; {
				next := c.NextSibling()
				if tx, ok := c.(*ast.Text); ok {
					splitEscapes(tx, list)
				}
				c = next
			}
			return ast.WalkContinue, nil
		})
	}
}

// splitEscapes replaces a code span's text node holding escaped pipes by
// raw text nodes around each backslash.
func splitEscapes(tx *ast.Text, list []*escapedPipes) {
	parent := tx.Parent()
	span := tx.Segment
	var n ast.Node = tx
	for _, e := range list {
		for _, at := range e.at {
			if at < span.Start || at >= span.Stop {
				continue
			}
			seg := n.(*ast.Text).Segment
			before := ast.NewRawTextSegment(seg.WithStop(at))
			after := ast.NewRawTextSegment(seg.WithStart(at + 1))
			parent.InsertAfter(parent, n, before)
			parent.InsertAfter(parent, before, after)
			parent.RemoveChild(parent, n)
			n = after
			e.done = true
		}
	}
}

// gfmCheckBox reads "[ ]" or "[x]" opening the first text block of a list
// item as a task check box.
type gfmCheckBox struct{}

func (gfmCheckBox) Trigger() []byte { return []byte{'['} }

func (gfmCheckBox) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	item := parent.Parent()
	if item == nil || item.FirstChild() != parent || parent.HasChildren() {
		return nil
	}
	if _, ok := item.(*ast.ListItem); !ok {
		return nil
	}
	line, _ := block.PeekLine()
	if len(line) < 3 || line[0] != '[' || line[2] != ']' {
		return nil
	}
	mark := line[1]
	if mark != 'x' && mark != 'X' && !reSpace(mark) {
		return nil
	}
	n := 3
	for n < len(line) && reSpace(line[n]) {
		n++
	}
	block.Advance(n)
	return east.NewTaskCheckBox(mark == 'x' || mark == 'X')
}
