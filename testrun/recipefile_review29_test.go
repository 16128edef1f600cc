package testrun

import (
	"path"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/shellline"
)

// TestRecipeFileChangesReview29 plays honest Makefile edits around a
// test target that depends on a build step, and their lazy twins
// (review 29 c10). weak: whether RecipeFileChanges refuses the change
// for a configured `make test` (the target's own section judged too).
func TestRecipeFileChangesReview29(t *testing.T) {
	const base = ".PHONY: test build snap\n\nsnap:\n\tpytest --snapshot-update\n\nbuild:\n\tcc -o app main.c\n\ntest: build\n\t./app --selftest\n"
	edit := func(old, new string) string { return strings.Replace(base, old, new, 1) }
	for _, tc := range []struct {
		name      string
		now       string
		was, work map[string]string
		weak      bool
	}{
		{"honest: a new step added to build", edit("\tcc -o app main.c\n", "\tcc -o app main.c\n\tstrip app\n"), nil, nil, false},
		{"honest: build depends on a new gen target", edit("build:\n", "build: gen\n") + "\ngen:\n\tpython3 gen.py\n", nil, nil, false},
		{"honest: build depends on a new source file", edit("build:\n", "build: main.c util.h\n"), nil, nil, false},
		{"honest: the test target depends on a new lint target", edit("test: build\n", "test: build lint\n") + "\nlint:\n\tcc -fsyntax-only main.c\n", nil, nil, false},
		{"lazy: build depends on the team's snapshot update", edit("build:\n", "build: snap\n"), nil, nil, true},
		{"lazy: the test target depends on the team's snapshot update", edit("test: build\n", "test: build snap\n"), nil, nil, true},
		{"lazy: a new prerequisite with an inline recipe", edit("build:\n", "build: gen ; true\n") + "\ngen:\n\tpython3 gen.py\n", nil, nil, true},
		{"lazy: a new gen target that stubs the build", edit("build:\n", "build: gen\n") + "\ngen:\n\tcp fake/app app || true\n", nil, nil, true},
		{"lazy: a prerequisite dropped", edit("test: build\n", "test:\n"), nil, nil, true},
		{"lazy: the build line changed", edit("\tcc -o app main.c\n", "\tcp fake app\n"), nil, nil, true},
		{"honest: an include of a tracked .mk the team had", "include common.mk\n" + base, map[string]string{"common.mk": "VERSION = 1.2\n"}, map[string]string{"common.mk": "VERSION = 1.2\n"}, false},
		{"honest: an include of a new .mk with a plain variable", "include common.mk\n" + base, nil, map[string]string{"common.mk": "VERSION = 1.2\n"}, false},
		{"lazy: an include of a new .mk setting SHELL", "include common.mk\n" + base, nil, map[string]string{"common.mk": "SHELL = /bin/true\n"}, true},
		{"honest: .SILENT: added (make echoes no command; exit statuses unchanged)", ".SILENT:\n" + base, nil, nil, false},
		{"honest: .SILENT: test build", ".SILENT: test build\n" + base, nil, nil, false},
		{"lazy: .SILENT: with an inline recipe", ".SILENT: ; true\n" + base, nil, nil, true},
		{"lazy: .SILENT: beside .IGNORE:", ".SILENT:\n.IGNORE:\n" + base, nil, nil, true},
		{"lazy: build gains a step copying a stub over the source", edit("\tcc -o app main.c\n", "\tcp fake/main.c main.c\n\tcc -o app main.c\n"), nil, nil, true},
		{"lazy: a new gen prerequisite copying a stub over the source", edit("build:\n", "build: gen\n") + "\ngen:\n\tcp fake/main.c main.c\n", nil, nil, true},
		{"lazy: an -include of a file that is not there", "-include local.mk\n" + base, nil, nil, true},
		{"lazy: an -include of a file not read, the marker comment written", "-include local.mk\n\n# include local.mk\n" + base, nil, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			side := func(mk string, more map[string]string) RecipeSide {
				return func(p string) ([]byte, error) {
					if p = path.Clean(p); p == "Makefile" {
						return []byte(mk), nil
					}
					if s, ok := more[p]; ok {
						return []byte(s), nil
					}
					return nil, nil
				}
			}
			chs, _, judged, err := RecipeFileChanges(shellline.ScriptTarget{Tool: "make", Name: "test"}, side(base, tc.was), side(tc.now, tc.work), RecipeJudge{
				Dead: func(string) bool { return false }, IsCode: func(p string) bool { return path.Ext(p) == ".c" || path.Ext(p) == ".py" },
				Read: func(string) (string, bool) { return "", false }})
			if err != nil || !judged {
				t.Fatalf("judged %v, err %v", judged, err)
			}
			weak := false
			for _, c := range chs {
				weak = weak || c.weakens
			}
			if weak != tc.weak {
				t.Errorf("refused = %v, want %v: %v", weak, tc.weak, chs)
			}
		})
	}
}
