package textfold

import (
	"testing"
	"unicode/utf16"
)

func enc16(s string, bigEndian, bom bool) []byte {
	var b []byte
	if bom {
		if bigEndian {
			b = []byte{0xfe, 0xff}
		} else {
			b = []byte{0xff, 0xfe}
		}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

func TestDecode(t *testing.T) {
	const text = "# Handoff\n\n## Done\n\n[what was completed]\n"
	for _, tt := range []struct {
		name string
		in   []byte
		want string
	}{
		{"UTF-8", []byte(text), text},
		{"UTF-8 with a byte-order mark", append([]byte{0xef, 0xbb, 0xbf}, text...), text},
		{"UTF-16LE with a byte-order mark", enc16(text, false, true), text},
		{"UTF-16BE with a byte-order mark", enc16(text, true, true), text},
		{"UTF-16LE without one", enc16(text, false, false), text},
		{"UTF-16BE without one", enc16(text, true, false), text},
		{"UTF-16 beyond the BMP", enc16("done 🎉 é", false, true), "done 🎉 é"},
		{"binary with NULs is left alone", []byte{0x89, 'P', 'N', 'G', 0, 0, 0, 0x0d, 'I', 'H'}, "\x89PNG\x00\x00\x00\x0dIH"},
		{"odd length is not UTF-16", []byte("a\x00b\x00c"), "a\x00b\x00c"},
		{"empty", nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(Decode(tt.in)); got != tt.want {
				t.Errorf("Decode = %q, want %q", got, tt.want)
			}
		})
	}
}
