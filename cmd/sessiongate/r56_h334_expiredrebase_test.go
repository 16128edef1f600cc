package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestR56RebaseContinuingExpiredSession (round 56, helper 334): day one, an
// agent's session commits on its branch and is left open; it expires
// overnight (idle_timeout; 2s here stands for 24h) while a person's commit
// lands on main. Day two the agent starts a new session (the old one is
// ABANDONED and cannot be resumed; the new one continues it: verify passes
// its commits on the new session's end gates), passes the start gates and,
// as the git state it just read says, rebases the branch onto main. The
// rebase replays yesterday's commit: post-rewrite records a CRITICAL BYPASS
// ("its change is none the session's pre-commit checked") and a HIGH
// FOREIGN_AMEND, the session ends "COMPLETE, not clean" and verify fails
// both commits. The same rebase made before `session start` (no session
// active) passes: control row. docs/policy.md's remedy for a later
// session's rebase, "rebase inside the session that made the commits", is
// impossible once that session expired.
func TestR56RebaseContinuingExpiredSession(t *testing.T) {
	for _, inside := range []bool{false, true} {
		name := "rebase-before-start"
		if inside {
			name = "rebase-inside-continuing-session"
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

			// Day two.
			if !inside {
				git(dir, agent, "rebase", "-q", "origin/main")
			}
			start("add three(), continuing two()")
			if inside {
				git(dir, agent, "rebase", "-q", "origin/main")
			}
			write(dir, "m.sh", "one() { echo 1; }\ntwo() { echo 2; }\nthree() { echo 3; }\n")
			write(dir, "test.sh", "#!/bin/sh\nset -e\n. ./m.sh\n[ \"$(one)\" = 1 ]\n[ \"$(two)\" = 2 ]\n[ \"$(three)\" = 3 ]\n")
			git(dir, agent, "add", "-A")
			git(dir, agent, "commit", "-q", "-m", "feat(m): add three")
			sg(0, "run", "--phase", "QA_VALIDATION", "--", "sh", "test.sh")
			if got := sg(-1, "session", "end", "--summary", "two and three"); !strings.Contains(got, "COMPLETE: clean") {
				t.Errorf("the honest continuing session is not clean:\n%s", got)
			}
			if code, out, errb := sgBin(t, dir, person, "verify", "origin/main..HEAD"); code != 0 {
				t.Errorf("verify origin/main..HEAD: exit %d, want 0\n%s%s", code, out, errb)
			}
		})
	}
}
