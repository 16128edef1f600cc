package gitrepo_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
)

// BenchmarkStatusRacy times the clean-tree check's StatusSince (git
// status, then the entries whose ctime is not older than the session's
// start compared by content, racyctime.go) against a plain `git status
// --porcelain` of the same work tree. BENCH_FILES sets the size (default
// 5,000 tracked files). "settled": the session touched no file since it
// started, so none is hashed; "racy": every file's ctime moved after the
// start (the worst case: a checkout of the whole tree in the session), so
// all are hashed. ChangedFiles and ChangedFilesSince are the hook path's
// list of the session's files without and with that compare.
//
//	go test ./gitrepo -run '^$' -bench StatusRacy -benchtime 20x -count 3
func BenchmarkStatusRacy(b *testing.B) {
	files := 5000
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
	var paths []string
	for i := range files {
		p := filepath.Join(dir, fmt.Sprintf("src/d%d/f%d.txt", i/100, i%100))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(fmt.Sprintf("file %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, p)
	}
	g("add", "-A")
	g("commit", "-q", "-m", "start")
	ctx := context.Background()
	r, err := gitrepo.Open(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	head, _, err := r.Head(ctx)
	if err != nil {
		b.Fatal(err)
	}
	var since time.Time // the session's start
	settle := func() {
		time.Sleep(1100 * time.Millisecond)
		os.WriteFile(filepath.Join(dir, "later.txt"), []byte("later\n"), 0o644)
		g("add", "later.txt") // the index written a second after every file
	}
	racy := func() {
		// Retried: under load the refresh may land a second later.
		for range 10 {
			old := time.Now().Add(-time.Hour)
			for _, p := range paths {
				os.Chtimes(p, old, old) // ctime now, mtime an hour back
			}
			g("update-index", "-q", "--refresh")
			if gitrepo.RacyEntryCount(r, since) >= files/2 {
				return
			}
		}
	}
	status := func(b *testing.B) {
		for b.Loop() {
			if st, err := r.StatusSince(ctx, since); err != nil || len(st) != 0 && len(st) != 1 {
				b.Fatalf("Status = %d entries, %v", len(st), err)
			}
		}
	}
	// Without optional locks, so status never rewrites the index (which
	// would settle the racy entries between runs).
	plain := func(b *testing.B) {
		for b.Loop() {
			g("--no-optional-locks", "status", "--porcelain", "-z", "--untracked-files=normal")
		}
	}
	for _, state := range []struct {
		name  string
		set   func()
		after bool // the session starts after set
	}{{"settled", settle, true}, {"racy", racy, false}} {
		if !state.after {
			since = time.Now().Add(-time.Second)
		}
		state.set()
		if state.after {
			time.Sleep(1100 * time.Millisecond)
			since = time.Now()
		}
		n := gitrepo.RacyEntryCount(r, since)
		b.Run(state.name+"/git-status", plain)
		b.Run(state.name+"/Status", func(b *testing.B) {
			status(b)
			b.ReportMetric(float64(n), "racy-entries")
		})
		// The hook path's list of the session's files, before (git status
		// alone) and after (the entries touched since the start compared).
		b.Run(state.name+"/ChangedFiles", func(b *testing.B) {
			for b.Loop() {
				if _, err := r.ChangedFiles(ctx, head); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(state.name+"/ChangedFilesSince", func(b *testing.B) {
			for b.Loop() {
				if _, err := r.ChangedFilesSince(ctx, head, since); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n), "racy-entries")
		})
		if m := gitrepo.RacyEntryCount(r, since); m != n {
			b.Fatalf("%s: %d entries compared by content before, %d after", state.name, n, m)
		}
	}
}
