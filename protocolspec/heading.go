package protocolspec

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// phaseRE matches a phase heading's text after inline markup is reduced:
// "Phase <number>: <rest>". The number is kept as written ("1.5", "2a").
var phaseRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i:phase)\s+([0-9]+(?:\.[0-9]+)*[A-Za-z]?)\s*:\s*(.*)$`)
})

// phaseLikeRE catches headings an author probably meant as phases
// ("Phase 3 - Foo", "Phase 3 Foo") so they are warned about, not dropped silently.
var phaseLikeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i:phase)\s+[0-9]`) })

// mayBePhase is false for text neither phase regexp can match: both
// start with (?i:phase), and 'p' folds only to 'P'. Most headings are
// ruled out without running a regexp.
func mayBePhase(text string) bool {
	return text != "" && (text[0] == 'p' || text[0] == 'P')
}

// looksLikePhase is phaseLikeRE().MatchString(text), ruled out first by mayBePhase.
func looksLikePhase(text string) bool {
	return mayBePhase(text) && phaseLikeRE().MatchString(text)
}

type phaseHeading struct {
	number, title, condition string
	gate                     GateLevel
}

// parsePhaseHeading splits "Phase 2.5: QA Validation (BLOCKING when x)".
func parsePhaseHeading(text string) (phaseHeading, bool) {
	if !mayBePhase(text) {
		return phaseHeading{}, false
	}
	m := phaseRE().FindStringSubmatch(text)
	if m == nil {
		return phaseHeading{}, false
	}
	h := phaseHeading{number: m[1], title: strings.TrimSpace(m[2]), gate: GateUnspecified}
	if !strings.HasSuffix(h.title, ")") {
		return h, true
	}
	open := strings.LastIndexByte(h.title, '(')
	if open < 0 {
		return h, true
	}
	inner := strings.Fields(h.title[open+1 : len(h.title)-1])
	if len(inner) == 0 {
		return h, true
	}
	switch q := GateLevel(strings.ToUpper(inner[0])); q {
	case GateBlocking, GateRequired, GateRecommended, GateOptional:
		h.gate = q
		h.condition = strings.Join(inner[1:], " ")
		h.title = strings.TrimSpace(h.title[:open])
	}
	return h, true
}

// sectionKind reports whether a heading names the Session Start or the
// Session End part of the protocol; when both appear the first one wins.
func sectionKind(text string) string {
	l := strings.ToLower(text)
	s, e := strings.Index(l, "session start"), strings.Index(l, "session end")
	switch {
	case s >= 0 && (e < 0 || s < e):
		return SectionStart
	case e >= 0:
		return SectionEnd
	}
	return ""
}

// isTemplateHolder reports whether a Session Start/End heading holds the
// checklist template ("Session Start Checklist") rather than the phases.
func isTemplateHolder(text string) bool {
	l := strings.ToLower(text)
	return strings.Contains(l, "checklist") || strings.Contains(l, "template")
}

// upperSnake turns a title into a phase id: "QA Validation" -> "QA_VALIDATION".
func upperSnake(s string) string {
	var b strings.Builder
	sep := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if sep && b.Len() > 0 {
				b.WriteByte('_')
			}
			sep = false
			b.WriteRune(unicode.ToUpper(r))
			continue
		}
		sep = true
	}
	return b.String()
}

var idRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$`) })

// compareNumbers orders phase numbers component by component ("2.10" > "2.9");
// a trailing letter sorts after the bare number ("2a" > "2").
func compareNumbers(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		x, y := "0", "0"
		if i < len(as) {
			x = as[i]
		}
		if i < len(bs) {
			y = bs[i]
		}
		if c := compareComponent(x, y); c != 0 {
			return c
		}
	}
	return 0
}

func compareComponent(x, y string) int {
	xd, xs := splitDigits(x)
	yd, ys := splitDigits(y)
	xd, yd = strings.TrimLeft(xd, "0"), strings.TrimLeft(yd, "0")
	if len(xd) != len(yd) {
		if len(xd) < len(yd) {
			return -1
		}
		return 1
	}
	if c := strings.Compare(xd, yd); c != 0 {
		return c
	}
	return strings.Compare(strings.ToLower(xs), strings.ToLower(ys))
}

func splitDigits(s string) (digits, rest string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i], s[i:]
}

// numberKey is a phase number in a form where equal numbers ("2", "2.0",
// "02") are equal strings, for finding duplicates without comparing pairs.
func numberKey(n string) string {
	parts := strings.Split(strings.ToLower(n), ".")
	for i, p := range parts {
		d, rest := splitDigits(p)
		d = strings.TrimLeft(d, "0")
		if d == "" {
			d = "0"
		}
		parts[i] = d + rest
	}
	for len(parts) > 1 && parts[len(parts)-1] == "0" {
		parts = parts[:len(parts)-1]
	}
	return strings.Join(parts, ".")
}
