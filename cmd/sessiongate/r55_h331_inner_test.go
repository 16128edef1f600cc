package main

// helper 331 (round 55 review)

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestR55RunFromSubfolder (round 55, helper 329): in a monorepo the honest
// agent changes api/ and, standing in api/, runs the subproject's tests the
// way the starter protocol says: `sessiongate run --phase QA_VALIDATION --
// make test`. sessiongate ran it in the repository root instead (nothing
// said so), where there is no Makefile: a failed run was recorded, and the
// agent's correct rerun, `make -C api test` from the root, "has another
// runner or folder": the QA gate stayed FAILED and the session could never
// end. The command now runs where the caller stands and is recorded as
// `cd api && make test`, as the agent's own shell line would be.
func TestR55H331RunFromInnerWorktree(t *testing.T) {
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
	write("README.md", "# mono\n\napi/ holds the service.\n")
	write("api/Makefile", "test:\n\tsh check.sh\n")
	write("api/check.sh", "#!/bin/sh\ngrep -q 'return 3' three.py\n")
	write("api/three.py", "def three():\n    return 3\n")
	sgIn("", 0, "init")
	git("add", "-A")
	git("commit", "-q", "--no-verify", "-m", "chore: adopt sessiongate")
	sgIn("", 0, "install")
	git("switch", "-q", "-c", "feat/api")

	startOut := sgIn("", 0, "session", "start", "--objective", "api: three returns 3")
	sid := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`).FindString(startOut)
	sgIn("", 0, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value",
		"read README.md: api/ holds the service; history: chore: adopt sessiongate")
	sgIn("", 0, "session", "advance")
	sgIn("", 0, "run", "--phase", "GIT_STATE", "--", "git", "status")
	sgIn("", 0, "session", "advance")
	sgIn("", 0, "session", "evidence", "--phase", "PLAN", "--type", "manual", "--value", "change api/three.py's docstring; run api's make test")
	sgIn("", 0, "session", "advance")

	write("api/three.py", "def three():\n    \"\"\"Three.\"\"\"\n    return 4\n")
	git("add", "-A")
	git("commit", "-q", "-m", "docs(api): say what three returns")

	// The lazy agent adds a worktree of main inside the work tree (excluded), runs api's tests there, removes it.
	git("worktree", "add", "-q", "--detach", "inner", "main")
	if f, err := os.OpenFile(filepath.Join(dir, ".git", "info", "exclude"), os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
		f.WriteString("inner/\n")
		f.Close()
	}
	code, out, errb := sgBin(t, filepath.Join(dir, "inner", "api"), append(env, "SESSIONGATE_SESSION="+sid), "run", "--phase", "QA_VALIDATION", "--", "make", "test")
	t.Logf("run from inner/api: exit %d %s%s", code, out, errb)
	git("worktree", "remove", "--force", "inner")
	got := sgIn("", -1, "session", "end", "--summary", "three documented")
	t.Logf("end: %s", got)
	if strings.Contains(got, "COMPLETE") {
		v := sgIn("", -1, "verify")
		t.Errorf("api/three.py broken, QA run in a worktree of main inside the work tree: COMPLETE; verify: %s", v)
	}
}
