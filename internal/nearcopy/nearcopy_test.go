package nearcopy

import (
	"strings"
	"testing"
)

const log01 = `# Session 01 - 2025-12-17

## Work log

- Added scripts/greet.sh, which prints a greeting; commit 3f9a2c1d.
- The test script checks three names and the empty argument.
- Lint: markdownlint-cli2 reported 0 errors in 4 files.

## Decisions

Kept the script POSIX sh so it runs in CI's minimal image without bash.
Next session: document the usage in the README and add a --help flag.
`

func TestNearCopy(t *testing.T) {
	cases := []struct {
		name string
		a    string
		want bool
	}{
		{"ids, dates and numbers changed", strings.NewReplacer("01", "02", "2025-12-17", "2026-08-20", "3f9a2c1d", "9bc41e07", "three", "three", "4 files", "6 files").Replace(log01), true},
		{"a line reworded", strings.Replace(log01, "so it runs in CI's minimal image without bash", "so that it runs in the CI image", 1), false},
		{"same template, own words", `# Session 02 - 2026-08-20

## Work log

- The greeting takes an optional name; scripts/test.sh covers six names.
- Found that the CI image has no bash, so the test uses sh -e.

## Decisions

Left the README for the next session; the name argument is documented in the script header.
`, false},
		{"short texts equal but for a date", "Done on 2025-12-17.", true},
		{"short texts differ", "Done on 2025-12-17.", false},
	}
	cases[4].a = "Nothing done."
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := log01
			if strings.HasPrefix(c.name, "short") {
				b = "Done on 2026-08-20."
			}
			if got := Is(c.a, b); got != c.want {
				t.Errorf("Is = %v (similarity %.2f), want %v", got, Similarity(c.a, b), c.want)
			}
		})
	}
}

// BenchmarkSimilarity: two 4 KiB logs, compared as StartCopy compares a
// session's file with each of a folder's earlier ones.
func BenchmarkSimilarity(b *testing.B) {
	a, c := strings.Repeat(log01, 8), strings.Repeat(strings.ReplaceAll(log01, "2025", "2026"), 8)
	for b.Loop() {
		Similarity(a, c)
	}
}

// BenchmarkNormalizeSpacePeer is the peer: what the exact comparison
// StartCopy made before costs on the same texts (white space folded, bytes
// compared), so the figure is a ratio that load does not skew.
func BenchmarkNormalizeSpacePeer(b *testing.B) {
	a, c := strings.Repeat(log01, 8), strings.Repeat(strings.ReplaceAll(log01, "2025", "2026"), 8)
	for b.Loop() {
		_ = strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(c), " ")
	}
}
