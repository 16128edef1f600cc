package protocolspec

import (
	"bytes"
	"reflect"
	"slices"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Paragraphs whose inline markup nothing reads are left without inline
// nodes: goldmark parses the inline markup of every paragraph, and most
// of a protocol's prose gives nothing to the parser. The walk reads a
// paragraph's inline nodes for
//
//   - its text, when it may be in a phase (any sentence there may be a
//     requirement: an RFC 2119 key word or an imperative, imperative.go;
//     a list item's text is all its paragraphs' and headings'), when it
//     opens with a task check box, or when it names a template's path
//     ("Create at: ...");
//   - raw HTML, where gate comments are;
//
// so a paragraph with none of '<' (raw HTML, autolinks), '[' (links, check
// boxes) and '&' (entities), no key word among its letters when it may be
// in a phase and no "create" when it may be a template's, is never read:
// without those three bytes inline markup only drops punctuation, never a
// letter, so the letters of its text are those of its source. It may be
// in a phase after a top-level heading that may read "Phase N: ..." until
// a top-level heading no deeper, and a template's when it is a top-level
// paragraph under a heading that may hold "template" (lazyHeadings). In a
// list item, the item's paragraphs are left unparsed together, only when
// all of them may be and no heading shares the item.
//
// A paragraph with no byte an inline parser starts at (plainInline) is
// left unparsed wherever it is, read or not: goldmark would make one text
// node of each of its lines, and flat.inline reads that text from the
// lines themselves (plainText).
//
// goldmark has no hook between block and inline parsing, so the lines of
// such a paragraph are taken away when the paragraph closes (the inline
// parser finds nothing to read) and given back by an AST transformer once
// inline parsing is done. lazyinline_test.go checks that Parse,
// ParseChecklists and Headings give what they give with every paragraph
// parsed, and that the trees differ only by the inline nodes left out.

// lazyInline holds the parser parts; key is the parse's *lazyState.
type lazyInline struct{ key parser.ContextKey }

type lazyState struct {
	// candidate is the paragraph lazyInline.Transform found unread, which
	// closes next: goldmark closes a paragraph right after transforming
	// it, unless a block that needs the paragraph (a setext heading) is
	// opening, and then the paragraph is not among the open blocks.
	candidate *ast.Paragraph
	inItems   []*ast.Paragraph // closed candidates in list items not yet closed
	held      []heldLines
	// phases are the levels of the top-level headings so far that may
	// open a phase and that no heading has closed since (lazyHeadings),
	// rising: a key word outside them is read by no one. templates are
	// those of the headings that may name a template: "create" is read
	// only in a top-level paragraph under one (walker.inferTemplates).
	phases, templates []int
}

// heldLines is a paragraph whose lines are held while inline parsing
// runs: its Segments are cut to none, keeping their array, and n is how
// many to give back. A tight list turns its items' paragraphs into text
// blocks with the same (cut) Segments, so a paragraph in an item is found
// again by its place among the item's children.
type heldLines struct {
	p ast.Node // a paragraph, or an ATX heading

	item     *ast.ListItem // the item p is in, or nil
	index, n int           // p's place among item's children; its lines
}

func (z lazyInline) state(pc parser.Context) *lazyState {
	st, _ := pc.Get(z.key).(*lazyState)
	if st == nil {
		st = lazyStates.Get().(*lazyState)
		pc.Set(z.key, st)
	}
	return st
}

// lazyStates keeps the states of finished parses: held grew from nothing
// a paragraph at a time in every parse, most of a protocol's paragraphs
// being held.
var lazyStates = sync.Pool{New: func() any { return &lazyState{} }}

// release empties st (it holds nodes of the tree just parsed) and keeps
// it for another parse.
func (st *lazyState) release() {
	clear(st.held)
	clear(st.inItems)
	*st = lazyState{held: st.held[:0], inItems: st.inItems[:0], phases: st.phases[:0], templates: st.templates[:0]}
	lazyStates.Put(st)
}

// Transform runs last of the paragraph transformers.
func (z lazyInline) Transform(p *ast.Paragraph, reader text.Reader, pc parser.Context) {
	st := z.state(pc)
	st.candidate = nil
	inTemplate := len(st.templates) > 0 && p.Parent() != nil && p.Parent().Kind() == ast.KindDocument
	// A top-level paragraph under a template heading may name the
	// template's path in a code span (walker.inferTemplates reads its
	// code span nodes): parsed.
	plain := plainStrong(p.Lines(), reader.Source()) || !inTemplate && codeOnly(p.Lines(), reader.Source())
	if !plain && !unreadInline(p.Lines(), reader.Source(), len(st.phases) > 0, inTemplate) {
		return
	}
	if slices.ContainsFunc(pc.OpenedBlocks(), func(b parser.Block) bool { return b.Node == p }) {
		st.candidate = p
	}
}

// lazyParagraphs is goldmark's paragraph parser; a candidate's lines are
// held when it closes.
type lazyParagraphs struct {
	parser.BlockParser
	z lazyInline
}

func (l lazyParagraphs) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	l.BlockParser.Close(node, reader, pc)
	st := l.z.state(pc)
	p, _ := node.(*ast.Paragraph)
	if p == nil || p != st.candidate {
		return
	}
	st.candidate = nil
	if p.Parent() == nil {
		return // no lines left: goldmark removed it
	}
	if _, ok := p.Parent().(*ast.ListItem); ok {
		st.inItems = append(st.inItems, p) // decided when the item closes
		return
	}
	st.hold(p)
}

// lazyItems is goldmark's list item parser; the candidates of an item are
// held when it closes, if its text is never read.
type lazyItems struct {
	parser.BlockParser
	z lazyInline
}

func (l lazyItems) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	l.BlockParser.Close(node, reader, pc)
	st := l.z.state(pc)
	// The item's candidates are the last ones: its children close before
	// it, and nested items took theirs when they closed.
	k := len(st.inItems)
	for k > 0 && st.inItems[k-1].Parent() == node {
		k--
	}
	mine := st.inItems[k:]
	st.inItems = st.inItems[:k]
	all := true
	for c := node.FirstChild(); c != nil && all; c = c.NextSibling() {
		switch c.(type) {
		case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
			if p, ok := c.(*ast.Paragraph); !ok || !slices.Contains(mine, p) {
				all = false // a text the item's text holds may be read
			}
		}
	}
	for _, p := range mine {
		// A plain paragraph's text is read from its lines: it is held
		// whether the item's text is read or not.
		if all || plainInline(p.Lines(), reader.Source()) {
			st.hold(p)
		}
	}
}

func (st *lazyState) hold(p ast.Node) {
	h := heldLines{p: p, n: p.Lines().Len()}
	if item, ok := p.Parent().(*ast.ListItem); ok {
		h.item = item
		for c := item.FirstChild(); c != p; c = c.NextSibling() {
			h.index++
		}
	}
	// Nothing appends to a closed paragraph's lines before they are given
	// back, so the array still holds them then.
	p.Lines().SetSliced(0, 0)
	st.held = append(st.held, h)
}

// lazyHeadings is one of goldmark's heading parsers; a top-level heading
// updates the phases and templates a paragraph may be in when it closes
// (before the blocks after it open).
type lazyHeadings struct {
	parser.BlockParser
	z   lazyInline
	atx bool // an ATX heading's one line is its own (a setext heading's are a paragraph's)
}

func (l lazyHeadings) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	l.BlockParser.Close(node, reader, pc)
	h, ok := node.(*ast.Heading)
	if !ok || node.Parent() == nil {
		return
	}
	if l.atx && h.Lines().Len() == 1 && plainInline(h.Lines(), reader.Source()) {
		// Its text is read from its line, as a plain paragraph's; held
		// once its line is read here.
		defer l.z.state(pc).hold(h)
	}
	if node.Parent().Kind() != ast.KindDocument {
		return // not a heading the walk reads for phases
	}
	st := l.z.state(pc)
	// A heading closes the phase (walker.headingState) or the template
	// (walker.inferTemplates) it is no deeper than.
	st.phases = closeLevels(st.phases, h.Level)
	st.templates = closeLevels(st.templates, h.Level)
	if mayOpenPhase(h.Lines(), reader.Source()) {
		st.phases = append(st.phases, h.Level)
	}
	if mayNameTemplate(h.Lines(), reader.Source()) {
		st.templates = append(st.templates, h.Level)
	}
}

// closeLevels drops the rising levels a heading of level closes.
func closeLevels(levels []int, level int) []int {
	for len(levels) > 0 && levels[len(levels)-1] >= level {
		levels = levels[:len(levels)-1]
	}
	return levels
}

// mayNameTemplate reports whether a heading with these lines may hold
// "template" in any case once its inline markup is reduced: its letters
// do, or it holds a byte that could change them.
func mayNameTemplate(lines *text.Segments, src []byte) bool {
	var low uint64 // the last 8 letters, lower-cased
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		for _, c := range src[seg.Start:seg.Stop] {
			switch {
			case c >= 0x80 || byteClass[c] == classMarkup:
				return true
			case byteClass[c] == classUpper || byteClass[c] == classLower:
				if low = low<<8 | uint64(lowerASCII(c)); low == packedTemplate {
					return true
				}
			}
		}
	}
	return false
}

// mayOpenPhase reports whether a heading with these lines may read
// "Phase <number>: ..." once its inline markup is reduced: its first
// letters are "phase" in any case, or it holds a byte that could change
// its letters ('<', '[', '&', or a non-ASCII one: (?i) takes a long s, ſ,
// for the s).
func mayOpenPhase(lines *text.Segments, src []byte) bool {
	var first [len("phase")]byte
	n := 0
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		for _, c := range src[seg.Start:seg.Stop] {
			switch {
			case c >= 0x80 || byteClass[c] == classMarkup:
				return true
			case n < len(first) && (byteClass[c] == classUpper || byteClass[c] == classLower):
				first[n] = lowerASCII(c)
				n++
			}
		}
	}
	return n == len(first) && string(first[:]) == "phase"
}

// lazyRestore gives the held lines back after inline parsing.
type lazyRestore struct{ z lazyInline }

func (r lazyRestore) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	st, _ := pc.Get(r.z.key).(*lazyState)
	if st == nil {
		return
	}
	for _, h := range st.held {
		n := h.p
		if h.p.Parent() == nil && h.item != nil {
			n = h.item.FirstChild() // the text block that took p's place
			for i := 0; i < h.index; i++ {
				n = n.NextSibling()
			}
		}
		n.Lines().SetSliced(0, h.n)
	}
	pc.Set(r.z.key, nil)
	st.release()
}

// blockParsers is goldmark's default block parsers with the paragraph
// and list item parsers wrapped.
func (z lazyInline) blockParsers() []util.PrioritizedValue {
	bps := parser.DefaultBlockParsers()
	atx, setext := reflect.TypeOf(parser.NewATXHeadingParser()), reflect.TypeOf(parser.NewSetextHeadingParser())
	wrapped := 0
	for i, v := range bps {
		bp := v.Value.(parser.BlockParser)
		switch {
		case bp == parser.NewParagraphParser():
			bps[i].Value = lazyParagraphs{bp, z}
		case bp == parser.NewListItemParser():
			bps[i].Value = lazyItems{bp, z}
		case reflect.TypeOf(bp) == atx || reflect.TypeOf(bp) == setext:
			bps[i].Value = lazyHeadings{bp, z, reflect.TypeOf(bp) == atx}
		default:
			continue
		}
		wrapped++
	}
	if wrapped != 4 {
		panic("protocolspec: goldmark's paragraph, list item or heading parsers not found")
	}
	return bps
}

// unreadInline reports whether a paragraph with these lines is never
// read (see above); its key words matter only when it may be in a
// phase.
func unreadInline(lines *text.Segments, src []byte, inPhase, inTemplate bool) bool {
	if inPhase {
		// An imperative needs no key word to be a requirement: every
		// sentence of a phase is read.
		return false
	}
	if !inTemplate {
		// Only markup is read: found by IndexByte, not a byte at a time.
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			b := src[seg.Start:seg.Stop]
			if bytes.IndexByte(b, '<') >= 0 || bytes.IndexByte(b, '[') >= 0 || bytes.IndexByte(b, '&') >= 0 {
				return false
			}
		}
		return true
	}
	// The last 8 letters are kept packed in low, a byte each, newest
	// lowest, lower-cased, and compared only at an e (create's last).
	var low uint64
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		for _, c := range src[seg.Start:seg.Stop] {
			if 'a' <= c && c <= 'z' { // most bytes: tested first
				low = low<<8 | uint64(c)
				if inTemplate && c == 'e' && low&(1<<48-1) == packedCreate {
					return false
				}
				continue
			}
			switch byteClass[c] {
			case classMarkup:
				return false
			case classUpper:
				low = low<<8 | uint64(c+'a'-'A')
				if inTemplate && c == 'E' && low&(1<<48-1) == packedCreate {
					return false
				}
			}
		}
	}
	return true
}

const (
	classOther  = iota
	classMarkup // '<', '[', '&'
	classUpper
	classLower
)

var byteClass = func() (t [256]uint8) {
	for c := 'A'; c <= 'Z'; c++ {
		t[c], t[c+'a'-'A'] = classUpper, classLower
	}
	t['<'], t['['], t['&'] = classMarkup, classMarkup, classMarkup
	return t
}()

// packed is a word's last (up to 16) bytes as unreadInline keeps them.
func packed(w string) (p [2]uint64) {
	for i := 0; i < len(w); i++ {
		p[1] = p[1]<<8 | p[0]>>56
		p[0] = p[0]<<8 | uint64(w[i])
	}
	return p
}

var packedCreate, packedTemplate = packed("create")[0], packed("template")[0]

// plainInline reports whether goldmark's inline parsers make nothing of
// lines but text and strong emphasis: they hold no byte an inline parser
// (code spans, emphasis, links, images, autolinks, raw HTML, task check
// boxes) starts at, nor an escape, an entity, a carriage return or a NUL,
// except "**" runs that open and close strong emphasis in turn ("This is
// a **blocking gate**.", "**Requirements:**"). goldmark reads each line
// of such a paragraph as text nodes split at the runs, which plainText
// writes without running the inline parser.
func plainInline(lines *text.Segments, src []byte) bool {
	return plainStrong(lines, src) || codeOnly(lines, src)
}

// codeOnly reports whether the only byte of lines an inline parser starts
// at is '`': goldmark makes text and code spans of them (codeText).
func codeOnly(lines *text.Segments, src []byte) bool {
	code := false
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		for _, c := range src[seg.Start:seg.Stop] {
			if notPlain[c] {
				if c != '`' {
					return false
				}
				code = true
			}
		}
	}
	return code
}

// plainStrong is plainInline without code spans.
func plainStrong(lines *text.Segments, src []byte) bool {
	open := false // a "**" opened strong emphasis
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		first := seg.Start + util.TrimLeftSpaceLength(src[seg.Start:seg.Stop]) // where goldmark's line 0 starts
		for p := seg.Start; p < seg.Stop; p++ {
			if !notPlain[src[p]] {
				continue
			}
			q := p
			for q < seg.Stop && src[q] == '*' {
				q++
			}
			if q-p != 2 {
				return false // not "**", or another inline parser's byte
			}
			// The characters around the run, as parser.ScanDelimiter
			// sees them: a paragraph's first line starts after a newline.
			before, after := byte('\n'), byte(' ')
			if (i > 0 || p > first) && p > 0 {
				before = src[p-1]
			}
			if q < seg.Stop {
				after = src[q]
			}
			if before >= 0x80 || after >= 0x80 {
				return false // goldmark reads the rune around it
			}
			bs, bp, as, ap := util.IsSpace(before), util.IsPunct(before), util.IsSpace(after), util.IsPunct(after)
			left := !as && (!ap || bs || bp)
			right := !bs && (!bp || as || ap)
			// Each run only opens or only closes, in turn: goldmark
			// pairs each closer with the opener just before it.
			if open && (!right || left) || !open && (!left || right) {
				return false
			}
			open = !open
			p = q - 1
		}
	}
	return !open
}

var notPlain = func() (t [256]bool) {
	for _, c := range []byte("`*_<![]\\&\r\x00") {
		t[c] = true
	}
	return t
}()

// plainText writes the text of a paragraph plainInline held (its lines
// given back, no inline nodes) as flat.inline writes goldmark's nodes
// for it (parser.parseBlock): each line ends in a soft line break, or a
// hard one when two spaces end it; its text is split at the "**" runs
// (emphasis markup, dropped) and the last piece loses its trailing
// spaces.
func (f *flat) plainText(s *source, lines *text.Segments) {
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		line := s.src[seg.Start:seg.Stop]
		if len(line) == 0 {
			return // goldmark's block reader stops at an empty line
		}
		end, soft, hard := len(line), false, false
		if line[end-1] == '\n' {
			if end >= 3 && line[end-3] == ' ' && line[end-2] == ' ' {
				end, hard = end-3, true
			} else {
				end, soft = end-1, true
			}
		}
		from := 0
		for {
			k := bytes.Index(line[from:end], []byte("**"))
			if k < 0 {
				break
			}
			f.write(line[from:from+k], seg.Start+from, false)
			from += k + 2
		}
		f.write(line[from:end-util.TrimRightSpaceLength(line[from:end])], seg.Start+from, false)
		if soft || hard {
			f.space()
		}
		if hard {
			f.breaks = append(f.breaks, len(f.b))
		}
	}
}

// codeText writes the text of a paragraph or heading whose only markup is
// code spans (codeOnly), as parser.parseBlock and goldmark's code span
// parser make its nodes and flat.inline writes them: text up to a run of
// backticks; a code span up to the next run as long, its lines' pieces
// as they are but for one space or newline taken off both ends when both
// have one (and it is not blank); a run with no such closer as text.
func (f *flat) codeText(s *source, lines *text.Segments) {
	src, n := s.src, lines.Len()
	li, pos := 0, lines.At(0).Start
	for li < n {
		seg := lines.At(li)
		line := src[pos:seg.Stop]
		if len(line) == 0 {
			return // goldmark's block reader is at the end
		}
		end, soft, hard := len(line), false, false
		if line[end-1] == '\n' {
			if end >= 3 && line[end-3] == ' ' && line[end-2] == ' ' {
				end, hard = end-3, true
			} else {
				end, soft = end-1, true
			}
		}
		k := bytes.IndexByte(line[:end], '`')
		if k < 0 {
			f.write(line[:end-util.TrimRightSpaceLength(line[:end])], pos, false)
			if soft || hard {
				f.space()
			}
			if hard {
				f.breaks = append(f.breaks, len(f.b))
			}
			if li++; li < n {
				pos = lines.At(li).Start
			}
			continue
		}
		if k > 0 {
			f.write(line[:k], pos, false)
		}
		open := pos + k
		o := 0
		for open+o < seg.Stop && src[open+o] == '`' {
			o++
		}
		// The closer: the next run of exactly o backticks, on this line
		// or a later one.
		cl, at := -1, -1
		for lj, from := li, open+o; lj < n && cl < 0; lj++ {
			sj := lines.At(lj)
			if lj > li {
				from = sj.Start
			}
			for i := from; i < sj.Stop; i++ {
				if src[i] != '`' {
					continue
				}
				j := i
				for j < sj.Stop && src[j] == '`' {
					j++
				}
				if j-i == o {
					cl, at = lj, i
					break
				}
				i = j - 1
			}
		}
		if cl < 0 {
			f.write(src[open:open+o], open, false) // no closer: the run is text
			pos = open + o
			continue
		}
		// The span's pieces: one per line, the last up to the closer
		// (left out when empty).
		var pieces [][2]int
		for lj := li; lj <= cl; lj++ {
			sj := lines.At(lj)
			from, to := sj.Start, sj.Stop
			if lj == li {
				from = open + o
			}
			if lj == cl {
				to = at
				if from == to {
					continue
				}
			}
			pieces = append(pieces, [2]int{from, to})
		}
		blank := true
		for _, p := range pieces {
			blank = blank && util.IsBlank(src[p[0]:p[1]])
		}
		if !blank {
			first, last := &pieces[0], &pieces[len(pieces)-1]
			if first[0] < first[1] && isSpaceOrNewline(src[first[0]]) && last[0] < last[1] && isSpaceOrNewline(src[last[1]-1]) {
				first[0]++
				last[1]--
			}
		}
		for _, p := range pieces {
			f.write(src[p[0]:p[1]], p[0], true)
		}
		li, pos = cl, at+o
	}
}

func isSpaceOrNewline(c byte) bool { return c == ' ' || c == '\n' }
