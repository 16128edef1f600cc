package editorial

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

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
	// states that no editorial change touches.
	numberRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d+(?:[.,:]\d+)*`) })
	linkRE     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\]\(([^)\s]*)|https?://[^\s)>\]]+|\]:\s*(\S+)`) })
	codeSpanRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`+[^`]*`+") })
	checkboxRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]`) })
	wordRE     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[\p{L}\p{N}]+(?:['’][\p{L}]+)?`) })
)

// smallWords may be added, dropped or swapped by a grammar fix.
var smallWords = []string{"a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "with", "by", "from", "as",
	"is", "are", "was", "were", "be", "been", "it", "its", "it's", "this", "that", "these", "those", "which", "who",
	"each", "every", "their", "there", "then", "than", "also"}

// meaningWords change what a line says however few letters they differ by
// ("not" and "now", "must" and "most"): never added, dropped or changed.
var meaningWords = []string{"no", "not", "never", "none", "nothing", "nobody", "neither", "nor", "without", "don't",
	"doesn't", "didn't", "can't", "cannot", "won't", "isn't", "aren't", "shouldn't", "mustn't", "must", "may", "should",
	"shall", "required", "recommended", "optional", "always", "only", "all"}

// maxWordEdits is how many words of one line an editorial change may
// touch (a spelling fix and a grammar fix or two).
const maxWordEdits = 4

// wording says why replacing old with new is not editorial, "" when it is.
func wording(old, new string) string {
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
	if !slices.Equal(numberRE().FindAllString(strip(old), -1), numberRE().FindAllString(strip(new), -1)) {
		return "changes a number"
	}
	ow, nw := words(strip(old)), words(strip(new))
	dropped, added := wordDiff(ow, nw)
	edits := 0
	// Pair what was dropped with what was added, in order: a pair a few
	// letters apart is a spelling fix; what is left must be small words.
	for len(dropped) > 0 && len(added) > 0 {
		d, a := dropped[0], added[0]
		switch {
		case slices.Contains(meaningWords, d) || slices.Contains(meaningWords, a):
			return fmt.Sprintf("changes %q to %q", d, a)
		case spelling(d, a), slices.Contains(smallWords, d) && slices.Contains(smallWords, a):
		default:
			return fmt.Sprintf("rewords %q to %q", d, a)
		}
		dropped, added, edits = dropped[1:], added[1:], edits+1
	}
	for _, w := range append(dropped, added...) {
		if !slices.Contains(smallWords, w) {
			return fmt.Sprintf("adds or drops %q", w)
		}
		edits++
	}
	if edits > maxWordEdits {
		return fmt.Sprintf("changes %d words", edits)
	}
	return ""
}

// wordingReason is Lines' reason for a pair wording refuses.
func wordingReason(file, old, new, why string) string {
	return fmt.Sprintf("%s %s (%q became %q): not spelling, grammar or formatting", file, why,
		shorten.Bytes(strings.TrimSpace(old), 60, "..."), shorten.Bytes(strings.TrimSpace(new), 60, "..."))
}

func words(s string) []string {
	ws := wordRE().FindAllString(s, -1)
	for i, w := range ws {
		ws[i] = strings.ToLower(strings.ReplaceAll(w, "’", "'"))
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

// spelling reports two words a spelling fix apart: at most two edits
// (a swap of neighbours counts one), and fewer than half the longer's
// letters, so "cat" and "dog" are not.
func spelling(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	d := editDistance(ra, rb)
	long := max(utf8.RuneCountInString(a), utf8.RuneCountInString(b))
	return d <= 2 && 2*d < long && (len(ra) == 0 || len(rb) == 0 || unicode.ToLower(ra[0]) == unicode.ToLower(rb[0]) || d == 1)
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
