package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestR55H332StartWarnsHuskyCallingHook (helper 332): the way docs/hooks.md
// tells a husky repository to proceed when install refuses ("call
// `sessiongate hook NAME "$@"` from that tool's hooks"). The hooks run
// sessiongate, the commit is recorded, yet session start warns that the
// commit will be a bypass and names `sessiongate install` (which refuses).
func TestR55H332StartWarnsHuskyCallingHook(t *testing.T) {
	dir := newRepoDir(t)
	env := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e"}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return string(out)
	}
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte("test:\n\tsh -c 'test -f Makefile'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errb := sgBin(t, dir, env, "init"); code != 0 {
		t.Fatalf("init: %d %s%s", code, out, errb)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".husky"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"pre-commit", "commit-msg", "post-commit", "pre-push", "post-merge", "post-rewrite"} {
		body := "#!/bin/sh\nnpx --no-install lint-staged 2>/dev/null || true\n" + realBinary(t) + " hook " + n + " \"$@\"\n"
		if err := os.WriteFile(filepath.Join(dir, ".husky", n), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git("config", "core.hooksPath", ".husky")
	git("add", "-A")
	git("commit", "-q", "-m", "chore: adopt sessiongate")
	git("switch", "-q", "-c", "feat/x")
	code, out, errb := sgBin(t, dir, env, "session", "start", "--objective", "x")
	t.Logf("session start: exit %d\n%s%s", code, out, errb)
	if strings.Contains(errb, "recorded as a bypass") {
		t.Errorf("session start warned although .husky's hooks run sessiongate hook (the documented way):\n%s", errb)
	}
	if code, out, errb := sgBin(t, dir, env, "doctor"); true {
		t.Logf("doctor: exit %d\n%s%s", code, out, errb)
	}
}
