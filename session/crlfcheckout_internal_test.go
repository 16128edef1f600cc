package session

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckoutOf: a protected file's CRLF checkout of the committed text
// is that text (t7's false block at every session start); any other byte
// that differs is still a change.
func TestCheckoutOf(t *testing.T) {
	hash := func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:]) }
	const committed = "# Protocol\n\nThe agent MUST run the tests.\n"
	tests := []struct {
		name, worktree string
		want           bool
	}{
		{"crlf checkout", "# Protocol\r\n\r\nThe agent MUST run the tests.\r\n", true},
		{"mixed line ends of the same text", "# Protocol\r\n\nThe agent MUST run the tests.\r\n", true},
		{"identical bytes are no checkout question", committed, false},
		{"crlf and a changed word", "# Protocol\r\n\r\nThe agent MAY run the tests.\r\n", false},
		{"lone CR added", "# Protocol\r\r\n\r\nThe agent MUST run the tests.\r\n", false},
		{"crlf and a line added", "# Protocol\r\n\r\nThe agent MUST run the tests.\r\nOr not.\r\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.WriteFile(filepath.Join(root, "P.md"), []byte(tc.worktree), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := checkoutOf(root, "P.md", hash(tc.worktree), hash(committed)); got != tc.want {
				t.Fatalf("checkoutOf = %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("hash of other bytes than the file's", func(t *testing.T) {
		root := t.TempDir()
		crlf := "# Protocol\r\n\r\nThe agent MUST run the tests.\r\n"
		if err := os.WriteFile(filepath.Join(root, "P.md"), []byte(crlf), 0o644); err != nil {
			t.Fatal(err)
		}
		if checkoutOf(root, "P.md", hash("something else"), hash(committed)) {
			t.Fatal("a state hash the file no longer has was taken for its checkout")
		}
	})
	t.Run("outside the repository", func(t *testing.T) {
		if checkoutOf(t.TempDir(), "../P.md", hash("x\r\n"), hash("x\n")) {
			t.Fatal("a path out of the repository was read")
		}
	})
}
