package protocolspec

// hasWord reports whether text holds one of words as a whole word, in any
// case: what `(?i)\b(w1|w2|...)\b` matches, without a regexp (it runs on
// every requirement of a document). A word is a run of [0-9A-Za-z_];
// words are lower case. after, when not "", must follow a match of before
// as the next word, one space apart ("in case").
//
// A word's bytes are ASCII, so it is lowered into a buffer on the stack:
// strings.ToLower allocated for every capitalised word, and this runs on
// every requirement several times.
func hasWord(text string, words map[string]bool, before, after string) bool {
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
			if words[string(lw)] || after != "" && string(prev[:prevN]) == before && string(lw) == after && text[prevEnd:i] == " " {
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
