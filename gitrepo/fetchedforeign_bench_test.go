package gitrepo_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// BenchmarkCommitListingFetched times the session's commit listing (what
// commit_message and no_hook_bypass read on the hook path) in a clone whose
// FETCH_HEAD names a tip of main fetched after the start, which
// fetchedForeign judges (merge-base --all and log), against its peer in
// the same interleaved run: the same clone with FETCH_HEAD naming the tip
// the start recorded, which it skips (fac4f740; before, both were judged).
//
//	go test ./gitrepo -run '^$' -bench CommitListingFetched -benchtime 40x
func BenchmarkCommitListingFetched(b *testing.B) {
	gittest.Require(b)
	const id = "0b9c2c5e-8e0a-4a35-9a0f-1d2e3f4a5b6c"
	src := gittest.New(b, map[string]string{"README.md": "# x\n"})
	origin := filepath.Join(b.TempDir(), "origin.git")
	gittest.Git(b, filepath.Dir(origin), "clone", "-q", "--bare", src, origin)
	dir := filepath.Join(b.TempDir(), "clone")
	gittest.Git(b, filepath.Dir(dir), "clone", "-q", origin, dir)
	gittest.Git(b, dir, "fetch", "-q", "origin")
	ctx := context.Background()
	r, err := gitrepo.Open(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	atStart, err := r.RemoteTips(ctx)
	if err != nil {
		b.Fatal(err)
	}
	atStart[session.StartSessionKey] = id
	start := gittest.Git(b, dir, "rev-parse", "HEAD")
	recorded, err := os.ReadFile(filepath.Join(dir, ".git", "FETCH_HEAD"))
	if err != nil {
		b.Fatal(err)
	}
	gittest.Git(b, dir, "switch", "-q", "-c", "feat/x")
	for i := range 5 {
		gittest.Write(b, dir, "f.txt", string(rune('a'+i))+"\n")
		gittest.Git(b, dir, "add", "-A")
		gittest.Git(b, dir, "commit", "-qm", "feat: step "+string(rune('a'+i)), "--trailer", session.TrailerKey+": "+id)
	}
	other := filepath.Join(b.TempDir(), "person")
	gittest.Git(b, filepath.Dir(other), "clone", "-q", origin, other)
	gittest.Commit(b, other, "chore: license", map[string]string{"LICENSE": "MIT\n"})
	gittest.Git(b, other, "push", "-q", "origin", "main")
	gittest.Git(b, dir, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
	fetched, err := os.ReadFile(filepath.Join(dir, ".git", "FETCH_HEAD"))
	if err != nil {
		b.Fatal(err)
	}
	// The person's commit is the remote's only through the fetched tip:
	// listed beside the work's five when FETCH_HEAD names the recorded one.
	list := func(fetchHead []byte, want int) time.Duration {
		gittest.Write(b, dir, ".git/FETCH_HEAD", string(fetchHead))
		t := time.Now()
		got, err := r.CommitSubjectsAtStart(ctx, start, atStart)
		d := time.Since(t)
		if err != nil || len(got) != want {
			b.Fatalf("listing: %d commits, %v; want %d", len(got), err, want)
		}
		return d
	}
	var judged, skipped, ratio []float64
	for b.Loop() {
		j, s := list(fetched, 5), list(recorded, 6)
		judged, skipped = append(judged, float64(j.Microseconds())/1000), append(skipped, float64(s.Microseconds())/1000)
		ratio = append(ratio, float64(j)/float64(s))
	}
	b.ReportMetric(median(judged), "fetched-after-ms")
	b.ReportMetric(median(skipped), "fetched-before-ms")
	b.ReportMetric(median(ratio), "ratio")
}
