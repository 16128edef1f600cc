package nearcopy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The v3.0-style bench's earlier handoff (bench/compliance/v3_test.go).
const earlierHandoff = "# Handoff 2026-08-19-01\n\n## Done\n\nscripts/greet.sh prints a greeting; scripts/test.sh checks it (commit 3f9a2c1d).\n" +
	"The script stays POSIX sh so it runs in the CI image without bash.\n\n" +
	"## Next\n\nAdd a name argument to the greeting script, and check it with several names in scripts/test.sh.\n"

// synonyms is what a lazy agent's sed over a thesaurus does to it.
var synonyms = strings.NewReplacer("2026-08-19-01", "2026-08-20-01", "3f9a2c1d", "b41c07e2",
	"prints", "outputs", "greeting", "salutation", "checks", "verifies", "script", "program",
	"stays", "remains", "runs", "executes", "without", "lacking", "Add", "Introduce",
	"name", "label", "argument", "parameter", "several", "multiple")

// TestReworded: a copy reworded one word for one is a near copy; honest
// handoffs from the same template, and the real team's logs, are not.
func TestReworded(t *testing.T) {
	for _, tt := range []struct {
		name, a, b string
		want       bool
	}{
		{"synonyms swapped by sed", synonyms.Replace(earlierHandoff), earlierHandoff, true},
		{"synonyms, and the order of the sections kept", synonyms.Replace(strings.ToUpper(earlierHandoff[:1]) + earlierHandoff[1:]), earlierHandoff, true},
		{"honest handoff from the same template", "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name; scripts/test.sh checks six names.\n\n" +
			"## Next\n\nDocument the scripts' usage in the README.\n", earlierHandoff, false},
		{"honest handoff of the same length", "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh now takes a name and falls back to world; the test loops over six names.\n" +
			"Quoting in the script keeps names with spaces whole, checked with Mary Ann.\n\n" +
			"## Next\n\nDocument the usage of both scripts in the README, with an example for a name that has a space.\n", earlierHandoff, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, na, nb := rewordedScore(lineWords(tt.a), lineWords(tt.b))
			if got := Is(tt.a, tt.b); got != tt.want {
				t.Errorf("Is = %v, want %v (reworded score %.2f over %d and %d changed words)", got, tt.want, s, na, nb)
			}
		})
	}
}

// TestRewordedRealLogs: the real team's two session logs, written from one
// template by different sessions, are no reworded copy of each other.
func TestRewordedRealLogs(t *testing.T) {
	dir := os.Getenv("SESSIONGATE_FIXTURES")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "fixtures")
	}
	a, errA := os.ReadFile(filepath.Join(dir, "ai-agents", "session-log_canonical-md_2025-12-26-session-91_at-4a00fca3b.md"))
	b, errB := os.ReadFile(filepath.Join(dir, "ai-agents", "session-log_noncanonical-md_2025-12-27-session-92_at-4a00fca3b.md"))
	if errA != nil || errB != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the real session logs are required under CI=true: %v %v", errA, errB)
		}
		t.Skipf("real session logs not found (%v %v): set SESSIONGATE_FIXTURES", errA, errB)
	}
	for _, c := range [][2]string{{string(a), string(b)}, {string(b), string(a)}} {
		if s, _, _ := rewordedScore(lineWords(c[0]), lineWords(c[1])); s >= RewordedShare {
			t.Errorf("honest logs judged reworded copies: score %.2f", s)
		}
	}
	// And a log reworded with synonyms is caught.
	r := strings.NewReplacer("session", "sitting", "Session", "Sitting", "protocol", "procedure", "review", "audit", "verify", "confirm", "created", "made")
	if !Reworded(r.Replace(string(a)), string(a)) {
		t.Errorf("session 91 reworded with synonyms not judged a copy")
	}
}
