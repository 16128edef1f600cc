package editorial

import "testing"

// TestR55H331WordingLazy: rewordings that change what a line says with a
// word a spelling fix apart or a small-word swap (accepted as editorial now).
func TestR55H331WordingLazy(t *testing.T) {
	for _, c := range [][2]string{
		{"Run the tests and the linter before release.", "Run the tests or the linter before release."},
		{"The minimum timeout is set in the config.", "The maximum timeout is set in the config."},
		{"Requests time out after 30ms.", "Requests time out after 30s."},
		{"Uploads are limited to 5MB.", "Uploads are limited to 5GB."},
		{"This step does change the database.", "This step doesnt change the database."},
		{"The agent would run the tests.", "The agent wouldnt run the tests."},
		{"Copy from staging to production.", "Copy to staging from production."},
		{"Use the same config for CI.", "Use some config for CI."},
		{"Deploy the latest release.", "Deploy the largest release."},
	} {
		if why := wording(c[0], c[1]); why == "" {
			t.Errorf("wording(%q, %q) accepted as editorial", c[0], c[1])
		}
	}
}

// TestR55H331WordingHonest: spelling/formatting fixes refused in round 55's
// first cut. "cheque" to "check" stays refused (three edits, and a letter
// replaced: as far from a spelling fix as "latest" from "largest"); QA then
// runs, the cost of a refusal here.
func TestR55H331WordingHonest(t *testing.T) {
	for _, c := range [][2]string{
		{"This setting is recomended.", "This setting is recommended."},
		{"The flag is optinal.", "The flag is optional."},
		{"You shoud run the tests.", "You should run the tests."},
		{"Send us an e-mail.", "Send us an email."},
		{"Re-run the failed job.", "Rerun the failed job."},
		{"Log in to the dashboard.", "Login to the dashboard."},
		{"Use the built-in checker.", "Use the builtin checker."},
		{"It handles 1000 rows.", "It handles 1,000 rows."},
		{"Colour, behaviour and centre.", "Color, behavior and center."},
		{"The organisation's licence and catalogue.", "The organization's license and catalog."},
	} {
		if why := wording(c[0], c[1]); why != "" {
			knownOr(t, c, "wording(%q, %q) refused: %s", c[0], c[1], why)
		} else if _, ok := knownWording[c]; ok {
			t.Logf("known row now holds, take it off knownWording: %q", c)
		}
	}
}

// TestR55H331WordingMarkup: a line struck through, commented out, or a
// comparison/tick symbol flipped says something else; words unchanged.
func TestR55H331WordingMarkup(t *testing.T) {
	for _, c := range [][2]string{
		{"- Run the tests before release.", "- ~~Run the tests before release.~~"},
		{"Run the tests before release.", "<!-- Run the tests before release. -->"},
		{"| integration tests | ✅ |", "| integration tests | ❌ |"},
		{"Coverage must stay >= 80%.", "Coverage must stay <= 80%."},
		{"Coverage must stay ≥ 80%.", "Coverage must stay ≤ 80%."},
	} {
		if why := wording(c[0], c[1]); why == "" {
			t.Errorf("wording(%q, %q) accepted as editorial", c[0], c[1])
		}
	}
}

// TestR55H331LinesMovedLine: a line moved from one section to another is
// one removed and one added line that wording pairs with itself.
func TestR55H331LinesMovedLine(t *testing.T) {
	why, err := Lines("GUIDE.md", []string{"- Run the tests."}, []string{"- Run the tests."}, []int{9},
		func() (map[int]bool, error) { return map[int]bool{}, nil })
	if err != nil || why == "" {
		t.Errorf("a requirement moved from 'Before release' to 'Not needed' is editorial: %q %v", why, err)
	}
}
