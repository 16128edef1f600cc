package docmention

import (
	"html"
	"path"
	"strings"
	"unicode"
)

// Near is how many lines from a mention of a name a changed doc line may
// be and still address it: the sentence or table row around a flag's line.
const Near = 3

// lcsCap bounds the line-diff table (lines before x lines after, once
// common head and tail are trimmed); past it every line between is taken
// as changed.
const lcsCap = 2_000_000

// Addressed reports whether a doc's change (before -> after) addresses a
// name the session touched: it adds or removes a line that mentions the
// name, or changes a line within Near lines of a mention. What a reader
// does not see is no change: whitespace, blank lines, comments (<!-- -->,
// an .rst `..` comment, an AsciiDoc `//` line). A doc deleted whole
// removes its mentions.
func Addressed(n Name, doc string, before, after []byte) bool {
	a, b := readLines(doc, string(before)), readLines(doc, string(after))
	ca, cb := changedLines(a, b)
	for _, side := range []struct {
		lines   []line
		changed []int
	}{{a, ca}, {b, cb}} {
		var at []int // orig line numbers that mention the name
		for _, l := range side.lines {
			if mentions(n, l.text) {
				at = append(at, l.at)
			}
		}
		for _, i := range side.changed {
			l := side.lines[i]
			if mentions(n, l.text) {
				return true
			}
			for _, m := range at {
				if d := m - l.at; d <= Near && d >= -Near {
					return true
				}
			}
		}
	}
	return false
}

func mentions(n Name, s string) bool {
	if n.Kind == KindFlag {
		return word(s, n.Text) || word(s, n.Text[1:])
	}
	return word(s, n.Text)
}

// line is a doc line as a reader sees it (comments out, spaces collapsed),
// its key (the text without invisible characters: a zero-width space is
// no change) and its line number. Punctuation and case are kept: "prints
// HELLO." -> "prints HELLO!" is the honest update of a flag whose output
// gained the mark.
type line struct {
	text, key string
	at        int
}

func lineKey(t string) string {
	return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, t)), " ")
}

// readLines returns the lines a reader sees; blank ones are left out, so
// adding or removing one changes nothing.
func readLines(doc, body string) []line {
	ext := strings.ToLower(path.Ext(doc))
	var out []line
	inComment, block, hidden := false, false, ""
	var classes map[string]bool
	if ext != ".rst" && ext != ".adoc" && ext != ".asciidoc" && ext != ".txt" {
		classes = docHiddenClasses(body)
	}
	for i, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		switch ext {
		case ".rst":
			// A comment: `.. text` that is no directive (`.. note::`) and no
			// link target (`.. _name:`); its indented body is not followed.
			if strings.HasPrefix(t, "..") && !strings.Contains(t, "::") && !strings.HasPrefix(t, ".. _") {
				t = ""
			}
		case ".adoc", ".asciidoc":
			if t == "////" {
				block = !block
				t = ""
			}
			if block || strings.HasPrefix(t, "//") {
				t = ""
			}
		case ".txt":
		default: // markdown: HTML comments, the `[//]: # (...)` idiom, MDX {/* */}
			t, inComment = stripHTMLComments(t, inComment)
			t, hidden = stripHiddenHTML(t, hidden, classes)
			t = stripEmptyElements(t)
			if onlyEmptyHTML(strings.TrimSpace(t)) {
				t = ""
			}
			if commentLinkDef(t) {
				t = ""
			}
			if strings.HasPrefix(t, "{/*") && strings.HasSuffix(t, "*/}") {
				t = ""
			}
		}
		t = strings.Join(strings.Fields(t), " ")
		key := lineKey(t)
		if ext != ".rst" && ext != ".adoc" && ext != ".asciidoc" && ext != ".txt" {
			// Markdown renders an entity of an invisible character
			// (&#8203;, &zwj;, &shy;) as nothing: compare what is shown.
			key = lineKey(html.UnescapeString(t))
		}
		if key != "" {
			out = append(out, line{text: t, key: key, at: i + 1})
		}
	}
	return out
}

// commentLinkDef reports whether a markdown line is a link reference
// definition used as a comment: its target is "#" or "<>" ([//]: # (x),
// [comment]: <> (x), [_]: # "x"). No link uses it and nothing of it is
// shown; a definition with a real target is left as a line.
func commentLinkDef(t string) bool {
	if !strings.HasPrefix(t, "[") {
		return false
	}
	j := strings.Index(t, "]:")
	if j < 0 {
		return false
	}
	dest := strings.TrimSpace(t[j+2:])
	for _, d := range []string{"#", "<>"} {
		if dest == d || strings.HasPrefix(dest, d+" ") || strings.HasPrefix(dest, d+"\t") {
			return true
		}
	}
	return false
}

// stripHTMLComments removes <!-- ... --> from a line, carrying an open
// comment to the next line.
func stripHTMLComments(t string, in bool) (string, bool) {
	var b strings.Builder
	for t != "" {
		if in {
			j := strings.Index(t, "-->")
			if j < 0 {
				return b.String(), true
			}
			t, in = t[j+3:], false
			continue
		}
		j := strings.Index(t, "<!--")
		if j < 0 {
			b.WriteString(t)
			break
		}
		b.WriteString(t[:j])
		t, in = t[j+4:], true
	}
	return b.String(), in
}

// changedLines returns the indexes of a's lines the change removed and
// b's lines it added (a longest common subsequence of the texts is kept).
func changedLines(a, b []line) (ra, rb []int) {
	lo := 0
	for lo < len(a) && lo < len(b) && a[lo].key == b[lo].key {
		lo++
	}
	ha, hb := len(a), len(b)
	for ha > lo && hb > lo && a[ha-1].key == b[hb-1].key {
		ha--
		hb--
	}
	n, m := ha-lo, hb-lo
	if n == 0 || m == 0 || n*m > lcsCap {
		for i := lo; i < ha; i++ {
			ra = append(ra, i)
		}
		for j := lo; j < hb; j++ {
			rb = append(rb, j)
		}
		return ra, rb
	}
	// t[i][j]: LCS length of a[lo+i:ha] and b[lo+j:hb].
	t := make([]int32, (n+1)*(m+1))
	at := func(i, j int) *int32 { return &t[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[lo+i].key == b[lo+j].key {
				*at(i, j) = *at(i+1, j+1) + 1
			} else {
				*at(i, j) = max(*at(i+1, j), *at(i, j+1))
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[lo+i].key == b[lo+j].key:
			i++
			j++
		case *at(i+1, j) >= *at(i, j+1):
			ra = append(ra, lo+i)
			i++
		default:
			rb = append(rb, lo+j)
			j++
		}
	}
	for ; i < n; i++ {
		ra = append(ra, lo+i)
	}
	for ; j < m; j++ {
		rb = append(rb, lo+j)
	}
	return ra, rb
}
