// Package mdtext says what a reader of a Markdown file sees of it.
//
// A file the protocol asks the agent to write (a handoff, a session log)
// is judged on what it says. Text a Markdown renderer never shows is not
// said: lazy pass 39 put every word of a handoff in HTML comments, or in
// link reference definitions used as comments (`[//]: # (text)`), and the
// file read as empty headings while the own-words and names-the-work rules
// counted the hidden words. Round 39's re-check hid them in other ways a
// renderer drops (script and style elements, an element marked hidden,
// processing instructions, CDATA, link titles); and a `<!--` in a code
// span, which a renderer shows, hid an honest handoff's rest.
package mdtext

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// linkDefRE: a link reference definition (CommonMark 4.7: up to three
// spaces of indent, a label, a colon, a destination, an optional title),
// which renders as nothing; titleLineRE: its title alone on the next line.
var (
	linkDefRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}\[[^\]]+\]:[ \t]*\S`) })
	titleLineRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[ \t]*(?:"[^"]*"|'[^']*'|\([^)]*\))[ \t]*$`)
	})
	fenceRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^ {0,3}(```+|~~~+)") })
	// hiddenHTMLRE: inline HTML a renderer shows nothing of (a script,
	// style or template element, an element marked hidden or display:none,
	// a processing instruction, CDATA), and an inline link's title.
	hiddenHTMLRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)<(script|style|template)\b[^>]*>.*?</(?:script|style|template)\s*>` +
			`|<\?.*?\?>|<!\[CDATA\[.*?\]\]>`)
	})
	// hiddenOpenRE: the opening tag of an element marked hidden, whose
	// content runs to its own closing tag (hideElements), not the first
	// closing tag (`<div hidden><b></b>words</div>`: pass 42's H17).
	hiddenOpenRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)<([a-z][a-z0-9]*)\b[^>]*?(?:\bhidden\b|display\s*:\s*none|visibility\s*:\s*hidden)[^>]*>`)
	})
	// attrValueRE: an HTML tag's quoted attribute values, which a reader
	// never sees as text (`<span data-done="...">`: pass 42's H4).
	attrValueRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)<[a-z][a-z0-9]*(?:\s+[a-z_:][\w:.-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>]+))?)+\s*/?>`)
	})
	linkTitleRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(\]\([^)\s]*)\s+(?:"[^"]*"|'[^']*'|\([^)]*\))\s*\)`)
	})
)

// Shown is text without what a Markdown renderer does not show: HTML
// comments (an HTML block's, opened at a line's start and left open, hides
// the rest of the file), link reference definitions, script and style
// elements, elements marked hidden, processing instructions, CDATA and
// inline links' titles. Fenced code is shown as written. Lines keep their
// places: what is removed leaves its line breaks.
func Shown(text string) string {
	text = HidePhantoms(text)
	if !strings.ContainsAny(text, "<]") {
		return text
	}
	lines := strings.Split(text, "\n")
	inComment, fence, defBefore := false, "", false
	for i, l := range lines {
		if fence != "" {
			if strings.HasPrefix(strings.TrimSpace(l), fence) {
				fence = ""
			}
			continue
		}
		if !inComment {
			if m := fenceRE().FindStringSubmatch(l); m != nil {
				fence = m[1][:3]
				defBefore = false
				continue
			}
			if linkDefRE().MatchString(l) {
				lines[i], defBefore = "", true
				continue
			}
			if defBefore && titleLineRE().MatchString(l) {
				lines[i], defBefore = "", false
				continue
			}
			defBefore = false
		}
		closes := func() bool { // a `-->` before the paragraph ends
			for _, n := range lines[i+1:] {
				if strings.TrimSpace(n) == "" {
					return false
				}
				if strings.Contains(n, "-->") {
					return true
				}
			}
			return false
		}
		lines[i], inComment = stripComments(l, inComment, closes)
	}
	out := strings.Join(lines, "\n")
	out = hiddenHTMLRE().ReplaceAllStringFunc(out, keepBreaks)
	out = hideElements(out)
	out = attrValueRE().ReplaceAllStringFunc(out, func(m string) string {
		if !strings.Contains(m, "=") {
			return m // `<what was completed>`: a template's placeholder, not a tag
		}
		return keepBreaks(m)
	})
	return linkTitleRE().ReplaceAllString(out, "$1)")
}

// hideElements drops each element marked hidden with all it holds, up to
// the closing tag that matches its opening (elements of the same name
// nested inside counted); one never closed hides the rest of the text.
func hideElements(s string) string {
	var b strings.Builder
	tags := map[string]*regexp.Regexp{} // an element's open and close tags, by name
	for {
		m := hiddenOpenRE().FindStringSubmatchIndex(s)
		if m == nil {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:m[0]])
		name := strings.ToLower(s[m[2]:m[3]])
		end := len(s)
		if voidElement[name] || strings.HasSuffix(s[m[0]:m[1]], "/>") {
			end = m[1]
		} else {
			tag := tags[name]
			if tag == nil {
				tag = regexp.MustCompile(`(?i)<(/?)` + regexp.QuoteMeta(name) + `\b[^>]*>`)
				tags[name] = tag
			}
			// Tag by tag up to the matching close, not every tag of the
			// rest: many hidden elements would read the text many times.
			for depth, at := 1, m[1]; depth > 0; {
				t := tag.FindStringSubmatchIndex(s[at:])
				if t == nil {
					break
				}
				if t[3] > t[2] {
					depth--
				} else {
					depth++
				}
				at += t[1]
				if depth == 0 {
					end = at
				}
			}
		}
		b.WriteString(keepBreaks(s[m[0]:end]))
		s = s[end:]
	}
}

// phantomRE opens TeX's invisible boxes: \phantom, \hphantom and
// \vphantom take the room of their argument and show none of it.
var phantomRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\\[hv]?phantom\s*\{`) })

// HidePhantoms drops each TeX \phantom{...} with its argument (braces
// matched): math a renderer draws as blank space (lazy pass 42, H20: a
// handoff's words in `$\phantom{\text{...}}$` rendered as nothing on
// GitHub). Line breaks inside are kept.
func HidePhantoms(s string) string {
	if !strings.Contains(s, "phantom") {
		return s
	}
	var b strings.Builder
	for {
		m := phantomRE().FindStringIndex(s)
		if m == nil {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:m[0]])
		end, depth := len(s), 1
		for i := m[1]; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++ // an escaped brace does not count
			case '{':
				depth++
			case '}':
				if depth--; depth == 0 {
					end = i + 1
				}
			}
			if depth == 0 {
				break
			}
		}
		b.WriteString(keepBreaks(s[m[0]:end]))
		s = s[end:]
	}
}

// voidElement: HTML elements with no content or closing tag.
var voidElement = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

func keepBreaks(m string) string { return strings.Repeat("\n", strings.Count(m, "\n")) }

// stripComments drops the HTML comments of one line, outside code spans;
// in says a comment is open from an earlier line. A `<!--` not closed on
// its line is a comment at the line's start (an HTML block, to its
// `-->` or the file's end) or when closes says a later line of its
// paragraph closes it; elsewhere a renderer shows it as text.
func stripComments(l string, in bool, closes func() bool) (string, bool) {
	var b strings.Builder
	rest := l
	if in {
		end := strings.Index(rest, "-->")
		if end < 0 {
			return "", true
		}
		rest = rest[end+3:]
	}
	for {
		start := commentStart(rest)
		if start < 0 {
			b.WriteString(rest)
			return b.String(), false
		}
		b.WriteString(rest[:start])
		end := strings.Index(rest[start+4:], "-->")
		if end >= 0 {
			rest = rest[start+4+end+3:]
			continue
		}
		if strings.TrimSpace(b.String()) == "" && strings.HasPrefix(strings.TrimLeft(l, " "), "<!--") || closes() {
			return b.String(), true // an HTML block, or a comment its paragraph closes
		}
		b.WriteString(rest[start:])
		return b.String(), false
	}
}

// commentStart is the index of the first `<!--` of s outside a code span,
// -1 when none.
func commentStart(s string) int {
	tick := 0 // the length of the backtick run that opened a code span
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			n := 1
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			switch {
			case tick == 0 && strings.Contains(s[i+n:], strings.Repeat("`", n)):
				tick = n
			case tick == n:
				tick = 0
			}
			i += n - 1
			continue
		}
		if tick == 0 && strings.HasPrefix(s[i:], "<!--") {
			return i
		}
	}
	return -1
}

// IsMarkdown reports whether a file's name says Markdown.
func IsMarkdown(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".mdx":
		return true
	}
	return false
}

// ShownIn is Shown for a Markdown file, text as it is for any other.
func ShownIn(name, text string) string {
	if IsMarkdown(name) {
		return Shown(text)
	}
	return text
}
