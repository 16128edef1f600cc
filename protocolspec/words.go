package protocolspec

import "strings"

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
	cues  cue // the inference rules' phrases its lower-cased text holds (cues.go)
}

// classFirst holds the first letters of the words of every class (and of
// "in case"): a word starting otherwise is not lowered nor looked up.
var classFirst = letters(&requirementConditionals, &conditionalWords, &creationWords, &inCase)

var inCase = newWordSet("in", "case")

// letterSet is a set of the letters a-z.
type letterSet uint32

func letters(sets ...*wordSet) letterSet {
	var l letterSet
	for _, s := range sets {
		l |= letterSet(s.first)
	}
	return l
}

func (l letterSet) has(c byte) bool { return 'a' <= c && c <= 'z' && l&(1<<(c-'a')) != 0 }

// wordsOf reads text's word classes as hasWord reads each of them.
func wordsOf(text string) reqWords {
	var buf, prev [16]byte
	prevN, prevEnd := 0, -1
	var flags uint8
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		if n := j - i; n <= len(buf) && classFirst.has(lowerASCII(text[i])) {
			for k := 0; k < n; k++ {
				buf[k] = lowerASCII(text[i+k])
			}
			lw := buf[:n]
			if requirementConditionals.has(lw) || string(prev[:prevN]) == "in" && string(lw) == "case" && text[prevEnd:i] == " " {
				flags |= wordWhen
			}
			if conditionalWords.has(lw) {
				flags |= wordConditional
			}
			if creationWords.has(lw) {
				flags |= wordCreation
			}
			prev, prevN, prevEnd = buf, n, j
		} else {
			prevN = 0 // not a word of any class, nor "in"
		}
		i = j
	}
	var lower [256]byte // most requirements are shorter: no allocation
	return reqWords{flags: flags, cues: cuesOf(lowerInto(lower[:0], text))}
}

// lowerInto appends strings.ToLower(text) to buf, a byte at a time when
// text is ASCII.
func lowerInto(buf []byte, text string) []byte {
	if !isASCIIText(text) {
		return append(buf, strings.ToLower(text)...)
	}
	for i := 0; i < len(text); i++ {
		buf = append(buf, lowerASCII(text[i]))
	}
	return buf
}
