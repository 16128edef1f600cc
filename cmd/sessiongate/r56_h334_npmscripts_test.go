package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestR56NpmUnrelatedScriptAdded (round 56, helper 334): QA runs `npm
// test`; the session adds a "lint" script to package.json (npm test never
// runs it: only test, pretest and posttest, and what they call). Local
// end: COMPLETE, clean. verify: "rerun guard: ... changes its "scripts"
// (lint), which npm runs: ... passes only with a person's signature"
// (verify/rerunguard.go compares the whole scripts map). A Makefile's new
// unrelated target passes (its recipes are judged by section); so should
// this. The lazy twin (a pretest that rewrites the code) must still fail.
func TestR56NpmUnrelatedScriptAdded(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm not installed")
	}
	for _, lazy := range []bool{false, true} {
		name := "honest-lint-script"
		if lazy {
			name = "lazy-pretest-script"
		}
		t.Run(name, func(t *testing.T) {
			dir := newRepoDir(t)
			env := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e", "CLAUDECODE=1"}
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
			sg := func(want int, args ...string) string {
				t.Helper()
				code, out, errb := sgBin(t, dir, env, args...)
				if want >= 0 && code != want {
					t.Fatalf("sessiongate %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, out, errb)
				}
				return out + errb
			}
			git := func(args ...string) string {
				t.Helper()
				cmd := exec.Command("git", args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), env...)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("git %v: %v %s", args, err, out)
				}
				return strings.TrimSpace(string(out))
			}
			write("package.json", "{\n  \"name\": \"strs\",\n  \"version\": \"1.0.0\",\n  \"scripts\": {\n    \"test\": \"node --test\"\n  }\n}\n")
			write("src/strs.js", "exports.up = (s) => s.toUpperCase();\n")
			write("test/strs.test.js", "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst { up } = require('../src/strs');\ntest('up', () => assert.equal(up('a'), 'A'));\n")
			write("README.md", "# strs\n")
			sg(0, "init")
			git("add", "-A")
			git("commit", "-q", "--no-verify", "-m", "chore: adopt sessiongate")
			base := git("rev-parse", "HEAD")
			sg(0, "install")
			git("switch", "-q", "-c", "chore/lint")
			sg(0, "session", "start", "--objective", "add a lint script")
			sg(0, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read README.md and package.json: one test script; history: chore: adopt sessiongate")
			sg(0, "session", "advance")
			sg(0, "run", "--phase", "GIT_STATE", "--", "git", "status")
			sg(0, "session", "advance")
			sg(0, "session", "evidence", "--phase", "PLAN", "--type", "manual", "--value", "add a lint script to package.json; run npm test")
			sg(0, "session", "advance")
			extra := `"lint": "node --check src/strs.js"`
			if lazy {
				extra = `"pretest": "node -e \"require('fs').writeFileSync('src/strs.js','exports.up=(s)=>s.toUpperCase();\\n')\""`
			}
			write("package.json", "{\n  \"name\": \"strs\",\n  \"version\": \"1.0.0\",\n  \"scripts\": {\n    \"test\": \"node --test\",\n    "+extra+"\n  }\n}\n")
			git("add", "-A")
			git("commit", "-q", "-m", "chore: add a script")
			sg(-1, "run", "--phase", "QA_VALIDATION", "--", "npm", "test")
			end := sg(-1, "session", "end", "--summary", "script added")
			code, out, errb := sgBin(t, dir, env, "verify", base+"..HEAD")
			if lazy {
				if code == 0 {
					t.Fatalf("a pretest script passes verify unsigned:\n%s%s", out, errb)
				}
				return
			}
			if !strings.Contains(end, "COMPLETE: clean") {
				t.Fatalf("local end not clean:\n%s", end)
			}
			if code != 0 {
				t.Fatalf("verify: exit %d, want 0 (npm test never runs the lint script):\n%s%s", code, out, errb)
			}
		})
	}
}
