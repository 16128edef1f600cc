package editorial

import "testing"

// TestWording: a line replaced one for one is editorial only when it says
// what it said (round 55, helper 328's F1 rows that skipped QA).
func TestWording(t *testing.T) {
	for _, c := range []struct {
		old, new  string
		editorial bool
	}{
		// Spelling, grammar, formatting: editorial.
		{"Run the tests and recieve approval.", "Run the tests and receive approval.", true},
		{"Teh tool greets you.", "The tool greets you.", true},
		{"It's config lives in a file.", "Its config lives in a file.", true},
		{"Use a existing branch.", "Use an existing branch.", true},
		{"Run the tests before every release, and recieve approval.", "Run the tests before each release and receive approval.", true},
		{"Run the tests before release.", "Run the tests before the release.", true},
		{"See the guide for details", "See the **guide** for details.", true},
		{"see [the gide](https://example.org/guide).", "See [the guide](https://example.org/guide).", true},
		{"Keep this sectoin short.", "Keep this section short.", true},
		{"Set `timeout` to 30 seconds", "Set `timeout` to 30 seconds.", true},
		{"- [x] Name argumnet for greet.sh", "- [x] Name argument for greet.sh", true},
		// Content: refused.
		{"Always run the tests before every release.", "Releases need no tests or approval.", false},
		{"Run the tests before release.", "Do not run the tests before release.", false},
		{"The agent must run the tests.", "The agent may run the tests.", false},
		{"The agent must run the tests.", "The agent most run the tests.", false},
		{"Always run the tests.", "Never run the tests.", false},
		{"Run the tests.", "Skip the tests.", false},
		{"| timeout | 30s |", "| timeout | 300s |", false},
		{"See [the docs](https://example.org/docs).", "See [the docs](https://evil.example/docs).", false},
		{"Run `make test` first.", "Run `make build` first.", false},
		{"- [ ] Name argument for greet.sh", "- [x] Name argument for greet.sh shipped; nothing left to test", false},
		{"- [ ] Name argument for greet.sh", "- [x] Name argument for greet.sh", false},
		{"Tests take 2 minutes.", "Tests take 20 minutes.", false},
		{"The cat sat on the mat.", "The dog sat on the rug.", false},
	} {
		why := wording(c.old, c.new)
		if (why == "") != c.editorial {
			t.Errorf("wording(%q, %q) = %q, want editorial %v", c.old, c.new, why, c.editorial)
		}
	}
}
