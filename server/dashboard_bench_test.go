package server

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// The dashboard's speed target: /sessions and /sessions/{id} with 100,000
// sessions and 1,000,000 events in the database, median under 20 ms per
// page on 2 cores. Run:
//
//	go test ./server -run '^$' -bench Dashboard -benchtime 200x -cpu 2
//
// The seeded database is built once (one transaction, prepared inserts) and
// cached under $SESSIONGATE_BENCH_DIR (default os.TempDir(), which
// tmpleak empties after every run, so set it to compare trees), keyed by
// benchSeedVersion; bump the version when the seed changes.

const (
	benchSeedVersion  = 2
	benchSessions     = 100_000
	benchEventsPerSes = 10 // 1,000,000 events
)

var benchBase = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func benchSessionID(i int) string {
	return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", uint32(i)*2654435761, i&0xffff, i%0xfff, (i/7)%0xfff, i)
}

// benchDB returns the path of the seeded database, building it when the
// cache misses.
func benchDB(b *testing.B, spec *protocolspec.Spec) string {
	b.Helper()
	dir := os.Getenv("SESSIONGATE_BENCH_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	path := filepath.Join(dir, fmt.Sprintf("sessiongate-bench-dashboard-v%d.db", benchSeedVersion))
	if _, err := os.Stat(path); err == nil {
		return path
	}
	start := time.Now()
	tmp := path + ".building"
	for _, p := range []string{tmp, tmp + "-wal", tmp + "-shm"} {
		os.Remove(p)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, tmp) // the schema, through the real migrations
	if err != nil {
		b.Fatal(err)
	}
	engine := session.NewEngine(db, session.Config{}, nil)
	proto, err := os.ReadFile(filepath.Join("testdata", "dashboard-protocol.md"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := engine.LoadSpec(ctx, "SESSION-PROTOCOL.md", proto); err != nil {
		b.Fatal(err)
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	if err := seedBench(tmp, spec); err != nil {
		b.Fatalf("seed %s: %v", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %s in %s", path, time.Since(start).Round(time.Millisecond))
	return path
}

// seedBench fills the database with raw prepared inserts in one
// transaction: the store's API would take minutes for a million rows.
func seedBench(path string, spec *protocolspec.Spec) (err error) {
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(DELETE)&_pragma=synchronous(OFF)&_pragma=foreign_keys(0)")
	if err != nil {
		return err
	}
	defer func() {
		if cerr := raw.Close(); err == nil {
			err = cerr
		}
	}()
	raw.SetMaxOpenConns(1)
	tx, err := raw.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	prep := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = tx.Prepare(q)
		return st
	}
	if _, err = tx.Exec(`INSERT INTO repositories (id, root, name) VALUES (1, '/src/demo', 'demo')`); err != nil {
		return err
	}
	insSession := prep(`INSERT INTO sessions (id, repo_id, worktree, branch, start_commit, end_commit, protocol_sha256, objective,
		state, phase, created_at, last_activity, expires_at, ended_at, terminated, terminate_reason, summary, next_notes, violation_count)
		VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?)`)
	insEvent := prep(`INSERT INTO events (session_id, seq, token, detail, created_at) VALUES (?, ?, ?, ?, ?)`)
	insResult := prep(`INSERT INTO phase_results (session_id, phase_id, status, level, message, decision, checks_json, started_at, ended_at, duration_ns)
		VALUES (?, ?, ?, ?, ?, '', ?, ?, ?, ?)`)
	insEvidence := prep(`INSERT INTO evidence (session_id, phase, step, kind, sha256, ref, size, created_at) VALUES (?, ?, '', ?, ?, ?, ?, ?)`)
	insViolation := prep(`INSERT INTO violations (session_id, repo_id, phase, requirement, severity, code, message, state_window, decay_runs, created_at)
		VALUES (?, 1, ?, ?, ?, ?, ?, 'session', 0, ?)`)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(5, 7))
	states := []session.State{session.StateComplete, session.StateComplete, session.StateComplete, session.StateComplete,
		session.StateComplete, session.StateComplete, session.StateAbandoned, session.StateTerminated}
	topics := []string{"parser", "store", "hooks", "server", "dashboard", "policy", "docs", "CLI"}
	tokens := []string{"tool:record_evidence", "tool:validate_gate", "gate:CONTEXT_RETRIEVAL:pass", "tool:advance_phase", "hook:pre-commit", "hook:commit-msg"}
	severities := []string{session.SeverityCritical, session.SeverityHigh, session.SeverityMedium, session.SeverityLow}
	checks := `[{"kind":"evidence","arg":"tool_output","status":"PASS","message":"1 tool_output evidence","evidence":"sha256:ab12","duration_ns":1200}]`
	for i := range benchSessions {
		id := benchSessionID(i)
		created := benchBase.Add(time.Duration(i) * 75 * time.Second) // 100k sessions over ~87 days
		state := states[rng.IntN(len(states))]
		if i >= benchSessions-20 {
			state = session.StateWorking // the newest few still run
		}
		ended, end := int64(0), ""
		if state != session.StateWorking {
			ended = created.Add(time.Duration(20+rng.IntN(100)) * time.Minute).UnixNano()
			end = fmt.Sprintf("%040x", rng.Uint64())
		}
		violations := 0
		if rng.IntN(10) == 0 {
			violations = 1 + rng.IntN(2)
		}
		branch := "main"
		if rng.IntN(10) >= 3 {
			branch = fmt.Sprintf("feature/%d", rng.IntN(500))
		}
		obj := fmt.Sprintf("session %d: improve the %s and its tests", i, topics[rng.IntN(len(topics))])
		if _, err := insSession.Exec(id, fmt.Sprintf("/src/demo/wt%d", rng.IntN(8)), branch, fmt.Sprintf("%040x", rng.Uint64()), end, spec.SHA256,
			obj, state, "", created.UnixNano(), created.Add(time.Minute).UnixNano(), created.Add(24*time.Hour).UnixNano(), ended,
			boolToInt(state == session.StateTerminated), "", "summary of "+obj, violations); err != nil {
			return fmt.Errorf("session %d: %w", i, err)
		}
		for seq := 1; seq <= benchEventsPerSes; seq++ {
			if _, err := insEvent.Exec(id, seq, tokens[rng.IntN(len(tokens))], `{"phase":"CONTEXT_RETRIEVAL"}`, created.Add(time.Duration(seq)*time.Second).UnixNano()); err != nil {
				return err
			}
		}
		for _, p := range []string{"CONTEXT_RETRIEVAL", "PLAN"} {
			t := created.Add(2 * time.Minute).UnixNano()
			if _, err := insResult.Exec(id, p, session.PhasePassed, "BLOCKING", "gate "+p+" passed", checks, t, t+1200, 1200); err != nil {
				return err
			}
			if _, err := insEvidence.Exec(id, p, session.EvidenceToolOutput, fmt.Sprintf("%064x", rng.Uint64()), "812 bytes", 812, t); err != nil {
				return err
			}
		}
		for v := 0; v < violations; v++ {
			if _, err := insViolation.Exec(id, "CONTEXT_RETRIEVAL", "BLOCKING gate Context Retrieval", severities[rng.IntN(4)], "FORCED_ADVANCE",
				"forced past failing BLOCKING gate CONTEXT_RETRIEVAL", created.Add(3*time.Minute).UnixNano()); err != nil {
				return err
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = raw.Exec(`ANALYZE`)
	return err
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// benchServer opens the seeded database behind a dashboard.
func benchServer(b *testing.B) (*Server, *store.DB) {
	b.Helper()
	ctx := context.Background()
	proto, err := os.ReadFile(filepath.Join("testdata", "dashboard-protocol.md"))
	if err != nil {
		b.Fatal(err)
	}
	spec, err := protocolspec.Parse("SESSION-PROTOCOL.md", proto)
	if err != nil {
		b.Fatal(err)
	}
	db, err := store.Open(ctx, benchDB(b, spec))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	engine := session.NewEngine(db, session.Config{}, nil)
	engine.Now = func() time.Time { return benchBase.Add(benchSessions * 75 * time.Second) }
	srv := New(Options{Engine: engine, ReadModel: db, Version: "bench",
		LoadSpec: func(context.Context) (*protocolspec.Spec, error) { return spec, nil },
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil))})
	return srv, db
}

// benchRequest serves path b.N times and reports the median and p95 besides
// the mean (ns/op).
func benchRequest(b *testing.B, h http.Handler, path string, htmx bool) {
	b.Helper()
	benchStatus(b, h, path, htmx, http.StatusOK)
}

func benchStatus(b *testing.B, h http.Handler, path string, htmx bool, status int) {
	b.Helper()
	do := func() int {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Host = "127.0.0.1:7400"
		if htmx {
			req.Header.Set("HX-Request", "true")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != status {
			b.Fatalf("GET %s: %d, want %d: %.300s", path, rec.Code, status, rec.Body)
		}
		return rec.Body.Len()
	}
	size := do() // warm the caches once, outside the timing
	var times []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		t := time.Now()
		do()
		times = append(times, time.Since(t))
	}
	b.StopTimer()
	reportQuantiles(b, times)
	b.ReportMetric(float64(size), "bytes/page")
}

func reportQuantiles(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
}

func BenchmarkDashboard(b *testing.B) {
	srv, db := benchServer(b)
	h := srv.Handler()
	mid := benchSessionID(benchSessions / 2)
	// A deep page: the cursor after the 60,000th newest session.
	deep := encodeCursor(benchBase.Add(time.Duration(benchSessions-60_000)*75*time.Second), benchSessionID(benchSessions-60_000), 60_000)
	for _, c := range []struct {
		name, path string
		htmx       bool
	}{
		{"sessions", "/sessions", false},
		{"sessions-htmx", "/sessions", true},
		{"sessions-deep-page", "/sessions?cursor=" + deep, true},
		{"sessions-state", "/sessions?state=ABANDONED", true},
		{"sessions-branch", "/sessions?branch=feature/42", true},
		{"sessions-violations", "/sessions?violations=yes", true},
		{"sessions-daterange", "/sessions?from=2026-02-01&to=2026-02-07", true},
		{"sessions-search-common", "/sessions?q=dashboard", true},
		{"sessions-search-rare", "/sessions?q=session+4242:", true},
		{"session", "/sessions/" + mid, false},
		{"session-poll", "/sessions/" + mid + "?v=0", true},
		{"session-active", "/sessions/" + benchSessionID(benchSessions-1), false},
		{"sessions-now-blocked", "/sessions?now=blocked", false},
		{"sessions-now-idle", "/sessions?now=idle", false},
		{"overview", "/", false},
		{"protocol", "/protocol", false},
		{"violations", "/violations", false},
		{"api-sessions", "/api/sessions", false},
		{"api-session", "/api/sessions/" + mid, false},
		{"peer-static-css", "/static/app.css", false},
	} {
		b.Run(c.name, func(b *testing.B) { benchRequest(b, h, c.path, c.htmx) })
	}
	// An open session page polling while nothing changes: 204.
	b.Run("session-poll-unchanged", func(b *testing.B) {
		req := httptest.NewRequest(http.MethodGet, "/sessions/"+mid, nil)
		req.Host = "127.0.0.1:7400"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		m := regexp.MustCompile(`data-version="([0-9a-f]+)"`).FindStringSubmatch(rec.Body.String())
		if m == nil {
			b.Fatal("no data-version on the session page")
		}
		benchStatus(b, h, "/sessions/"+mid+"?v="+m[1], true, http.StatusNoContent)
	})
	// Peer: a bare SELECT 1 round trip through database/sql on the same file.
	b.Run("peer-select-1", func(b *testing.B) {
		raw, err := sql.Open("sqlite", "file:"+db.Path()+"?_pragma=query_only(1)")
		if err != nil {
			b.Fatal(err)
		}
		defer raw.Close()
		var times []time.Duration
		b.ResetTimer()
		for b.Loop() {
			t := time.Now()
			var one int
			if err := raw.QueryRow("SELECT 1").Scan(&one); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(t))
		}
		b.StopTimer()
		reportQuantiles(b, times)
	})
}

// TestBenchSessionIDsAreValid keeps the benchmark's ids acceptable to the
// handlers (a malformed one would benchmark the 400 page).
func TestBenchSessionIDsAreValid(t *testing.T) {
	for _, i := range []int{0, 1, 4095, 50_000, benchSessions - 1} {
		if err := session.ValidateID(benchSessionID(i)); err != nil || strings.Count(benchSessionID(i), "-") != 4 {
			t.Errorf("benchSessionID(%d) = %q: %v", i, benchSessionID(i), err)
		}
	}
}
