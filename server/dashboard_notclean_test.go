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

// TestDashboardNotCleanGates (issue 25 item 1): a COMPLETE session whose
// BLOCKING gate ran and checked nothing (decision NOTHING_CHECKED), with no
// violation, is not "Completed cleanly" on its page, and the sessions list
// says which phase it got past that way. Honest twin: a session whose
// mandatory phases passed, or were skipped on a checked condition, is
// clean on both pages. Over real HTTP (httptest.NewServer).
func TestDashboardNotCleanGates(t *testing.T) {
	env := newDashEnv(t, "")
	lazy, honest, optional, legacy, legacyHonest := dashSID(20), dashSID(21), dashSID(22), dashSID(23), dashSID(24)
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
			{lazy, "feat/lint-nothing", session.PhaseResult{PhaseID: "QA_VALIDATION", Status: session.PhaseSkipped, Level: protocolspec.GateBlocking,
				Decision: session.DecisionNothingChecked, Message: "gate QA_VALIDATION checked nothing, which is not a pass"}},
			{honest, "feat/honest", session.PhaseResult{PhaseID: "QA_VALIDATION", Status: session.PhaseSkipped, Level: protocolspec.GateBlocking,
				Decision: session.DecisionConditionNotMet, Message: "condition checked: no code changed"}},
			// A failing RECOMMENDED gate the protocol let it skip: not
			// clean either, though it never blocked.
			{optional, "feat/docs-failed", session.PhaseResult{PhaseID: "QA_VALIDATION", Status: session.PhaseSkipped, Level: protocolspec.GateRecommended,
				Decision: "SKIPPED: recommended gate failed", Message: "check failed"}},
			// Written before round 17: no NOTHING_CHECKED decision, but the
			// gate's check says its command checked nothing.
			{legacy, "feat/old-nothing", session.PhaseResult{PhaseID: "QA_VALIDATION", Status: session.PhaseSkipped, Level: protocolspec.GateBlocking,
				Message: "gate QA_VALIDATION: nothing to check", Checks: []session.CheckResult{{Kind: protocolspec.CheckCommand, Arg: "markdownlint-cli2 docs",
					Status: session.StatusSkipped, Message: "markdownlint-cli2 printed 'Linting: 0 file(s)': nothing was checked, which is not a pass (command: markdownlint-cli2 docs)"}}}},
			// Its honest twin of the same age: nothing to check (no
			// matching file changed) is clean.
			{legacyHonest, "feat/old-honest", session.PhaseResult{PhaseID: "QA_VALIDATION", Status: session.PhaseSkipped, Level: protocolspec.GateBlocking,
				Message: "gate QA_VALIDATION: nothing to check", Checks: []session.CheckResult{{Kind: protocolspec.CheckCommand, Arg: "pytest",
					Status: session.StatusSkipped, Message: "no changed file matches *.py"}}}},
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
				{SessionID: c.id, PhaseID: "GIT_OPERATIONS", Status: session.PhasePassed, Level: protocolspec.GateRequired, Message: "committed"},
			} {
				if err := w.PutPhaseResult(ctx, r); err != nil {
					return err
				}
			}
			if err := w.AppendEvent(ctx, &session.Event{SessionID: c.id, Token: "tool:session_start", CreatedAt: at}); err != nil {
				return err
			}
		}
		return nil
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
		{"lazy: session page", "/sessions/" + lazy,
			[]string{`v-warn" id="verdict"`, "1 BLOCKING/REQUIRED gate checked nothing"}, []string{"Completed cleanly"}},
		{"lazy: sessions list names the phase", "/sessions?branch=feat/lint-nothing",
			[]string{"not clean</span>", "QA_VALIDATION (BLOCKING/REQUIRED gate(s) that checked nothing)"}, nil},
		{"honest: session page", "/sessions/" + honest, []string{"Completed cleanly"}, []string{"checked nothing", "v-warn"}},
		{"honest: sessions list", "/sessions?branch=feat/honest", []string{"work on feat/honest"}, []string{"not clean"}},
		{"optional failed: sessions list", "/sessions?branch=feat/docs-failed", []string{"not clean</span>", "QA_VALIDATION (failing gate(s) skipped)"}, nil},
		// /api/sessions gives the same verdict as the list (issue 25:
		// a failed gate is never shown as clean anywhere).
		{"lazy: /api/sessions", "/api/sessions?branch=feat/lint-nothing",
			[]string{`"not_clean":["QA_VALIDATION (BLOCKING/REQUIRED gate(s) that checked nothing)"]`, `"clean":false`}, []string{`"clean":true`}},
		{"optional failed: /api/sessions", "/api/sessions?branch=feat/docs-failed",
			[]string{`"not_clean":["QA_VALIDATION (failing gate(s) skipped)"]`, `"clean":false`}, []string{`"clean":true`}},
		{"pre-round-17 record: session page", "/sessions/" + legacy,
			[]string{`v-warn" id="verdict"`, "1 BLOCKING/REQUIRED gate checked nothing"}, []string{"Completed cleanly"}},
		{"pre-round-17 record: /api/sessions", "/api/sessions?branch=feat/old-nothing",
			[]string{`"not_clean":["QA_VALIDATION (BLOCKING/REQUIRED gate(s) that checked nothing)"]`, `"clean":false`}, nil},
		{"pre-round-17 honest twin: session page", "/sessions/" + legacyHonest, []string{"Completed cleanly"}, []string{"checked nothing", "v-warn"}},
		{"pre-round-17 honest twin: /api/sessions", "/api/sessions?branch=feat/old-honest", []string{`"clean":true`}, []string{"not_clean"}},
		{"honest: /api/sessions", "/api/sessions?branch=feat/honest", []string{`"clean":true`, "work on feat/honest"}, []string{"not_clean", `"clean":false`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, srv.URL+c.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			// The dashboard answers its own loopback host (DNS rebinding guard).
			req.Host = "127.0.0.1:7400"
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
					t.Errorf("GET %s: missing %q", c.path, w)
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
