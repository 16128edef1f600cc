package testrun

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestR57H339FoldersRunToplevel (round 57, helper 339): a run after `cd
// "$(git rev-parse --show-toplevel)"` stands in the repository's root:
// it covers what the same run made at the root covers (py/'s tests, which
// the root's pytest collects), where it was read as an unknown folder
// covering none. A substitution that is not exactly the root's (`$(echo
// web)`, `.../web`, `|| echo web`) never reads as the root.
func TestR57H339FoldersRunToplevel(t *testing.T) {
	ctx := context.Background()
	tree := map[string]string{
		"Makefile":           "test:\n\tpytest\n",
		"py/Makefile":        "test:\n\tpytest\n",
		"py/tests/test_a.py": "def test_a(): pass\n",
		"py/a.py":            "a\n",
		"web/Makefile":       "test:\n\ttrue\n",
		"web/index.html":     "hello\n",
	}
	repo := treeRepo{start: tree, tree: tree}
	files := slices.Sorted(maps.Keys(tree))
	have := map[string]bool{}
	for _, f := range files {
		have[f] = true
	}
	isDoc := func(f string) bool { return strings.HasSuffix(f, ".md") }
	for _, c := range []struct {
		run     string
		missing string // the folder py/a.py's change leaves untested, "" none
		root    bool   // the run covers the root folder
	}{
		{"pytest", "", true},
		{`cd "$(git rev-parse --show-toplevel)" && pytest`, "", true},
		{"cd `git rev-parse --show-toplevel` && pytest", "", true},
		{`cd web && cd "$(git rev-parse --show-toplevel)" && pytest`, "", true},
		{`cd "$(git rev-parse --show-toplevel)/py" && pytest`, "", false},
		// lazy: never the root
		{`cd "$(git rev-parse --show-toplevel)/web" && pytest`, "py", false},
		{`cd "$(echo web)" && pytest`, "py", false},
		{`cd "$(git rev-parse --show-toplevel 2>/dev/null || echo web)" && pytest`, "py", false},
		{`cd /tmp/other && cd "$(git rev-parse --show-toplevel)" && pytest`, "py", false},
	} {
		covered := FoldersRun(ctx, repo, "T", "S", c.run, have)
		missing := ""
		for _, n := range FolderNeeds(ctx, repo, "T", "S", files, []string{"py/a.py"}, isDoc) {
			if !slices.ContainsFunc(covered, func(x Need) bool { return x.Covers(n) }) {
				missing = n.Root
				break
			}
		}
		if missing != c.missing {
			t.Errorf("py/a.py run by %q: untested %q, want %q (runs cover %v)", c.run, missing, c.missing, covered)
		}
		root := slices.ContainsFunc(covered, func(x Need) bool { return x.Family == FolderFamily && x.Root == "" })
		if root != c.root {
			t.Errorf("%q: covers the root %v, want %v (runs cover %v)", c.run, root, c.root, covered)
		}
	}
	// The root's make test, run from the root's top folder, is the root's
	// script target: what it runs is read there (WeakScript's input).
	for _, line := range []string{`cd "$(git rev-parse --show-toplevel)" && make test`, `cd py && cd $(git rev-parse --show-toplevel) && make test`} {
		got := FoldersRun(ctx, repo, "T", "S", line, have)
		want := FoldersRun(ctx, repo, "T", "S", "make test", have)
		if !slices.Equal(got, want) {
			t.Errorf("%q covers %v, want %v (make test at the root)", line, got, want)
		}
	}
}
