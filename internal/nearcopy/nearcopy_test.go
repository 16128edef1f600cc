package nearcopy

import (
	"os"
	"path/filepath"
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
		// Every line but one repeated: the earlier log under a new hand.
		{"a line reworded", strings.Replace(log01, "so it runs in CI's minimal image without bash", "so that it runs in the CI image", 1), true},
		{"same template, own words", `# Session 02 - 2026-08-20

## Work log

- The greeting takes an optional name; scripts/test.sh covers six names.
- Found that the CI image has no bash, so the test uses sh -e.

## Decisions

Left the README for the next session; the name argument is documented in the script header.
`, false},
		{"renumbered and padded with a sentence", strings.NewReplacer("01", "02", "2025-12-17", "2026-08-20").Replace(log01) +
			"\nThe greeting works with several names now, and the tests cover them all.\n", true},
		// All of the earlier log, and half of the new one.
		{"renumbered, a paragraph of its own added", strings.NewReplacer("01", "02", "2025-12-17", "2026-08-20").Replace(log01) + `
## Follow-up

- The greeting takes an optional name now; scripts/test.sh covers six names.
- Found that the CI image has no bash, so the test uses sh -e instead.
- The README gained a usage section with two examples and the exit codes.
- Reviewed the lint output: no warnings, and the config is unchanged.
`, true},
		{"two lines of the earlier log kept, the rest its own", `# Session 02 - 2026-08-20

## Work log

- Added scripts/greet.sh, which prints a greeting; commit 9bc41e07.
- The greeting takes an optional name; scripts/test.sh covers six names.
- Found that the CI image has no bash, so the test uses sh -e.

## Decisions

Kept the script POSIX sh so it runs in CI's minimal image without bash.
Left the README for the next session; the name argument is documented in the script header.
`, false},
		{"short texts equal but for a date", "Done on 2025-12-17.", true},
		{"short texts differ", "Done on 2025-12-17.", false},
	}
	cases[7].a = "Nothing done."
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

// TestRealLogsAreNotCopies: two honest session logs of the real team
// (../shared/fixtures), written from one template, are no near copy of
// each other either way, nor is either of them with a paragraph of the
// other quoted in it.
func TestRealLogsAreNotCopies(t *testing.T) {
	dir := os.Getenv("SESSIONGATE_FIXTURES")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "fixtures")
	}
	dir = filepath.Join(dir, "ai-agents")
	names := []string{"session-log_canonical-md_2025-12-26-session-91_at-4a00fca3b.md", "session-log_noncanonical-md_2025-12-27-session-92_at-4a00fca3b.md"}
	var logs []string
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("the real session logs are required under CI=true: %v", err)
			}
			t.Skipf("real session logs not found (%v): set SESSIONGATE_FIXTURES", err)
		}
		logs = append(logs, string(b))
	}
	quoted := logs[1] + "\n" + logs[0][:len(logs[0])/5]
	for _, c := range []struct{ name, a, b string }{
		{"92 after 91", logs[1], logs[0]},
		{"91 after 92", logs[0], logs[1]},
		{"92 quoting a fifth of 91", quoted, logs[0]},
	} {
		if Is(c.a, c.b) {
			x, y := New(c.a), New(c.b)
			in, share := x.overlap(y)
			t.Errorf("%s: judged a near copy (similarity %.2f, contained %.2f, share %.2f)", c.name, x.similarity(y), in, share)
		}
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
