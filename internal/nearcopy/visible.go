package nearcopy

import (
	"regexp"
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
