package plaintext

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/sessiongate/sessiongate/errclass"
)

// Check validates free text a caller stores and sessiongate later
// prints (objective, reasons, summaries): bounded, UTF-8, and without
// control characters, so an escape sequence in a stored objective can never
// rewrite a person's terminal when `session list` prints it. Newlines and
// tabs are kept where multi-line text is expected (multiline).
func Check(field, s string, max int, multiline bool) error {
	if len(s) > max {
		return errclass.Invalidf("%s is %d bytes; keep it under %d", field, len(s), max)
	}
	if !utf8.ValidString(s) {
		return errclass.Invalidf("%s is not valid UTF-8: pass text in UTF-8", field)
	}
	for i, r := range s {
		if r == '\t' || multiline && (r == '\n' || r == '\r') {
			continue
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' {
			return errclass.Invalidf("%s holds the control character %s at byte %d: pass plain text (terminal escape sequences and bidirectional controls are refused)", field, describeRune(r), i)
		}
	}
	return nil
}

func describeRune(r rune) string {
	if r == 0x1b {
		return "ESC (U+001B)"
	}
	return fmt.Sprintf("U+%04X", r)
}
