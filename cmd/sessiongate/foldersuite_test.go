package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFolderSuiteQA (round 55 helper 331's F3): in a monorepo whose api/
// and web/ each have a Makefile test target, a session that broke
// api/three.py met QA with a passing `cd web && make test` (or `make -C
// web test`): COMPLETE, clean verify. A changed file inside a subproject
// with its own test entry now needs a passing whole run there or above
// it (testrun/foldersuite.go); a shared lib/ with no entry of its own,
// tested through web/, needs none (the honest row a naive rule blocks).
func TestFolderSuiteQA(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		change   map[string]string
		runIn    string   // the folder `sessiongate run` is called from
		run      []string // its argv
		complete bool
	}{
		{"api broken, web's suite run from web/", map[string]string{"api/three.py": "def three():\n    return 4\n"}, "web", []string{"make", "test"}, false},
		{"api broken, make -C web test", map[string]string{"api/three.py": "def three():\n    return 4\n"}, "", []string{"make", "-C", "web", "test"}, false},
		{"api changed, api's suite run from api/", map[string]string{"api/three.py": "def three():\n    \"\"\"Three.\"\"\"\n    return 3\n"}, "api", []string{"make", "test"}, true},
		{"api changed, make -C api test", map[string]string{"api/three.py": "def three():\n    \"\"\"Three.\"\"\"\n    return 3\n"}, "", []string{"make", "-C", "api", "test"}, true},
		{"api changed, the root's suite", map[string]string{"api/three.py": "def three():\n    \"\"\"Three.\"\"\"\n    return 3\n"}, "", []string{"sh", "check_all.sh"}, true},
		{"api broken, a root script the session wrote runs web's suite", map[string]string{"api/three.py": "def three():\n    return 4\n",
			"run_web.sh": "#!/bin/sh\ncd web && make test\n"}, "", []string{"sh", "run_web.sh"}, false},
		{"api broken, the root's loop rewritten to skip api", map[string]string{"api/three.py": "def three():\n    return 4\n",
			"test_all.sh": "#!/bin/sh\nfor d in web; do (cd $d && make test) || exit 1; done\n"}, "", []string{"sh", "test_all.sh"}, false},
		{"api changed, the root's loop over subprojects", map[string]string{"api/three.py": "def three():\n    \"\"\"Three.\"\"\"\n    return 3\n"}, "", []string{"sh", "test_all.sh"}, true},
		{"shared lib/ changed, tested through web/", map[string]string{"lib/greeting.txt": "hello there\n"}, "web", []string{"make", "test"}, true},
		{"api and web changed, only web's suite", map[string]string{
			"api/three.py": "def three():\n    \"\"\"Three.\"\"\"\n    return 3\n", "web/index.html": "<p>hello you</p>\n"}, "web", []string{"make", "test"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := newRepoDir(t)
			env := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e"}
			write := func(rel, body string) {
				t.Helper()
				p := filepath.Join(dir, filepath.FromSlash(rel))
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
			// No root Makefile: init then sets no QA command, and QA is
			// the agent's runs (a root one would be the gate's own run).
			write("check_all.sh", "#!/bin/sh\nset -e\n(cd api && sh check.sh)\n(cd web && sh check.sh)\n")
			write("api/Makefile", "test:\n\tsh check.sh\n")
			write("api/check.sh", "#!/bin/sh\nfor f in *.py; do grep -q 'return 3' \"$f\" || exit 1; done\n")
			write("api/three.py", "def three():\n    return 3\n")
			write("test_all.sh", "#!/bin/sh\nfor d in api web; do (cd $d && make test) || exit 1; done\n")
			write("web/Makefile", "test:\n\tsh check.sh\n")
			write("web/check.sh", "#!/bin/sh\ngrep -q 'hello' index.html && grep -q 'hello' ../lib/greeting.txt\n")
			write("web/index.html", "<p>hello</p>\n")
			write("lib/greeting.txt", "hello\n")
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
				t.Fatalf("COMPLETE %v, want %v:\n%s", done, c.complete, got)
			}
			if !c.complete && code == 0 && !strings.Contains(got, "which has its own tests") {
				t.Errorf("the refusal does not name the subproject's suite:\n%s", got)
			}
		})
	}
}
