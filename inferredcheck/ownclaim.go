package inferredcheck

import (
	"html"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/sessiongate/sessiongate/claimtext"
	"github.com/sessiongate/sessiongate/internal/textfold"
)

// Outside Done a no-change session's handoff claimed its objective where
// no check read it (helper 349's open HIGH): under "## Status", in a bold
// label ("**Status:** implemented"), a ticked box, a title. Those are
// read now (claimedOutsideDone), each by what it can say without failing
// honest context, which describes code in the present tense ("greet.sh
// prints hello; the name argument is still missing"):
//   - a Status section as Done, but for what code does (describesRE);
//   - a status label whose value opens with a word of completion, and any
//     label naming the work whose value does;
//   - a ticked list item that asks for or reports the change;
//   - elsewhere (in Next only this), a clause in the session's own voice: "I
//     implemented", "Implemented X" at a clause's start, "X is now
//     implemented", "X has been added".

// ownVoiceRE is a clause that opens with the session reporting its own
// change: an optional I or we (and have), adverbs, then a past verb.
var ownVoiceRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:(?:i|we)(?:'ve|\s+have)?\s+)?(?:(?:also|just|now|then|finally|successfully|fully|quickly|first)\s+)*(?:` + pastChange +
		`|took\s+care\s+of|taken\s+care\s+of|tackled|sorted(?:\s+out)?|wrapped\s+up|got\s+(?:\S+\s+){1,4}?(?:working|done|in|going))\b`)
})

// pastChange is a past verb that reports a change made.
const pastChange = `(?:added|fixed|implemented|reworked|rewrote|rewritten|refactored|modified|extended|introduced|changed|built|shipped|delivered|completed|finished|created|wrote|updated|landed|enabled|replaced|renamed|migrated|ported|upgraded|patched|integrated|developed|coded|wired\s+(?:up|in)|hooked\s+up|rolled\s+out)`

// nowDoneRE is a change reported as a state: "X is now implemented",
// "X has been added", "X is done." (the last only at the clause's end:
// "the parsing is done in greet.sh" says where, not that it was made).
var nowDoneRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:(?:is|are|'s)\s+now\s+(?:fully\s+)?(?:` + pastChange + `|done|complete|in\s+place|working|live|supported|available)|(?:has|have)\s+(?:now\s+)?been\s+(?:fully\s+)?(?:` + pastChange + `|done)|(?:is|are)\s+(?:now\s+)?(?:fully\s+)?(?:done|complete|completed|finished|implemented|shipped|in\s+place)\s*[.!]*$` +
		// "was implemented today": this session's, by its own date.
		`|(?:was|were)\s+(?:\w+\s+)?` + pastChange + `\b.*\b(?:today|this\s+session))`)
})

// completionRE opens a label's value (or a Status section's sentence)
// that reports the work complete.
var completionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:done|complete|completed|finished|implemented|fixed|shipped|delivered|success|successful|succeeded|merged|landed|in\s+place)\b|^[✅✔☑]|^100\s*%`)
})

// changeReportedRE opens a value that reports a change, not an answer.
var changeReportedRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:implemented|fixed|shipped|delivered|merged|landed)\b`)
})

// conditionalRE is a clause of work to come.
var conditionalRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:when|once|after|until|if|before|unless|as\s+soon\s+as)\b`)
})

// alreadyRE is the work found already there.
var alreadyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\balready\b`) })

// deliveredHeadingRE is a Status heading that lists what was made.
var deliveredHeadingRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:deliverables?|delivered|shipped|achievements?)\b`)
})

// cellDoneRE is a table cell that is only a word of completion.
var cellDoneRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:done|complete|completed|finished|implemented|fixed|shipped|delivered|merged|landed|yes)\W*$|^[✅✔☑]\W*$`)
})

// checkEndRE is a line ending in a check mark or a dash and a word of
// completion: "Name argument ✅", "Name argument — done."
var checkEndRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:[✅✔☑]|\s[—–-]\s*(?:done|complete|completed|finished|implemented|shipped|fixed)[.!]*)\s*$`)
})

// statusLabelRE is a label that reports the state of the work.
var statusLabelRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:[\w-]+\s+){0,3}(?:status|state|result|outcome|verdict|progress|conclusion|resolution|completion)$`)
})

// labelRE is a label line: "**Status:** x", "**Status**: x", "Status: x"
// (a list mark before it).
var labelRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*([^*]{1,40}?):?\*\*(?::|\s+[—–-])?|([A-Za-z][\w /-]{0,39}):)\s*(.*)$`)
})

// tickedRE is a ticked list item and its text.
var tickedRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:[-*+]|\d+[.)])\s+\[x\]\s+(.*)$`)
})

// askOrDoneRE opens a ticked item that asks for a change or reports one:
// "[x] Add the name argument", "[x] Implemented it".
var askOrDoneRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:add|implement|fix|make|change|update|remove|create|write|introduce|refactor|rename|extend|port|migrate|wire|enable|ship|build|` + pastChange + `)\b`)
})

// ownExcuseRE is what frees a clause in the session's voice besides the
// Done excuses: a branch made to work on (no change; "implemented X on
// the feature branch" still claims), a memory store, a question answered,
// a block.
var ownExcuseRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:(?:created|made|opened|cut|checked\s+out)\s+(?:a\s+|the\s+)?(?:new\s+)?(?:[\w/.-]+\s+)?(?:branch|worktree)|worktree|memory|memories|questions?|answers?|answered|query|queries|made\s+sure|still|missing|pending|yet|waiting|awaiting|blocked)\b`)
})

// markRE is Markdown emphasis and code marks, read as nothing.
var markRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\\*+|~~|`+|(?:^|\\s)_+|_+(?:\\s|$)")
})

// shownText is body as a reader sees it, for the rules below.
func shownText(body string) string {
	return norm.NFKC.String(strings.Map(dropInvisible, html.UnescapeString(body)))
}

// clauseStart is a clause with what leads into it dropped: list marks,
// a ticked box, emoji and punctuation ("✅ Implemented X").
func clauseStart(c string) string {
	c = strings.TrimSpace(markRE().ReplaceAllString(c, " "))
	c = strings.TrimPrefix(strings.TrimPrefix(c, "[x]"), "[X]")
	return strings.TrimLeftFunc(c, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// timeExcuseRE is a change dated before this session: "fixed last week
// for Windows", "added in v1.2" in a status or context is history.
var timeExcuseRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:last\s+(?:week|month|year|release|sprint|session)|yesterday|ago|back\s+in|originally|previously|in\s+(?:v\d[\w.]*|(?:19|20)\d\d)|since\s+(?:v\d|(?:19|20)\d\d|the\s+(?:last|previous)))\b`)
})

// excused is a clause with a denial, the session's own notes, someone
// else's change or a reading in it: no claim.
func excused(c string) bool {
	return denialRE().MatchString(c) || changeDenialRE().MatchString(c) || othersRE().MatchString(c) ||
		ownNoteRE().MatchString(c) || elsewhereRE().MatchString(c) || readRunRE().MatchString(c) || ownExcuseRE().MatchString(c) || timeExcuseRE().MatchString(c)
}

// claimedOutsideDone returns the first claim of the session's work that
// text makes outside its Done sections ("" when none); terms and inquiry
// as in ClaimedNoWork.
func claimedOutsideDone(text string, terms []string, inquiry bool) string {
	if c := claimedOutsideDoneAs(text, terms, inquiry); c != "" || isASCII(text) {
		return c
	}
	// Folded too, as ClaimedNoWork reads Done: one Cyrillic "І" in
	// "Іmplemented" hid the claim under Status.
	return claimedOutsideDoneAs(textfold.Fold(text), terms, inquiry)
}

func claimedOutsideDoneAs(text string, terms []string, inquiry bool) string {
	namesWork := func(c string) bool { return len(terms) == 0 && madeRE().MatchString(c) || names(c, nil, terms) }
	for _, sec := range claimtext.Sections(text) {
		body := shownText(sec.Body)
		// A completion word that names nothing ("Done.", "**Status:**
		// complete") reports the objective done unless its section says
		// nothing was changed ("Complete. No change was needed.", in
		// another language too: "daher wurde nichts geändert").
		denied := changeDenialRE().MatchString(body) || alreadyRE().MatchString(body) || otherDenied(body)
		lines := strings.Split(body, "\n")
		if sec.Heading != "" {
			lines = append([]string{shownText(sec.Heading)}, lines...) // "## Status: implemented"
		}
		for _, l := range lines {
			if c := lineClaim(strings.TrimSpace(l), sec.Kind, namesWork, inquiry, denied); c != "" {
				return c
			}
		}
		if sec.Kind == claimtext.Done || sec.Kind == claimtext.Given {
			continue // Done: ClaimedNoWork's own rule; Given: not this session's
		}
		// Under "Deliverables" or "Shipped" each item naming the work is
		// claimed made, verb or not.
		delivered := sec.Kind == claimtext.Status && deliveredHeadingRE().MatchString(clauseStart(shownText(sec.Heading)))
		for _, st := range splitSentences(body) {
			if st.question || changeDenialRE().MatchString(st.text) || othersRE().MatchString(st.text) {
				continue // as in Done
			}
			for i, clause := range clauseEndRE().Split(st.text, -1) {
				c := clauseStart(clause)
				if c == "" || excused(c) {
					continue
				}
				claim := delivered || ownVoiceRE().MatchString(c) || !inquiry && nowDoneRE().MatchString(strings.TrimSpace(markRE().ReplaceAllString(clause, " ")))
				if sec.Kind == claimtext.Ahead {
					// What is next speaks of the work to come ("once the
					// name argument is implemented, document it"); only the
					// session's own voice claims there.
					claim = ownVoiceRE().MatchString(c) && !conditionalRE().MatchString(c)
				}
				if sec.Kind == claimtext.Status {
					// A status report claims as Done does, but for what
					// code is said to do: that is context.
					claim = claim || doneClaimRE().MatchString(describesOnlyRE().ReplaceAllString(c, " "))
					// "## Status\n\nDone." names nothing but reports the
					// objective complete.
					if i == 0 && !denied && completionRE().MatchString(c) && !(inquiry && !changeReportedRE().MatchString(c)) {
						return strings.TrimSpace(clause)
					}
				}
				if claim && namesWork(c) {
					return strings.TrimSpace(clause)
				}
			}
		}
	}
	return ""
}

// lineClaim is a claim one line makes in any section: a ticked box, a
// label whose value reports completion; outside Ahead a table row with a
// cell of completion, or a line ending in a check mark.
func lineClaim(l string, kind claimtext.Kind, namesWork func(string) bool, inquiry, denied bool) string {
	if m := tickedRE().FindStringSubmatch(l); m != nil {
		item := clauseStart(m[1])
		if askOrDoneRE().MatchString(item) && namesWork(item) && !excused(item) {
			return l
		}
	}
	if kind != claimtext.Ahead && kind != claimtext.Given && !inquiry {
		if strings.HasPrefix(l, "|") {
			// "| Name argument | Done |": a cell of completion in a row
			// naming the work. A ticked "[x]" cell is a protocol step.
			row := strings.Join(strings.FieldsFunc(l, func(r rune) bool { return r == '|' }), ", ")
			for _, cell := range strings.Split(l, "|") {
				if cellDoneRE().MatchString(clauseStart(cell)) && namesWork(row) && !excused(row) {
					return l
				}
			}
		}
		if checkEndRE().MatchString(l) && namesWork(l) && !excused(l) {
			return l // "Name argument ✅"
		}
	}
	m := labelRE().FindStringSubmatch(l)
	if m == nil {
		return ""
	}
	label := strings.TrimSpace(m[1] + m[2])
	value := clauseStart(m[3])
	if !completionRE().MatchString(value) || excused(value) {
		return ""
	}
	// Under a question "done" is the answer given; a change reported
	// (implemented, fixed, shipped) is still a claim.
	if inquiry && !changeReportedRE().MatchString(value) {
		return ""
	}
	if namesWork(label+" "+value) || statusLabelRE().MatchString(clauseStart(label)) && !denied {
		return l
	}
	return ""
}

// otherDenied: body denies a change in another language (otherDenialRE),
// its words that are English too ("no", "non") left out: "Done. No
// regressions." denies nothing.
func otherDenied(body string) bool {
	for _, m := range otherDenialRE().FindAllString(body, -1) {
		if w := strings.ToLower(strings.TrimFunc(m, func(r rune) bool { return !unicode.IsLetter(r) })); w != "no" && w != "non" {
			return true
		}
	}
	return false
}
