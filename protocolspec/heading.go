package protocolspec

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Phase headings: "Phase <number>: <rest>" after inline markup is
// reduced, the number kept as written ("1.5", "2a"). matchPhase and
// phaseLike are what the regexps `^(?i:phase)\s+([0-9]+(?:\.[0-9]+)*[A-Za-z]?)\s*:\s*(.*)$`
// and `^(?i:phase)\s+[0-9]` match, by hand: they run on every heading
// (heading_test.go checks them against the regexps).

// phasePrefix is the index past a leading "phase" in any case and the
// whitespace after it (at least one of \t \n \f \r and space), or 0.
// (?i) folds the s to ſ too.
func phasePrefix(t string) int {
	i := 0
	for _, want := range []byte("phase") {
		if want == 's' && strings.HasPrefix(t[i:], "\u017f") {
			i += len("\u017f")
			continue
		}
		if i >= len(t) || lowerASCII(t[i]) != want {
			return 0
		}
		i++
	}
	j := i
	for j < len(t) && isRESpace(t[j]) {
		j++
	}
	if j == i {
		return 0
	}
	return j
}

// isRESpace is the regexp \s class.
func isRESpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// matchPhase splits "Phase 2.5: rest" into its number and rest.
func matchPhase(t string) (number, rest string, ok bool) {
	j := phasePrefix(t)
	if j == 0 || j >= len(t) || !isDigit(t[j]) {
		return "", "", false
	}
	k := j
	for k < len(t) && isDigit(t[k]) {
		k++
	}
	for k+1 < len(t) && t[k] == '.' && isDigit(t[k+1]) {
		k++
		for k < len(t) && isDigit(t[k]) {
			k++
		}
	}
	if k < len(t) && ('a' <= lowerASCII(t[k]) && lowerASCII(t[k]) <= 'z') {
		k++
	}
	number = t[j:k]
	for k < len(t) && isRESpace(t[k]) {
		k++
	}
	if k >= len(t) || t[k] != ':' {
		return "", "", false
	}
	k++
	for k < len(t) && isRESpace(t[k]) {
		k++
	}
	rest = t[k:]
	if strings.IndexByte(rest, '\n') >= 0 {
		return "", "", false // (.*)$ does not cross a line
	}
	return number, rest, true
}

// phaseLike catches headings an author probably meant as phases ("Phase
// 3 - Foo", "Phase 3 Foo") so they are warned about, not dropped silently.
func phaseLike(t string) bool {
	j := phasePrefix(t)
	return j > 0 && j < len(t) && isDigit(t[j])
}

type phaseHeading struct {
	number, title, condition string
	gate                     GateLevel
}

// parsePhaseHeading splits "Phase 2.5: QA Validation (BLOCKING when x)".
func parsePhaseHeading(text string) (phaseHeading, bool) {
	number, rest, ok := matchPhase(text)
	if !ok {
		return phaseHeading{}, false
	}
	h := phaseHeading{number: number, title: strings.TrimSpace(rest), gate: GateUnspecified}
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
	s, e := lowerIndex(text, "session start"), lowerIndex(text, "session end")
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
	return lowerIndex(text, "checklist") >= 0 || lowerIndex(text, "template") >= 0
}

// lowerIndex is strings.Index(strings.ToLower(text), sub) for a lower-case
// ASCII sub. ASCII text (every real heading) is searched in place: the
// lower-cased copy was made for every heading, several times.
func lowerIndex(text, sub string) int {
	if !isASCIIText(text) {
		return strings.Index(strings.ToLower(text), sub)
	}
	first := sub[0]
	for i := 0; i+len(sub) <= len(text); i++ {
		// A byte ORed with 0x20 is a small letter only when it is that
		// letter in either case: most positions are passed after this one
		// test (and sub is compared whole after it).
		if text[i]|0x20 != first|0x20 {
			continue
		}
		j := 0
		for j < len(sub) && lowerASCII(text[i+j]) == sub[j] {
			j++
		}
		if j == len(sub) {
			return i
		}
	}
	return -1
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
	// Component by component, a missing one being "0" (an empty one reads
	// as "0" too), without splitting: this runs on every phase.
	aMore, bMore := true, true
	for aMore || bMore {
		x, y := "0", "0"
		if aMore {
			x, a, aMore = strings.Cut(a, ".")
		}
		if bMore {
			y, b, bMore = strings.Cut(b, ".")
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

// isNumberKey reports whether n is its own numberKey: dot-separated
// components of digits with no leading zero and small letters after
// them, the last not a lone "0" when there are several.
func isNumberKey(n string) bool {
	for rest, more := n, true; more; {
		var part string
		part, rest, more = strings.Cut(rest, ".")
		d, letters := splitDigits(part)
		if d == "" || len(d) > 1 && d[0] == '0' || !more && part == "0" && n != "0" {
			return false
		}
		for i := 0; i < len(letters); i++ {
			if letters[i] < 'a' || letters[i] > 'z' {
				return false
			}
		}
	}
	return true
}

// numberKey is a phase number in a form where equal numbers ("2", "2.0",
// "02") are equal strings, for finding duplicates without comparing pairs.
func numberKey(n string) string {
	if isNumberKey(n) {
		return n // as real numbers are written: no copy
	}
	return splitNumberKey(n)
}

// splitNumberKey is numberKey by splitting n into its components, for any
// number; numberKey skips it for those already in key form.
func splitNumberKey(n string) string {
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
