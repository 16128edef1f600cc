package protocolspec

import "strings"

// hasWord reports whether text holds one of words as a whole word, in any
// case: what `(?i)\b(w1|w2|...)\b` matches, without a regexp (it runs on
// every requirement of a document). A word is a run of [0-9A-Za-z_];
// words are lower case. after, when not "", must follow a match of before
// as the next word, one space apart ("in case").
func hasWord(text string, words map[string]bool, before, after string) bool {
	prev, prevEnd := "", -1
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		w := text[i:j]
		if j-i <= 16 { // the words looked for are short
			lw := strings.ToLower(w)
			if words[lw] || after != "" && prev == before && lw == after && text[prevEnd:i] == " " {
				return true
			}
			prev, prevEnd = lw, j
		} else {
			prev = ""
		}
		i = j
	}
	return false
}
