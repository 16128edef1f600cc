package teamindex

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/postgres"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
)

// manyRepos makes n repositories with per records each on their records
// ref; repository r's sessions are r*per+1 .. r*per+per.
func manyRepos(tb testing.TB, n, per int) []Source {
	tb.Helper()
	var srcs []Source
	for r := range n {
		dir := filepath.Join(tb.TempDir(), fmt.Sprintf("r%03d", r))
		if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
			tb.Fatal(err, string(out))
		}
		key := fmt.Sprintf("github.com/o/r%03d", r)
		var recs []recordref.Record
		for i := r*per + 1; i <= r*per+per; i++ {
			recs = append(recs, recordref.Record{SessionID: bsid(i), Body: benchRecordFor(tb, i, key)})
		}
		if _, err := recordref.Put(context.Background(), dir, recordref.DefaultRef, recs); err != nil {
			tb.Fatal(err)
		}
		srcs = append(srcs, Source{Location: dir, Key: key})
	}
	return srcs
}

// TestIndexAll: several sources at once, two of them locations of one
// repository (its key), each session imported once, outcomes in order.
func TestIndexAll(t *testing.T) {
	srcs := manyRepos(t, 5, 3)
	clone := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "-q", "--mirror", srcs[0].Location, clone).CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	srcs = append(srcs, Source{Location: clone, Key: srcs[0].Key}, Source{Location: filepath.Join(t.TempDir(), "missing"), Key: "github.com/o/missing"})
	db := openDB(t)
	out := IndexAll(context.Background(), db, srcs, Options{CacheDir: t.TempDir()}, 3)
	imported := 0
	for i, o := range out {
		if o.Source != srcs[i] {
			t.Fatalf("outcome %d is %s's, want %s's", i, o.Source.Location, srcs[i].Location)
		}
		switch {
		case i == len(srcs)-1:
			if o.Err == nil {
				t.Errorf("a missing repository indexed without an error")
			}
		case o.Err != nil:
			t.Errorf("%s: %v", o.Source.Location, o.Err)
		default:
			imported += o.Result.Imported
		}
	}
	// The clone carries repository 0's three sessions again: unchanged.
	if imported != 15 || out[5].Result == nil || out[5].Result.Unchanged != 3 {
		t.Errorf("imported %d (want 15); the clone's run: %+v", imported, out[5].Result)
	}
	n, err := db.CountSessions(context.Background(), session.SessionFilter{})
	if err != nil || n != 15 {
		t.Errorf("%d sessions in the database (%v), want 15", n, err)
	}
}

// BenchmarkIndexMany: 100 repositories of 50 records each (5,000 sessions)
// indexed into a fresh database per iteration; sessions/s.
func BenchmarkIndexMany(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not found")
	}
	const repos, per = 100, 50
	srcs := manyRepos(b, repos, per)
	srv := pgCluster.Get(b)
	var total time.Duration
	for b.Loop() {
		b.StopTimer()
		u, err := srv.NewDB(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		db, err := postgres.Open(context.Background(), u)
		if err != nil {
			b.Fatal(err)
		}
		cache := b.TempDir()
		b.StartTimer()
		start := time.Now()
		out := IndexAll(context.Background(), db, srcs, Options{CacheDir: cache}, 0)
		total += time.Since(start)
		b.StopTimer()
		for _, o := range out {
			if o.Err != nil || o.Result.Imported != per {
				b.Fatal(o.Source.Location, o.Result, o.Err)
			}
		}
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(repos*per*b.N)/total.Seconds(), "sessions/s")
}
