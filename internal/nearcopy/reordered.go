package nearcopy

import (
	"strings"
	"unicode"
)

// An earlier text with its sections, paragraphs, lines, bullets or
// sentences put in another order keeps every clause and loses only the
// 4-word shingles across each clause's edge: in a short handoff (ten-word
// sentences) that is a third of them, and the Jaccard test, which reads
// the words as one run, fell under Threshold (lazy pass 29's open row: the
// earlier session's handoff with its sentences reordered and its commit id
// dropped). Reordered compares the texts as multisets of clauses: a line
// cut at sentence ends, semicolons, parentheses and table cells, each
// clause normalised (Words), headings aside (a template's headings are
// the same in every file of the family and say nothing).

// ReorderedShare is the share of each text's clause words (the smaller of
// the two) found in the other's clauses at and above which one is the
// other reordered. Measured on the real team's session logs
// (rjmurillo/ai-agents, 422 Markdown logs, each with its 15 neighbours by
// name, TestReorderedRealLogs): the highest honest share was 0.55 (see
// the test's log for the current figures); a copy with its lines,
// paragraphs or sentences reordered scores 1, less what ids it dropped.
const ReorderedShare = 0.85

// minClauseWords: fewer words in the clauses both texts hold is too
// little text to tell (a handoff of two short lines).
const minClauseWords = 12

// clauses is text cut into normalised clauses, headings left out, with
// how many times each occurs.
func clauses(text string) map[string]int {
	out := map[string]int{}
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") {
			continue
		}
		for _, c := range strings.FieldsFunc(t, clauseEdge(t)) {
			if w := Words(c); len(w) > 0 {
				out[strings.Join(w, " ")]++
			}
		}
	}
	return out
}

// clauseEdge cuts at ; ( ) | and at . ! ? followed by a space or the end
// of the line (a path's or a version's dot stays).
func clauseEdge(t string) func(rune) bool {
	rs := []rune(t)
	i := -1
	return func(r rune) bool {
		i++
		switch r {
		case ';', '(', ')', '|', '[', ']':
			return true
		case '.', '!', '?':
			return i+1 >= len(rs) || unicode.IsSpace(rs[i+1])
		}
		return false
	}
}

// reorderedScore is the smaller of the two texts' shares of clause words
// found in the other's clauses (as multisets); 0 when the clauses they
// share hold fewer than minClauseWords words.
func reorderedScore(a, b map[string]int) float64 {
	na, nb, common := 0, 0, 0
	for c, n := range a {
		w := strings.Count(c, " ") + 1
		na += n * w
		common += min(n, b[c]) * w
	}
	for c, n := range b {
		nb += n * (strings.Count(c, " ") + 1)
	}
	if common < minClauseWords || na == 0 || nb == 0 {
		return 0
	}
	return float64(common) / float64(max(na, nb))
}

// Reordered reports whether a is b with its sections, paragraphs, lines
// or sentences put in another order (a few words dropped or added).
func Reordered(a, b string) bool {
	return reorderedScore(clauses(Visible(a)), clauses(Visible(b))) >= ReorderedShare
}
