// Package nearcopy tells whether one text is a near copy of another: the
// same words once ids, dates, times and numbers are made alike. An agent
// that copies an earlier session's log or report and changes its date,
// session number and commit ids has written nothing; an honest file from
// the same template says different things in its own words.
package nearcopy

import (
	"errors"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/sessiongate/sessiongate/internal/textfold"
)

// shingle is how many words make one shingle (a window of the text).
const shingle = 4

// Threshold is the Jaccard similarity of the two shingle sets at and above
// which a text is a near copy: a copy with ids and dates changed scores
// 1.0, with a sentence or two reworded about 0.9; two honest logs from
// one template share their headings and checklist, not their sentences.
const Threshold = 0.9

// Contained and Share catch a copy padded with a few words of its own,
// which lowers the Jaccard similarity below Threshold however much of the
// earlier text it repeats: a text is also a near copy when at least
// Contained of the earlier text's shingles are in it and at least Share of
// its own shingles come from the earlier text. An honest file that quotes a
// paragraph of an earlier one repeats a small part of it; one that grew
// an earlier file into something larger is mostly its own words.
const (
	Contained = 0.8
	Share     = 0.5
)

// ErrTooLarge says a file holds more text than a near-copy comparison
// reads: it is not judged, so it is no evidence of new work (a copy padded
// past the cap passed as new, round 30).
var ErrTooLarge = errors.New("too large to compare with the earlier files")

// minShingles: shorter texts are near copies only when their normalised
// words are equal (a few shared words are no copy).
const minShingles = 12

var (
	dateRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}:\d{2}(?::\d{2})?`)
	})
	hexRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[0-9a-f]{7,}\b`) })
	numRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d+`) })
	// Marks belong to their word (a Hindi vowel sign); the fold drops those on Latin letters.
	wordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[\p{L}\p{M}\p{N}_#]+`) })
)

// Words is text lower-cased, with dates and times, hex ids of 7 or more
// digits and numbers each made one token, split into words.
func Words(text string) []string {
	// Folded first (internal/textfold): a zero-width space or soft hyphen
	// in every word, fullwidth letters or Cyrillic look-alikes made each
	// word another, and an earlier session's handoff under a new number
	// read as new words (adversarial pass 4).
	t := textfold.Fold(text)
	t = dateRE().ReplaceAllString(t, " #date ")
	t = hexRE().ReplaceAllStringFunc(t, func(s string) string {
		if strings.ContainsAny(s, "0123456789") { // "defaced" is a word
			return " #id "
		}
		return s
	})
	t = numRE().ReplaceAllString(t, "#n")
	return wordRE().FindAllString(t, -1)
}

// shingles is the set of hashed windows of words (FNV-1a, inline: a
// hasher per window was most of the time).
func shingles(w []string) map[uint64]struct{} {
	const offset, prime = 14695981039346656037, 1099511628211
	out := make(map[uint64]struct{}, len(w))
	for i := 0; i+shingle <= len(w); i++ {
		h := uint64(offset)
		for _, x := range w[i : i+shingle] {
			for j := 0; j < len(x); j++ {
				h ^= uint64(x[j])
				h *= prime
			}
			h ^= 0
			h *= prime
		}
		out[h] = struct{}{}
	}
	return out
}

// Text is a text prepared once to be compared with many others.
type Text struct {
	size   int
	joined string
	sh     map[uint64]struct{}
	raw    string
	lines  [][]string
	para   *prepared // paraphrase.go, made on first use
	// clauses: reordered.go's, made on first use.
	clauses map[string]int
}

// New prepares text for comparison: what a reader sees of it (Visible).
func New(text string) *Text {
	text = Visible(text)
	w := Words(text)
	return &Text{size: visibleLen(text), joined: strings.Join(w, " "), sh: shingles(w), raw: text}
}

// visibleLen counts the characters of s a reader sees: not its bytes (a
// copy in mathematical letters, four bytes each, was more than twice the
// size of the earlier text and never read, issue 25 item 4), nor marks and
// invisible characters put after every letter.
func visibleLen(s string) int {
	n := 0
	for _, r := range s {
		if r < 0x80 || !unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point) {
			n++
		}
	}
	return n
}

// NearCopyOf reports whether t is a near copy of other. Texts whose sizes
// differ by more than half cannot reach the threshold and are not read.
func (t *Text) NearCopyOf(other string) bool {
	if t.joined == "" {
		return false
	}
	other = Visible(other)
	if len(other)*2 < t.size || visibleLen(other)*2 < t.size {
		// t is more than twice as long: only a padded copy can be one
		// (the earlier text pasted twice, or after it a line repeated),
		// which adds few shingles of its own, so the shingle sets still
		// tell. Before, such a copy was never compared (r16 t9).
		return t.paddedCopyOf(other)
	}
	if t.size*2 < visibleLen(other) {
		return false
	}
	o := New(other)
	if t.similarity(o) >= Threshold {
		return true
	}
	contained, share := t.overlap(o)
	if contained >= Contained && share >= Share || t.proseCopyOf(o) {
		return true
	}
	// Reworded one for one (reworded.go), or paraphrased (paraphrase.go);
	// both read the texts' lines, split once.
	if t.lines == nil {
		t.lines = lineWords(t.raw)
		t.para = prepareLines(t.lines)
	}
	lo := lineWords(other)
	if t.reworded(lo) {
		return true
	}
	// Its sections, lines or sentences put in another order (reordered.go).
	if t.clauses == nil {
		t.clauses = clauses(t.raw)
	}
	if reorderedScore(t.clauses, clauses(other)) >= ReorderedShare {
		return true
	}
	return paraphrasedScore(paraphraseScore(t.para, prepareLines(lo)))
}

// paddedCopyOf is NearCopyOf's containment test for a t far longer than
// other: most of other's shingles are in t, and most of t's distinct
// shingles come from other.
func (t *Text) paddedCopyOf(other string) bool {
	o := New(other)
	if len(t.sh) > 2*len(other) {
		// More distinct shingles than other has words: its own text,
		// unless they are in fences after a copy (proseCopyOf).
		return t.proseCopyOf(o)
	}
	contained, share := t.overlap(o)
	return contained >= Contained && share >= Share || t.proseCopyOf(o)
}

// reworded: the earlier text, split into lines lo, with its words swapped
// one for one (reworded.go).
func (t *Text) reworded(lo [][]string) bool {
	if len(t.lines) > maxReworded || len(lo) > maxReworded {
		return false
	}
	s, _, _ := rewordedScore(t.lines, lo)
	return s >= RewordedShare
}

// overlap returns the share of o's shingles found in t (how much of the
// earlier text t repeats) and the share of t's shingles found in o (how
// much of t is the earlier text); 0, 0 for texts too short to judge.
func (t *Text) overlap(o *Text) (contained, share float64) {
	if len(t.sh) < minShingles || len(o.sh) < minShingles {
		return 0, 0
	}
	inter := t.common(o)
	return float64(inter) / float64(len(o.sh)), float64(inter) / float64(len(t.sh))
}

func (t *Text) common(o *Text) int {
	inter := 0
	for k := range t.sh {
		if _, ok := o.sh[k]; ok {
			inter++
		}
	}
	return inter
}

func (t *Text) similarity(o *Text) float64 {
	if t.joined == o.joined {
		return 1
	}
	if len(t.sh) < minShingles || len(o.sh) < minShingles {
		return 0
	}
	inter := t.common(o)
	return float64(inter) / float64(len(t.sh)+len(o.sh)-inter)
}

// Similarity is the Jaccard similarity of a's and b's shingles, after
// normalising (Words); 1 for equal word lists.
func Similarity(a, b string) float64 { return New(a).similarity(New(b)) }

// Is reports whether a is a near copy of b.
func Is(a, b string) bool { return New(a).NearCopyOf(b) }
