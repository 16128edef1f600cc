// Package ownwords counts the words of a text its writer brought: the
// words of its prose that none of the texts it may have been made from
// holds (a protocol's template, the commit subjects `git log` prints, the
// session's objective, the file as it was). A handoff made by `sed` from
// the template and `git log` ("Done: the commit subjects; Next: continue
// the work") has next to none; an honest one names files, reasons and
// the next step in words of its own.
//
// It is a reviewer's flag, never a gate: a short honest handoff can be
// made of the commit's own words, and a lazy one can add three words. It
// needs no session.
package ownwords

import (
	"strings"
	"unicode"

	"github.com/sessiongate/sessiongate/internal/textfold"
)

// Words are letter runs of three or more letters, folded (textfold: case,
// look-alikes, invisible characters) and with a plural or third-person
// "s" taken off, so "names" is the subject's "name". A run of letters and
// digits with a digit in it is no word (an id, a hash, a date, a session
// number: nobody's words), so `3f9a2c1` does not count as `f`, `a`, `c`.
func words(s string, each func(string)) {
	s = textfold.Fold(s)
	start, digit := -1, false
	flush := func(end int) {
		if start >= 0 && !digit && end-start >= 3 {
			w := s[start:end]
			if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
				w = w[:len(w)-1]
			}
			each(w)
		}
		start, digit = -1, false
	}
	for i, r := range s {
		l, d := unicode.IsLetter(r), unicode.IsDigit(r)
		if l || d {
			if start < 0 {
				start = i
			}
			digit = digit || d
			continue
		}
		flush(i)
	}
	flush(len(s))
}

// Known is the set of words of the texts a file may have been made from.
type Known map[string]bool

// NewKnown gathers the words of texts.
func NewKnown(texts ...string) Known {
	k := Known{}
	for _, t := range texts {
		k.Add(t)
	}
	return k
}

// Add adds the words of t.
func (k Known) Add(t string) {
	words(t, func(w string) { k[w] = true })
}

// Own returns the distinct words of text's prose that k does not hold, in
// the order they first appear. Headings and table separators are the
// template's shape, not prose, and are not read; code spans and fences
// are (a path or command the writer names is theirs).
func (k Known) Own(text string) []string {
	var out []string
	seen := map[string]bool{}
	for line := range strings.SplitSeq(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#") || strings.Trim(t, "|-: ") == "" {
			continue
		}
		words(t, func(w string) {
			if !k[w] && !generic[w] && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		})
	}
	return out
}

// Few is fewer own words than an honest handoff holds: none. A short
// honest handoff is made mostly of its commit's words ("scripts/greet.sh
// takes an optional name; next: document it in the README" has two of its
// own), so only a file with no word of its own is flagged: "nothing the
// agent wrote". On the real session logs measured (docs/security.md,
// "Reviewer flags") the files with none were unfilled templates.
const Few = 1

// generic are words that name no work: "Continue the work on the
// objective", "Finish the remaining tasks". They are nobody's own.
var generic = map[string]bool{
	"continue": true, "continued": true, "continuing": true, "work": true, "working": true, "objective": true,
	"task": true, "next": true, "step": true, "session": true, "done": true, "complete": true, "completed": true,
	"finish": true, "finished": true, "remaining": true, "remain": true, "pending": true, "progres": true,
	"follow": true, "further": true, "more": true, "same": true, "current": true, "todo": true, "tbd": true,
	// "Next: None." after the objective pasted as Done was a word of its
	// own, and the handoff ended clean (issue 25, sixth pass).
	"none": true, "nothing": true, "nil": true,
}
