package teamindex

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/internal/pgtest"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
	"github.com/sessiongate/sessiongate/postgres"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

var pgCluster pgtest.Lazy

func TestMain(m *testing.M) {
	// A temp folder of the package's own, removed at the end; a leak
	// fails CI (tmpleak).
	os.Exit(tmpleak.Run(func() int { return runTests(m) }))
}

func runTests(m *testing.M) int {
	code := m.Run()
	pgCluster.Close()
	return code
}

func sid(i int) string { return fmt.Sprintf("%02x000000-0000-4000-8000-%012d", i, i) }

var t0 = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

// record builds a records-ref record of session i whose ids recompute.
func record(t *testing.T, i int, origin, state string, events int) []byte {
	t.Helper()
	p := snapshot.Payload{Schema: snapshot.PayloadSchema,
		Session: snapshot.Key{EventSource: "sessiongate://proj", ServerID: "sessiongate", SessionID: sid(i)},
		Window:  snapshot.Window{Kind: "session"},
		State:   snapshot.State{ProtocolSHA256: "abc", State: state, Phase: "", Phases: []snapshot.Phase{{ID: "P1", Gate: "BLOCKING", Status: "PASSED"}}}}
	id, _, err := p.ID()
	if err != nil {
		t.Fatal(err)
	}
	rec := snapshot.Record{Schema: snapshot.RecordSchema, SessionID: sid(i), Envelope: p.Envelope(id, "test"), Snapshots: []snapshot.Payload{p},
		Session: &snapshot.SessionMeta{Repository: "proj", Origin: origin, Branch: "main", State: state,
			StartedAt: t0.Add(time.Duration(i) * time.Hour).Format(time.RFC3339Nano), EndedAt: t0.Add(time.Duration(i)*time.Hour + 30*time.Minute).Format(time.RFC3339Nano),
			UserName: "Dev", UserEmail: fmt.Sprintf("dev%d@example.com", i%2), Host: "host1"},
		Violations: []snapshot.ViolationRef{{Code: "FORCED_ADVANCE", Phase: "P1", Severity: session.SeverityHigh, At: t0.Format(time.RFC3339)}},
	}
	for e := range events {
		rec.Events = append(rec.Events, snapshot.EventRef{Seq: int64(e + 1), Token: "tool:x", At: t0.Add(time.Duration(e) * time.Second).Format(time.RFC3339)})
	}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func put(t *testing.T, dir string, recs ...recordref.Record) {
	t.Helper()
	if _, err := recordref.Put(context.Background(), dir, recordref.DefaultRef, recs); err != nil {
		t.Fatal(err)
	}
}

func openDB(t *testing.T) *postgres.DB {
	t.Helper()
	u, err := pgCluster.Get(t).NewDB(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	db, err := postgres.Open(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestIndexIncrementalIdempotentAndSafe indexes a repository's records
// ref into PostgreSQL: good records are imported with their identity,
// events and violations; bad ones are reported and skipped; a second run
// writes nothing; new commits are read incrementally; nothing in the
// indexed repository runs.
func TestIndexIncrementalIdempotentAndSafe(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	db := openDB(t)
	repo := t.TempDir()
	gittest.Git(t, repo, "init", "-q", "-b", "main")
	gittest.Git(t, repo, "commit", "-q", "--allow-empty", "-m", "init")
	// Things that would run if the index executed anything of the repository.
	marker := filepath.Join(t.TempDir(), "ran")
	for _, h := range []string{"post-checkout", "post-merge", "reference-transaction", "pre-receive", "post-update"} {
		os.WriteFile(filepath.Join(repo, ".git", "hooks", h), []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755)
	}
	gittest.Git(t, repo, "config", "core.fsmonitor", "touch "+marker)
	gittest.Git(t, repo, "config", "uploadpack.packObjectsHook", "touch "+marker)

	const origin = "github.com/o/proj"
	bad := record(t, 9, origin, "COMPLETE", 1)
	edited := strings.Replace(string(bad), `"state":"COMPLETE","phase"`, `"state":"WORKING","phase"`, 1)
	put(t, repo,
		recordref.Record{SessionID: sid(1), Body: record(t, 1, origin, "COMPLETE", 3)},
		recordref.Record{SessionID: sid(2), Body: record(t, 2, "https://github.com/o/proj.git", "ABANDONED", 1)},
	)
	// A person's commit's actor record beside them: neither imported nor a
	// bad record.
	if _, err := recordref.PutActor(ctx, repo, recordref.DefaultRef, snapshot.CommitActor{Commit: strings.Repeat("a", 40), Actor: snapshot.ActorPerson, Kind: snapshot.KindCommit}); err != nil {
		t.Fatal(err)
	}
	put(t, repo,
		recordref.Record{SessionID: sid(3), Body: record(t, 3, "", "COMPLETE", 2)},
		recordref.Record{SessionID: sid(4), Body: []byte("{not json")},
		recordref.Record{SessionID: sid(5), Body: record(t, 5, "github.com/someone/else", "COMPLETE", 1)},
		recordref.Record{SessionID: sid(9), Body: []byte(edited)},
		recordref.Record{SessionID: sid(6), Body: record(t, 7, origin, "COMPLETE", 1)}, // another session's record
	)
	src, err := ParseSource(origin + "=" + repo)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{CacheDir: t.TempDir(), Batch: 1}
	res, err := Index(ctx, db, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != 3 || len(res.Skipped) != 4 {
		t.Fatalf("imported %d, skipped %+v: want 3 imported and 4 skipped", res.Imported, res.Skipped)
	}
	reasons := fmt.Sprint(res.Skipped)
	for _, want := range []string{sid(4) + ".json", "not a session record", "claims repository github.com/someone/else",
		"does not match the recomputed final snapshot", "the record is of session"} {
		if !strings.Contains(reasons, want) {
			t.Errorf("skipped reasons %s: want %q", reasons, want)
		}
	}
	count := func(f session.SessionFilter) int {
		t.Helper()
		n, err := db.CountSessions(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(session.SessionFilter{Repo: origin}); n != 3 {
		t.Errorf("%d sessions of %s, want 3", n, origin)
	}
	if n := count(session.SessionFilter{User: "dev1@example.com"}); n != 2 {
		t.Errorf("%d sessions of dev1, want 2 (sessions 1 and 3)", n)
	}
	s1, err := db.GetSession(ctx, sid(1))
	if err != nil {
		t.Fatal(err)
	}
	if s1.State != session.StateComplete || s1.Host != "host1" || !s1.CreatedAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("session 1 as imported: %+v", s1)
	}
	evs, _ := db.ListEvents(ctx, sid(1), 0, 0)
	vs, _ := db.ListViolations(ctx, session.ViolationFilter{SessionID: sid(1)})
	sn, _ := db.ListSnapshots(ctx, sid(1))
	if len(evs) != 3 || len(vs) != 1 || len(sn) != 1 || !snapshot.ValidID(sn[0].SnapshotID) {
		t.Errorf("session 1: %d events, %d violations, %d snapshots; want 3, 1, 1", len(evs), len(vs), len(sn))
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("indexing ran something from the indexed repository")
	}

	// Again: nothing new, nothing written.
	res, err = Index(ctx, db, src, opts)
	if err != nil || res.Imported != 0 || res.From != res.To {
		t.Fatalf("second run: %+v %v", res, err)
	}

	// New commits: session 1 ends differently, session 8 is new.
	put(t, repo,
		recordref.Record{SessionID: sid(1), Body: record(t, 1, origin, "TERMINATED", 5)},
		recordref.Record{SessionID: sid(8), Body: record(t, 8, origin, "COMPLETE", 1)},
	)
	res, err = Index(ctx, db, src, opts)
	if err != nil || res.Imported != 2 || len(res.Skipped) != 0 {
		t.Fatalf("incremental run: %+v %v (want 2 imported, the bad records not read again)", res, err)
	}
	if s1, _ = db.GetSession(ctx, sid(1)); s1.State != session.StateTerminated {
		t.Errorf("session 1 state %s after its new record", s1.State)
	}
	if evs, _ = db.ListEvents(ctx, sid(1), 0, 0); len(evs) != 5 {
		t.Errorf("session 1 has %d events, want the new record's 5 (replaced, not added)", len(evs))
	}
	if vs, _ = db.ListViolations(ctx, session.ViolationFilter{SessionID: sid(1)}); len(vs) != 1 {
		t.Errorf("session 1 has %d violations, want 1 (replaced, not duplicated)", len(vs))
	}

	// The same repository under another location string reads the whole
	// ref again: every good record is unchanged and nothing is written;
	// the bad ones are reported again.
	src2 := Source{Location: repo + "/.", Key: origin}
	res, err = Index(ctx, db, src2, opts)
	if err != nil || res.Imported != 0 || res.Unchanged != 4 || len(res.Skipped) != 4 {
		t.Fatalf("full re-read: %+v %v (want 4 unchanged, 4 skipped)", res, err)
	}
	if n := count(session.SessionFilter{Repo: origin}); n != 4 {
		t.Errorf("%d sessions after re-reading, want 4", n)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("indexing ran something from the indexed repository")
	}
}

func TestIndexSourceErrors(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	db := openDB(t)
	empty := t.TempDir()
	gittest.Git(t, empty, "init", "-q")
	for _, c := range []struct {
		loc, want string
	}{
		{filepath.Join(t.TempDir(), "missing"), "fetch refs/sessiongate/records from"},
		{empty, "has no refs/sessiongate/records"},
	} {
		src, err := ParseSource(c.loc)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Index(ctx, db, src, Options{CacheDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.loc) {
			t.Errorf("%s: %v, want an error naming it and %q", c.loc, err, c.want)
		}
	}
	for _, c := range []struct{ in, loc, key string }{
		{"git@github.com:o/r.git", "git@github.com:o/r.git", "github.com/o/r"},
		{"github.com/o/r=/srv/m/r.git", "/srv/m/r.git", "github.com/o/r"},
		{"https://h/o/r?x=1", "https://h/o/r?x=1", "h/o/r"},
	} {
		s, err := ParseSource(c.in)
		if err != nil || s.Location != c.loc || s.Key != c.key {
			t.Errorf("ParseSource(%q) = %+v, %v", c.in, s, err)
		}
	}
}

// TestIndexInterruptedResumes cuts index runs off at arbitrary points
// (the context ends mid-batch, as a killed process's connection would) and
// then lets one finish: every session is there once, with its events once.
func TestIndexInterruptedResumes(t *testing.T) {
	gittest.Require(t)
	db := openDB(t)
	repo := t.TempDir()
	gittest.Git(t, repo, "init", "-q")
	const n = 24
	for i := 1; i <= n; i++ {
		put(t, repo, recordref.Record{SessionID: sid(i), Body: record(t, i, "github.com/o/p", "COMPLETE", 3)})
	}
	src := Source{Location: repo, Key: "github.com/o/p"}
	opts := Options{CacheDir: t.TempDir(), Batch: 1}
	var counts []int
	for i := 1; i <= 8; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i*i)*5*time.Millisecond)
		Index(ctx, db, src, opts) // cut off somewhere
		cancel()
		c, _ := db.CountSessions(context.Background(), session.SessionFilter{})
		counts = append(counts, c)
	}
	t.Logf("sessions after each interrupted run: %v", counts)
	res, err := Index(context.Background(), db, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	total, err := db.CountSessions(ctx, session.SessionFilter{Repo: "github.com/o/p"})
	if err != nil || total != n {
		t.Fatalf("%d sessions after interrupted runs and one whole run (%+v), want %d", total, res, n)
	}
	for i := 1; i <= n; i++ {
		evs, err := db.ListEvents(ctx, sid(i), 0, 0)
		if err != nil || len(evs) != 3 {
			t.Errorf("session %d: %d events (%v), want 3", i, len(evs), err)
		}
	}
	t.Logf("last run: %+v", res)
}

// BenchmarkIndex imports a records ref of 500 sessions (10 events, one
// violation each) into a fresh PostgreSQL database per iteration; the
// sessions/s metric is what the indexing goal counts.
func BenchmarkIndex(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not found")
	}
	const n = 500
	repo := b.TempDir()
	cmd := exec.Command("git", "init", "-q", repo)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatal(err, string(out))
	}
	var recs []recordref.Record
	for i := 1; i <= n; i++ {
		recs = append(recs, recordref.Record{SessionID: bsid(i), Body: benchRecord(b, i)})
	}
	if _, err := recordref.Put(context.Background(), repo, recordref.DefaultRef, recs); err != nil {
		b.Fatal(err)
	}
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
		b.StartTimer()
		start := time.Now()
		res, err := Index(context.Background(), db, Source{Location: repo, Key: "github.com/o/p"}, Options{CacheDir: b.TempDir()})
		total += time.Since(start)
		if err != nil || res.Imported != n {
			b.Fatal(res, err)
		}
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/total.Seconds(), "sessions/s")
}

func benchRecord(b testing.TB, i int) []byte { return benchRecordFor(b, i, "github.com/o/p") }

// benchRecordFor is session i's record in the repository origin.
func benchRecordFor(b testing.TB, i int, origin string) []byte {
	p := snapshot.Payload{Schema: snapshot.PayloadSchema,
		Session: snapshot.Key{EventSource: "sessiongate://p", ServerID: "sessiongate", SessionID: bsid(i)},
		Window:  snapshot.Window{Kind: "session"},
		State:   snapshot.State{ProtocolSHA256: "abc", State: "COMPLETE", Phases: []snapshot.Phase{{ID: "P1", Gate: "BLOCKING", Status: "PASSED"}}}}
	id, _, err := p.ID()
	if err != nil {
		b.Fatal(err)
	}
	rec := snapshot.Record{Schema: snapshot.RecordSchema, SessionID: bsid(i), Envelope: p.Envelope(id, "bench"), Snapshots: []snapshot.Payload{p},
		Session: &snapshot.SessionMeta{Repository: "p", Origin: origin, Branch: "main", State: "COMPLETE",
			StartedAt: t0.Format(time.RFC3339), EndedAt: t0.Add(time.Hour).Format(time.RFC3339), UserEmail: "dev@example.com", Host: "h"},
		Violations: []snapshot.ViolationRef{{Code: "FORCED_ADVANCE", Severity: session.SeverityHigh, At: t0.Format(time.RFC3339)}}}
	for e := range 10 {
		rec.Events = append(rec.Events, snapshot.EventRef{Seq: int64(e + 1), Token: "tool:x", At: t0.Format(time.RFC3339)})
	}
	body, err := json.Marshal(rec)
	if err != nil {
		b.Fatal(err)
	}
	return body
}

func bsid(i int) string { return fmt.Sprintf("%08x-0000-4000-8000-%012d", i, i) }

// TestIndexAfterAKilledFetch: a fetch killed while it held the ref's lock
// leaves the lock file in the mirror, and git refuses every later fetch
// over it; the next run removes it (no other run holds the mirror) and
// indexes. CI saw the interrupted-runs test fail this way once.
func TestIndexAfterAKilledFetch(t *testing.T) {
	gittest.Require(t)
	db := openDB(t)
	repo := t.TempDir()
	gittest.Git(t, repo, "init", "-q")
	put(t, repo, recordref.Record{SessionID: sid(1), Body: record(t, 1, "github.com/o/p", "COMPLETE", 3)})
	src := Source{Location: repo, Key: "github.com/o/p"}
	opts := Options{CacheDir: t.TempDir(), Batch: 1}
	if _, err := Index(context.Background(), db, src, opts); err != nil {
		t.Fatal(err)
	}
	put(t, repo, recordref.Record{SessionID: sid(2), Body: record(t, 2, "github.com/o/p", "COMPLETE", 3)})
	mirrors, _ := filepath.Glob(filepath.Join(opts.CacheDir, "*.git"))
	if len(mirrors) != 1 {
		t.Fatalf("mirrors %v", mirrors)
	}
	lock := filepath.Join(mirrors[0], "refs", "sessiongate", "records.lock")
	if err := os.WriteFile(lock, []byte("0000000000000000000000000000000000000000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Index(context.Background(), db, src, opts); err != nil {
		t.Fatalf("index after a killed fetch: %v", err)
	}
	if n, _ := db.CountSessions(context.Background(), session.SessionFilter{}); n != 2 {
		t.Fatalf("%d sessions, want 2", n)
	}
}
