// Package mdtext says what a reader of a Markdown file sees of it.
//
// A file the protocol asks the agent to write (a handoff, a session log)
// is judged on what it says. Text a Markdown renderer never shows is not
// said: lazy pass 39 put every word of a handoff in HTML comments, or in
// link reference definitions used as comments (`[//]: # (text)`), and the
// file read as empty headings while the own-words and names-the-work rules
// counted the hidden words.
package mdtext

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// hiddenRE: an HTML comment (across lines), and a link reference
// definition's whole line (CommonMark 4.7: up to three spaces of indent, a
// label, a colon, a destination, an optional title), which renders as
// nothing.
var hiddenRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)<!--.*?(?:-->|$)|(?m)^ {0,3}\[[^\]\n]+\]:[ \t]*\S[^\n]*$`)
})

// Shown is text without what a Markdown renderer does not show: HTML
// comments (one left open hides the rest of the file) and link reference
// definitions. Lines keep their places: a removed definition leaves an
// empty line, so line numbers still point into the file.
func Shown(text string) string {
	if !strings.Contains(text, "<!--") && !strings.Contains(text, "]:") {
		return text
	}
	return hiddenRE().ReplaceAllStringFunc(text, func(m string) string {
		return strings.Repeat("\n", strings.Count(m, "\n"))
	})
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
