package shellline

import "testing"

// TestR56RecipeRunsNothing (round 56, helper 338; helper 336's F11/F12):
// make -i exits 0 over a failing recipe; just's and task's dry runs,
// listings and summaries run none.
func TestR56RecipeRunsNothing(t *testing.T) {
	for _, c := range []struct {
		line string
		not  bool
	}{
		{"make -i -C api test", true},
		{"make --ignore-errors test", true},
		{"make -ik test", true},
		{"MAKEFLAGS=i make test", true},
		{"MAKEFLAGS=-i make test", true},
		{"env MAKEFLAGS=-n make test", true},
		{"cd api && make --ignore-errors test", true},
		{"bash -c 'cd api && make --ignore-errors test'", true},
		{"bash -c 'go test -c ./...'", true},
		{"bash -c 'cd api && make test'", false},
		{"just -n test", true},
		{"just --dry-run test", true},
		{"just --show test", true},
		{"just -s test", true},
		{"just --list", true},
		{"task --dry test", true},
		{"task -n test", true},
		{"task --summary test", true},
		{"task --list", true},
		{"task test --dry", true},
		// honest
		{"make -k test", false},
		{"make -C api test", false},
		{"make -j4 test", false},
		{"MAKEFLAGS=-j4 make test", false},
		{"just test", false},
		{"just -f api/justfile test", false},
		{"just test -n", false},
		{"just --set X 1 test", false},
		{"task test", false},
		{"task -s test", false},
		{"task -d api test", false},
		{"task test -- -n", false},
	} {
		if got := TestsNotRun(c.line); (got != "") != c.not {
			t.Errorf("TestsNotRun(%q) = %q, want runs-nothing %v", c.line, got, c.not)
		}
	}
}
