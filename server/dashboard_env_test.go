package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/internal/sqlitetest"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// dashEnv is a dashboard over a real SQLite store in t.TempDir(), with an
// engine whose clock is fixed at now.
type dashEnv struct {
	t      testing.TB
	db     *store.DB
	engine *session.Engine
	spec   *protocolspec.Spec
	srv    *Server
	now    time.Time
}

// dashNow is the engine's clock in the seeded tests: the compliance chart
// covers the 30 days up to it.
var dashNow = time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC)

func newDashEnv(t testing.TB, token string) *dashEnv {
	t.Helper()
	ctx := context.Background()
	// A copy of a store migrated once per process: the migrations cost
	// ~0.25 CPU s under -race and are package store's tests.
	db, _ := sqlitetest.Open(t)
	env := &dashEnv{t: t, db: db, now: dashNow}
	env.engine = session.NewEngine(db, session.Config{CommandTimeout: 10 * time.Minute}, func(ctx context.Context, wt string) (session.Repo, error) {
		return gitrepo.Open(ctx, wt)
	})
	env.engine.Now = func() time.Time { return env.now }
	env.engine.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	proto, err := os.ReadFile(filepath.Join("testdata", "dashboard-protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	if env.spec, err = env.engine.LoadSpec(ctx, "SESSION-PROTOCOL.md", proto); err != nil {
		t.Fatalf("load spec: %v", err)
	}
	env.srv = New(Options{
		Engine:    env.engine,
		ReadModel: db,
		LoadSpec:  func(context.Context) (*protocolspec.Spec, error) { return env.spec, nil },
		Token:     token,
		Version:   "test",
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	return env
}

// dashSID is the fixed id of seeded session n.
func dashSID(n int) string {
	// The first block differs between sessions, as in random v4 ids, so
	// the short ids on screen differ too.
	return fmt.Sprintf("%08x-0000-4000-8000-%012d", uint32(n)*2654435761, n)
}

// Seeded sessions, by number:
//
//	1 COMPLETE   main       clean, evidence + commit, ended 5 days ago
//	2 COMPLETE   feat/x     HIGH FORCED_ADVANCE; objective holds <script>
//	3 ABANDONED  main       ended 3 days ago
//	4 TERMINATED main       reason holds <b>
//	5 WORKING    feat/live  active
//	6 INIT       main       active, CONTEXT_RETRIEVAL failed (blocked), MEDIUM SEQUENCE_RULE
//	100..219     bulk       120 COMPLETE fillers, one a minute, 12 to 14 days ago
//
// plus a CRITICAL BYPASS outside any session.
const (
	xssObjective = `Refactor parser <script>alert("x")</script>`
	xssReason    = `<b>stop</b> now`
	fillers      = 120
)

func (env *dashEnv) seed() {
	t := env.t
	t.Helper()
	ctx := context.Background()
	day := 24 * time.Hour
	at := func(d time.Duration) time.Time { return env.now.Add(-d) }
	err := env.db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/w/demo", "demo")
		if err != nil {
			return err
		}
		mk := func(n int, state session.State, branch, objective string, created, ended time.Time) *session.Session {
			return &session.Session{ID: dashSID(n), RepoID: repo.ID, Worktree: "/w/demo", Branch: branch, StartCommit: "1111111111111111111111111111111111111111",
				ProtocolSHA: env.spec.SHA256, Objective: objective, State: state, CreatedAt: created, LastActivity: created.Add(time.Minute),
				ExpiresAt: created.Add(100 * day), EndedAt: ended}
		}
		sessions := []*session.Session{
			mk(1, session.StateComplete, "main", "Fix login bug", at(5*day), at(5*day-time.Hour)),
			mk(2, session.StateComplete, "feat/x", xssObjective, at(4*day), at(4*day-time.Hour)),
			mk(3, session.StateAbandoned, "main", "Update docs", at(3*day), at(3*day-2*time.Hour)),
			mk(4, session.StateTerminated, "main", "Try a thing", at(2*day), at(2*day-time.Hour)),
			mk(5, session.StateWorking, "feat/live", "Live work on the dashboard", at(time.Hour), time.Time{}),
			mk(6, session.StateInit, "main", "Blocked start", at(30*time.Minute), time.Time{}),
		}
		sessions[0].EndCommit = "2222222222222222222222222222222222222222"
		sessions[0].Summary = "Fixed the login bug; tests pass."
		sessions[3].Terminated, sessions[3].TerminateReason = true, xssReason
		sessions[5].Phase = "CONTEXT_RETRIEVAL"
		sessions[5].Worktree = "/w/demo-wt2"
		for i := 0; i < fillers; i++ {
			c := at(14 * day).Add(time.Duration(i) * time.Minute)
			sessions = append(sessions, mk(100+i, session.StateComplete, "bulk", "Filler session "+strconv.Itoa(i), c, c.Add(30*time.Minute)))
		}
		for _, s := range sessions {
			if err := w.CreateSession(ctx, s); err != nil {
				return err
			}
			if err := w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "tool:session_start", Detail: `{"branch":"` + s.Branch + `"}`, CreatedAt: s.CreatedAt}); err != nil {
				return err
			}
		}
		for _, r := range []session.PhaseResult{
			{SessionID: dashSID(1), PhaseID: "CONTEXT_RETRIEVAL", Status: session.PhasePassed, Level: "BLOCKING", Message: "evidence recorded",
				Checks:    []session.CheckResult{{Kind: "evidence", Arg: "tool_output", Status: session.StatusPass, Message: "1 tool_output evidence", Evidence: "abc123"}},
				StartedAt: at(5 * day).Add(time.Minute), EndedAt: at(5 * day).Add(time.Minute + time.Second), Duration: 1500 * time.Millisecond},
			{SessionID: dashSID(1), PhaseID: "PLAN", Status: session.PhaseSkipped, Level: "RECOMMENDED", Decision: "SKIPPED: recommended gate failed", Message: "no plan"},
			{SessionID: dashSID(2), PhaseID: "CONTEXT_RETRIEVAL", Status: session.PhaseForced, Level: "BLOCKING", Decision: "FORCED: in a hurry", Message: "no evidence"},
			{SessionID: dashSID(6), PhaseID: "CONTEXT_RETRIEVAL", Status: session.PhaseFailed, Level: "BLOCKING", Message: "gate CONTEXT_RETRIEVAL fails: no tool_output evidence recorded"},
		} {
			if err := w.PutPhaseResult(ctx, r); err != nil {
				return err
			}
		}
		for _, e := range []*session.Evidence{
			{SessionID: dashSID(1), Phase: "CONTEXT_RETRIEVAL", Kind: session.EvidenceToolOutput, SHA256: strings.Repeat("ab", 32), Ref: "812 bytes", Size: 812,
				Body: []byte("RAW-BODY-MUST-NOT-SHOW"), CreatedAt: at(5 * day).Add(time.Minute)},
			{SessionID: dashSID(1), Phase: "GIT_OPERATIONS", Kind: session.EvidenceCommitSHA, SHA256: strings.Repeat("cd", 32), Ref: "3333333333333333333333333333333333333333", Size: 40, CreatedAt: at(5 * day).Add(50 * time.Minute)},
			{SessionID: dashSID(5), Step: "post-commit", Kind: session.EvidenceCommitSHA, SHA256: strings.Repeat("12", 32), Ref: "4444444444444444444444444444444444444444", Size: 40, CreatedAt: at(30 * time.Minute)},
			{SessionID: dashSID(2), Phase: "PLAN", Kind: session.EvidenceManual, SHA256: strings.Repeat("ef", 32), Ref: `plan <img src=x onerror=alert(1)>`, Size: 30, CreatedAt: at(4 * day)},
		} {
			if err := w.AddEvidence(ctx, e); err != nil {
				return err
			}
		}
		for _, v := range []*session.Violation{
			{SessionID: dashSID(2), Phase: "CONTEXT_RETRIEVAL", Requirement: "BLOCKING gate Context Retrieval", Severity: session.SeverityHigh, Code: "FORCED_ADVANCE",
				Message: "forced past failing BLOCKING gate <i>CONTEXT_RETRIEVAL</i>", Window: session.WindowSession, CreatedAt: at(4 * day).Add(time.Minute)},
			{SessionID: dashSID(6), Phase: "CONTEXT_RETRIEVAL", Severity: session.SeverityMedium, Code: "SEQUENCE_RULE", Message: "commit before context",
				Window: session.WindowCrossSessionDecay, DecayRuns: 3, CreatedAt: at(20 * time.Minute)},
			{RepoID: repo.ID, Severity: session.SeverityCritical, Code: "BYPASS", Message: "git commit --no-verify outside a session", CreatedAt: at(6 * day)},
		} {
			if err := w.AddViolation(ctx, v); err != nil {
				return err
			}
		}
		return w.AddSnapshot(ctx, &session.Snapshot{SessionID: dashSID(1), SnapshotID: "sha256:" + strings.Repeat("0f", 32), Payload: []byte(`{}`), CreatedAt: at(5*day - time.Hour)})
	})
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
}

// get requests path from the dashboard; htmx adds the HX-Request header.
func (env *dashEnv) get(path string, htmx bool, hdr ...string) *httptest.ResponseRecorder {
	env.t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Host = "127.0.0.1:7400"
	if htmx {
		req.Header.Set("HX-Request", "true")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	env.srv.Handler().ServeHTTP(rec, req)
	return rec
}

// startLive starts a real session through the engine in a fresh git
// repository; it sits in CONTEXT_RETRIEVAL.
func (env *dashEnv) startLive(objective string) string {
	t := env.t
	t.Helper()
	dir := gittest.New(t, nil)
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := env.engine.Start(ctx, session.StartRequest{Repo: repo, Spec: env.spec, Objective: objective})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return res.SessionID
}
