// Package placeholder finds a template's placeholders left in a file
// written from it ("[what was completed]", "{name}", a placeholder's words
// alone on a line), read through what hides them from a reader (another
// encoding, zero-width and fullwidth characters). It needs no session: the
// no_placeholders gate and the written-evidence rule (session/) hand it a
// file's text and the protocol's placeholders.
package placeholder

import (
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/textfold"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// MaxScan bounds how much of a file is read for placeholders.
const MaxScan = 1 << 20

var bracePlaceholderRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\{[A-Za-z][A-Za-z0-9 _.\-]{0,60}\}`)
})

// Find returns the distinct placeholders left in text and the
// line of the first one. Text and placeholders are compared folded
// (textfold.Fold): a zero-width space, a no-break space, a byte-order mark,
// fullwidth brackets or another case inside "[what was completed]" hid it
// from the lazy agent's handoff check (TestAdvHandoffPlaceholderDisguised).
// A placeholder's words alone on a line (of two words or more), whatever
// surrounds them (other brackets, an HTML comment, a list marker), are the
// placeholder too.
func Find(text string, literal []string) ([]string, int) {
	folded := textfold.Fold(text)
	first, line := -1, 0
	var found []string
	note := func(p string, at int) {
		found = append(found, p)
		if first < 0 || at < first {
			first = at
		}
	}
	if len(literal) == 0 {
		seen := map[string]bool{}
		for _, loc := range bracePlaceholderRE().FindAllStringIndex(folded, -1) {
			if p := folded[loc[0]:loc[1]]; !seen[p] {
				seen[p] = true
				note(p, loc[0])
			}
		}
	}
	var raw, bare []string // folded lines and their words, for words standing alone
	for _, p := range literal {
		fp, at := textfold.Fold(p), -1
		for off := 0; off < len(folded); {
			i := strings.Index(folded[off:], fp)
			if i < 0 {
				break
			}
			i += off
			off = i + len(fp)
			// "[session log](../sessions/x.md)" fills the placeholder
			// with a link: its text stays, the target is the filling.
			if strings.HasPrefix(fp, "[") && off < len(folded) && (folded[off] == '(' || folded[off] == '[') {
				continue
			}
			at = i
			break
		}
		if words := textfold.Bare(p); at < 0 && strings.Count(words, " ") >= 1 {
			if raw == nil {
				raw = strings.Split(folded, "\n")
				bare = make([]string, len(raw))
				for i, l := range raw {
					bare[i] = textfold.Bare(l)
				}
			}
			n := 0
			for i, l := range bare {
				if l == words && !sectionSaysMore(raw, bare, i, literal) {
					at = n
					break
				}
				n += len(raw[i]) + 1
			}
		}
		if at >= 0 {
			note(p, at)
		}
	}
	if first >= 0 {
		line = strings.Count(folded[:first], "\n") + 1
	}
	return found, line
}

// sectionSaysMore reports whether the section around line i (from the
// heading above it to the next) holds a line other than placeholder words:
// a hint kept as a comment above what was written is not a placeholder left.
func sectionSaysMore(raw, bare []string, i int, literal []string) bool {
	for _, dir := range []int{-1, 1} {
		for j := i + dir; j >= 0 && j < len(raw); j += dir {
			if strings.HasPrefix(strings.TrimSpace(raw[j]), "#") || boldLabelRE().MatchString(raw[j]) {
				break
			}
			if bare[j] == "" || slices.ContainsFunc(literal, func(p string) bool { return textfold.Bare(p) == bare[j] }) {
				continue
			}
			return true
		}
	}
	return false
}

// boldLabelRE matches a line that is only a bold label ("**What was
// done**:"): templates put one placeholder under each, so it bounds a block
// as a heading does (the label is the template's, not something written).
var boldLabelRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:[-*+]\s+)?\*\*[^*]+\*\*\s*:?\s*$|^\s*(?:[-*+]\s+)?\*\*[^*]+:\*\*\s*$`)
})

// ReadHead reads up to max bytes of a file as UTF-8 text (UTF-16 decoded:
// textfold.Decode), so a template left in another encoding is still read.
func ReadHead(path string, max int64) ([]byte, error) {
	f, err := boundedread.Open(path) // a FIFO as the handoff is refused, not waited on
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max))
	if err != nil {
		return nil, err
	}
	return textfold.Decode(b), nil
}
