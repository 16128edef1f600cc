package protocolspec

import (
	"slices"
	"strings"
)

// hasWord reports whether text holds one of words as a whole word, in any
// case: what `(?i)\b(w1|w2|...)\b` matches, without a regexp (it runs on
// every requirement of a document). A word is a run of [0-9A-Za-z_];
// words are lower case. after, when not "", must follow a match of before
// as the next word, one space apart ("in case").
//
// A word's bytes are ASCII, so it is lowered into a buffer on the stack:
// strings.ToLower allocated for every capitalised word, and this runs on
// every requirement several times.
func hasWord(text string, words *wordSet, before, after string) bool {
	var buf, prev [16]byte // the words looked for are short
	prevN, prevEnd := 0, -1
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		if n := j - i; n <= len(buf) {
			for k := 0; k < n; k++ {
				c := text[i+k]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf[k] = c
			}
			lw := buf[:n]
			if words.has(lw) || after != "" && string(prev[:prevN]) == before && string(lw) == after && text[prevEnd:i] == " " {
				return true
			}
			prev, prevN, prevEnd = buf, n, j
		} else {
			prevN = 0 // no word looked for is this long
		}
		i = j
	}
	return false
}

// wordSet is a small set of lower-case words kept by first letter: a
// lookup compares the few words starting with the same letter, and most
// words of a text start with none of them. (A map hashed every word.)
type wordSet struct {
	first   uint32 // bit c-'a' for each first letter c
	byFirst [26][]string
}

func newWordSet(words ...string) wordSet {
	var s wordSet
	for _, w := range words {
		c := w[0] - 'a'
		s.first |= 1 << c
		s.byFirst[c] = append(s.byFirst[c], w)
	}
	return s
}

// has reports whether the (lower-case, non-empty) word w is in s.
func (s *wordSet) has(w []byte) bool {
	c := w[0]
	if c < 'a' || c > 'z' {
		return false
	}
	for _, x := range s.byFirst[c-'a'] {
		if x == string(w) {
			return true
		}
	}
	return false
}

// Word classes of a requirement, found in one pass (wordsOf).
const (
	wordWhen        uint8 = 1 << iota // IsConditional: requirementConditionals or "in case"
	wordConditional                   // isConditional: conditionalWords
	wordCreation                      // creationWords
)

// reqWords is what the walk asks of a requirement's words, read once:
// settling the phase and inferring checks each asked again, scanning and
// lower-casing the text every time.
type reqWords struct {
	flags uint8
	cues  cue    // the inference rules' phrases its lower-cased text holds (cues.go)
	text  string // inferText of the requirement: an imperative read again cost a parse of its words
}

var inCase = newWordSet("in", "case")

// wordsOf reads text's word classes as hasWord reads each of them, and
// its cues. The text is lowered once, on the stack, and its words are
// read from that copy.
func wordsOf(text string) reqWords {
	var buf [256]byte // most requirements are shorter: no allocation
	low := buf[:0]
	ascii := true
	for i := 0; i < len(text); i++ {
		c := text[i]
		ascii = ascii && c < 0x80
		low = append(low, lowerASCII(c))
	}
	flags := wordFlags(low)
	if !ascii {
		// The cues are phrases of strings.ToLower's text (the classes
		// are words of ASCII letters, lowered as above).
		low = append(low[:0], strings.ToLower(text)...)
	}
	return reqWords{flags: flags, cues: cuesOf(low), text: text}
}

// wordFlags reads the word classes of text whose ASCII letters are
// lower case.
func wordFlags(low []byte) uint8 {
	var flags uint8
	prevStart, prevEnd := 0, -1 // the word before, when it may be "in"
	for i := 0; i < len(low); {
		if !isWordByte(low[i]) {
			i++
			continue
		}
		j := i
		for j < len(low) && isWordByte(low[j]) {
			j++
		}
		c := low[i]
		if c < 'a' || c > 'z' || classWords[c-'a'] == nil {
			prevEnd = -1 // not a word of any class, nor "in"
			i = j
			continue
		}
		w := low[i:j]
		for _, cw := range classWords[c-'a'] {
			if cw.word == string(w) {
				flags |= cw.flags
			}
		}
		if prevEnd >= 0 && string(w) == "case" && string(low[prevStart:prevEnd]) == "in" && string(low[prevEnd:i]) == " " {
			flags |= wordWhen
		}
		prevStart, prevEnd = i, j
		i = j
	}
	return flags
}

type classWord struct {
	word  string
	flags uint8
}

// classWords are the words of every class by first letter, each with the
// classes it is in, so a word is looked up once for all of them; "in"
// and "case" are there with no class, for "in case".
var classWords = func() (t [26][]classWord) {
	add := func(set *wordSet, flag uint8) {
		for _, ws := range set.byFirst {
			for _, w := range ws {
				k := w[0] - 'a'
				i := slices.IndexFunc(t[k], func(cw classWord) bool { return cw.word == w })
				if i < 0 {
					i = len(t[k])
					t[k] = append(t[k], classWord{word: w})
				}
				t[k][i].flags |= flag
			}
		}
	}
	add(&requirementConditionals, wordWhen)
	add(&conditionalWords, wordConditional)
	add(&creationWords, wordCreation)
	add(&inCase, 0)
	return t
}()
