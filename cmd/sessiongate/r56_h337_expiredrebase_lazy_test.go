package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestR56RebaseContinuingExpiredSessionLazyAmend (round 56, helper 337):
// the lazy twin of TestR56RebaseContinuingExpiredSession: after the day-one
// session expired its commit is amended with --no-verify (an untested
// four() slipped in), then rebased onto main before or inside the next
// day's continuing session. The continuing session's replay rule counts
// only the abandoned session's recorded commits and pre-commit trees, so
// the amended commit stays unchecked and verify fails.
func TestR56RebaseContinuingExpiredSessionLazyAmend(t *testing.T) {
	for _, inside := range []bool{false, true} {
		name := "lazy-amend-rebase-before-start"
		if inside {
			name = "lazy-amend-rebase-inside-continuing-session"
		}
		t.Run(name, func(t *testing.T) {
			dir := newRepoDir(t)
			person := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e"}
			agent := append(append([]string{}, person...), "CLAUDECODE=1")
			write := func(root, rel, body string) {
				t.Helper()
				p := filepath.Join(root, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sg := func(want int, args ...string) string {
				t.Helper()
				code, out, errb := sgBin(t, dir, agent, args...)
				if want >= 0 && code != want {
					t.Fatalf("sessiongate %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, out, errb)
				}
				return out + errb
			}
			git := func(in string, env []string, args ...string) {
				t.Helper()
				cmd := exec.Command("git", args...)
				cmd.Dir = in
				cmd.Env = append(os.Environ(), env...)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v %s", args, err, out)
				}
			}
			start := func(objective string) {
				t.Helper()
				sg(0, "session", "start", "--objective", objective)
				sg(0, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read README.md: m, one function; history: chore: adopt sessiongate")
				sg(0, "session", "advance")
				sg(0, "run", "--phase", "GIT_STATE", "--", "git", "status")
				sg(0, "session", "advance")
				sg(0, "session", "evidence", "--phase", "PLAN", "--type", "manual", "--value", "plan: add the function and its check in test.sh")
				sg(0, "session", "advance")
			}
			write(dir, "README.md", "# m\n\nOne function.\n")
			write(dir, "m.sh", "one() { echo 1; }\n")
			write(dir, "test.sh", "#!/bin/sh\nset -e\n. ./m.sh\n[ \"$(one)\" = 1 ]\n")
			sg(0, "init")
			b, err := os.ReadFile(filepath.Join(dir, "sessiongate.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			y := strings.Replace(string(b), "idle_timeout: 24h", "idle_timeout: 2s", 1)
			if y == string(b) {
				t.Fatal("no idle_timeout line in sessiongate.yaml")
			}
			write(dir, "sessiongate.yaml", y)
			git(dir, person, "add", "-A")
			git(dir, person, "commit", "-q", "-m", "chore: adopt sessiongate")
			sg(0, "install")
			origin := filepath.Join(t.TempDir(), "origin.git")
			git(dir, person, "init", "-q", "--bare", origin)
			git(dir, person, "remote", "add", "origin", origin)
			git(dir, person, "push", "-q", "origin", "HEAD:refs/heads/main")
			git(dir, person, "fetch", "-q", "origin")
			git(dir, person, "switch", "-q", "-c", "feat/two")

			// Day one: the work committed, the session left open.
			start("add two()")
			write(dir, "m.sh", "one() { echo 1; }\ntwo() { echo 2; }\n")
			write(dir, "test.sh", "#!/bin/sh\nset -e\n. ./m.sh\n[ \"$(one)\" = 1 ]\n[ \"$(two)\" = 2 ]\n")
			git(dir, agent, "add", "-A")
			git(dir, agent, "commit", "-q", "-m", "feat(m): add two")

			// Overnight a person's change lands on main.
			mate := filepath.Join(t.TempDir(), "mate")
			git(dir, person, "clone", "-q", "-b", "main", origin, mate)
			write(mate, "README.md", "# m\n\nOne function, more to come.\n")
			git(mate, person, "commit", "-q", "-am", "docs: say more is coming")
			git(mate, person, "push", "-q", "origin", "main")
			git(dir, agent, "fetch", "-q", "origin")
			time.Sleep(3 * time.Second) // past idle_timeout

			// After expiry: yesterday's commit amended with the hooks off,
			// an untested broken function slipped in (h334 VARIANT=lazyamend).
			write(dir, "m.sh", "one() { echo 1; }\ntwo() { echo 2; }\nfour() { echo 5; }\n")
			git(dir, agent, "add", "-A")
			git(dir, agent, "commit", "-q", "--amend", "--no-edit", "--no-verify")

			// Day two.
			if !inside {
				git(dir, agent, "rebase", "-q", "origin/main")
			}
			start("add three(), continuing two()")
			if inside {
				git(dir, agent, "rebase", "-q", "origin/main")
			}
			write(dir, "m.sh", "one() { echo 1; }\ntwo() { echo 2; }\nfour() { echo 5; }\nthree() { echo 3; }\n")
			write(dir, "test.sh", "#!/bin/sh\nset -e\n. ./m.sh\n[ \"$(one)\" = 1 ]\n[ \"$(two)\" = 2 ]\n[ \"$(three)\" = 3 ]\n")
			git(dir, agent, "add", "-A")
			git(dir, agent, "commit", "-q", "-m", "feat(m): add three")
			sg(-1, "run", "--phase", "QA_VALIDATION", "--", "sh", "test.sh")
			sg(-1, "session", "end", "--summary", "two and three")
			code, out, errb := sgBin(t, dir, person, "verify", "origin/main..HEAD")
			if code == 0 {
				t.Errorf("the amend made with the hooks off after expiry passes verify:\n%s%s", out, errb)
			}
			t.Logf("verify exit %d:\n%s%s", code, out, errb)
		})
	}
}
