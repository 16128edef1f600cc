// Package reportverdict reads the verdict a report states of itself
// ("- **Verdict**: FAIL", a "## Verdict" heading over "CRITICAL_FAIL:
// ...", "| Overall | NOT READY |"). A QA report that fails the work is no
// evidence that validation passed: under the real team's 2025-12-22
// protocol a fresh `.agents/qa/` report whose verdict was "FAIL. Critical:
// ..." met "QA report exists" and "QA agent confirms validation passed"
// (round 61, helper 353). It reads text only and knows no session.
package reportverdict

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// Verdict is a verdict a report states.
type Verdict struct {
	Word   string // as written, trimmed ("FAIL", "NOT READY", "PASS WITH WARNINGS")
	Line   int    // 1-based line of the value
	Failed bool
}

// labelRE is a label line: markdown decoration already stripped, then
// "verdict: ...", "QA status - ...", "overall result = ...". The value may
// be empty: a heading's value is on the next line.
// "Overall" and "Assessment" alone speak for the whole report ("| Overall |
// FAIL | ... |", helper 358).
var labelRE = lazyregexp.New(`(?i)^((?:qa|overall|final|validation|test|review)\s+)?(verdict|status|result|outcome|conclusion|decision|recommendation|assessment|overall)(?:\s*\([^)]*\))?\s*(?:[:：=—–]|-\s|$)\s*(.*)$`)

// failRE and passRE read a value's start. Words that are no verdict
// ("Draft", "In progress", "Complete") are neither, and the line is then
// no verdict.
var failRE = lazyregexp.New(`(?i)^(?:❌|✗|✘|⛔|🔴|🚫)?\s*(?:critical[\s_-]*fail(?:ure|ed)?|fail(?:ed|s|ing|ure)?|not[\s_-]+(?:ready|passed|passing|approved|validated|ok|mergeable|shippable|safe)|no[\s_-]?go|blocked|blocking|reject(?:ed)?|needs?[\s_-]+(?:work|changes|fixes|rework)|changes[\s_-]+requested|(?:do|would|should|must)[\s_-]+not[\s_-]+(?:merge|ship|release|deploy)|broken|red|unsafe|(?:tests?|checks?|builds?|ci)\s+(?:(?:are|is)\s+)?(?:fail(?:ed|s|ing)?|broken|red))\b`)

// wholeFailRE is a value that fails the work only as the whole of its
// first clause ("Verdict: ERROR", "Verdict: INCOMPLETE"): "Error handling
// verified" is no verdict.
var wholeFailRE = lazyregexp.New(`(?i)^(?:errors?|errored|incomplete|unstable|insufficient|unacceptable|no)$`)

// recoveredRE is a clause that names a failure that is over ("Blocking
// issues resolved", "Failing test from session 12 now passes"): no
// verdict, the next clause may hold one.
var recoveredRE = lazyregexp.New(`(?i)\b(?:resolved|fixed|addressed|cleared)\b|\bnow\s+(?:pass(?:es|ing)?|green|works?|succeeds?)\b`)

// struckRE is struck-through text: "~~PASS~~ FAIL" states FAIL.
var struckRE = lazyregexp.New(`~~[^~]*~~`)

// numberedRE is an ordered list's mark: "1. Verdict: FAIL".
var numberedRE = lazyregexp.New(`^\d{1,3}[.)]\s+`)
var passRE = lazyregexp.New(`(?i)^(?:✅|✔️?|✓|🟢)?\s*(?:pass(?:ed|es|ing)?|conditional[\s_-]+pass|approved?|ready|go|lgtm|green|ok|success(?:ful)?|warn(?:ing)?s?)\b`)

// tableRowRE is a table row's first two cells: "| Verdict | FAIL |", and
// "| Verdict | FAIL | 3 tests fail |" (helper 358: a third column hid it).
var tableRowRE = lazyregexp.New(`^\|([^|]*)\|([^|]*)\|`)

// separatorRE is a table's header separator: the row above it is a header
// ("| Result | Fail count |"), no verdict.
var separatorRE = lazyregexp.New(`^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$`)

// decoration strips a line's markdown: heading marks, quote and list
// marks, bold and italics, backticks.
func decoration(line string) (string, bool) {
	s := strings.TrimSpace(line)
	if !isASCII(s) {
		// "Verdict: ＦＡＩＬ" reads as FAIL.
		s = norm.NFKC.String(s)
	}
	// A verdict in a comment ("<!-- Verdict: FAIL -->") is the report's
	// own, written for machines.
	if t, ok := strings.CutPrefix(s, "<!--"); ok {
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), "-->"))
	}
	heading := false
	if strings.HasPrefix(s, "#") {
		heading = true
		s = strings.TrimLeft(s, "#")
	}
	s = strings.TrimLeft(s, "> ")
	if len(s) > 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' {
		s = s[2:]
	}
	s = numberedRE.ReplaceAllString(s, "")
	s = struckRE.ReplaceAllString(s, "")
	s = strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
	s = emphasisRE.ReplaceAllString(s, "$1$2$3")
	return strings.TrimSpace(s), heading
}

// emphasisRE is a word in single-underscore emphasis ("_FAIL_"); a
// snake_case name is left alone.
var emphasisRE = lazyregexp.New(`(^|[^\w])_([^_\s][^_]*)_($|[^\w])`)

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// unmarked is a label without a mark before it ("❌ Verdict: FAIL", "🧪
// Result: ...").
func unmarked(s string) string {
	return strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// choiceRE is a template's choice, no verdict: "Verdict: PASS/FAIL".
var choiceRE = lazyregexp.New(`(?i)^\W*(?:pass|fail)\w*\s*(?:/|\||\bor\b)\s*\W*(?:pass|fail)`)

// failMarks and passMarks are a verdict given by a mark alone ("**Result**
// — ❌").
var (
	failMarks = []string{"❌", "✗", "✘", "⛔", "🔴", "🚫"}
	passMarks = []string{"✅", "✔", "✓", "🟢"}
)

func markOf(v string, marks []string) string {
	for _, m := range marks {
		if strings.HasPrefix(v, m) {
			return m
		}
	}
	return ""
}

// rerunRE names a run made again after a failure: a heading ("## Re-run"),
// a label or a clause of the value ("the re-run passed").
var rerunRE = lazyregexp.New(`(?i)\b(?:re-?runs?|re-?tests?|re-?ran|re-?tested|after\s+(?:the\s+|a\s+|my\s+)?fix(?:es)?|(?:second|final|last)\s+run|run\s+(?:#\s*)?[2-9])\b`)

// rerunPassRE is a clause of a failing value that says the re-run passed
// ("FAIL in the first run (...); the re-run passed").
var rerunPassRE = lazyregexp.New(`(?i)\b(?:re-?runs?|re-?tests?|after\s+(?:the\s+|a\s+|my\s+)?fix(?:es)?|(?:second|final)\s+run)\b[^.;]{0,20}?\b(?:pass(?:ed|es)?|green|succeeded)\b`)

// rerunFailRE: the re-run failed too; the value fails.
var rerunFailRE = lazyregexp.New(`(?i)\b(?:re-?runs?|re-?tests?|after\s+(?:the\s+|a\s+|my\s+)?fix(?:es)?|(?:second|final)\s+run)\b[^.;]{0,30}?\b(?:fail(?:ed|s)?|red|broke)\b`)

// judge reads a value's start: ok false when it is no verdict word. A
// value that states a change ("FAIL → PASS") is judged by its last part,
// and a failing one that says its re-run passed passes (an honest report
// of a failing run, the fix and the passing run, helper 359).
func judge(value string) (word string, failed, ok bool) {
	// "FAIL → PASS after the fix": the verdict after the last arrow.
	for _, arrow := range []string{"→", "->", "⇒", "=>"} {
		if i := strings.LastIndex(value, arrow); i >= 0 {
			value = value[i+len(arrow):]
		}
	}
	raw := strings.TrimLeft(strings.TrimSpace(value), "*_`[(\"' ")
	if choiceRE.MatchString(raw) {
		return "", false, false
	}
	v, _ := decoration(value)
	v = strings.TrimLeft(v, "*_[(\"' ")
	// Another mark before the word ("⚠️ NOT READY"); ❌ and ✅ stay, failRE
	// and passRE read them.
	for v != "" && markOf(v, failMarks) == "" && markOf(v, passMarks) == "" {
		r, n := utf8.DecodeRuneInString(v)
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			break
		}
		v = v[n:]
	}
	v = strings.TrimSpace(v)
	for v != "" {
		clause, rest := v, ""
		if i := strings.IndexAny(v, ";.,—–("); i >= 0 {
			clause, rest = v[:i], strings.TrimSpace(v[i+len(string([]rune(v[i:])[0])):])
		}
		if !recoveredRE.MatchString(clause) {
			break
		}
		v = strings.TrimLeft(rest, "*_[(\"' ")
	}
	if m := failRE.FindString(v); m != "" && !compound(v, m) {
		if rerunPassRE.MatchString(v) && !rerunFailRE.MatchString(v) {
			return strings.TrimSpace(rerunPassRE.FindString(v)), false, true
		}
		return word1(v, m), true, true
	}
	if m := passRE.FindString(v); m != "" && !compound(v, m) {
		return word1(v, m), false, true
	}
	first := v
	if i := strings.IndexAny(v, ";.,—–([\"'*_"); i >= 0 {
		first = v[:i]
	}
	if first = strings.TrimSpace(first); wholeFailRE.MatchString(first) {
		return first, true, true
	}
	if m := markOf(raw, failMarks); m != "" {
		return m, true, true
	}
	if m := markOf(raw, passMarks); m != "" {
		return m, false, true
	}
	return "", false, false
}

// compound says the match is the first part of a hyphenated word
// ("Fail-safe path verified", "Red-team checks pass"): no verdict.
func compound(v, m string) bool {
	rest := v[len(m):]
	return len(rest) > 1 && rest[0] == '-' && unicode.IsLetter(rune(rest[1]))
}

// word1 is the verdict as written: the matched words, and "WITH
// WARNINGS"-like words after them up to punctuation.
func word1(v, m string) string {
	rest := v[len(m):]
	if i := strings.IndexAny(rest, ".,;:()[]—–|"); i >= 0 {
		rest = rest[:i]
	}
	if f := strings.Fields(rest); len(f) > 0 && len(f) <= 3 && strings.EqualFold(f[0], "with") {
		return strings.TrimSpace(m + " " + strings.Join(f, " "))
	}
	return strings.TrimSpace(m)
}

// Of returns the verdict a report states, ok false when it states none.
// Among labels that speak for the whole report the last one counts (a
// report re-run after a fix ends with the new verdict); with only bare
// "status"/"result" lines, which may be one check's each, any failing one
// is the report's verdict.
func Of(text string) (Verdict, bool) {
	lines := strings.Split(text, "\n")
	var whole, item, itemFail *Verdict
	fence := false
	section := "" // the heading over the line
	for i := 0; i < len(lines); i++ {
		raw := strings.TrimSpace(lines[i])
		if strings.HasPrefix(raw, "```") || strings.HasPrefix(raw, "~~~") {
			fence = !fence
			continue
		}
		if fence || raw == "" {
			continue // quoted output is the tool's, not the report's verdict
		}
		if strings.HasPrefix(raw, "#") {
			section = raw
		}
		label, value, at := "", "", i
		if m := tableRowRE.FindStringSubmatch(raw); m != nil {
			if i+1 < len(lines) && separatorRE.MatchString(strings.TrimSpace(lines[i+1])) {
				continue // a header row names columns
			}
			label, value = m[1], m[2]
			l, _ := decoration(label)
			l = unmarked(l)
			if labelRE.FindStringSubmatch(l) == nil {
				continue
			}
			label = l
		} else {
			s, heading := decoration(raw)
			s = unmarked(s)
			m := labelRE.FindStringSubmatch(s)
			if m == nil {
				continue
			}
			label, value = s, m[3]
			if strings.TrimSpace(value) == "" && (heading || len(strings.Fields(s)) <= 3) {
				// "## Verdict" or "**Verdict:**", then the value on the
				// next line of text.
				for j := i + 1; j < len(lines); j++ {
					if t := strings.TrimSpace(lines[j]); t != "" {
						if !strings.HasPrefix(t, "#") {
							value, at = t, j
						}
						break
					}
				}
			}
		}
		m := labelRE.FindStringSubmatch(label)
		word, failed, ok := judge(value)
		if m == nil || !ok {
			continue
		}
		v := &Verdict{Word: word, Line: at + 1, Failed: failed}
		switch {
		case m[1] != "" || strings.EqualFold(m[2], "verdict") || strings.EqualFold(m[2], "decision") || strings.EqualFold(m[2], "recommendation") || strings.EqualFold(m[2], "overall") || strings.EqualFold(m[2], "assessment"):
			whole = v
		case failed:
			if itemFail == nil {
				itemFail = v
			}
			item = v
		case itemFail != nil && (rerunRE.MatchString(section) || rerunRE.MatchString(label)):
			// A pass under "## Re-run" (or "Result after fix: PASS")
			// answers the failures before it: the run was made again,
			// not another check.
			itemFail, item = nil, v
		default:
			item = v
		}
	}
	switch {
	case whole != nil:
		return *whole, true
	case itemFail != nil:
		return *itemFail, true
	case item != nil:
		return *item, true
	}
	return Verdict{}, false
}
