package verify

import "testing"

func TestCISkipMarker(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"fix: typo [skip ci]", "[skip ci]"},
		{"docs [CI SKIP]\n", "[ci skip]"},
		{"chore: bump [no ci]", "[no ci]"},
		{"x [skip actions]", "[skip actions]"},
		{"x [actions skip]", "[actions skip]"},
		{"subject\n\nbody\n\n\nskip-checks: true\n", "skip-checks: true"},
		{"subject\n\nskip-checks:true", "skip-checks: true"},
		// Honest messages that only mention skipping mark nothing.
		{"ci: skip flaky test", ""},
		{"subject\n\nskip-checks: false", ""},
		{"docs: explain skip ci markers", ""},
		{"", ""},
	} {
		if got := ciSkipMarker(c.msg); got != c.want {
			t.Errorf("ciSkipMarker(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}
