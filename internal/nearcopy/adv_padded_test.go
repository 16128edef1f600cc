package nearcopy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPaddedCopyOfRealLog (r16 t9 review): a copy of an earlier real
// session log (ids and dates changed) made more than twice its size was
// never compared: NearCopyOf returned at the size gate. The copy pasted
// twice, or followed by a repeated filler line, adds few shingles of its
// own, so it is a near copy however long it is. Honest twins: a log of
// its own words twice the earlier one's size (92 followed by the real
// protocol), and the real logs by each other.
func TestPaddedCopyOfRealLog(t *testing.T) {
	dir := os.Getenv("SESSIONGATE_FIXTURES")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "fixtures")
	}
	dir = filepath.Join(dir, "ai-agents")
	read := func(n string) string {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("the real session logs are required under CI=true: %v", err)
			}
			t.Skipf("real session logs not found (%v): set SESSIONGATE_FIXTURES", err)
		}
		return string(b)
	}
	l91 := read("session-log_canonical-md_2025-12-26-session-91_at-4a00fca3b.md")
	l92 := read("session-log_noncanonical-md_2025-12-27-session-92_at-4a00fca3b.md")
	proto := read("SESSION-PROTOCOL_2025-12-22_3821367d2.md")
	c91 := strings.NewReplacer("2025-12-26", "2026-11-30", "91", "93").Replace(l91)
	for _, c := range []struct {
		name, text, earlier string
		want                bool
	}{
		{"the copy pasted twice", c91 + "\n" + c91, l91, true},
		{"the copy pasted three times", c91 + "\n" + c91 + "\n" + c91, l91, true},
		{"the copy and a repeated filler line", c91 + "\n" + strings.Repeat("Work continued as planned.\n", len(l91)/20), l91, true},
		{"honest: 92 and the protocol after it, vs 91", l92 + "\n" + proto, l91, false},
		{"honest: 91 and 92, vs 92 (more than twice 92, half its own)", l91 + "\n" + l92[:len(l92)/5], l92[:len(l92)/2], false},
		{"honest: 92 vs 91", l92, l91, false},
	} {
		if got := Is(c.text, c.earlier); got != c.want {
			x, y := New(c.text), New(c.earlier)
			in, share := x.overlap(y)
			t.Errorf("%s: near copy %v, want %v (contained %.2f, share %.2f)", c.name, got, c.want, in, share)
		}
	}
}
