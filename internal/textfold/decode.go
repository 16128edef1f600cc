package textfold

import (
	"bytes"
	"unicode/utf16"
)

// Decode returns b as UTF-8 text: UTF-16 (little- or big-endian, by its
// byte-order mark or, without one, by where its NUL bytes fall) is
// decoded and a UTF-8 byte-order mark dropped; anything else is returned
// as it is. A handoff written in UTF-16 (`iconv -t UTF-16`, Windows
// PowerShell's Out-File) read as UTF-8 is "[\x00w\x00h..." and matched no
// placeholder, so a template left unfilled passed as a handoff.
func Decode(b []byte) []byte {
	switch {
	case bytes.HasPrefix(b, []byte{0xef, 0xbb, 0xbf}):
		return b[3:]
	case bytes.HasPrefix(b, []byte{0xff, 0xfe}):
		return decode16(b[2:], false)
	case bytes.HasPrefix(b, []byte{0xfe, 0xff}):
		return decode16(b[2:], true)
	case looks16(b):
		return decode16(b, b[0] == 0)
	}
	return b
}

// looks16 reports whether b reads as UTF-16 without a byte-order mark:
// mostly Latin text, so one byte of nine pairs in ten is NUL, always on
// the same side.
func looks16(b []byte) bool {
	if len(b) < 2 || len(b)%2 != 0 || bytes.IndexByte(b, 0) < 0 {
		return false
	}
	var even, odd int
	for i := 0; i+1 < len(b); i += 2 {
		if b[i] == 0 {
			even++
		}
		if b[i+1] == 0 {
			odd++
		}
	}
	pairs := len(b) / 2
	return even*10 >= pairs*9 && odd == 0 || odd*10 >= pairs*9 && even == 0
}

// decode16 decodes UTF-16 code units (a lone surrogate becomes U+FFFD).
func decode16(b []byte, bigEndian bool) []byte {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		if bigEndian {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		} else {
			u = append(u, uint16(b[i])|uint16(b[i+1])<<8)
		}
	}
	return []byte(string(utf16.Decode(u)))
}
