package reliability

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFirstCommitOfNewRepository: git init, sessiongate init and install, a
// session through its start gates, then the repository's very first commit
// on an unborn branch passes the starter's commit-time whitespace check.
func TestFirstCommitOfNewRepository(t *testing.T) {
	root := t.TempDir()
	r := &repo{root: root, db: filepath.Join(t.TempDir(), "sg.db"), env: cleanEnv(t.TempDir())}
	r.env = append(r.env, "SESSIONGATE_DB="+r.db)
	r.run(t, "git", "init", "-q", "-b", "main")
	r.run(t, binary, "init")
	r.run(t, binary, "install")
	r.run(t, binary, "session", "start", "--objective", "first commit")
	for _, p := range []string{"CONTEXT_RETRIEVAL", "GIT_STATE"} {
		r.run(t, binary, "session", "evidence", "--phase", p, "--type", "tool_output", "--value", "looked at "+strings.ToLower(p)+" of a new repository: no commits yet")
	}
	r.run(t, binary, "session", "advance", "--to", "WORKING")
	if err := os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.run(t, "git", "add", "-A")
	cmd := exec.Command("git", "commit", "-q", "-m", "first commit")
	cmd.Dir, cmd.Env = root, r.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("first commit blocked: %v\n%s", err, out)
	}
	if got := r.run(t, "git", "log", "--format=%s"); strings.TrimSpace(got) != "first commit" {
		t.Fatalf("log %q", got)
	}
	// The same check still catches what it is for.
	if err := os.WriteFile(filepath.Join(root, "b.go"), []byte("package main \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.run(t, "git", "add", "b.go")
	cmd = exec.Command("git", "commit", "-q", "-m", "trailing space")
	cmd.Dir, cmd.Env = root, r.env
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("a trailing-whitespace commit passed:\n%s", out)
	}
}
