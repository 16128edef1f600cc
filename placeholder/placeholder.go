// Package placeholder finds a template's placeholders left in a file
// written from it ("[what was completed]", "{name}", a placeholder's words
// alone on a line), read through what hides them from a reader (another
// encoding, zero-width and fullwidth characters). It needs no session: the
// no_placeholders gate and the written-evidence rule (session/) hand it a
// file's text and the protocol's placeholders.
package placeholder

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/textfold"
)

// MaxScan bounds how much of a file's text is scanned for placeholders,
// white space padding squeezed (ReadScanned).
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

// Scanned is a file's text as the no_placeholders and has_section checks
// read it: white space padding squeezed (ReadScanned), and the line of
// the file each of its lines came from.
type Scanned struct {
	Text  string
	lines []int
}

// Line is the file's line number of line n (1-based) of Text.
func (s Scanned) Line(n int) int {
	if n >= 1 && n <= len(s.lines) {
		return s.lines[n-1]
	}
	return n
}

// ReadScanned reads the file at path whole (up to boundedread.DefaultLimit,
// UTF-16 decoded as ReadHead does) with its white space padding squeezed:
// blank lines (white space only) at most two in a row, and a run of more
// than 16 spaces or tabs made 16. A template's placeholders put after a
// megabyte of blank lines were past MaxScan and never read, so the file
// counted as filled (round 30). A file whose squeezed text is still over
// MaxScan, or over the read limit, is not scanned: the error wraps
// boundedread.ErrTooLarge, and the caller counts the file as no evidence.
func ReadScanned(path string) (Scanned, error) {
	f, err := boundedread.Open(path)
	if err != nil {
		return Scanned{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, boundedread.DefaultLimit+1))
	if err != nil {
		return Scanned{}, err
	}
	if len(b) > boundedread.DefaultLimit {
		return Scanned{}, fmt.Errorf("over %d bytes: %w", boundedread.DefaultLimit, boundedread.ErrTooLarge)
	}
	s := squeeze(string(textfold.Decode(b)))
	if len(s.Text) > MaxScan {
		return Scanned{}, fmt.Errorf("%d bytes besides white space padding, over the %d scanned: %w", len(s.Text), MaxScan, boundedread.ErrTooLarge)
	}
	return s, nil
}

// maxRun is the longest run of spaces and tabs squeeze keeps.
const maxRun = 16

func squeeze(text string) Scanned {
	var out strings.Builder
	var lines []int
	blank, n := 0, 0
	for l := range strings.Lines(text) {
		n++
		l = strings.TrimRight(l, "\r\n")
		if strings.TrimSpace(l) == "" {
			if blank++; blank > 2 {
				continue
			}
			l = ""
		} else {
			blank = 0
			l = squeezeRuns(strings.TrimRight(l, " \t"))
		}
		if out.Len()+len(l) > MaxScan+1 {
			// Over the cap already: the caller refuses it; stop copying.
			out.WriteString(l)
			break
		}
		out.WriteString(l)
		out.WriteByte('\n')
		lines = append(lines, n)
	}
	return Scanned{Text: out.String(), lines: lines}
}

// squeezeRuns makes each run of more than maxRun spaces and tabs maxRun
// spaces.
func squeezeRuns(l string) string {
	if !strings.Contains(l, strings.Repeat(" ", maxRun+1)) && !strings.Contains(l, "\t") {
		return l
	}
	var b strings.Builder
	run := 0
	for _, r := range l {
		if r == ' ' || r == '\t' {
			if run++; run > maxRun {
				continue
			}
		} else {
			run = 0
		}
		b.WriteRune(r)
	}
	return b.String()
}
