package nearcopy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReorderedHandoff: lazy pass 29's open row, the earlier session's
// handoff with its sentences reordered and its commit id dropped, is a
// near copy; the same handoff's lines, paragraphs or bullets shuffled
// are too. Honest twins: another session's handoff under the same
// template headings, and one whose Next says nothing is left.
func TestReorderedHandoff(t *testing.T) {
	const earlier = "# Handoff 2026-08-19-01\n\n## Done\n\nscripts/greet.sh prints a greeting; scripts/test.sh checks it (commit 3f9a2c1d).\n" +
		"The script stays POSIX sh so it runs in the CI image without bash.\n\n" +
		"## Next\n\nAdd a name argument to the greeting script, and check it with several names in scripts/test.sh.\n"
	const bullets = "# Handoff 2026-08-19-01\n\n## Done\n\n- greet.sh prints a greeting to standard output\n- test.sh checks the greeting with two names\n" +
		"- the script stays POSIX sh for the CI image\n- the README names both scripts and how to run them\n\n## Next\n\n- add a name argument\n- check it with several names\n"
	for _, tt := range []struct {
		name, a, b string
		want       bool
	}{
		{"sentences reordered, commit id dropped (lazy pass 29)", "# Handoff 2026-08-20-01\n\n## Done\n\nThe script stays POSIX sh so it runs in the CI image without bash. scripts/test.sh checks it; scripts/greet.sh prints a greeting.\n\n" +
			"## Next\n\nAdd a name argument to the greeting script, and check it with several names in scripts/test.sh.\n", earlier, true},
		{"sections swapped", "# Handoff 2026-08-20-01\n\n## Next\n\nAdd a name argument to the greeting script, and check it with several names in scripts/test.sh.\n\n## Done\n\n" +
			"The script stays POSIX sh so it runs in the CI image without bash.\nscripts/greet.sh prints a greeting; scripts/test.sh checks it (commit 9e1b7a2f).\n", earlier, true},
		{"bullets shuffled", "# Handoff 2026-08-20-01\n\n## Done\n\n- the README names both scripts and how to run them\n- the script stays POSIX sh for the CI image\n" +
			"- greet.sh prints a greeting to standard output\n- test.sh checks the greeting with two names\n\n## Next\n\n- check it with several names\n- add a name argument\n", bullets, true},
		{"honest: another session's handoff, same headings", "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name; scripts/test.sh checks six names.\n\n## Next\n\nDocument the scripts' usage in the README.\n", earlier, false},
		{"honest: Next says nothing is left", "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name; scripts/test.sh passes.\n\n## Next\n\nNothing is left of this task.\n", earlier, false},
		{"honest: the next session did what Next asked, in its own words", "# Handoff 2026-08-20-01\n\n## Done\n\nAdded a name argument to scripts/greet.sh; scripts/test.sh now checks it with six names. The script is still POSIX sh.\n\n## Next\n\nDocument the name argument in the README.\n", earlier, false},
	} {
		if got := Is(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: Is = %v, want %v (reordered score %.2f, similarity %.2f)", tt.name, got, tt.want,
				reorderedScore(clauses(tt.a), clauses(tt.b)), Similarity(tt.a, tt.b))
		}
	}
}

// TestReorderedRealLogs: no pair of neighbouring real session logs is
// one the other reordered; each real log with its paragraphs reversed
// and the lines of each paragraph reversed is. SESSIONGATE_LOGS_DIR names
// a folder of .md logs (the threshold was measured on the real team's 422
// logs); the fixtures' two otherwise.
func TestReorderedRealLogs(t *testing.T) {
	names := realLogs(t)
	cl := make([]map[string]int, len(names))
	texts := make([]string, len(names))
	for i, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		texts[i] = string(b)
		cl[i] = clauses(Visible(texts[i]))
	}
	const neighbours = 15
	var honest []float64
	for i := range names {
		for j := max(0, i-neighbours); j < len(names) && j <= i+neighbours; j++ {
			if i == j {
				continue
			}
			s := reorderedScore(cl[i], cl[j])
			honest = append(honest, s)
			if s >= ReorderedShare {
				t.Errorf("honest %s: %.2f of its clauses are %s's", filepath.Base(names[i]), s, filepath.Base(names[j]))
			}
		}
	}
	caught, low := 0, 1.0
	for i, text := range texts {
		s := reorderedScore(clauses(Visible(reverseOrder(text))), cl[i])
		if s >= ReorderedShare {
			caught++
		}
		low = min(low, s)
	}
	slices.Sort(honest)
	if len(honest) > 0 {
		t.Logf("%d ordered pairs of neighbouring logs: highest clause share %.2f (p99 %.2f, median %.2f); %d of %d reordered logs caught (lowest %.2f)",
			len(honest), honest[len(honest)-1], honest[len(honest)*99/100], honest[len(honest)/2], caught, len(texts), low)
	}
	if caught < len(texts)*95/100 {
		t.Errorf("only %d of %d reordered logs caught", caught, len(texts))
	}
}

// reverseOrder puts a text's paragraphs, and the lines of each, in
// reverse order, ids renumbered.
func reverseOrder(text string) string {
	text = strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '0' + (r-'0'+3)%10
		}
		return r
	}, text)
	paras := strings.Split(text, "\n\n")
	slices.Reverse(paras)
	for i, p := range paras {
		ls := strings.Split(p, "\n")
		slices.Reverse(ls)
		paras[i] = strings.Join(ls, "\n")
	}
	return strings.Join(paras, "\n\n")
}
