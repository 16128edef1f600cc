package claimtext

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// A session that changed no code and claims its objective done is caught
// in a Done section (DoneSections); helper 349 put the claim under a
// heading of its own making ("## Status") and the session ended COMPLETE,
// clean, verify OK. Reading every section as Done fails honest context
// ("The greet script prints hello; the name argument is still missing"),
// so Sections tells the kinds apart: Done, a status report (read as Done
// but for what code does), what lies ahead or was asked (never a claim
// of this session's work), and the rest, where only a sentence in the
// session's own voice claims (inferredcheck.ClaimedNoWork).

// Kind is what a handoff's section reports.
type Kind int

const (
	// Other is a section of context or notes, and the text before the
	// first section (the title with it).
	Other Kind = iota
	// Done asks what was done (doneHeadingRE).
	Done
	// Status reports the session's state or result under a heading of
	// the agent's own words ("Status", "Verdict", "Deliverables").
	Status
	// Ahead is what is next or planned: a claim there is read only in
	// the session's own voice ("## Next\n\nNone: implemented it").
	Ahead
	// Given is what was asked or came before this session (Objective,
	// Acceptance criteria, Previous session): no claim of its work.
	Given
)

// Section is one section of a handoff, fenced code left out (a fence of
// sentences only is read: prosefence.go).
type Section struct {
	Heading string // as written; "" for the text before the first heading
	Kind    Kind
	Body    string
	Line    int // the line the body starts on
}

// statusHeadingRE is a heading that reports the session's state or
// result. "Git Status" and "Current State" describe the repository, not
// the session's work, so a status word must open the heading (after an
// ordinal and a session/overall/final/implementation qualifier).
var statusHeadingRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:[\d.]+\s*)?(?:(?:session|overall|final|current|task|work|implementation|objective|feature)\s+)?(?:status|verdict|conclusions?|resolution|completion|deliverables?|delivered|shipped|highlights|tl;?\s*dr|recap|wrap[- ]?up|achievements?|updates?)\b`)
})

// aheadHeadingRE is a heading of what lies ahead (Next, TODO, Blockers,
// open questions).
var aheadHeadingRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:next|todo|to[ -]do|remaining|open|blockers?|blocked|risks?|questions?|follow[- ]?ups?|plans?|planned|backlog|ideas?|future|later|propos\w*|recommend\w*|suggest\w*)\b`)
})

// givenHeadingRE is a heading of what was asked (Objective, Task,
// Acceptance criteria) or came before this session (Previous session,
// Background): a claim there is not this session's.
var givenHeadingRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:objectives?|tasks?|goals?|scope|requirements?|acceptance|criteria|definition|previous|prior|earlier|history|background|original|roadmap)\b`)
})

// HeadingKind is the kind of section a heading opens.
func HeadingKind(heading string) Kind {
	// "🎉 Shipped" opens with its word.
	h := strings.TrimLeftFunc(rendered(heading), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	switch {
	case doneHeadingRE().MatchString(h):
		return Done
	case statusHeadingRE().MatchString(h):
		return Status
	case aheadHeadingRE().MatchString(h):
		return Ahead
	case givenHeadingRE().MatchString(h):
		return Given
	}
	return Other
}

// Sections splits a handoff at its "##" (and deeper) headings. A deeper
// heading inside a Done, Status, Ahead or Given section continues it, as in
// DoneSections; inside Other it opens a section of its own kind. A "# "
// title and the text before the first section are Other.
func Sections(text string) []Section {
	out := []Section{{Kind: Other, Line: 1}}
	var fb fence
	level := 0 // the open section's heading level
	for i, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if in, prose := fb.line(l); in {
			if len(prose) > 0 {
				// Sentences in a fence are read as text (prosefence.go).
				out[len(out)-1].Body += strings.Join(prose, "\n") + "\n"
			}
			continue
		}
		cur := &out[len(out)-1]
		if strings.HasPrefix(t, "#") {
			n := len(t) - len(strings.TrimLeft(t, "#"))
			h := strings.TrimSpace(strings.TrimLeft(t, "#"))
			if n >= 2 && cur.Kind != Other && n > level {
				cur.Body += h + "\n" // a subsection's heading is read as its text
				continue
			}
			if n >= 2 {
				out = append(out, Section{Heading: h, Kind: HeadingKind(h), Line: i + 2})
				level = n
				continue
			}
			if n == 1 && strings.HasPrefix(t, "# ") {
				// The title is read as text: "# Name argument implemented"
				// claims as a sentence does.
				out = append(out, Section{Kind: Other, Line: i + 1, Body: h + "\n"})
				level = 1
				continue
			}
		}
		cur.Body += l + "\n"
	}
	return out
}
