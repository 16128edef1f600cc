package streamsample

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"testing/iotest"
)

// TestRead: the hash and size cover every byte; the sample is the whole
// body up to the limit, else its first and last halves of the limit.
func TestRead(t *testing.T) {
	const limit = 8
	tests := []struct {
		name, body, sample string
		truncated          bool
	}{
		{"empty", "", "", false},
		{"under the limit", "abc", "abc", false},
		{"at the limit", "abcdefgh", "abcdefgh", false},
		// Failed on the old code: the end was only the bytes past the
		// limit ("abcd\n…\ni", "abcd\n…\nij").
		{"one over", "abcdefghi", "abcd\n…\nfghi", true},
		{"two over", "abcdefghij", "abcd\n…\nghij", true},
		{"half over", "abcdefghijkl", "abcd\n…\nijkl", true},
		{"far over", strings.Repeat("x", 100) + "tail", "xxxx\n…\ntail", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// One byte a read: the halves are kept across reads.
			b, err := Read(iotest.OneByteReader(strings.NewReader(tt.body)), limit)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256([]byte(tt.body))
			if b.SHA256 != hex.EncodeToString(sum[:]) || b.Size != int64(len(tt.body)) {
				t.Errorf("sha256 %s size %d, want the whole body's %x and %d", b.SHA256, b.Size, sum, len(tt.body))
			}
			if b.Sample != tt.sample || b.Truncated != tt.truncated {
				t.Errorf("sample %q truncated %v, want %q %v", b.Sample, b.Truncated, tt.sample, tt.truncated)
			}
		})
	}
}

// TestReadError: a failed read is the step's error, not a short body.
func TestReadError(t *testing.T) {
	if _, err := Read(iotest.ErrReader(iotest.ErrTimeout), 8); err == nil || !strings.Contains(err.Error(), "read the evidence") {
		t.Errorf("err = %v, want the read's error wrapped", err)
	}
}
