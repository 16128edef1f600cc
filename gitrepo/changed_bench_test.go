package gitrepo_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
)

// BenchmarkChangedFiles times what a {changed} gate asks outside commit
// time (files changed since the session's start: committed, staged,
// unstaged, untracked) against its floor, one `git status` of the same work
// tree. BENCH_FILES sets the repository's size (default 20,000 tracked
// files); 100 files are committed since the start, 100 modified and 100
// untracked.
//
//	go test ./gitrepo -run '^$' -bench ChangedFiles -benchtime 50x -count 3
func BenchmarkChangedFiles(b *testing.B) {
	files := 20000
	if v, err := strconv.Atoi(os.Getenv("BENCH_FILES")); err == nil && v > 0 {
		files = v
	}
	dir := b.TempDir()
	g := func(args ...string) string {
		b.Helper()
		// No auto gc: a detached one would race the explicit gc below.
		cmd := exec.Command("git", append([]string{"-c", "gc.auto=0", "-c", "maintenance.auto=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=B", "GIT_AUTHOR_EMAIL=b@example.com", "GIT_COMMITTER_NAME=B", "GIT_COMMITTER_EMAIL=b@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	g("init", "-q", "-b", "main")
	for i := range files {
		write(fmt.Sprintf("src/d%d/f%d.txt", i/100, i%100), fmt.Sprintf("file %d\n", i))
	}
	g("add", "-A")
	g("commit", "-q", "-m", "start")
	g("gc", "-q")
	since := g("rev-parse", "HEAD")[:40]
	for i := range 100 {
		write(fmt.Sprintf("src/d%d/f%d.txt", i, 1), "committed\n")
	}
	g("commit", "-q", "-am", "work")
	for i := range 100 {
		write(fmt.Sprintf("src/d%d/f%d.txt", i, 2), "modified\n")
		write(fmt.Sprintf("new/n%d.txt", i), "untracked\n")
	}
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	status := func() {
		cmd := exec.Command("git", "--no-optional-locks", "status", "--porcelain", "-z", "--untracked-files=all")
		cmd.Dir = dir
		if _, err := cmd.Output(); err != nil {
			b.Fatal(err)
		}
	}
	changed := func() {
		fs, err := repo.ChangedFiles(ctx, since)
		if err != nil {
			b.Fatal(err)
		}
		if len(fs) != 300 {
			b.Fatalf("%d changed files, want 300", len(fs))
		}
	}
	// Interleaved pairs, so a load that comes and goes weighs on both.
	var ours, peer, ratio []float64
	for b.Loop() {
		t := time.Now()
		changed()
		o := time.Since(t)
		t = time.Now()
		status()
		p := time.Since(t)
		ours, peer = append(ours, float64(o.Microseconds())/1000), append(peer, float64(p.Microseconds())/1000)
		ratio = append(ratio, float64(o)/float64(p))
	}
	b.ReportMetric(median(ours), "changed-ms")
	b.ReportMetric(median(peer), "git-status-ms")
	b.ReportMetric(median(ratio), "ratio")
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}
