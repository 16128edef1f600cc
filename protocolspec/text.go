package protocolspec

import (
	"bytes"
	"sort"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// flat is inline markdown reduced to the text a reader sees: emphasis and
// link markup dropped, whitespace collapsed, raw HTML left out. Code-span
// characters are remembered so RFC 2119 key words inside code never count,
// and each run keeps its source offset so a sentence knows its line.
type flat struct {
	b      []byte
	code   [][2]int // [from, to) ranges of b that came from code spans
	runs   []run
	breaks []int // indices in b of hard line breaks (sentence boundaries)
	// Buffers of masked and sentences, kept so a reused flat (the walk's
	// scratch) does not grow new ones for every paragraph.
	mask  []byte
	sents [][2]int
}

type run struct{ at, src int }

// reset empties f, keeping its buffers.
func (f *flat) reset() {
	f.b, f.code, f.runs, f.breaks = f.b[:0], f.code[:0], f.runs[:0], f.breaks[:0]
}

func (f *flat) space() {
	if len(f.b) > 0 && f.b[len(f.b)-1] != ' ' {
		f.b = append(f.b, ' ')
	}
}

func (f *flat) write(p []byte, src int, code bool) {
	start := len(f.b)
	// Whole runs of text are copied at once: a byte at a time, this was
	// the walk's busiest loop.
	for len(p) > 0 {
		i := 0
		for i < len(p) && !isFlatSpace(p[i]) {
			i++
		}
		f.b = append(f.b, p[:i]...)
		if i == len(p) {
			break
		}
		f.space()
		for i < len(p) && isFlatSpace(p[i]) {
			i++
		}
		p = p[i:]
	}
	if len(f.b) == start {
		return
	}
	if src < 0 && len(f.runs) > 0 {
		src = f.runs[len(f.runs)-1].src
	}
	f.runs = append(f.runs, run{at: start, src: max(src, 0)})
	if code {
		f.code = append(f.code, [2]int{start, len(f.b)})
	}
}

// isFlatSpace is the whitespace write collapses.
func isFlatSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// inline appends the text of n's inline children.
func (f *flat) inline(s *source, n ast.Node, code bool) {
	if n.FirstChild() == nil && n.Type() == ast.TypeBlock {
		// A paragraph (or a tight item's text block) left without inline
		// nodes (lazyinline.go): a plain one's text is its lines'.
		if lines := n.Lines(); lines.Len() > 0 {
			switch {
			case plainStrong(lines, s.src):
				f.plainText(s, lines)
			case codeOnly(lines, s.src):
				f.codeText(s, lines)
			}
		}
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch v := c.(type) {
		case *ast.Text:
			val := v.Segment.Value(s.src)
			if !code && !v.IsRaw() {
				val = unescape(val)
			}
			f.write(val, v.Segment.Start, code)
			if v.SoftLineBreak() || v.HardLineBreak() {
				f.space()
			}
			if v.HardLineBreak() {
				f.breaks = append(f.breaks, len(f.b))
			}
		case *ast.String:
			f.write(v.Value, -1, code || v.IsCode())
		case *ast.CodeSpan:
			f.inline(s, v, true)
		case *ast.RawHTML, *east.TaskCheckBox:
			// Markup, not text: gate comments are read separately.
		case *ast.AutoLink:
			f.write(v.Label(s.src), v.Pos(), code)
		default:
			f.inline(s, c, code)
		}
	}
}

// block appends the text of a paragraph-like block, separated by a space.
func (f *flat) block(s *source, n ast.Node) {
	f.space()
	f.inline(s, n, false)
}

func (f *flat) String() string { return string(bytes.TrimSpace(f.b)) }

// masked returns b with code-span bytes replaced by NUL, for key-word
// search. It is f's own buffer (or b itself): gone at the next call.
func (f *flat) masked() []byte {
	if len(f.code) == 0 {
		return f.b
	}
	m := append(f.mask[:0], f.b...)
	f.mask = m
	for _, r := range f.code {
		for i := r[0]; i < r[1]; i++ {
			m[i] = 0
		}
	}
	return m
}

// srcAt returns the source offset the text at index i came from.
func (f *flat) srcAt(i int) int {
	k := sort.Search(len(f.runs), func(j int) bool { return f.runs[j].at > i }) - 1
	if k < 0 {
		if len(f.runs) > 0 {
			return f.runs[0].src
		}
		return 0
	}
	return f.runs[k].src
}

// Abbreviations whose final period does not end a sentence.
var abbreviations = map[string]bool{"e.g": true, "i.e": true, "vs": true, "cf": true}

// sentences splits the text at ".", "!" or "?" followed by a space or the
// end (closing quotes and brackets may come between), outside code spans,
// and at hard line breaks.
func (f *flat) sentences() [][2]int {
	out := f.sents[:0] // f's own buffer: gone at the next call
	start := 0
	emit := func(end, next int) {
		from, to := start, end
		for from < to && f.b[from] == ' ' {
			from++
		}
		for to > from && f.b[to-1] == ' ' {
			to--
		}
		if to > from {
			out = append(out, [2]int{from, to})
		}
		start = next
	}
	bi, ci := 0, 0 // next hard break, next code range (i only grows)
	for i := 0; i < len(f.b); i++ {
		for bi < len(f.breaks) && f.breaks[bi] <= i {
			if f.breaks[bi] > start {
				emit(f.breaks[bi], f.breaks[bi])
			}
			bi++
		}
		c := f.b[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(f.b) && bytes.IndexByte([]byte(`)"']`), f.b[j]) >= 0 {
			j++
		}
		if j < len(f.b) && f.b[j] != ' ' {
			continue
		}
		for ci < len(f.code) && f.code[ci][1] <= i {
			ci++
		}
		inCode := ci < len(f.code) && f.code[ci][0] <= i
		if inCode || (c == '.' && isAbbreviation(f.b[:i])) {
			continue
		}
		emit(j, j)
	}
	emit(len(f.b), len(f.b))
	f.sents = out
	return out
}

// isAbbreviation reports whether the word ending at the end of b is one
// of abbreviations, in any case (the word being letters and inner dots),
// without building the word: it runs at every period.
func isAbbreviation(b []byte) bool {
	i := len(b)
	for i > 0 {
		c := b[i-1]
		if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' {
			i--
			continue
		}
		break
	}
	w := b[i:]
	if len(w) > 3 {
		return false // no abbreviation is longer
	}
	var low [3]byte
	for k, c := range w {
		low[k] = lowerASCII(c)
	}
	return abbreviations[string(low[:len(w)])]
}

func unescape(b []byte) []byte {
	if bytes.IndexByte(b, '\\') >= 0 {
		b = util.UnescapePunctuations(b)
	}
	if bytes.IndexByte(b, '&') >= 0 {
		b = util.ResolveNumericReferences(b)
		b = util.ResolveEntityNames(b)
	}
	return b
}

var keywordLevel = map[string]string{
	"MUST":            LevelMust,
	"MUST NOT":        LevelMustNot,
	"SHALL":           LevelMust,
	"SHALL NOT":       LevelMustNot,
	"REQUIRED":        LevelMust,
	"SHOULD":          LevelShould,
	"SHOULD NOT":      LevelShouldNot,
	"RECOMMENDED":     LevelShould,
	"NOT RECOMMENDED": LevelShouldNot,
	"MAY":             LevelMay,
	"OPTIONAL":        LevelMay,
}

// firstKeyword returns the level of the first RFC 2119 key word in masked
// text (whitespace already collapsed to single spaces), or "". Key words
// are whole upper-case words; the two-word forms win over their prefixes.
// A hand-written scan: a regexp here was a sixth of the parse time.
func firstKeyword(b []byte) string {
	for i := 0; i < len(b); {
		if b[i] < 'A' || b[i] > 'Z' || (i > 0 && isWordByte(b[i-1])) {
			i++
			continue
		}
		// Words are compared as slices of b: a string made of each
		// capitalised word was an allocation per word.
		w := wordAt(b, i)
		var next []byte
		if j := i + len(w); j+1 < len(b) && b[j] == ' ' {
			next = wordAt(b, j+1)
		}
		switch string(w) {
		case "MUST", "SHALL", "SHOULD":
			if string(next) == "NOT" {
				return notLevel[string(w)]
			}
			return keywordLevel[string(w)]
		case "NOT":
			if string(next) == "RECOMMENDED" {
				return LevelShouldNot
			}
		case "RECOMMENDED", "REQUIRED", "MAY", "OPTIONAL":
			return keywordLevel[string(w)]
		}
		i += max(len(w), 1)
	}
	return ""
}

// notLevel is keywordLevel of "MUST NOT", "SHALL NOT" and "SHOULD NOT",
// by their first word.
var notLevel = map[string]string{"MUST": keywordLevel["MUST NOT"], "SHALL": keywordLevel["SHALL NOT"], "SHOULD": keywordLevel["SHOULD NOT"]}

// wordAt returns the upper-case word starting at i, or nil when the run
// of capitals is followed by another word character (it is part of a word
// such as "MUSTARD" or "MAY_BE").
func wordAt(b []byte, i int) []byte {
	j := i
	for j < len(b) && b[j] >= 'A' && b[j] <= 'Z' {
		j++
	}
	if j == i || (j < len(b) && isWordByte(b[j])) {
		return nil
	}
	return b[i:j]
}

// isWordByte matches the regexp \w class, so boundaries work like \b.
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// textOf reduces a heading, paragraph or text block to plain text.
func textOf(s *source, n ast.Node) string {
	var f flat
	f.inline(s, n, false)
	return f.String()
}
