package gitrepo_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
)

// BenchmarkHiddenFiles times what the protected-file check and the end's
// QA re-check now add to each gate call (files git hides from status)
// against its peer, one `git status` of the same work tree. BENCH_FILES
// sets the size (default 20,000 tracked files); one file is flagged
// skip-worktree; "filter" also configures a clean filter on one file, the
// case that lists attributes of every tracked file.
//
//	go test ./gitrepo -run '^$' -bench HiddenFiles -benchtime 20x -count 3
func BenchmarkHiddenFiles(b *testing.B) {
	files := 20000
	if v, err := strconv.Atoi(os.Getenv("BENCH_FILES")); err == nil && v > 0 {
		files = v
	}
	dir := b.TempDir()
	b.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	b.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	g := func(args ...string) {
		b.Helper()
		cmd := exec.Command("git", append([]string{"-c", "gc.auto=0", "-c", "maintenance.auto=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=B", "GIT_AUTHOR_EMAIL=b@example.com", "GIT_COMMITTER_NAME=B", "GIT_COMMITTER_EMAIL=b@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	g("init", "-q", "-b", "main")
	for i := range files {
		p := filepath.Join(dir, fmt.Sprintf("src/d%d/f%d.txt", i/100, i%100))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(fmt.Sprintf("file %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	g("add", "-A")
	g("commit", "-q", "-m", "start")
	g("update-index", "--skip-worktree", "src/d0/f0.txt")
	ctx := context.Background()
	r, err := gitrepo.Open(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	run := func(b *testing.B) {
		for b.Loop() {
			if _, err := r.HiddenFiles(ctx); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("status", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.Status(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hidden", run)
	g("config", "filter.x.clean", "cat")
	os.WriteFile(filepath.Join(dir, ".git", "info", "attributes"), []byte("src/d1/f1.txt filter=x\n"), 0o644)
	b.Run("hidden-filter", run)
}
