package cmdoutput

import (
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestRakeTestSilent: a rake test gate whose test task ran no file prints
// nothing and exits 0; one that ran minitest, test-unit or RSpec says so.
func TestRakeTestSilent(t *testing.T) {
	for _, tc := range []struct {
		line, out string
		want      bool
	}{
		{"rake test", "", true},
		{"bundle exec rake test", "\n", true},
		{"rake test", "Run options: --seed 1\n\n1 runs, 1 assertions, 0 failures, 0 errors, 0 skips\n", false},
		{"rake test", "2 tests, 2 assertions, 0 failures, 0 errors, 0 pendings, 0 omissions, 0 notifications\n", false},
		{"bundle exec rake test", "3 examples, 0 failures\n", false},
		{"rake build", "", false},
		{"rake test TEST=test/a_test.rb", "", false}, // judged by its own words: not the plain task
	} {
		reason, _ := NothingChecked(protocolspec.Check{Arg: tc.line}, []byte(tc.out))
		if got := reason != ""; got != tc.want {
			t.Errorf("%q with %q: nothing checked = %v (%q), want %v", tc.line, tc.out, got, reason, tc.want)
		}
	}
}
