package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestR55StartWarnsWithoutHooks (round 55, helper 329): in a Node project
// whose core.hooksPath is husky's `.husky`, `sessiongate install` refuses
// (exit 1, rightly) and a person who misses that, or who never ran install,
// lets the agent start a session anyway: session start says nothing, and
// the honest agent's first commit is recorded as a CRITICAL BYPASS ("landed
// without a passing pre-commit hook"), the session ends "COMPLETE, not
// clean" and CI's verify fails the commit. The start knows the hooks are
// missing (doctor says FAIL): it now says so before any work, naming
// `sessiongate install` (a warning: a person may mean to install later).
func TestR55StartWarnsWithoutHooks(t *testing.T) {
	dir := newRepoDir(t)
	env := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e"}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte("test:\n\tsh -c 'test -f Makefile'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errb := sgBin(t, dir, env, "init"); code != 0 {
		t.Fatalf("init: %d %s%s", code, out, errb)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "chore: adopt sessiongate")
	git("switch", "-q", "-c", "feat/x")
	code, out, errb := sgBin(t, dir, env, "session", "start", "--objective", "x")
	if code != 0 || !strings.Contains(errb, "is missing: commits are not checked: a commit this session makes will be recorded as a bypass and fail verify; a person runs `sessiongate install`") {
		t.Fatalf("session start with no sessiongate hook installed did not warn (exit %d):\n%s%s", code, out, errb)
	}
	// Installed, the next start says nothing of the kind.
	if code, out, errb := sgBin(t, dir, env, "install"); code != 0 {
		t.Fatalf("install: %d %s%s", code, out, errb)
	}
	code, out, errb = sgBin(t, dir, env, "session", "start", "--objective", "y")
	if code != 0 || strings.Contains(errb, "recorded as a bypass") {
		t.Fatalf("session start with the hooks installed: exit %d, or a warning still:\n%s%s", code, out, errb)
	}
}
