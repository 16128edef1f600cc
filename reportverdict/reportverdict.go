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
var labelRE = lazyregexp.New(`(?i)^((?:qa|overall|final|validation|test|review)\s+)?(verdict|status|result|outcome|conclusion|decision|recommendation)(?:\s*\([^)]*\))?\s*(?:[:：=—–]|-\s|$)\s*(.*)$`)

// failRE and passRE read a value's start. Words that are no verdict
// ("Draft", "In progress", "Complete") are neither, and the line is then
// no verdict.
var failRE = lazyregexp.New(`(?i)^(?:❌|✗|✘|⛔|🔴)?\s*(?:critical[\s_-]*fail(?:ure|ed)?|fail(?:ed|s|ing|ure)?|not[\s_-]+(?:ready|passed|passing|approved|validated|ok)|no[\s_-]?go|blocked|blocking|rejected?|needs?[\s_-]+(?:work|changes|fixes|rework)|changes[\s_-]+requested|do[\s_-]+not[\s_-]+merge|broken|red)\b`)
var passRE = lazyregexp.New(`(?i)^(?:✅|✔️?|✓|🟢)?\s*(?:pass(?:ed|es|ing)?|conditional[\s_-]+pass|approved?|ready|go|lgtm|green|ok|success(?:ful)?|warn(?:ing)?s?)\b`)

// tableRowRE is a two-cell table row: "| Verdict | FAIL |".
var tableRowRE = lazyregexp.New(`^\|([^|]*)\|([^|]*)\|\s*$`)

// decoration strips a line's markdown: heading marks, quote and list
// marks, bold and italics, backticks.
func decoration(line string) (string, bool) {
	s := strings.TrimSpace(line)
	heading := false
	if strings.HasPrefix(s, "#") {
		heading = true
		s = strings.TrimLeft(s, "#")
	}
	s = strings.TrimLeft(s, "> ")
	if len(s) > 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' {
		s = s[2:]
	}
	s = strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
	return strings.TrimSpace(s), heading
}

// judge reads a value's start: ok false when it is no verdict word.
func judge(value string) (word string, failed, ok bool) {
	v, _ := decoration(value)
	v = strings.TrimLeft(v, "*_ ")
	if m := failRE.FindString(v); m != "" {
		return word1(v, m), true, true
	}
	if m := passRE.FindString(v); m != "" {
		return word1(v, m), false, true
	}
	return "", false, false
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
	for i := 0; i < len(lines); i++ {
		raw := strings.TrimSpace(lines[i])
		if strings.HasPrefix(raw, "```") || strings.HasPrefix(raw, "~~~") {
			fence = !fence
			continue
		}
		if fence || raw == "" {
			continue // quoted output is the tool's, not the report's verdict
		}
		label, value, at := "", "", i
		if m := tableRowRE.FindStringSubmatch(raw); m != nil {
			label, value = m[1], m[2]
			l, _ := decoration(label)
			if labelRE.FindStringSubmatch(l) == nil {
				continue
			}
			label = l
		} else {
			s, heading := decoration(raw)
			m := labelRE.FindStringSubmatch(s)
			if m == nil {
				continue
			}
			label, value = s, m[3]
			if strings.TrimSpace(value) == "" && heading {
				// "## Verdict", then the value on the next line of text.
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
		case m[1] != "" || strings.EqualFold(m[2], "verdict") || strings.EqualFold(m[2], "decision") || strings.EqualFold(m[2], "recommendation"):
			whole = v
		case failed:
			if itemFail == nil {
				itemFail = v
			}
			item = v
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
