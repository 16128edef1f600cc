package nearcopy

import "strings"

// A copy paraphrased lightly (an agent asked to "reword the last handoff":
// lines re-wrapped, sentences and list items reordered, merged or split, a
// word in three to five swapped for a synonym, a few added or dropped, ids
// and dates changed) keeps few 4-word shingles and few lines of the same
// length, so neither the shingle tests nor Reworded see it. What it keeps
// is its vocabulary: most of the earlier text's content words (function
// words aside, each cut to six letters), and a good part of their
// neighbouring pairs, in the text taken as one run (re-wrapping and line
// order move neither). The lines both texts hold (a template's headings
// and checklist, which say nothing about who wrote the rest) are set aside
// first; each share is taken both ways and the smaller counts.

// ParaphraseWords and ParaphrasePairs: a text is a paraphrased copy when
// at least ParaphraseWords of the content words, and ParaphrasePairs of
// the neighbouring content-word pairs, of each text are in the other.
// Measured on the real team's session logs (rjmurillo/ai-agents, 405
// Markdown logs with at least 20 content words of their own, each with its
// 15 neighbours by name: 5,955 honest pairs): the highest word share was
// 0.68 (p99.9 0.63, median 0.34), so none is flagged; the same logs
// paraphrased (TestParaphrasedRealLogs' paraphrase: ids changed, a word
// added after every ninth and every thirteenth dropped, neighbouring lines
// and paragraphs swapped, prose re-wrapped) with every fifth long word
// swapped: 404 of 405 flagged, every fourth 400, every third 278. The
// margin over honest logs is small (0.68 against 0.70); a paraphrase that
// swaps every second word, or rewrites each sentence, is not seen.
const (
	ParaphraseWords = 0.7
	ParaphrasePairs = 0.25
)

// minContent: fewer distinct content words than this on either side (once
// the shared lines are set aside) is too little text to tell.
const minContent = 20

// stop are function words a paraphrase adds, drops and swaps freely.
var stop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but nor so yet of to in on at by for with from into onto
		upon about as than then that this these those there here it its is are was were be been being am
		has have had having do does did done will would shall should can could may might must not no
		we our us you your they them their he she his her i me my which who whom whose what when where
		why how all any each both some such also only just very more most other same own too again
		after before over under out up down off once while during through per via if else because
		#n #date #id`) {
		m[w] = true
	}
	return m
}()

// prepared is a text split once into normalised lines and their content
// words, to be compared with many others.
type prepared struct {
	lines   []string   // normalised words of each non-blank line
	content [][]string // the content words of each line
}

func prepare(text string) *prepared { return prepareLines(lineWords(text)) }

// prepareLines is prepare of a text already split (lineWords).
func prepareLines(lines [][]string) *prepared {
	p := &prepared{lines: make([]string, 0, len(lines)), content: make([][]string, 0, len(lines))}
	for _, w := range lines {
		var c []string
		for _, x := range w {
			if stop[x] {
				continue
			}
			if r := []rune(x); len(r) > 6 {
				x = string(r[:6])
			}
			c = append(c, x)
		}
		p.lines = append(p.lines, strings.Join(w, " "))
		p.content = append(p.content, c)
	}
	return p
}

// vocabulary is the set of content words and the set of neighbouring
// content-word pairs of the lines of p not in shared, taken as one run
// (line breaks do not count).
func (p *prepared) vocabulary(shared map[string]bool) (words, pairs map[string]struct{}) {
	words = make(map[string]struct{}, len(p.lines)*4)
	pairs = make(map[string]struct{}, len(p.lines)*4)
	prev := ""
	for i, l := range p.lines {
		if shared[l] {
			continue
		}
		for _, w := range p.content[i] {
			words[w] = struct{}{}
			if prev != "" {
				pairs[prev+" "+w] = struct{}{}
			}
			prev = w
		}
	}
	return words, pairs
}

// paraphraseScore returns the smaller of the two texts' shares of
// distinct content words found in the other, and the same of their
// content-word pairs; 0, 0 when either has fewer than minContent content
// words once the lines both hold are set aside.
func paraphraseScore(a, b *prepared) (words, pairs float64) {
	inA := make(map[string]bool, len(a.lines))
	for _, l := range a.lines {
		inA[l] = true
	}
	shared := map[string]bool{}
	for _, l := range b.lines {
		if inA[l] {
			shared[l] = true
		}
	}
	wa, pa := a.vocabulary(shared)
	wb, pb := b.vocabulary(shared)
	if len(wa) < minContent || len(wb) < minContent {
		return 0, 0
	}
	return minShare(wa, wb), minShare(pa, pb)
}

// minShare is the smaller of |a∩b|/|a| and |a∩b|/|b| (0 for an empty set).
func minShare(a, b map[string]struct{}) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	inter := 0
	for k := range a {
		if _, ok := b[k]; ok {
			inter++
		}
	}
	return float64(inter) / float64(max(len(a), len(b)))
}

// Paraphrased reports whether a is b lightly paraphrased (or b a).
func Paraphrased(a, b string) bool {
	return paraphrasedScore(paraphraseScore(prepare(a), prepare(b)))
}

func paraphrasedScore(words, pairs float64) bool {
	return words >= ParaphraseWords && pairs >= ParaphrasePairs
}
