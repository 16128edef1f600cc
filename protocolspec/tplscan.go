package protocolspec

import (
	"bytes"
	"strings"
)

// The template scanner reads a ```markdown fence's body (a checklist
// template, a session-log template) without running goldmark on it a
// second time. From a template only its top-level headings, checklist
// tables, task lists and nested ```markdown fences matter, so it reads
// lines and knows just enough CommonMark to find those. Anything it is not
// sure goldmark reads the same way (indentation, block quotes, HTML,
// setext headings, ordered lists, lazy lines, markup in a task item) makes
// it give up, and the body is parsed with goldmark as before: the scanner
// is a shortcut for the plain templates real protocols hold, never a
// second opinion. tplscan_test.go checks it against goldmark.

type tplKind int

const (
	tplHeading tplKind = iota
	tplTable
	tplList
	tplFence
)

// tplBlock is one block of a template that matters.
type tplBlock struct {
	kind     tplKind
	text     string          // tplHeading: its text
	lines    []int           // tplTable: offsets of the header and row lines
	items    []ChecklistItem // tplList: its task items
	from, to int             // tplFence: its content lines [from, to)
	markdown bool            // tplFence: a ```markdown fence
}

// scanner states between lines.
const (
	stOpen      = iota // after a blank line, a heading, a break or a fence: any block may start
	stPara             // in a paragraph
	stItem             // right after a list item line
	stItemBlank        // blank lines after a list item: the list goes on with another item
	stTable            // in a table's rows
)

// scanTemplate reads s's top-level blocks; ok is false when s holds
// anything it cannot read exactly as goldmark would.
func scanTemplate(s *source) (blocks []tplBlock, ok bool) {
	if bytes.IndexByte(s.src, 0) >= 0 {
		return nil, false // goldmark replaces NUL
	}
	refs := newRefLabels(s.src)
	blocks = make([]tplBlock, 0, 8) // a block is large: grown from one at a time, most of a scan's copying
	n := len(s.starts)
	state := stOpen
	var list *tplBlock
	var marker byte
	closeList := func() {
		if list != nil && len(list.items) > 0 {
			blocks = append(blocks, *list)
		}
		list = nil
	}
	for i := 0; i < n; i++ {
		l := s.line(i)
		if isBlank(l) {
			switch state {
			case stItem, stItemBlank:
				state = stItemBlank
			default:
				state = stOpen
			}
			continue
		}
		switch state {
		case stTable:
			if l[0] != '|' {
				return nil, false // a paragraph line ends neither a table nor a heading under it
			}
			blocks[len(blocks)-1].lines = append(blocks[len(blocks)-1].lines, s.starts[i])
			continue
		case stItem, stItemBlank:
			if thematicBreak(l) {
				if state == stItem {
					return nil, false
				}
			} else if m, content, kind := bulletItem(l); kind == itemBad {
				return nil, false
			} else if kind == itemOK && m == marker {
				it, ok := taskItem(s, i, content)
				if !ok {
					return nil, false
				}
				if it != nil {
					list.items = append(list.items, *it)
				}
				state = stItem
				continue
			} else if state == stItem && kind != itemOK && !isATX(l) && !isFenceOpen(l) {
				return nil, false // a lazy continuation line, or a block the scanner does not know
			}
			closeList()
			state = stOpen
		case stPara:
			if _, _, kind := bulletItem(l); kind == itemOK || isATX(l) || isFenceOpen(l) {
				break // these interrupt a paragraph
			}
			if l[0] == ' ' || l[0] == '\t' || blockStart(l) || delimiterLike(l) {
				return nil, false // could be a setext underline, a table, a lazy line ...
			}
			continue
		}
		// A block starts at line i.
		switch {
		case l[0] == '#':
			text, ok := atxText(l, refs)
			if !ok {
				return nil, false
			}
			blocks = append(blocks, tplBlock{kind: tplHeading, text: text})
			state = stOpen
		case isFenceOpen(l):
			b, end := scanFence(s, i)
			blocks = append(blocks, b)
			i, state = end, stOpen
		case l[0] == '|':
			if i+1 >= n {
				return nil, false
			}
			// The delimiter row must not itself start a block ("- | -" is a list item).
			d := s.line(i + 1)
			if len(d) == 0 || d[0] != '|' && (d[0] == ' ' || d[0] == '\t' || blockStart(d)) {
				return nil, false
			}
			cols := delimiterColumns(d)
			if cols < 0 || headerCells(l) != cols {
				return nil, false
			}
			blocks = append(blocks, tplBlock{kind: tplTable, lines: append(make([]int, 0, 8), s.starts[i])})
			i, state = i+1, stTable
		case thematicBreak(l):
			state = stOpen
		default:
			m, content, kind := bulletItem(l)
			switch kind {
			case itemBad:
				return nil, false
			case itemOK:
				it, ok := taskItem(s, i, content)
				if !ok {
					return nil, false
				}
				list, marker = &tplBlock{kind: tplList}, m
				if it != nil {
					list.items = append(list.items, *it)
				}
				state = stItem
				continue
			}
			if l[0] == ' ' || l[0] == '\t' || blockStart(l) {
				return nil, false
			}
			state = stPara
		}
	}
	closeList()
	return blocks, true
}

// line is line i of s without its newline.
func (s *source) line(i int) []byte {
	end := len(s.src)
	if i+1 < len(s.starts) {
		end = s.starts[i+1]
	}
	return bytes.TrimSuffix(s.src[s.starts[i]:end], []byte{'\n'})
}

func isBlank(l []byte) bool {
	for _, c := range l {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// blockStart reports whether a line at the left margin may start a block
// other than a paragraph, or end a paragraph, in some reading: the
// scanner gives up on such lines where it does not handle them.
func blockStart(l []byte) bool {
	switch c := l[0]; c {
	case '#', '>', '<', '|', '=':
		return true
	case '`', '~':
		return len(l) >= 3 && l[1] == c && l[2] == c
	case '-', '*', '+', '_':
		return len(l) == 1 || l[1] == ' ' || l[1] == '\t' || thematicBreak(l)
	}
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	return i > 0 && i < len(l) && (l[i] == '.' || l[i] == ')')
}

// thematicBreak: three or more of one of - * _ and nothing else but spaces.
func thematicBreak(l []byte) bool {
	c := l[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	k := 0
	for _, b := range l {
		switch b {
		case c:
			k++
		case ' ', '\t':
		default:
			return false
		}
	}
	return k >= 3
}

// delimiterLike: a line a table's delimiter row could be (goldmark looks
// for one on every line of a paragraph but its first).
func delimiterLike(l []byte) bool {
	for _, c := range l {
		if c != '-' && c != '|' && c != ':' && c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

const (
	itemNone = iota // not a bullet list item
	itemOK
	itemBad // a list item the scanner does not read
)

// bulletItem reads "- text" (or * or +) at the left margin; the text must
// be on this line alone and start no block of its own.
func bulletItem(l []byte) (marker byte, content []byte, kind int) {
	if len(l) == 0 || (l[0] != '-' && l[0] != '*' && l[0] != '+') || thematicBreak(l) {
		return 0, nil, itemNone
	}
	if len(l) == 1 || (l[1] != ' ' && l[1] != '\t') {
		return 0, nil, itemNone // "**bold**", "-x": a paragraph
	}
	content = l[2:]
	if l[1] != ' ' || len(content) == 0 || content[0] == ' ' || content[0] == '\t' || blockStart(content) {
		return 0, nil, itemBad
	}
	return l[0], content, itemOK
}

// inlineSpecial are the bytes that make goldmark's inline parse differ
// from collapsing whitespace.
const inlineSpecial = "\\`*_[]<>&!~"

var isInlineSpecial = func() (t [256]bool) {
	for i := 0; i < len(inlineSpecial); i++ {
		t[inlineSpecial[i]] = true
	}
	return t
}()

// hasInlineSpecial reports whether b holds a byte of inlineSpecial (or,
// with newline, a '\n'): bytes.ContainsAny built the set on every call.
func hasInlineSpecial(b []byte, newline bool) bool {
	for _, c := range b {
		if isInlineSpecial[c] || newline && c == '\n' {
			return true
		}
	}
	return false
}

// taskItem reads a list item's content: a task ("[ ] text", "[x] text")
// gives a checklist item, any other item nil. ok is false for a task (or
// what might be one) the scanner does not read exactly.
func taskItem(s *source, i int, content []byte) (it *ChecklistItem, ok bool) {
	if len(content) < 3 || content[0] != '[' || content[2] != ']' {
		return nil, true
	}
	box := content[1]
	if box < ' ' {
		return nil, false // goldmark takes [\t] for a box
	}
	if box != ' ' && box != 'x' && box != 'X' {
		return nil, true
	}
	rest := content[3:]
	if len(rest) < 2 || rest[0] != ' ' || isBlank(rest) || hasInlineSpecial(rest, false) {
		return nil, false
	}
	var f flat
	f.write(rest, 0, false)
	return &ChecklistItem{Level: firstKeyword(f.b), Step: f.String(), Checked: box != ' ', Line: s.lineOf(s.starts[i])}, true
}

// isATX: "#".."######", a space, and text not ending in '#' (a closing
// sequence the scanner leaves to goldmark).
func isATX(l []byte) bool {
	k := 0
	for k < len(l) && l[k] == '#' {
		k++
	}
	if k == 0 || k > 6 || k >= len(l) || l[k] != ' ' {
		return false
	}
	t := bytes.TrimRight(l[k:], " \t")
	return len(bytes.TrimLeft(t, " ")) > 0 && t[len(t)-1] != '#'
}

// atxText is an ATX heading's text as textOf gives it: the inline markup
// of one line reads the same in a paragraph as in a heading, so cellText
// reduces it, unless a link reference the template defines could make a
// link of it.
func atxText(l []byte, refs *refLabels) (string, bool) {
	if !isATX(l) {
		return "", false
	}
	k := bytes.IndexByte(l, ' ')
	t := bytes.Trim(l[k:], " \t") // goldmark trims ASCII spaces only
	if refs.mayLink(t) {
		return "", false
	}
	return cellText(t), true
}

// isFenceOpen: ``` or ~~~ (three or more) at the left margin, where a
// backtick fence's info string holds no backtick.
func isFenceOpen(l []byte) bool {
	c := l[0]
	if c != '`' && c != '~' {
		return false
	}
	k := 0
	for k < len(l) && l[k] == c {
		k++
	}
	return k >= 3 && (c == '~' || bytes.IndexByte(l[k:], '`') < 0)
}

// scanFence reads the fence opening at line i: its content runs to a
// closing fence (indented less than four columns, as long or longer, then
// blank) or to the end. It returns the block and the last line it used.
func scanFence(s *source, i int) (tplBlock, int) {
	l := s.line(i)
	c := l[0]
	k := 0
	for k < len(l) && l[k] == c {
		k++
	}
	b := tplBlock{kind: tplFence, from: i + 1, to: len(s.starts)}
	// goldmark reads an info string only when a byte besides the newline
	// follows the fence.
	withNL := len(l)
	if s.lineEnd(i) > s.starts[i]+len(l) {
		withNL++
	}
	if k < withNL-1 {
		b.markdown = isMarkdownInfo(bytes.TrimSpace(l[k:]))
	}
	for j := i + 1; j < len(s.starts); j++ {
		lj := s.line(j)
		w, pos := indentWidth(lj)
		if w >= 4 {
			continue
		}
		r := pos
		for r < len(lj) && lj[r] == c {
			r++
		}
		if r-pos >= k && isBlank(lj[r:]) {
			b.to = j
			return b, j
		}
	}
	return b, len(s.starts) - 1
}

// lineEnd is the offset just past line i, its newline included.
func (s *source) lineEnd(i int) int {
	if i+1 < len(s.starts) {
		return s.starts[i+1]
	}
	return len(s.src)
}

// indentWidth is goldmark's util.IndentWidth at the start of a line.
func indentWidth(l []byte) (width, pos int) {
	for _, c := range l {
		switch c {
		case ' ':
			width++
		case '\t':
			width += 4 - width%4
		default:
			return width, pos
		}
		pos++
	}
	return width, pos
}

// subLines builds the source of a fence's content lines [from, to), as
// subSource does from goldmark's segments (each line ends in a newline).
func (s *source) subLines(from, to int) *source {
	var buf []byte
	outer := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		buf = append(buf, s.src[s.starts[i]:s.lineEnd(i)]...)
		if len(buf) > 0 && buf[len(buf)-1] != '\n' {
			buf = append(buf, '\n')
		}
		outer = append(outer, s.lineOf(s.starts[i]))
	}
	sub := newSource(buf)
	if len(outer) == 0 {
		outer = []int{1}
	}
	sub.outer = outer
	return sub
}

// delimiterColumns is the number of columns of a table delimiter row, as
// goldmark's table extension counts them, or -1 when l is not one.
func delimiterColumns(l []byte) int {
	allDash := true
	for _, c := range l {
		if c != '-' {
			allDash = false
		}
		if c != ' ' && c != '\t' && c != '-' && c != '|' && c != ':' {
			return -1
		}
	}
	if allDash {
		return -1
	}
	if w, _ := indentWidth(l); w > 3 {
		return -1
	}
	cols := bytes.Split(l, []byte{'|'})
	if isBlank(cols[0]) {
		cols = cols[1:]
	}
	if len(cols) > 0 && isBlank(cols[len(cols)-1]) {
		cols = cols[:len(cols)-1]
	}
	if len(cols) == 0 {
		return -1 // goldmark finds no alignment, so no delimiter row
	}
	for _, col := range cols {
		col = bytes.Trim(col, " \t")
		col = bytes.TrimPrefix(col, []byte{':'})
		col = bytes.TrimSuffix(col, []byte{':'})
		if len(col) == 0 || len(bytes.Trim(col, "-")) > 0 {
			return -1
		}
	}
	return len(cols)
}

// headerCells counts a table header's cells as goldmark's parseRow does:
// split at each pipe not right after a backslash.
func headerCells(l []byte) int {
	l = bytes.Trim(l, " \t")
	pos, limit := 0, len(l)
	if len(l) > 0 && l[0] == '|' {
		pos++
	}
	if len(l) > 0 && l[limit-1] == '|' {
		limit--
	}
	n := 0
	for pos < limit {
		n++
		c := pos
		for c < limit && !(l[c] == '|' && (c == 0 || l[c-1] != '\\')) {
			c++
		}
		pos = c + 1
	}
	return n
}

// refLabels are the labels a template may define link references for:
// the bracket-free text between a '[' and a "]:". A heading's bracketed
// text becomes a link only when it names a defined label, so a heading
// none of whose labels is defined reads the same without the template's
// definitions. Both scans are linear: the text between a '[' and the
// first ']' after it is looked at once.
type refLabels struct {
	labels map[string]bool
	// unsure: a backslash (an escaped bracket may sit in a label) or a
	// label that is not ASCII (Unicode case folding is not done here).
	unsure bool
}

func newRefLabels(src []byte) *refLabels {
	if !bytes.Contains(src, []byte("]:")) {
		return nil
	}
	r := &refLabels{labels: map[string]bool{}, unsure: bytes.IndexByte(src, '\\') >= 0}
	// At each "]:", the label is what lies back to a '[' with no bracket
	// in between (eachLabel's labels ending there). The stretches looked
	// back over end at brackets, so they do not overlap: linear.
	for p := 0; ; {
		k := bytes.Index(src[p:], []byte("]:"))
		if k < 0 {
			return r
		}
		end := p + k
		open := end - 1
		for open >= 0 && src[open] != '[' && src[open] != ']' {
			open--
		}
		if open >= 0 && src[open] == '[' {
			label := src[open+1 : end]
			if !isASCII(label) {
				r.unsure = true
			}
			r.labels[labelKey(label)] = true
		}
		p = end + 2
	}
}

// eachLabel calls f with each bracket-free text between a '[' and the
// ']' right after it.
func eachLabel(b []byte, f func(label []byte)) {
	open := -1
	for i, c := range b {
		switch c {
		case '[':
			open = i
		case ']':
			if open >= 0 {
				f(b[open+1 : i])
			}
			open = -1
		}
	}
}

// mayLink reports whether text could hold a reference to a defined label.
func (r *refLabels) mayLink(text []byte) bool {
	if r == nil || !bytes.ContainsAny(text, "[]") {
		return false
	}
	if r.unsure || bytes.IndexByte(text, '\\') >= 0 {
		return true
	}
	found := false
	eachLabel(text, func(label []byte) {
		found = found || !isASCII(label) || r.labels[labelKey(label)]
	})
	return found
}

// labelKey is a label lower-cased with all whitespace dropped: coarser
// than goldmark's matching (which collapses it), so it never misses one.
func labelKey(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
		case 'A' <= c && c <= 'Z':
			sb.WriteByte(c + 'a' - 'A')
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
