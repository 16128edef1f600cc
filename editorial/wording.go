package editorial

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/sessiongate/sessiongate/internal/shorten"
)

// A line replaced one for one is editorial only when it says what it said:
// spelling (a word a few letters off), grammar (a small word added, dropped
// or swapped) or formatting (markup, punctuation). A line rewritten to say
// the opposite ("Always run the tests" to "Releases need no tests"), a
// number, a link target, inline code or a task's checkbox changed is
// content (round 55, helper 328: each skipped QA as "editorial").

var (
	// numberRE, linkRE, codeSpanRE and checkboxRE find the facts a line
	// states that no editorial change touches; a number keeps its unit
	// (30ms, 5MB) and loses the commas between its digits (1,000).
	numberRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d+(?:[.,:]\d+)*(?:\s?[\p{L}%]{1,6}\b)?`) })
	// rfcRE finds the RFC 2119 key words as written: "MUST" made "must"
	// is no longer one (helper 332).
	rfcRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:MUST|SHALL|SHOULD|MAY|REQUIRED|RECOMMENDED|OPTIONAL|NOT)\b`)
	})
	listMark   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+`) })
	linkRE     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\]\(([^)\s]*)|https?://[^\s)>\]]+|\]:\s*(\S+)`) })
	codeSpanRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`+[^`]*`+") })
	checkboxRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]`) })
	// wordRE: a word with its inner hyphens and apostrophes (e-mail,
	// don't), compared without them (e-mail is email, dont is don't).
	wordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*`) })
)

// addable are the articles a grammar fix may add or drop; any other word
// added or dropped may change what the line says ("on every commit" to
// "on commit", helper 332).
var addable = []string{"a", "an", "the"}

// swappable are the groups within which a grammar fix swaps one small
// word for another ("a" for "an", "is" for "are"); "and" for "or", "to"
// for "from", "is" for "was", "these" for "those" say something else
// (helpers 331, 332).
var swappable = [][]string{{"a", "an"}, {"is", "are"}, {"was", "were"}, {"has", "have"}, {"each", "every"},
	{"its", "it's"}, {"their", "there", "they're"}, {"then", "than"}, {"your", "you're"}}

// fixed are words no editorial change touches: numbers written out and
// quantities ("sixty" to "six", "million" to "billion", "any" to "many").
var fixed = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
	"twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty",
	"forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "thousand", "million", "billion", "first",
	"second", "third", "last", "once", "twice", "half", "double", "few", "many", "any", "more", "most", "less", "least",
	"fewer", "some", "every", "each", "both", "either", "before", "after"}

// negations never come or go ("does" and "doesnt" are two letters apart).
var negations = []string{"no", "not", "never", "none", "nothing", "nobody", "neither", "nor", "without", "dont", "doesnt",
	"didnt", "cant", "cannot", "wont", "wouldnt", "shouldnt", "couldnt", "mustnt", "isnt", "arent", "wasnt", "werent",
	"hasnt", "havent", "hadnt", "unable"}

// keyWords say how strongly ("must" and "most"): never changed into
// another word; a misspelling may become one ("shoud" to "should").
var keyWords = []string{"must", "may", "should", "shall", "required", "recommended", "optional", "always", "only", "all"}

// antonymAffixes make a word's opposite when added (able, unable).
var antonymAffixes = []string{"un", "in", "im", "il", "ir", "non", "dis", "de", "anti", "less", "nt"}

// formatting are the marks an editorial change may add, drop or move:
// emphasis, punctuation, brackets, hyphens. Any other mark (~~ striking a
// line through, <!-- --> hiding it, >= turned <=, a tick turned a cross)
// changes what the line says.
const formatting = "*_.,;:!?'\"’‘“”()[]-–—/\\`"

// maxWordEdits is how many words of one line an editorial change may
// touch (a spelling fix and a grammar fix or two).
const maxWordEdits = 4

// wording says why replacing old with new is not editorial, "" when it is.
func wording(old, new string) string {
	if old == new {
		// A removed line and an added one alike: the line moved, out of
		// one list into another ("Before every release" to "Not needed").
		return "moves a line"
	}
	if a, b := checkboxRE().FindStringSubmatch(old), checkboxRE().FindStringSubmatch(new); (a == nil) != (b == nil) ||
		a != nil && strings.ToLower(a[1]) != strings.ToLower(b[1]) {
		return "changes a task's checkbox"
	}
	for _, f := range []struct {
		what string
		re   *regexp.Regexp
	}{{"inline code", codeSpanRE()}, {"a link target", linkRE()}} {
		if !slices.Equal(f.re.FindAllString(old, -1), f.re.FindAllString(new, -1)) {
			return "changes " + f.what
		}
	}
	strip := func(s string) string {
		s = codeSpanRE().ReplaceAllString(s, " ")
		return linkRE().ReplaceAllString(s, " ")
	}
	if !slices.Equal(numbers(strip(old)), numbers(strip(new))) {
		return "changes a number"
	}
	if !slices.Equal(rfcRE().FindAllString(old, -1), rfcRE().FindAllString(new, -1)) {
		return "changes an RFC 2119 key word"
	}
	unlist := func(s string) string { return listMark().ReplaceAllString(strip(s), "") }
	if a, b := marks(unlist(old)), marks(unlist(new)); a != b {
		return fmt.Sprintf("changes the marks %q to %q", a, b)
	}
	ow, nw := words(strip(old)), words(strip(new))
	if strings.Join(ow, "") == strings.Join(nw, "") {
		return "" // spacing and hyphens only (log in, login)
	}
	dropped, added := wordDiff(ow, nw)
	edits := 0
	// Pair what was dropped with what was added, in order: a pair a
	// spelling fix apart, or two small words of one group; what is left
	// must be small words a grammar fix adds or drops.
	for len(dropped) > 0 && len(added) > 0 {
		d, a := dropped[0], added[0]
		switch {
		case slices.Contains(negations, d) || slices.Contains(negations, a),
			d != a && (slices.Contains(fixed, d) || slices.Contains(fixed, a)) && !sameGroup(d, a):
			return fmt.Sprintf("changes %q to %q", d, a)
		case slices.Contains(keyWords, d):
			return fmt.Sprintf("changes %q to %q", d, a)
		case spelling(d, a), sameGroup(d, a):
		default:
			return fmt.Sprintf("rewords %q to %q", d, a)
		}
		dropped, added, edits = dropped[1:], added[1:], edits+1
	}
	for _, w := range append(dropped, added...) {
		if !slices.Contains(addable, w) {
			return fmt.Sprintf("adds or drops %q", w)
		}
		edits++
	}
	if edits > maxWordEdits {
		return fmt.Sprintf("changes %d words", edits)
	}
	return ""
}

func sameGroup(a, b string) bool {
	for _, g := range swappable {
		if slices.Contains(g, a) && slices.Contains(g, b) {
			return true
		}
	}
	return false
}

// numbers are s's numbers, commas between digits dropped.
func numbers(s string) []string {
	ns := numberRE().FindAllString(s, -1)
	for i, n := range ns {
		ns[i] = strings.ToLower(strings.ReplaceAll(n, ",", ""))
	}
	return ns
}

// marks are s's characters that are neither letters, digits, spaces nor
// formatting, in order.
func marks(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r) || strings.ContainsRune(formatting, r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// wordingReason is Lines' reason for a pair wording refuses.
func wordingReason(file, old, new, why string) string {
	return fmt.Sprintf("%s %s (%q became %q): not spelling, grammar or formatting", file, why,
		shorten.Bytes(strings.TrimSpace(old), 60, "..."), shorten.Bytes(strings.TrimSpace(new), 60, "..."))
}

func words(s string) []string {
	ws := wordRE().FindAllString(s, -1)
	for i, w := range ws {
		ws[i] = strings.ToLower(strings.NewReplacer("-", "", "'", "", "’", "").Replace(w))
	}
	return ws
}

// wordDiff returns the words of a not in their longest common subsequence
// with b, and those of b, each in order.
func wordDiff(a, b []string) (dropped, added []string) {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			dropped, i = append(dropped, a[i]), i+1
		default:
			added, j = append(added, b[j]), j+1
		}
	}
	return append(dropped, a[i:]...), append(added, b[j:]...)
}

// spelling reports two words a spelling fix apart: letters added or
// dropped (one, or two in a word of five or more: catalogue, catalog), or
// two neighbours swapped (recieve, receive), never a prefix or suffix that
// makes the word's opposite (able, unable). A letter replaced by another
// is refused: without a dictionary "definately" to "definitely" cannot be
// told from "full" to "fuel", "passed" to "parsed" or "minimum" to
// "maximum" (helpers 331, 332); QA then runs.
func spelling(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	short, long := a, b
	if len(ra) > len(rb) {
		short, long = b, a
		ra, rb = rb, ra
	}
	for _, x := range antonymAffixes {
		if long == x+short || long == short+x {
			return false
		}
	}
	if len(ra) == len(rb) {
		// Only one swap of neighbours.
		diff := -1
		for i := range ra {
			if ra[i] != rb[i] {
				diff = i
				break
			}
		}
		return diff >= 0 && diff+1 < len(ra) && ra[diff] == rb[diff+1] && ra[diff+1] == rb[diff] && string(ra[diff+2:]) == string(rb[diff+2:])
	}
	switch n := len(rb) - len(ra); {
	case n == 1:
		return len(rb) >= 3 && subsequence(ra, rb)
	case n == 2:
		return len(rb) >= 5 && subsequence(ra, rb)
	}
	return false
}

// subsequence reports whether s is t with letters dropped.
func subsequence(s, t []rune) bool {
	i := 0
	for _, r := range t {
		if i < len(s) && s[i] == r {
			i++
		}
	}
	return i == len(s)
}

// editDistance is the optimal-string-alignment distance of a and b.
func editDistance(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
