package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// r56SubfolderRepo makes a repository under the v3-style protocol (no
// markers; "Read `.agents/HANDOFF.md`"; a handoff file under
// .agents/handoffs/) with the code in src/, adopts it, installs the hooks
// and switches to a feature branch.
func r56SubfolderRepo(t *testing.T) (dir string, env []string, sgIn func(sub string, want int, args ...string) string, git func(args ...string), write func(rel, body string)) {
	t.Helper()
	dir = newRepoDir(t)
	env = []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e"}
	write = func(rel, body string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sgIn = func(sub string, want int, args ...string) string {
		t.Helper()
		code, out, errb := sgBin(t, filepath.Join(dir, sub), env, args...)
		if want >= 0 && code != want {
			t.Fatalf("sessiongate %s (in %q): exit %d, want %d\n%s%s", strings.Join(args, " "), sub, code, want, out, errb)
		}
		return out + errb
	}
	git = func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	proto, err := os.ReadFile(filepath.Join("..", "..", "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	write("SESSION-PROTOCOL.md", string(proto))
	write(".agents/HANDOFF.md", "# Handoff\n\nShared by every session.\n")
	write(".agents/handoffs/.gitkeep", "")
	write("README.md", "# strs\n\nString helpers in src/.\n")
	write("src/strs.sh", "up() { echo \"$1\" | tr a-z A-Z; }\n")
	write("src/test.sh", "#!/bin/sh\n. ./strs.sh\n[ \"$(up a)\" = A ]\n")
	sgIn("", 0, "init")
	git("add", "-A")
	git("commit", "-q", "--no-verify", "-m", "chore: adopt sessiongate")
	sgIn("", 0, "install")
	git("switch", "-q", "-c", "feat/down")
	sgIn("", 0, "session", "start", "--objective", "add down() to src/strs.sh")
	sgIn("", 0, "session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--type", "tool_output", "--value", "task: add down() to src/strs.sh")
	return
}

// TestR56ObservedReadFromSubfolder (round 56, helper 334): since round 55
// (c2ac5452) `sessiongate run` runs where the caller stands and records
// `cd src && COMMAND`. An honest agent standing in src/ reads the handoff
// the protocol names through sessiongate run (`cat ../.agents/HANDOFF.md`,
// exit 0, its output the file): the gate says "no content_hash evidence for
// .agents/HANDOFF.md". session/observedread.go readsFile wants exactly one
// call and reads the argument relative to the root. The same run from the
// root passes (control).
func TestR56ObservedReadFromSubfolder(t *testing.T) {
	t.Run("control-root", func(t *testing.T) {
		_, _, sgIn, _, _ := r56SubfolderRepo(t)
		sgIn("", 0, "run", "--phase", "CONTEXT_RETRIEVAL", "--requirement", "CONTEXT_RETRIEVAL.read-agents-handoff-md", "--", "cat", ".agents/HANDOFF.md")
		sgIn("", 0, "session", "advance")
	})
	t.Run("from-src", func(t *testing.T) {
		_, _, sgIn, _, _ := r56SubfolderRepo(t)
		sgIn("src", 0, "run", "--phase", "CONTEXT_RETRIEVAL", "--requirement", "CONTEXT_RETRIEVAL.read-agents-handoff-md", "--", "cat", "../.agents/HANDOFF.md")
		if got := sgIn("src", -1, "session", "advance"); !strings.Contains(got, "CONTEXT_RETRIEVAL -> BRANCH_CHECK") {
			t.Fatalf("the read made from src/ does not count:\n%s", got)
		}
	})
}

// TestR56EvidencePathFromSubfolder (round 56, helper 334): standing in src/,
// `session evidence --type file_path --value ../.agents/handoffs/X.md`
// exits 2, "path is outside the repository: contains ..", and `--value
// strs.sh` (src/strs.sh) "does not exist in the repository": evidence paths
// are read relative to the root whatever the folder, while `sessiongate run`
// now runs in the caller's folder. A path inside the work tree, relative to
// where the caller stands, should be taken (as git takes it).
func TestR56EvidencePathFromSubfolder(t *testing.T) {
	_, _, sgIn, _, _ := r56SubfolderRepo(t)
	sgIn("", 0, "run", "--phase", "CONTEXT_RETRIEVAL", "--requirement", "CONTEXT_RETRIEVAL.read-agents-handoff-md", "--", "cat", ".agents/HANDOFF.md")
	sgIn("", 0, "session", "advance")
	for _, args := range [][]string{
		{"session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "content_hash", "--value", "../README.md"},
		{"session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "content_hash", "--value", "strs.sh"},
	} {
		if got := sgIn("src", -1, args...); strings.Contains(got, "outside the repository") || strings.Contains(got, "does not exist") {
			t.Errorf("%s from src/ refused:\n%s", strings.Join(args[4:], " "), got)
		}
	}
}
