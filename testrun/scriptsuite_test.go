package testrun

import (
	"context"
	"fmt"
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
		missing string            // the changed file left uncovered, "" when covered
		start   map[string]string // the start commit's files (nil: files)
	}{
		{"another check script (the route)", base, []string{"scripts/greet.sh"}, "sh tests/readme_check.sh", "scripts/greet.sh", nil},
		{"another check script, the file cat beside it", base, []string{"scripts/greet.sh"}, "cat scripts/greet.sh; sh tests/readme_check.sh", "scripts/greet.sh", nil},
		{"a comment naming the file", with(map[string]string{"tests/readme_check.sh": readmeCheck + "# covers scripts/greet.sh\n"}),
			[]string{"scripts/greet.sh"}, "sh tests/readme_check.sh", "scripts/greet.sh", nil},
		{"the script that names it (honest)", base, []string{"scripts/greet.sh"}, "sh tests/greet_check.sh", "", nil},
		{"wrapped in sh -c (honest)", base, []string{"scripts/greet.sh"}, "sh -c 'sh tests/greet_check.sh 2>&1'", "", nil},
		{"from a cd (honest)", with(map[string]string{"sub/tests/check.sh": "sh ../scripts/greet.sh\n"}),
			[]string{"scripts/greet.sh"}, "cd sub && sh tests/check.sh", "", nil},
		{"make test through a runner and a sourced helper (honest)", with(map[string]string{
			"Makefile":     "test:\n\tsh tests/all.sh\n",
			"tests/all.sh": "#!/bin/sh\n. tests/lib.sh\nrun sh tests/greet_check.sh\n",
			"tests/lib.sh": "run() { \"$@\"; }\n",
		}), []string{"scripts/greet.sh", "tests/all.sh"}, "make test", "", nil},
		{"a script naming it from its own folder (honest)", with(map[string]string{
			"tests/greet_check.sh": "#!/bin/sh\nd=$(dirname \"$0\")\nsh \"$d/../scripts/greet.sh\" Ada\n",
		}), []string{"scripts/greet.sh"}, "sh tests/greet_check.sh", "", nil},
		{"a file no test script names (honest)", with(map[string]string{"scripts/other.sh": "echo x\n"}),
			[]string{"scripts/other.sh"}, "sh tests/readme_check.sh", "", nil},
		{"documentation only (honest)", base, []string{"README.md"}, "sh tests/readme_check.sh", "", nil},
		{"the test script itself changed, run (honest)", base, []string{"tests/greet_check.sh", "scripts/greet.sh"}, "sh tests/greet_check.sh", "", nil},
		{"a line added to the other script names the file (the counter-route)", with(map[string]string{"tests/readme_check.sh": readmeCheck + "sh scripts/greet.sh Ada >/dev/null\n"}),
			[]string{"scripts/greet.sh", "tests/readme_check.sh"}, "sh tests/readme_check.sh", "scripts/greet.sh", base},
		{"a new file, its check added to the check script (honest)", with(map[string]string{
			"scripts/hello.sh":     "echo hello\n",
			"tests/greet_check.sh": greetCheck + "[ \"$(sh scripts/hello.sh)\" = hello ] || exit 1\n",
		}), []string{"scripts/hello.sh", "tests/greet_check.sh"}, "sh tests/greet_check.sh", "", base},
		{"a new file checked only by a line added to the other script", with(map[string]string{
			"scripts/hello.sh":      "echo hello\n",
			"tests/readme_check.sh": readmeCheck + "sh scripts/hello.sh\n",
		}), []string{"scripts/hello.sh", "tests/readme_check.sh"}, "sh tests/greet_check.sh", "scripts/hello.sh", base},
		{"an untested file gets its first check (honest)", with(map[string]string{
			"scripts/other.sh":     "echo x\n",
			"tests/greet_check.sh": greetCheck + "sh scripts/other.sh\n",
		}), []string{"scripts/other.sh", "tests/greet_check.sh"}, "sh tests/readme_check.sh", "", with(map[string]string{"scripts/other.sh": "echo y\n"})},
		{"the runner's check script run directly (honest)", with(map[string]string{
			"tests/all.sh": "#!/bin/sh\nsh tests/greet_check.sh\n",
		}), []string{"tests/greet_check.sh"}, "sh tests/greet_check.sh", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := tc.start
			if start == nil {
				start = tc.files
			}
			repo := treeRepo{start: start, tree: tc.files}
			var files []string
			have := map[string]bool{}
			for f := range tc.files {
				files = append(files, f)
				have[f] = true
			}
			sort.Strings(files)
			isDoc := func(f string) bool { return strings.HasSuffix(f, ".md") }
			ctx := context.Background()
			covered := ScriptsRun(ctx, repo, "T", "S", tc.run, have)
			missing := ""
			for _, n := range ScriptNeeds(ctx, repo, "T", "S", files, tc.changed, isDoc) {
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

// treeRepo is a Repo whose start commit ("S") and run's tree (any other
// rev) are maps.
type treeRepo struct{ start, tree map[string]string }

func (r treeRepo) Root() string { return "" }
func (r treeRepo) ChangedFiles(context.Context, string) ([]string, error) {
	return nil, nil
}
func (r treeRepo) files(rev string) map[string]string {
	if rev == "S" {
		return r.start
	}
	return r.tree
}
func (r treeRepo) ExistsAt(_ context.Context, rev, p string) (bool, error) {
	_, ok := r.files(rev)[p]
	return ok, nil
}
func (r treeRepo) ReadAt(_ context.Context, rev, p string) ([]byte, error) {
	b, ok := r.files(rev)[p]
	if !ok {
		return nil, fmt.Errorf("%s: not in %s", p, rev)
	}
	return []byte(b), nil
}
