package nearcopy

import (
	"regexp"
	"strings"
	"sync"
)

// commentRE is an HTML comment; one never closed runs to the end, as a
// Markdown renderer hides it.
var commentRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<!--.*?(?:-->|$)`) })

// Visible is text without what a reader of the rendered Markdown does not
// see: HTML comments. An earlier session's handoff renumbered and followed
// by a comment as long as it (a pasted licence, lorem ipsum) made the copy
// less than half of the file's shingles and passed as new work (round 17,
// issue 25 item 4); judged on what a reader sees, it is the copy it is.
func Visible(text string) string {
	return commentRE().ReplaceAllString(text, " ")
}

// Prose is text without its fenced blocks (``` or ~~~ fences; one never
// closed runs to the end): what the writer wrote in sentences, not output
// or lists pasted between fences.
func Prose(text string) string {
	var b strings.Builder
	fence := ""
	for _, l := range strings.SplitAfter(text, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")):
			fence = t[:3]
		case fence != "" && strings.HasPrefix(t, fence):
			fence = ""
		case fence == "":
			b.WriteString(l)
		}
	}
	return b.String()
}

// proseCopyOf: t's prose (fenced blocks set aside) holds most of o, and
// o is most of t's prose. The earlier handoff renumbered and followed by
// a fenced block of pasted text as long as it (lorem ipsum, a dependency
// list) made the copy less than half of the file (round 17); an honest
// file says in its prose what its fences show.
func (t *Text) proseCopyOf(o *Text) bool {
	if !strings.Contains(t.raw, "```") && !strings.Contains(t.raw, "~~~") {
		return false
	}
	p := New(Prose(t.raw))
	contained, share := p.overlap(o)
	return contained >= Contained && share >= Share
}
