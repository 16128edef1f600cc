package testrun

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestFolderSuites: which subproject a changed file needs a run of, and
// which runs answer it (foldersuite.go).
func TestFolderSuites(t *testing.T) {
	ctx := context.Background()
	tree := map[string]string{
		"api/Makefile":        "test:\n\tsh check.sh\n",
		"api/check.sh":        "grep -q 3 three.py\n",
		"api/three.py":        "def three(): return 3\n",
		"api/sub/Makefile":    "check:\n\tsh ok.sh\n",
		"api/sub/x.txt":       "x\n",
		"web/package.json":    `{"scripts":{"test":"node --test"}}`,
		"web/app.test.js":     "test\n",
		"web/app.js":          "app\n",
		"npmdef/package.json": `{"scripts":{"test":"echo \"Error: no test specified\" && exit 1"}}`,
		"npmdef/a.js":         "a\n",
		"lib/util.py":         "u\n",
		"py/Makefile":         "test:\n\tpytest\n",
		"py/tests/test_a.py":  "def test_a(): pass\n",
		"py/a.py":             "a\n",
		"test_all.sh":         "for d in api web; do (cd $d && make test); done\n",
		"README.md":           "# r\n",
		"package.json":        `{"private": true, "workspaces": ["web", "npmdef"]}`,
	}
	repo := treeRepo{start: tree, tree: tree}
	files := slices.Sorted(maps.Keys(tree))
	have := map[string]bool{}
	for _, f := range files {
		have[f] = true
	}
	isDoc := func(f string) bool { return strings.HasSuffix(f, ".md") }
	for _, c := range []struct {
		changed []string
		run     string
		missing string // the folder left untested, "" none
	}{
		{[]string{"api/three.py"}, "cd api && make test", ""},
		{[]string{"api/three.py"}, "cd web && npm test", "api"},
		{[]string{"api/three.py"}, "make -C web test", "api"},
		{[]string{"api/three.py"}, "sh test_all.sh", ""},            // the start's loop names api
		{[]string{"api/sub/x.txt"}, "cd api && make test", ""},      // sub's check is no suite: api's test is
		{[]string{"api/sub/x.txt"}, "make -C api/sub check", "api"}, // a nested lint-like check
		{[]string{"npmdef/sub/Makefile"}, "make -C npmdef/sub check", ""},
		{[]string{"npmdef/a.js"}, "cd web && npm test", ""}, // npm's default script is no entry
		{[]string{"lib/util.py"}, "cd web && npm test", ""}, // no entry: a shared folder
		{[]string{"README.md", "api/README.md"}, "cd web && npm test", ""},
		{[]string{"py/a.py"}, "pytest", ""},         // the root's runner collects py/tests
		{[]string{"api/three.py"}, "pytest", "api"}, // but no test of api
		{[]string{"web/app.js", "api/three.py"}, "cd api && make test", "web"},
		{[]string{"web/app.js"}, "npm test --workspaces", ""}, // every workspace's script
		{[]string{"web/app.js"}, "npm test", "web"},           // the root's alone
		{[]string{"api/three.py"}, "npm test --workspaces", "api"},
	} {
		covered := FoldersRun(ctx, repo, "T", "S", c.run, have)
		missing := ""
		for _, n := range FolderNeeds(ctx, repo, "T", "S", files, c.changed, isDoc) {
			if !slices.ContainsFunc(covered, func(x Need) bool { return x.Covers(n) }) {
				missing = n.Root
				break
			}
		}
		if missing != c.missing {
			t.Errorf("%v run by %q: untested %q, want %q (runs cover %v)", c.changed, c.run, missing, c.missing, covered)
		}
	}
}
