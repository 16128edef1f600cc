// Package nearcopy tells whether one text is a near copy of another: the
// same words once ids, dates, times and numbers are made alike. An agent
// that copies an earlier session's log or report and changes its date,
// session number and commit ids has written nothing; an honest file from
// the same template says different things in its own words.
package nearcopy

import (
	"hash/fnv"
	"regexp"
	"strings"
	"sync"
)

// shingle is how many words make one shingle (a window of the text).
const shingle = 4

// Threshold is the Jaccard similarity of the two shingle sets at and above
// which a text is a near copy: a copy with ids and dates changed scores
// 1.0, with a sentence or two reworded about 0.9; two honest logs from
// one template share their headings and checklist, not their sentences.
const Threshold = 0.9

// minShingles: shorter texts are near copies only when their normalised
// words are equal (a few shared words are no copy).
const minShingles = 12

var (
	dateRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}:\d{2}(?::\d{2})?`)
	})
	hexRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[0-9a-f]{7,}\b`) })
	numRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d+`) })
	wordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[\p{L}\p{N}_#]+`) })
)

// Words is text lower-cased, with dates and times, hex ids of 7 or more
// digits and numbers each made one token, split into words.
func Words(text string) []string {
	t := strings.ToLower(text)
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

// shingles is the set of hashed windows of words.
func shingles(w []string) map[uint64]struct{} {
	out := map[uint64]struct{}{}
	for i := 0; i+shingle <= len(w); i++ {
		h := fnv.New64a()
		for _, x := range w[i : i+shingle] {
			h.Write([]byte(x))
			h.Write([]byte{0})
		}
		out[h.Sum64()] = struct{}{}
	}
	return out
}

// Similarity is the Jaccard similarity of a's and b's shingles, after
// normalising (Words); 1 for equal word lists.
func Similarity(a, b string) float64 {
	wa, wb := Words(a), Words(b)
	if strings.Join(wa, " ") == strings.Join(wb, " ") {
		return 1
	}
	sa, sb := shingles(wa), shingles(wb)
	if len(sa) < minShingles || len(sb) < minShingles {
		return 0
	}
	inter := 0
	for k := range sa {
		if _, ok := sb[k]; ok {
			inter++
		}
	}
	return float64(inter) / float64(len(sa)+len(sb)-inter)
}

// Is reports whether a is a near copy of b.
func Is(a, b string) bool { return len(Words(a)) > 0 && Similarity(a, b) >= Threshold }
