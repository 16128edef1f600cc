package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// TestListingsReadVerdictsPerPage (round 20 t1): a listing reads its
// page's verdicts in one batch (SessionVerdictInputs), so a page of 40
// ended sessions costs the statements a page of 4 does. Before, every
// ended row read its phase results, violations and evidence: /sessions
// went from 9.7 to 34.0 ms (docs/benchmarks.md). Honest twin: each row's
// verdict is still the one its own page (/api/sessions/ID) gives, clean
// ones clean, and each not-clean one says why.
func TestListingsReadVerdictsPerPage(t *testing.T) {
	env := newDashEnv(t, "")
	ctx := context.Background()
	at := env.now.Add(-5 * time.Hour)
	branch := func(n int) string { return fmt.Sprintf("feat/page-%d", n) }
	sizes := []int{4, 40}
	var ids []string
	err := env.db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/w/demo", "demo")
		if err != nil {
			return err
		}
		n := 0
		for _, size := range sizes {
			for i := range size {
				n++
				id := dashSID(200 + n)
				ids = append(ids, id)
				created := at.Add(time.Duration(n) * time.Minute)
				s := &session.Session{ID: id, RepoID: repo.ID, Worktree: "/w/demo", Branch: branch(size), StartCommit: strings.Repeat("7", 40),
					ProtocolSHA: env.spec.SHA256, Objective: "page work", State: session.StateComplete, CreatedAt: created,
					LastActivity: created.Add(time.Minute), ExpiresAt: created.Add(48 * time.Hour), EndedAt: created.Add(time.Minute)}
				if err := w.CreateSession(ctx, s); err != nil {
					return err
				}
				qa := session.PhaseResult{SessionID: id, PhaseID: "QA_VALIDATION", Status: session.PhasePassed, Level: protocolspec.GateBlocking, Message: "tests passed"}
				switch i % 4 {
				case 1:
					qa.Status, qa.Decision = session.PhaseForced, "FORCED"
				case 2:
					if err := w.AddViolation(ctx, &session.Violation{SessionID: id, Phase: "QA_VALIDATION", Severity: session.SeverityHigh,
						Code: "FORCED_ADVANCE", Message: "forced", Window: session.WindowSession, CreatedAt: created}); err != nil {
						return err
					}
				case 3:
					if err := w.AddEvidence(ctx, &session.Evidence{SessionID: id, Phase: "PLAN", Step: session.StepCondition, Kind: session.EvidenceManual,
						SHA256: strings.Repeat("cd", 32), Ref: "a typo fix needs no written plan", Size: 32, CreatedAt: created}); err != nil {
						return err
					}
				}
				for _, r := range []session.PhaseResult{
					{SessionID: id, PhaseID: "CONTEXT_RETRIEVAL", Status: session.PhasePassed, Level: protocolspec.GateBlocking, Message: "evidence recorded"}, qa,
				} {
					if err := w.PutPhaseResult(ctx, r); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	srv := httptest.NewServer(env.srv.Handler())
	defer srv.Close()
	get := func(path string) (string, int64) {
		t.Helper()
		before := env.db.Statements()
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, res.StatusCode, b)
		}
		return string(b), env.db.Statements() - before
	}
	for _, c := range []struct{ name, path string }{
		{"/api/sessions", "/api/sessions?limit=50&branch="},
		{"/sessions", "/sessions?limit=50&branch="},
		{"JSON export", "/sessions/export?format=json&branch="},
		{"CSV export", "/sessions/export?format=csv&branch="},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, few := get(c.path + branch(sizes[0]))
			body, many := get(c.path + branch(sizes[1]))
			if many != few {
				t.Errorf("a page of %d ended sessions ran %d statements, a page of %d ran %d: the verdicts are read per row", sizes[1], many, sizes[0], few)
			}
			// The HTML list shows a violated row's severity in place of
			// "not clean"; the other three name each verdict once.
			if n := strings.Count(body, "not clean"); c.name != "/sessions" && n != sizes[1]*3/4 || n == 0 {
				t.Errorf("%d rows say not clean, want %d", n, sizes[1]*3/4)
			}
		})
	}
	// The twin: each row's verdict is its own page's.
	list, _ := get("/api/sessions?limit=50&branch=" + branch(sizes[1]))
	var rows struct {
		Sessions []struct {
			ID      string `json:"id"`
			Clean   *bool  `json:"clean"`
			Verdict string `json:"verdict"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(list), &rows); err != nil || len(rows.Sessions) != sizes[1] {
		t.Fatalf("/api/sessions: %d rows, %v: %.300s", len(rows.Sessions), err, list)
	}
	clean := 0
	for _, r := range rows.Sessions {
		id := r.ID
		one, _ := get("/api/sessions/" + id)
		var det struct {
			Clean   *bool  `json:"clean"`
			Verdict string `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(one), &det); err != nil {
			t.Fatal(err)
		}
		if r.Verdict == "" || r.Verdict != det.Verdict || r.Clean == nil || det.Clean == nil || *r.Clean != *det.Clean {
			t.Errorf("session %s: the list says %v %q, its page %v %q", id, r.Clean, r.Verdict, det.Clean, det.Verdict)
		}
		if r.Clean != nil && *r.Clean {
			clean++
		}
	}
	if clean != sizes[1]/4 {
		t.Errorf("%d clean rows, want %d", clean, sizes[1]/4)
	}
}
