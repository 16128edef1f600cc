package compliance_test

import (
	"strings"
	"testing"
)

// TestAdv6SynonymCopy (issue 25, open from pass 5): the earlier session's
// handoff renumbered and reworded by a sed over a list of synonyms
// (prints -> outputs, greeting -> salutation, ...) shares almost no 4-word
// shingle with it, so it read as new words: on the old code it was
// recorded as the handoff, COMPLETE, clean, verify passing. A one-for-one
// swap keeps each line's length and its short words in place
// (internal/nearcopy, reworded.go).
func TestAdv6SynonymCopy(t *testing.T) {
	t.Parallel()
	r := strings.NewReplacer("2026-08-19-01", "2026-08-20-01", "3f9a2c1d", "b41c07e2",
		"prints", "outputs", "greeting", "salutation", "checks", "verifies", "script", "program",
		"stays", "remains", "runs", "executes", "without", "lacking", "Add", "Introduce",
		"name", "label", "argument", "parameter", "several", "multiple")
	w := adv4Project(t)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	w.deviate()
	if clean, said := w.adv4Finish(func() string { w.write(v3NewHandoff, r.Replace(v3EarlierHandoffBody)); return v3NewHandoff }); clean {
		t.Errorf("route gets through: the earlier handoff reworded with synonyms; COMPLETE, clean, verify passing\n%s", said)
	}
}

// TestAdv6SynonymCopyHonest: an honest handoff of the same template and
// about the same length, saying what this session did, stays clean.
func TestAdv6SynonymCopyHonest(t *testing.T) {
	t.Parallel()
	w := adv4Project(t)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	body := "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh now takes a name and falls back to world; the test loops over six names.\n" +
		"Quoting in the script keeps names with spaces whole, checked with Mary Ann.\n\n" +
		"## Next\n\nDocument the usage of both scripts in the README, with an example for a name that has a space.\n"
	if clean, said := w.adv4Finish(func() string { w.write(v3NewHandoff, body); return v3NewHandoff }); !clean {
		t.Errorf("an honest handoff of the same length did not end clean with a passing verify (a false block)\n%s", said)
	}
}
