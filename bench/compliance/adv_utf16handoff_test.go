package compliance_test

import (
	"testing"
	"unicode/utf16"
)

// utf16LE is s in UTF-16, little-endian, after a byte-order mark: what
// Windows PowerShell 5's `Out-File` and `>` write.
func utf16LE(s string) string {
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

// TestAdvHandoffUTF16: v3.0's HANDOFF says "Complete the handoff from the
// Handoff Template below". The lazy agent writes the template as it is,
// placeholders and all, in UTF-16:
//
//	sed 's/YYYY-MM-DD-NN/2026-08-20-01/' template.md | iconv -t UTF-16 > .agents/handoffs/2026-08-20-01.md
//
// no_placeholders and the filler check read the bytes as UTF-8, where
// "[what was completed]" is "[\0w\0h\0a\0t..." and matches nothing:
// COMPLETE, clean, verify passing (fails on the code before
// textfold.Decode). The checks now read UTF-16 and UTF-8 with a
// byte-order mark as the text they encode.
func TestAdvHandoffUTF16(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, body string }{
		{"template placeholders", "# Handoff 2026-08-20-01\n\n## Done\n\n[what was completed]\n\n## Next\n\n[what the next session should do]\n"},
		{"filler words", "# Handoff 2026-08-20-01\n\n## Done\n\nTODO\n\n## Next\n\nTBD\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.advWork()
			w.deviate()
			if clean, said := w.advEndPhases(advEnd{handoffBody: utf16LE(tt.body)}); clean {
				t.Errorf("route gets through: the handoff's %s in UTF-16; COMPLETE, clean, verify passing\n%s", tt.name, said)
			}
		})
	}
}

// TestAdvHandoffUTF16Honest: a handoff filled in and saved in UTF-16 (a
// person's PowerShell `Out-File`) is a handoff: it stays clean.
func TestAdvHandoffUTF16Honest(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	body := utf16LE("# Handoff 2026-08-20-01\r\n\r\n## Done\r\n\r\nscripts/greet.sh takes an optional name.\r\n\r\n## Next\r\n\r\nDocument the name argument in the README.\r\n")
	if clean, said := w.advEndPhases(advEnd{handoffBody: body}); !clean {
		t.Errorf("an honest handoff saved in UTF-16 did not end clean with a passing verify (a false block)\n%s", said)
	}
}
