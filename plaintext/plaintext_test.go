package plaintext

import (
	"errors"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/errclass"
)

// TestCheck: plain text passes; what could rewrite a terminal or reorder
// what it shows is refused as the caller's mistake.
func TestCheck(t *testing.T) {
	tests := []struct {
		name, s   string
		multiline bool
		bad       string // "" when it passes, else a part of the message
	}{
		{"plain", "Add a name", false, ""},
		{"tab", "a\tb", false, ""},
		{"newline where multi-line", "one\ntwo\r\n", true, ""},
		{"newline where one line", "one\ntwo", false, "U+000A"},
		{"escape sequence", "ok\x1b[2J", true, "ESC (U+001B)"},
		{"bidirectional override", "abc\u202edcba", true, "U+202E"},
		{"bidirectional isolate", "abc\u2066x", true, "U+2066"},
		{"line separator", "a\u2028b", true, "U+2028"},
		{"not UTF-8", "a\xffb", true, "not valid UTF-8"},
		{"too long", strings.Repeat("a", 11), true, "11 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check("objective", tt.s, 10, tt.multiline)
			if tt.bad == "" {
				if err != nil {
					t.Errorf("Check(%q) = %v, want nil", tt.s, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.bad) || !strings.HasPrefix(err.Error(), "objective ") {
				t.Fatalf("Check(%q) = %v, want an error about objective naming %q", tt.s, err, tt.bad)
			}
			if !errors.Is(err, errclass.ErrInvalid) {
				t.Errorf("Check(%q) is not an invalid request: %v", tt.s, err)
			}
		})
	}
}
