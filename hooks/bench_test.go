package hooks_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// bigRepo is a repository with n tracked files, the hooks installed and a
// session past its start gate; bench/hooks.sh is the full benchmark
// (git commit end to end, lefthook and pre-commit alongside).
func bigRepo(b *testing.B, n int) *repo {
	b.Helper()
	r := newRepo(b)
	for i := range n {
		p := filepath.Join(r.root, "src", fmt.Sprintf("d%d", i/100), fmt.Sprintf("f%d.txt", i%100))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("file %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "files")
	r.sg(r.root, "install")
	r.startWorking(r.root)
	return r
}

// BenchmarkPreCommitHook runs the installed pre-commit hook the way git
// does (the sh script, which execs the binary) in a 20,000-file repository
// whose index has a valid cache tree, as git commit leaves it.
func BenchmarkPreCommitHook(b *testing.B) {
	r := bigRepo(b, 20000)
	hook := filepath.Join(r.root, ".git", "hooks", "pre-commit")
	for b.Loop() {
		cmd := exec.Command(hook)
		cmd.Dir = r.root
		cmd.Env = r.env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("pre-commit hook: %v\n%s", err, out)
		}
	}
}

// BenchmarkGitCommit is git commit of a one-line change with the hooks
// installed (pre-commit, commit-msg, post-commit).
func BenchmarkGitCommit(b *testing.B) {
	r := bigRepo(b, 20000)
	f := filepath.Join(r.root, "bench.txt")
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		if err := os.WriteFile(f, []byte(fmt.Sprint(i)), 0o644); err != nil {
			b.Fatal(err)
		}
		r.git("add", "bench.txt")
		b.StartTimer()
		if res := r.commit(r.root, nil, "-q", "-m", "bench"); res.code != 0 {
			b.Fatalf("git commit: %s", res.err)
		}
	}
}
