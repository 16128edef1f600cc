package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestR56NpmWorkspacesWholeSuite (round 56, helper 334): an npm workspaces
// monorepo (root package.json with "workspaces": ["packages/*"] and no
// test script; each package has its own). init finds no test command, so
// the starter's QA gate takes the agent's run of the whole suite. From the
// root that run is `npm test --workspaces` (or -ws): npm runs every
// workspace's test script. sessiongate calls it "runs part of the suite: a
// filter (--workspaces); ... run the suite (no filter, every package or
// test folder of the project)", which is what --workspaces does; `npm
// --workspaces test` is then "another runner's suite (`cd packages/a && npm
// test`)". Only per-package runs from each folder pass. The honest root run
// should meet the gate.
func TestR56NpmWorkspacesWholeSuite(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm not installed")
	}
	for _, flag := range []string{"--workspaces", "-ws"} {
		t.Run(flag, func(t *testing.T) {
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
			git := func(args ...string) {
				t.Helper()
				cmd := exec.Command("git", args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), env...)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v %s", args, err, out)
				}
			}
			write("package.json", `{ "name": "root", "private": true, "workspaces": ["packages/*"] }`+"\n")
			for _, p := range []string{"a", "b"} {
				write("packages/"+p+"/package.json", `{ "name": "`+p+`", "version": "1.0.0", "scripts": { "test": "node --test" } }`+"\n")
				write("packages/"+p+"/"+p+".js", "module.exports = () => 1;\n")
				write("packages/"+p+"/"+p+".test.js", "const t = require('node:test');\nconst assert = require('node:assert');\nt('one', () => assert.equal(require('./"+p+"')(), 1));\n")
			}
			write("README.md", "# ws\n\nTwo packages.\n")
			write(".gitignore", "node_modules/\n")
			sg(0, "init")
			git("add", "-A")
			git("commit", "-q", "--no-verify", "-m", "chore: adopt sessiongate")
			sg(0, "install")
			git("switch", "-q", "-c", "docs/a")
			sg(0, "session", "start", "--objective", "document what a returns")
			sg(0, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read README.md: two packages; history: chore: adopt sessiongate")
			sg(0, "session", "advance")
			sg(0, "run", "--phase", "GIT_STATE", "--", "git", "status")
			sg(0, "session", "advance")
			sg(0, "session", "evidence", "--phase", "PLAN", "--type", "manual", "--value", "comment a.js; run every workspace's tests")
			sg(0, "session", "advance")
			write("packages/a/a.js", "// a returns one.\nmodule.exports = () => 1;\n")
			git("add", "-A")
			git("commit", "-q", "-m", "docs(a): say what a returns")
			sg(0, "run", "--phase", "QA_VALIDATION", "--", "npm", "test", flag)
			if got := sg(-1, "session", "end", "--summary", "a documented"); !strings.Contains(got, "COMPLETE") {
				t.Fatalf("npm test %s (every workspace's tests, passing) does not meet QA:\n%s", flag, got)
			}
		})
	}
}
