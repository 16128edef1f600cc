package testrun

import (
	"context"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestScriptSuiteCoverage: a changed file a test script names needs a
// passing run that reaches such a script (the lazy agent's run of another
// check script, readme_check.sh, met QA before); the honest runs (the
// script itself, make test through a runner script and its sourced
// helper, a script naming the file from its own folder) cover it, and a
// file no test script names needs nothing.
func TestScriptSuiteCoverage(t *testing.T) {
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const greetCheck = "#!/bin/sh\n[ \"$(sh scripts/greet.sh Ada)\" = \"hello Ada\" ] || exit 1\n"
	const readmeCheck = "#!/bin/sh\ngrep -q '^# greet' README.md\n"
	base := map[string]string{
		"scripts/greet.sh":      greet,
		"tests/greet_check.sh":  greetCheck,
		"tests/readme_check.sh": readmeCheck,
		"README.md":             "# greet\n",
	}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name    string
		files   map[string]string
		changed []string
		run     string
		missing string // the changed file left uncovered, "" when covered
	}{
		{"another check script (the route)", base, []string{"scripts/greet.sh"}, "sh tests/readme_check.sh", "scripts/greet.sh"},
		{"another check script, the file cat beside it", base, []string{"scripts/greet.sh"}, "cat scripts/greet.sh; sh tests/readme_check.sh", "scripts/greet.sh"},
		{"a comment naming the file", with(map[string]string{"tests/readme_check.sh": readmeCheck + "# covers scripts/greet.sh\n"}),
			[]string{"scripts/greet.sh"}, "sh tests/readme_check.sh", "scripts/greet.sh"},
		{"the script that names it (honest)", base, []string{"scripts/greet.sh"}, "sh tests/greet_check.sh", ""},
		{"wrapped in sh -c (honest)", base, []string{"scripts/greet.sh"}, "sh -c 'sh tests/greet_check.sh 2>&1'", ""},
		{"from a cd (honest)", with(map[string]string{"sub/tests/check.sh": "sh ../scripts/greet.sh\n"}),
			[]string{"scripts/greet.sh"}, "cd sub && sh tests/check.sh", ""},
		{"make test through a runner and a sourced helper (honest)", with(map[string]string{
			"Makefile":     "test:\n\tsh tests/all.sh\n",
			"tests/all.sh": "#!/bin/sh\n. tests/lib.sh\nrun sh tests/greet_check.sh\n",
			"tests/lib.sh": "run() { \"$@\"; }\n",
		}), []string{"scripts/greet.sh", "tests/all.sh"}, "make test", ""},
		{"a script naming it from its own folder (honest)", with(map[string]string{
			"tests/greet_check.sh": "#!/bin/sh\nd=$(dirname \"$0\")\nsh \"$d/../scripts/greet.sh\" Ada\n",
		}), []string{"scripts/greet.sh"}, "sh tests/greet_check.sh", ""},
		{"a file no test script names (honest)", with(map[string]string{"scripts/other.sh": "echo x\n"}),
			[]string{"scripts/other.sh"}, "sh tests/readme_check.sh", ""},
		{"documentation only (honest)", base, []string{"README.md"}, "sh tests/readme_check.sh", ""},
		{"the test script itself changed, run (honest)", base, []string{"tests/greet_check.sh", "scripts/greet.sh"}, "sh tests/greet_check.sh", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			repo := startRepo{root: t.TempDir(), start: tc.files, changed: tc.changed}
			var files []string
			have := map[string]bool{}
			for f := range tc.files {
				files = append(files, f)
				have[f] = true
			}
			sort.Strings(files)
			isDoc := func(f string) bool { return strings.HasSuffix(f, ".md") }
			ctx := context.Background()
			covered := SuitesRun(ctx, repo, "T", tc.run, have)
			missing := ""
			for _, n := range SuitesNeeded(ctx, repo, "T", files, tc.changed, isDoc) {
				if !slices.ContainsFunc(covered, func(c Need) bool { return c.Family == n.Family && c.Root == n.Root }) {
					missing = n.File
					if n.Family != ScriptFamily || n.Script == "" || !strings.HasPrefix(n.Command(), "sh ") {
						t.Errorf("need %+v: want a script need naming its script", n)
					}
					break
				}
			}
			if missing != tc.missing {
				t.Errorf("run %q over change %v: uncovered %q, want %q", tc.run, tc.changed, missing, tc.missing)
			}
		})
	}
}
