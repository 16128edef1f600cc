package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// TestListingsShareTheVerdict (issue 25 item 1, round 19 t8): every
// listing of sessions decides clean the way `session status` does
// (session.Clean, session.Verdict). Before, /api/sessions called a
// session with a not-applicable mark no person accepted clean (it looked
// at violations and phases only), the sessions list did not name the mark,
// and the export had no verdict at all. Honest twin: a session whose gates
// all passed reads clean in each of them.
func TestListingsShareTheVerdict(t *testing.T) {
	env := newDashEnv(t, "")
	pending, nothing, clean := dashSID(30), dashSID(31), dashSID(32)
	ctx := context.Background()
	at := env.now.Add(-3 * time.Hour)
	err := env.db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/w/demo", "demo")
		if err != nil {
			return err
		}
		for _, c := range []struct {
			id, branch string
			qa         session.PhaseResult
		}{
			{pending, "feat/na-pending", session.PhaseResult{PhaseID: "QA_VALIDATION", Status: session.PhasePassed, Level: protocolspec.GateBlocking, Message: "tests passed"}},
			{nothing, "feat/lint-nothing", session.PhaseResult{PhaseID: "QA_VALIDATION", Status: session.PhaseSkipped, Level: protocolspec.GateBlocking,
				Decision: session.DecisionNothingChecked, Message: "gate QA_VALIDATION checked nothing, which is not a pass"}},
			{clean, "feat/clean", session.PhaseResult{PhaseID: "QA_VALIDATION", Status: session.PhasePassed, Level: protocolspec.GateBlocking, Message: "tests passed"}},
		} {
			s := &session.Session{ID: c.id, RepoID: repo.ID, Worktree: "/w/demo", Branch: c.branch, StartCommit: strings.Repeat("7", 40),
				ProtocolSHA: env.spec.SHA256, Objective: "work on " + c.branch, State: session.StateComplete, CreatedAt: at,
				LastActivity: at.Add(time.Hour), ExpiresAt: at.Add(48 * time.Hour), EndedAt: at.Add(time.Hour)}
			if err := w.CreateSession(ctx, s); err != nil {
				return err
			}
			c.qa.SessionID = c.id
			for _, r := range []session.PhaseResult{
				{SessionID: c.id, PhaseID: "CONTEXT_RETRIEVAL", Status: session.PhasePassed, Level: protocolspec.GateBlocking, Message: "evidence recorded"},
				{SessionID: c.id, PhaseID: "PLAN", Status: session.PhasePassed, Level: protocolspec.GateRecommended, Message: "plan recorded"},
				c.qa,
			} {
				if err := w.PutPhaseResult(ctx, r); err != nil {
					return err
				}
			}
		}
		// The Plan phase has no condition a machine can check: the mark
		// waits for a person, and the session is not clean until then.
		return w.AddEvidence(ctx, &session.Evidence{SessionID: pending, Phase: "PLAN", Step: session.StepCondition, Kind: session.EvidenceManual,
			SHA256: strings.Repeat("cd", 32), Ref: "a typo fix needs no written plan", Size: 32, CreatedAt: at})
	})
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	srv := httptest.NewServer(env.srv.Handler())
	defer srv.Close()
	for _, c := range []struct {
		name, path string
		want, not  []string
	}{
		{"pending N/A: /api/sessions", "/api/sessions?branch=feat/na-pending",
			[]string{`"clean":false`, `"not_clean":["N/A pending acceptance (phase PLAN)"]`, `"verdict":"COMPLETE, not clean: 1 N/A pending acceptance (phase PLAN)"`}, []string{`"clean":true`}},
		{"pending N/A: sessions list", "/sessions?branch=feat/na-pending", []string{"not clean</span>", "N/A pending acceptance (phase PLAN)"}, nil},
		{"pending N/A: JSON export", "/sessions/export?branch=feat/na-pending&format=json",
			[]string{`"clean":false`, `"verdict":"COMPLETE, not clean: 1 N/A pending acceptance (phase PLAN)"`}, []string{`"clean":true`}},
		{"nothing checked: CSV export", "/sessions/export?branch=feat/lint-nothing&format=csv",
			[]string{"violations,terminate_reason,clean,verdict\n", `,0,,false,"COMPLETE, not clean: BLOCKING/REQUIRED gate(s) that checked nothing: QA_VALIDATION"`}, []string{",true,"}},
		{"pending N/A: /api/sessions/ID", "/api/sessions/" + pending,
			[]string{`"clean":false`, `"not_clean":["1 N/A pending acceptance (phase PLAN)"]`}, []string{`"clean":true`}},
		{"nothing checked: /api/sessions/ID", "/api/sessions/" + nothing,
			[]string{`"clean":false`, `"verdict":"COMPLETE, not clean: BLOCKING/REQUIRED gate(s) that checked nothing: QA_VALIDATION"`}, nil},
		// Honest twins.
		{"clean: /api/sessions/ID", "/api/sessions/" + clean, []string{`"clean":true`}, []string{"not_clean", `"clean":false`}},
		{"clean: /api/sessions", "/api/sessions?branch=feat/clean",
			[]string{`"clean":true`, `"verdict":"COMPLETE: clean (every gate passed, no violations)"`}, []string{"not_clean", `"clean":false`}},
		{"clean: sessions list", "/sessions?branch=feat/clean", []string{"work on feat/clean"}, []string{"not clean"}},
		{"clean: CSV export", "/sessions/export?branch=feat/clean&format=csv", []string{`,0,,true,"COMPLETE: clean (every gate passed, no violations)"` + "\n"}, []string{",false,"}},
		{"clean: JSON export", "/sessions/export?branch=feat/clean&format=json", []string{`"clean":true`}, []string{"not_clean", `"clean":false`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, srv.URL+c.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Host = "127.0.0.1:7400" // the dashboard answers its own loopback host
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatalf("GET %s: %v", c.path, err)
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d\n%s", c.path, resp.StatusCode, b)
			}
			body := strings.ReplaceAll(string(b), "&#39;", "'")
			for _, w := range c.want {
				if !strings.Contains(body, w) {
					t.Errorf("GET %s: missing %q in\n%s", c.path, w, clipBody(body))
				}
			}
			for _, n := range c.not {
				if strings.Contains(body, n) {
					t.Errorf("GET %s: should not contain %q", c.path, n)
				}
			}
		})
	}
}

func clipBody(s string) string {
	if len(s) > 1500 {
		return s[:1500] + "..."
	}
	return s
}
