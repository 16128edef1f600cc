package protocolspec

import (
	"bytes"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// cellParser reads one table cell's content: only paragraphs and inline
// markup, so a cell such as "1. foo" or "# x" stays text as it does in a table.
// Built on first use: a hook process that reads no protocol document
// would pay for it at init.
var cellParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(util.Prioritized(parser.NewParagraphParser(), 100)),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
	)
})

// columnRole maps a checklist table header cell (lower case) to its role.
var columnRole = map[string]string{
	"req": "req", "requirement": "req", "level": "req",
	"step": "step", "status": "status", "evidence": "evidence",
}

// checklistColumns recognises a Req | Step | Status | Evidence header (any
// case and order, 3 or 4 columns, Step and Status required) and returns the
// column index of each role.
func checklistColumns(header []string) (map[string]int, bool) {
	if len(header) < 3 || len(header) > 4 {
		return nil, false
	}
	cols := make(map[string]int, len(header))
	for i, h := range header {
		role, ok := columnRole[strings.ToLower(h)]
		if !ok {
			return nil, false
		}
		if _, dup := cols[role]; dup {
			return nil, false
		}
		cols[role] = i
	}
	_, step := cols["step"]
	_, status := cols["status"]
	return cols, step && status
}

// rawLine returns the source line that starts at off (a table row's
// position, after any blockquote or list indentation).
func rawLine(src []byte, off int) []byte {
	if off < 0 || off > len(src) {
		return nil
	}
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		return src[off:]
	}
	return src[off : off+end]
}

// splitRow splits a table row into raw cells. Unlike GFM, a pipe inside a
// code span does not split a cell (authors mean one cell; plain GFM splits
// it), and an escaped \| never does.
func splitRow(line []byte) [][]byte {
	line = bytes.TrimSpace(line)
	if len(line) > 0 && line[0] == '|' {
		line = line[1:]
	}
	// At most a cell per pipe and one after the last: made once, not grown.
	cells := make([][]byte, 0, bytes.Count(line, []byte{'|'})+1)
	var unclosed map[int]bool // backtick run lengths with no closer further on
	start, i := 0, 0
	for i < len(line) {
		switch line[i] {
		case '\\':
			i += 2
		case '`':
			k := runLen(line, i, '`')
			end := -1
			if !unclosed[k] {
				end = closingRun(line, i+k, k)
			}
			if end >= 0 {
				i = end
			} else {
				// Later runs of this length have no closer either: remember,
				// so a row of many backticks stays linear-ish.
				if unclosed == nil {
					unclosed = map[int]bool{}
				}
				unclosed[k] = true
				i += k
			}
		case '|':
			cells = append(cells, line[start:i])
			i++
			start = i
		default:
			i++
		}
	}
	if start < len(line) {
		cells = append(cells, line[start:])
	}
	for j, c := range cells {
		c = bytes.TrimSpace(c)
		if bytes.Contains(c, []byte(`\|`)) { // ReplaceAll copies even when there is nothing to replace
			c = bytes.ReplaceAll(c, []byte(`\|`), []byte(`|`))
		}
		cells[j] = c
	}
	return cells
}

func runLen(b []byte, i int, c byte) int {
	k := 0
	for i+k < len(b) && b[i+k] == c {
		k++
	}
	return k
}

// closingRun finds a backtick run of exactly k at or after i and returns
// the index just past it, or -1 (then the opening run is literal text).
func closingRun(b []byte, i, k int) int {
	for i < len(b) {
		if b[i] != '`' {
			i++
			continue
		}
		n := runLen(b, i, '`')
		if n == k {
			return i + n
		}
		i += n
	}
	return -1
}

// cellText reduces a raw cell to the text a reader sees.
func cellText(raw []byte) string {
	var buf [128]byte
	if t, ok := codeSpanText(buf[:0], raw); ok {
		return string(bytes.TrimSpace(t))
	}
	return parsedCellText(raw)
}

// parsedCellText is cellText with goldmark, for cells with markup other
// than code spans.
func parsedCellText(raw []byte) string {
	s := newSource(raw)
	doc := cellParser().Parse(text.NewReader(raw))
	var f flat
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		f.block(s, c)
	}
	return f.String()
}

// codeSpanText appends one line of inline markdown to dst, whitespace
// collapsed as flat.write does, when its only markup is code spans (a
// checklist cell such as "Run `go vet ./...`"), reading them as goldmark
// does: a run of n backticks opens a span that the next run of exactly n
// closes, else it is literal text, and a span starting and ending with a
// space loses one of each. Outside the spans it also takes what cannot be
// markup there: brackets with no '(' (a cell parse knows no link
// references, so "[ ]" is text) and at most one run of '*' and one of '_'
// (emphasis needs two). ok is false for anything else.
func codeSpanText(dst, raw []byte) (text []byte, ok bool) {
	if !hasInlineSpecial(raw, true) {
		return appendCollapsed(dst, raw), true
	}
	if bytes.IndexByte(raw, '\n') >= 0 || raw[0] == ' ' || raw[0] == '\t' {
		return dst, false // indentation is block structure: goldmark's to read
	}
	var stars, unders int // delimiter runs outside the spans
	brackets, parens := false, false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '`':
			k := runLen(raw, i, '`')
			if end := closingRun(raw, i+k, k); end >= 0 {
				i = end - 1 // a span: what is inside is text
			} else {
				i += k - 1 // literal backticks
			}
		case '*', '_':
			if i == 0 || raw[i-1] != c {
				if c == '*' {
					stars++
				} else {
					unders++
				}
			}
		case '[', ']', '!':
			brackets = true
		case '(':
			parens = true
		default:
			if isInlineSpecial[c] {
				return dst, false
			}
		}
	}
	if stars > 1 || unders > 1 || brackets && parens {
		return dst, false
	}
	start := 0 // of the text not yet written
	for i := 0; i < len(raw); {
		if raw[i] != '`' {
			i++
			continue
		}
		k := runLen(raw, i, '`')
		end := closingRun(raw, i+k, k)
		if end < 0 {
			i += k
			continue
		}
		dst = appendCollapsed(dst, raw[start:i])
		code := raw[i+k : end-k]
		if !isBlankText(code) && code[0] == ' ' && code[len(code)-1] == ' ' {
			code = code[1 : len(code)-1]
		}
		dst = appendCollapsed(dst, code)
		i, start = end, end
	}
	return appendCollapsed(dst, raw[start:]), true
}

// appendCollapsed appends p to dst with each run of whitespace made one
// space and none at the start, as flat.write builds its text.
func appendCollapsed(dst, p []byte) []byte {
	for _, c := range p {
		if !isFlatSpace(c) {
			dst = append(dst, c)
		} else if len(dst) > 0 && dst[len(dst)-1] != ' ' {
			dst = append(dst, ' ')
		}
	}
	return dst
}

// isBlankText is goldmark's util.IsBlank.
func isBlankText(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// level maps a Req cell ("MUST", "shall not") to an RFC 2119 level.
func level(cell string) (string, bool) {
	if cell == "" {
		return "", true
	}
	if !plainKey(cell) {
		cell = strings.ToUpper(strings.Join(strings.Fields(cell), " "))
	}
	l, ok := keywordLevel[cell]
	return l, ok
}

// plainKey reports whether a cell already is what level looks up: ASCII
// without lower case, single spaces between words and none around them
// ("MUST NOT"), as real tables write it. level then needs no copy.
func plainKey(cell string) bool {
	for i := 0; i < len(cell); i++ {
		c := cell[i]
		switch {
		case c >= 0x80 || 'a' <= c && c <= 'z' || c < ' ':
			return false
		case c == ' ' && (i == 0 || i == len(cell)-1 || cell[i-1] == ' '):
			return false
		}
	}
	return true
}

// stepBox strips a leading "[ ]" / "[x]" from a step cell; real logs put
// the checkbox there in 3-column tables.
func stepBox(step string) (string, bool) {
	if len(step) < 3 || step[0] != '[' || step[2] != ']' {
		return step, false
	}
	switch step[1] {
	case ' ':
		return strings.TrimSpace(step[3:]), false
	case 'x', 'X':
		return strings.TrimSpace(step[3:]), true
	}
	return step, false
}

// tableItems reads a checklist table; ok is false when the header is not a
// checklist header. Rows are re-split from their source lines (see splitRow).
func tableItems(s *source, t *east.Table, warn func(line int, format string, args ...any)) (items []ChecklistItem, line int, ok bool) {
	hdr, _ := t.FirstChild().(*east.TableHeader)
	if hdr == nil {
		return nil, 0, false
	}
	var rows []int
	for r := hdr.NextSibling(); r != nil; r = r.NextSibling() {
		rows = append(rows, r.Pos())
	}
	return tableRows(s, hdr.Pos(), rows, warn)
}

// tableRows reads a checklist table from the source lines of its header
// (at offset hdr) and of its rows (at offsets rows): a table found by
// goldmark and one found by the template scanner are read alike.
func tableRows(s *source, hdr int, rows []int, warn func(line int, format string, args ...any)) (items []ChecklistItem, line int, ok bool) {
	raw := splitRow(rawLine(s.src, hdr))
	names := make([]string, len(raw))
	for i, c := range raw {
		names[i] = cellText(c)
	}
	cols, ok := checklistColumns(names)
	if !ok {
		return nil, 0, false
	}
	line = s.lineOf(hdr)
	items = make([]ChecklistItem, 0, len(rows)) // not grown an item at a time: an item is large
	for _, r := range rows {
		cells := splitRow(rawLine(s.src, r))
		get := func(role string) string {
			i, ok := cols[role]
			if !ok || i >= len(cells) {
				return ""
			}
			return cellText(cells[i])
		}
		it := ChecklistItem{Line: s.lineOf(r), Evidence: get("evidence")}
		req := get("req")
		lv, known := level(req)
		if !known {
			warn(it.Line, "checklist row: unknown requirement level %q (want MUST, MUST NOT, SHOULD, SHOULD NOT or MAY)", req)
		}
		it.Level = lv
		// Only an [x] checks a row ("PASS" alone does not); the box may sit
		// in the Status cell or at the start of the Step cell.
		it.Step, it.Checked = stepBox(get("step"))
		if i, ok := cols["status"]; ok && i < len(cells) && checkedBox(cells[i]) {
			it.Checked = true
		}
		items = append(items, it)
	}
	return items, line, true
}

// checkedBox reports whether a raw cell reads "[x]" or "[X]", without
// making a string of it.
func checkedBox(raw []byte) bool {
	var buf [8]byte
	t, ok := codeSpanText(buf[:0], raw)
	if !ok {
		c := cellText(raw)
		return c == "[x]" || c == "[X]"
	}
	t = bytes.TrimSpace(t)
	return string(t) == "[x]" || string(t) == "[X]"
}

// taskBox returns the task-list checkbox of a list item, if it has one.
func taskBox(li ast.Node) *east.TaskCheckBox {
	first := li.FirstChild()
	if first == nil {
		return nil
	}
	box, _ := first.FirstChild().(*east.TaskCheckBox)
	return box
}

// itemText is a list item's own text: its paragraphs, not its nested lists,
// code blocks or tables.
func itemText(s *source, li ast.Node) *flat {
	var f flat
	itemTextInto(&f, s, li)
	return &f
}

// itemTextInto is itemText into a given (empty) buffer.
func itemTextInto(f *flat, s *source, li ast.Node) {
	for c := li.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.(type) {
		case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
			f.block(s, c)
		}
	}
}

// itemLine is the line of a list item's first text, else of its marker.
func itemLine(s *source, li ast.Node, f *flat) int {
	if len(f.runs) > 0 {
		return s.lineOf(f.runs[0].src)
	}
	return s.lineOf(li.Pos())
}

// taskItems collects the task-list items of a list, nested ones included.
func taskItems(s *source, list ast.Node, out []ChecklistItem) []ChecklistItem {
	for li := list.FirstChild(); li != nil; li = li.NextSibling() {
		if box := taskBox(li); box != nil {
			f := itemText(s, li)
			out = append(out, ChecklistItem{
				Level: firstKeyword(f.masked()), Step: f.String(), Checked: box.IsChecked, Line: itemLine(s, li, f),
			})
		}
		for c := li.FirstChild(); c != nil; c = c.NextSibling() {
			if l, ok := c.(*ast.List); ok {
				out = taskItems(s, l, out)
			}
		}
	}
	return out
}
