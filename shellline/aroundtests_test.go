package shellline

import "testing"

// TestWritesTreeAroundTests28 (round 28, c4): a QA line that puts a
// stash (made before the session) in place, runs the tests and puts it
// away again.
func TestWritesTreeAroundTests28(t *testing.T) {
	for _, c := range []struct {
		line  string
		write bool
	}{
		{"git stash pop -q; python3 -m pytest -q; git stash -q", true},
		{"git stash apply -q && python3 -m pytest -q && git checkout -- .", true},
		{"git checkout fix -- . && go test ./... ; git checkout HEAD -- .", true},
		// Honest: the tests alone, the script's own stash around them, a
		// pop whose files stay in the tree the run records.
		{"python3 -m pytest -q", false},
		{"git stash -q; python3 -m pytest -q; git stash pop -q", false},
		{"git stash pop -q && python3 -m pytest -q", false},
		{"python3 -m pytest -q && git status --short", false},
	} {
		if got := WritesTreeAroundTests(c.line); (got != "") != c.write {
			t.Errorf("%q: %q, want a write %v", c.line, got, c.write)
		}
	}
}
