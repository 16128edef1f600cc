// Package gittest makes real git repositories for tests: the one copy of
// "skip without git, init, write, commit" the packages' tests share.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Require skips the test without git, and fails it under CI=true, where
// .ci/run installs git.
func Require(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is required under CI=true but was not found")
		}
		t.Skip("git not found: install git to run this test")
	}
}

// Git runs git in dir with a fixed author and committer and returns its
// trimmed output; a failure fails the test with git's output. The user's
// config still applies (CI sets init.defaultBranch and an identity there).
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return GitEnv(t, dir, nil, args...)
}

// GitEnv is Git with extra environment variables (a fixed date, say).
func GitEnv(t testing.TB, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Write writes body to rel (slash-separated) below root, making folders.
func Write(t testing.TB, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Init makes an empty repository on branch main in a new temporary folder
// and returns its path. It calls Require first.
func Init(t testing.TB) string {
	t.Helper()
	Require(t)
	dir := t.TempDir()
	Git(t, dir, "init", "-q", "-b", "main")
	return dir
}

// Commit writes files (path -> content) below dir, stages everything and
// commits with msg; it returns the new commit's hash.
func Commit(t testing.TB, dir, msg string, files map[string]string) string {
	t.Helper()
	for rel, body := range files {
		Write(t, dir, rel, body)
	}
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
	return Git(t, dir, "rev-parse", "HEAD")
}

// New is Init plus one commit of files (a README when files is empty).
func New(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := Init(t)
	if len(files) == 0 {
		files = map[string]string{"README.md": "# demo\n"}
	}
	Commit(t, dir, "initial", files)
	return dir
}

// Config sets a repository-local config value.
func Config(t testing.TB, dir, key, value string) {
	t.Helper()
	Git(t, dir, "config", key, value)
}
