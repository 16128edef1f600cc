package nearcopy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopyPaddedWithHiddenText (round 17): an earlier handoff renumbered
// and followed by an HTML comment as long as it was no near copy: the
// comment's shingles halved the copied share. Judged on the visible text
// it is; an honest handoff that keeps a comment, or quotes a line of the
// earlier one, is not.
func TestCopyPaddedWithHiddenText(t *testing.T) {
	earlier := "# Handoff 2026-08-19-01\n\n## Done\n\nscripts/greet.sh prints a greeting; scripts/test.sh checks it (commit 3f9a2c1d).\n" +
		"The script stays POSIX sh so it runs in the CI image without bash.\n\n" +
		"## Next\n\nAdd a name argument to the greeting script, and check it with several names in scripts/test.sh.\n"
	copied := strings.NewReplacer("2026-08-19-01", "2026-08-20-01", "3f9a2c1d", "b41c07e2").Replace(earlier)
	var pad strings.Builder
	for i := 0; i < 600; i++ {
		pad.WriteString(string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + "lorem ")
	}
	honest := "# Handoff 2026-08-20-01\n\n<!-- from the Handoff Template -->\n\n## Done\n\nscripts/greet.sh takes an optional name; " +
		"scripts/test.sh checks six names. The script stays POSIX sh.\n\n## Next\n\nDocument the scripts' usage in the README, with an example per name form.\n"
	for _, tt := range []struct {
		name, text string
		want       bool
	}{
		{"copy and a comment after it", copied + "\n<!--\n" + pad.String() + "\n-->\n", true},
		{"copy and a comment never closed", copied + "\n<!--\n" + pad.String(), true},
		{"a comment before the copy", "<!-- " + pad.String() + " -->\n" + copied, true},
		{"copy and a fenced block after it", copied + "\n```text\n" + pad.String() + "\n```\n", true},
		{"copy and a fence never closed", copied + "\n~~~\n" + pad.String(), true},
		{"honest: a comment of its own", honest, false},
		{"honest: its own words and a long fenced output", honest + "```text\n" + pad.String() + "\n```\n", false},
		{"honest: its own words in a long comment", honest + "<!--\n" + pad.String() + "\n-->\n", false},
	} {
		if got := Is(tt.text, earlier); got != tt.want {
			t.Errorf("%s: near copy %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := Visible("a <!-- b --> c <!-- d"); got != "a   c  " {
		t.Errorf("Visible = %q", got)
	}
	if got := Prose("a\n```go\nb\n```\nc\n~~~\nd\n"); got != "a\nc\n" {
		t.Errorf("Prose = %q", got)
	}
}

// TestHiddenAndFencedRealLogs: on the real team's logs (realLogs: the
// fixtures' two, or SESSIONGATE_LOGS_DIR), no honest log is a copy of a
// neighbour by the round-17 rules: comments set aside, or its prose
// (fences set aside) holding the other.
func TestHiddenAndFencedRealLogs(t *testing.T) {
	names := realLogs(t)
	texts := make([]*Text, len(names))
	rawSh := make([]map[uint64]struct{}, len(names)) // comments kept, as before round 17
	for i, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		texts[i], rawSh[i] = New(string(b)), shingles(Words(string(b)))
	}
	const neighbours = 15
	pairs, flagged, hidden := 0, 0, 0
	for i := range texts {
		for j := max(0, i-neighbours); j < len(texts) && j <= i+neighbours; j++ {
			if i == j {
				continue
			}
			pairs++
			a, b := texts[i], texts[j]
			if a.proseCopyOf(b) {
				flagged++
				t.Errorf("honest %s: its prose holds %s", filepath.Base(names[i]), filepath.Base(names[j]))
			}
			c1, s1 := (&Text{sh: rawSh[i]}).overlap(&Text{sh: rawSh[j]})
			c2, s2 := a.overlap(b)
			if !(c1 >= Contained && s1 >= Share) && c2 >= Contained && s2 >= Share {
				hidden++
				t.Errorf("honest %s: a copy of %s once comments are set aside", filepath.Base(names[i]), filepath.Base(names[j]))
			}
		}
	}
	t.Logf("%d honest ordered pairs of neighbouring logs: %d prose copies, %d copies once comments are set aside", pairs, flagged, hidden)
}
