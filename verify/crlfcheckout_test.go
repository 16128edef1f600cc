package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestCRLFCheckout: verify takes a session's hash of a CRLF checkout for
// the committed LF text (t7), and nothing else.
func TestCRLFCheckout(t *testing.T) {
	hash := func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:]) }
	tests := []struct {
		name, committed, session string
		want                     bool
	}{
		{"crlf checkout", "a\nb\n", "a\r\nb\r\n", true},
		{"a changed word", "a\nb\n", "a\r\nc\r\n", false},
		{"committed with CR already", "a\r\nb\n", "a\r\r\nb\r\n", false},
		{"no line at all", "ab", "ab", false},
		{"half converted", "a\nb\n", "a\r\nb\n", false},
		{"empty hash", "a\n", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sha := ""
			if tc.session != "" {
				sha = hash(tc.session)
			}
			if got := crlfCheckout([]byte(tc.committed), sha); got != tc.want {
				t.Fatalf("crlfCheckout = %v, want %v", got, tc.want)
			}
		})
	}
}
