package testrun

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestR56H336FolderSuites (helper 336's review of the folder rule): rows
// TestFolderSuites lacks. A changed file of api/'s code under a folder
// SkippedDir drops for test discovery (api/_internal/, api/vendor/,
// api/fixtures/, api/.lib/) needs no run of api (F14); a run standing in
// api/ after `cd api` but moved on by a spelling TestRuns does not follow
// reads as api's (F1); one made in api/ by those spellings reads as the
// root's (F2); a Makefile whose test target is included (include
// ../mk/common.mk) is no entry (F15); web's self-locating script run from api/ covers api
// (F16).
func TestR56H336FolderSuites(t *testing.T) {
	ctx := context.Background()
	tree := map[string]string{
		"api/Makefile":          "test:\n\tsh check.sh\n",
		"api/check.sh":          "grep -q 3 three.py _internal/core.py\n",
		"api/three.py":          "def three(): return 3\n",
		"api/_internal/core.py": "def core(): return 3\n",
		"api/vendor/dep.py":     "x\n",
		"api/fixtures/want.txt": "3\n",
		"web/Makefile":          "test:\n\tsh check.sh\n",
		"web/check.sh":          "true\n",
		"web/index.html":        "hello\n",
		"web/run_tests.sh":      "#!/bin/sh\ncd \"$(dirname \"$0\")\" && make test\n",
		"mk/common.mk":          "test:\n\tsh check.sh\n",
		"svc/Makefile":          "include ../mk/common.mk\n",
		"svc/check.sh":          "grep -q 3 main.py\n",
		"svc/main.py":           "print(3)\n",
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
		missing string
	}{
		{[]string{"api/_internal/core.py"}, "cd web && make test", "api"},
		{[]string{"api/vendor/dep.py"}, "cd web && make test", "api"},
		{[]string{"api/fixtures/want.txt"}, "cd web && make test", "api"},
		// F15: svc/'s test target comes from an included make fragment.
		{[]string{"svc/main.py"}, "cd web && make test", "svc"},
		// F16: any test-looking run standing in api/ covers api, even web's
		// script that moves to its own folder first.
		{[]string{"api/three.py"}, "cd api && sh ../web/run_tests.sh", "api"},
		{[]string{"api/three.py"}, "cd api && make -C../web test", "api"},
		{[]string{"api/three.py"}, "cd api && make --directory=../web test", "api"},
		{[]string{"api/three.py"}, "cd api && env -C ../web make test", "api"},
		{[]string{"api/three.py"}, "cd api && pushd ../web && make test", "api"},
		{[]string{"api/three.py"}, "cd api && builtin cd ../web && make test", "api"},
		{[]string{"api/three.py"}, "cd api && command cd ../web && make test", "api"},
		{[]string{"api/three.py"}, "make --directory=api test", ""},
		{[]string{"api/three.py"}, "make -Capi test", ""},
		{[]string{"api/three.py"}, "env -C api make test", ""},
		{[]string{"api/three.py"}, "pushd api && make test", ""},
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
