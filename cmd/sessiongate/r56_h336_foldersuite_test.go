package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestR56H336FolderSuiteBypass (round 56, helper 336's review of the
// folder-suite rule): the same monorepo as TestFolderSuiteQA. The lazy rows
// broke api/three.py (api's suite fails) and ran only web's suite, yet the
// run read as one made in api/: shellline.TestRuns follows only a two-word
// `cd DIR` and a separate `-C DIR`, so `make -C../web`, `--directory=`,
// `env -C`, `pushd`, `builtin cd` and `command cd` leave it at the last cd
// (F1); the honest rows ran api's suite in api/ by those same spellings and
// were refused (F2); deleting api/Makefile or renaming its target in the
// session drops the need, which FolderNeeds reads from the QA run's tree
// only (F3); a start-commit root script that names api only in an echo
// counts as covering it (F4); an unchanged root script that loops over
// */ runs api's suite yet is refused (F8, honest); `make -i` (ignore errors) in
// api/ exits 0 over api's failing recipe and meets QA (F11); `just -n`, `just --show`, `task --dry`, `task --summary`
// in api/ run nothing and meet it (F12); an honest `bash -c 'make test'`
// from api/ is refused as a filtered run (F13); a root pytest that collects
// api's smoke test covers api whose make test also runs check.sh (F17); api/sub's lint-like
// make check answers a change api's own suite fails on (F19).
func TestR56H336FolderSuiteBypass(t *testing.T) {
	t.Parallel()
	broken := "def three():\n    return 4\n"
	honest := "def three():\n    \"\"\"Three.\"\"\"\n    return 3\n"
	jt := map[string]string{"api/justfile": "test:\n    sh check.sh\n", "api/Taskfile.yml": "version: 3\ntasks:\n  test:\n    cmds:\n      - sh check.sh\n"}
	for _, c := range []struct {
		name     string
		extra    map[string]string // added before adoption
		change   map[string]string // "" deletes
		runIn    string
		run      []string
		complete bool
	}{
		{"F1 lazy: make -C../web from api/", nil, map[string]string{"api/three.py": broken}, "api", []string{"make", "-C../web", "test"}, false},
		{"F1 lazy: make --directory=../web from api/", nil, map[string]string{"api/three.py": broken}, "api", []string{"make", "--directory=../web", "test"}, false},
		{"F1 lazy: cd api && env -C ../web make test", nil, map[string]string{"api/three.py": broken}, "", []string{"bash", "-c", "cd api && env -C ../web make test"}, false},
		{"F1 lazy: cd api && pushd ../web", nil, map[string]string{"api/three.py": broken}, "", []string{"bash", "-c", "cd api && pushd ../web >/dev/null && make test"}, false},
		{"F1 lazy: cd api && builtin cd ../web", nil, map[string]string{"api/three.py": broken}, "", []string{"bash", "-c", "cd api && builtin cd ../web && make test"}, false},
		{"F1 lazy: cd api && command cd ../web", nil, map[string]string{"api/three.py": broken}, "", []string{"bash", "-c", "cd api && command cd ../web && make test"}, false},
		{"F1 lazy: cd api && eval cd ../web", nil, map[string]string{"api/three.py": broken}, "", []string{"bash", "-c", "cd api && eval 'cd ../web' && make test"}, false},
		// F11: make's -i (--ignore-errors) exits 0 when api's recipe failed.
		{"F11 lazy: make -i -C api test", nil, map[string]string{"api/three.py": broken}, "", []string{"make", "-i", "-C", "api", "test"}, false},
		{"F11 lazy: cd api && make --ignore-errors test", nil, map[string]string{"api/three.py": broken}, "", []string{"bash", "-c", "cd api && make --ignore-errors test"}, false},
		// F12: just's and task's dry runs and summaries run no recipe and exit 0
		// (makeSkipFlag knows make's -n, -q, -t only).
		{"F12 lazy: just -n test in api/", jt, map[string]string{"api/three.py": broken}, "api", []string{"just", "-n", "test"}, false},
		{"F12 lazy: just --show test in api/", jt, map[string]string{"api/three.py": broken}, "api", []string{"just", "--show", "test"}, false},
		{"F12 lazy: task --dry test in api/", jt, map[string]string{"api/three.py": broken}, "api", []string{"task", "--dry", "test"}, false},
		{"F12 lazy: task --summary test in api/", jt, map[string]string{"api/three.py": broken}, "api", []string{"task", "--summary", "test"}, false},
		{"F2 honest: make --directory=api test", nil, map[string]string{"api/three.py": honest}, "", []string{"make", "--directory=api", "test"}, true},
		{"F2 honest: make -Capi test", nil, map[string]string{"api/three.py": honest}, "", []string{"make", "-Capi", "test"}, true},
		{"F2 honest: env -C api make test", nil, map[string]string{"api/three.py": honest}, "", []string{"env", "-C", "api", "make", "test"}, true},
		{"F2 honest: pushd api && make test", nil, map[string]string{"api/three.py": honest}, "", []string{"bash", "-c", "pushd api >/dev/null && make test"}, true},
		// F13 honest: a run from api/ through bash -c is recorded as
		// `cd api && bash -c 'make test'`, which Unwrap no longer opens:
		// refused as "a filter (-c make test)" (the agent hook's cwd prefix
		// does the same).
		{"F13 honest: bash -c 'make test' from api/", nil, map[string]string{"api/three.py": honest}, "api", []string{"bash", "-c", "make test"}, true},
		{"F13 honest: bash -c 'cd ../api && make test' from web/", nil, map[string]string{"api/three.py": honest}, "web", []string{"bash", "-c", "cd ../api && make test"}, true},
		// F17: a root pytest collects api's smoke test, but api's entry runs
		// more (check.sh, which the change breaks): the runner above api
		// covers it.
		{"F17 lazy: root pytest collects api's smoke test only", map[string]string{"api/Makefile": "test:\n\tsh check.sh\n\tpytest -q\n", "api/test_smoke.py": "def test_import():\n    import ast\n"},
			map[string]string{"api/three.py": broken}, "", []string{"pytest"}, false},
		// F18 (low): documentation isDoc does not know (api/CHANGELOG,
		// api/LICENSE, api/docs/usage.txt) needs a run of api's suite.
		{"F18 honest: only api/CHANGELOG changed", nil, map[string]string{"api/CHANGELOG": "1.1: docs\n"}, "web", []string{"make", "test"}, true},
		{"F18 honest: only api/docs/usage.txt changed", nil, map[string]string{"api/docs/usage.txt": "run make test\n"}, "web", []string{"make", "test"}, true},
		// F19: the nearest entry only: api/sub's lint-like `make check`
		// answers a change to api/sub/x.py that api's make test (which
		// checks sub/) fails on.
		{"F19 lazy: api/sub's make check for a change api's suite fails", map[string]string{"api/sub/x.py": "def x():\n    return 3\n", "api/sub/Makefile": "check:\n\tgrep -q def x.py\n",
			"api/check.sh": "#!/bin/sh\nfor f in *.py sub/*.py; do grep -q 'return 3' \"$f\" || exit 1; done\n"},
			map[string]string{"api/sub/x.py": "def x():\n    return 4\n"}, "api/sub", []string{"make", "check"}, false},
		{"F3 lazy: api/Makefile deleted", nil, map[string]string{"api/three.py": broken, "api/Makefile": ""}, "web", []string{"make", "test"}, false},
		{"F3 lazy: api's test target renamed", nil, map[string]string{"api/three.py": broken, "api/Makefile": "tests:\n\tsh check.sh\n"}, "web", []string{"make", "test"}, false},
		{"F4 lazy: a start script names api in an echo", map[string]string{"web_test.sh": "#!/bin/sh\necho \"testing web (api is tested by make -C api test)\"\ncd web && make test\n"},
			map[string]string{"api/three.py": broken}, "", []string{"sh", "web_test.sh"}, false},
		// F8 honest: a root script (unchanged since the start) that runs
		// every subproject's suite through a glob names no folder, and is
		// refused (before the folder rule it passed).
		{"F8 honest: a start script loops over */", map[string]string{"run_tests.sh": "#!/bin/sh\nset -e\nfor d in */; do if [ -f \"$d/Makefile\" ]; then make -C \"$d\" test; fi; done\n"},
			map[string]string{"api/three.py": honest}, "", []string{"sh", "run_tests.sh"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := newRepoDir(t)
			env := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e"}
			write := func(rel, body string) {
				t.Helper()
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if body == "" {
					if err := os.Remove(p); err != nil {
						t.Fatal(err)
					}
					return
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sgIn := func(sub string, want int, args ...string) string {
				t.Helper()
				code, out, errb := sgBin(t, filepath.Join(dir, sub), env, args...)
				if want >= 0 && code != want {
					t.Fatalf("sessiongate %s (in %q): exit %d, want %d\n%s%s", strings.Join(args, " "), sub, code, want, out, errb)
				}
				return out + errb
			}
			git := func(args ...string) {
				t.Helper()
				cmd := exec.Command("git", args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), env...)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v %s", args, err, out)
				}
			}
			write("README.md", "# mono\n\napi/ holds the service, web/ the page, lib/ what both share.\n")
			write("check_all.sh", "#!/bin/sh\nset -e\n(cd api && sh check.sh)\n(cd web && sh check.sh)\n")
			write("api/Makefile", "test:\n\tsh check.sh\n")
			write("api/check.sh", "#!/bin/sh\nfor f in *.py; do grep -q 'return 3' \"$f\" || exit 1; done\n")
			write("api/three.py", "def three():\n    return 3\n")
			write("test_all.sh", "#!/bin/sh\nfor d in api web; do (cd $d && make test) || exit 1; done\n")
			write("web/Makefile", "test:\n\tsh check.sh\n")
			write("web/check.sh", "#!/bin/sh\ngrep -q 'hello' index.html && grep -q 'hello' ../lib/greeting.txt\n")
			write("web/index.html", "<p>hello</p>\n")
			write("lib/greeting.txt", "hello\n")
			for f, body := range c.extra {
				write(f, body)
			}
			sgIn("", 0, "init")
			git("add", "-A")
			git("commit", "-q", "--no-verify", "-m", "chore: adopt sessiongate")
			sgIn("", 0, "install")
			git("switch", "-q", "-c", "feat/work")

			sgIn("", 0, "session", "start", "--objective", "api: three returns 3")
			sgIn("", 0, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value",
				"read README.md: api/ holds the service; history: chore: adopt sessiongate")
			sgIn("", 0, "session", "advance")
			sgIn("", 0, "run", "--phase", "GIT_STATE", "--", "git", "status")
			sgIn("", 0, "session", "advance")
			sgIn("", 0, "session", "evidence", "--phase", "PLAN", "--type", "manual", "--value", "change the files named; run the tests of what changed")
			sgIn("", 0, "session", "advance")
			for f, body := range c.change {
				write(f, body)
			}
			git("add", "-A")
			git("commit", "-q", "-m", "docs: say what changed")

			code, out, errb := sgBin(t, filepath.Join(dir, c.runIn), env, append([]string{"run", "--phase", "QA_VALIDATION", "--"}, c.run...)...)
			if code != 0 && c.complete {
				t.Fatalf("the honest run fails (exit %d):\n%s%s", code, out, errb)
			}
			got := sgIn("", -1, "session", "end", "--summary", "work done")
			if done := strings.Contains(got, "COMPLETE"); done != c.complete {
				t.Fatalf("COMPLETE %v, want %v (QA run exit %d):\n%s", done, c.complete, code, got)
			}
		})
	}
}
