package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestR56DocsGateTakesRebasedPersonEdit (round 56, helper 334; LOW: a
// RECOMMENDED gate): the starter's Documentation Update binds when the
// change touches a file README.md names (scripts/greet.sh). The agent
// changes greet.sh and never touches README.md; a person's README edit on
// main comes in with the agent's `git rebase origin/main`. The gate says
// "PASS changed_since_start *.md: README.md changed": the person's edit
// stands in for the docs the session owed. The `unchanged` check already
// tells a person's edit rebased in from the session's own; this one should too.
func TestR56DocsGateTakesRebasedPersonEdit(t *testing.T) {
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
	write(dir, "README.md", "# greet\n\n`sh scripts/greet.sh NAME` greets NAME.\n\n## License\n\nMIT.\n")
	write(dir, "scripts/greet.sh", "#!/bin/sh\necho \"hello $1\"\n")
	write(dir, "scripts/test.sh", "#!/bin/sh\nset -e\n[ \"$(sh scripts/greet.sh Ada)\" = \"hello Ada\" ]\n")
	sg(0, "init")
	git(dir, person, "add", "-A")
	git(dir, person, "commit", "-q", "-m", "chore: adopt sessiongate")
	sg(0, "install")
	origin := filepath.Join(t.TempDir(), "origin.git")
	git(dir, person, "init", "-q", "--bare", "-b", "main", origin)
	git(dir, person, "remote", "add", "origin", origin)
	git(dir, person, "push", "-q", "origin", "HEAD:refs/heads/main")
	git(dir, person, "fetch", "-q", "origin")
	git(dir, person, "switch", "-q", "-c", "feat/bang")
	sg(0, "session", "start", "--objective", "greet.sh says what it does")
	sg(0, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read README.md: greet.sh greets NAME; history: chore: adopt sessiongate")
	sg(0, "session", "advance")
	sg(0, "run", "--phase", "GIT_STATE", "--", "git", "status")
	sg(0, "session", "advance")
	sg(0, "session", "evidence", "--phase", "PLAN", "--type", "manual", "--value", "a usage comment in greet.sh")
	sg(0, "session", "advance")
	write(dir, "scripts/greet.sh", "#!/bin/sh\n# greet NAME: a greeting for NAME, on stdout.\necho \"hello $1\"\n")
	git(dir, agent, "add", "-A")
	git(dir, agent, "commit", "-q", "-m", "docs(greet): a usage comment")

	mate := filepath.Join(t.TempDir(), "mate")
	git(dir, person, "clone", "-q", "-b", "main", origin, mate)
	write(mate, "README.md", "# greet\n\n`sh scripts/greet.sh NAME` greets NAME.\n\n## License\n\nMIT, see LICENSE.\n")
	git(mate, person, "commit", "-q", "-am", "docs: point at LICENSE")
	git(mate, person, "push", "-q", "origin", "main")
	git(dir, agent, "fetch", "-q", "origin")
	git(dir, agent, "rebase", "-q", "origin/main")

	sg(-1, "run", "--phase", "QA_VALIDATION", "--", "sh", "scripts/test.sh")
	end := sg(-1, "session", "end", "--summary", "greet.sh says what it does")
	if strings.Contains(end, "PASS     DOCUMENTATION_UPDATE") {
		t.Fatalf("the person's README edit rebased in met the session's docs gate:\n%s", end)
	}
}
