package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// violatedID is a COMPLETE session with two CRITICAL violations (a
// --no-verify bypass and a forced BLOCKING gate) and the bypass commit.
var violatedID = dashSID(7)

// seedViolated adds session 7: completed, two CRITICAL violations, a
// bypass commit. Kept apart from seed() so the other tests' counts hold.
func (env *dashEnv) seedViolated() {
	t := env.t
	t.Helper()
	ctx := context.Background()
	at := env.now.Add(-2 * time.Hour)
	err := env.db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/w/demo", "demo")
		if err != nil {
			return err
		}
		s := &session.Session{ID: violatedID, RepoID: repo.ID, Worktree: "/w/demo", Branch: "feat/hurry", StartCommit: strings.Repeat("5", 40),
			ProtocolSHA: env.spec.SHA256, Objective: "Ship it before lunch", State: session.StateComplete, CreatedAt: at,
			LastActivity: at.Add(time.Hour), ExpiresAt: at.Add(48 * time.Hour), EndedAt: at.Add(time.Hour)}
		if err := w.CreateSession(ctx, s); err != nil {
			return err
		}
		if err := w.PutPhaseResult(ctx, session.PhaseResult{SessionID: s.ID, PhaseID: "CONTEXT_RETRIEVAL", Status: session.PhaseForced,
			Level: protocolspec.GateBlocking, Decision: "FORCED: no time", Message: "no evidence"}); err != nil {
			return err
		}
		if err := w.AddEvidence(ctx, &session.Evidence{SessionID: s.ID, Step: session.HookPostCommit, Kind: session.EvidenceBypassCommit,
			Origin: session.OriginObserved, SHA256: strings.Repeat("9a", 32), Ref: strings.Repeat("6", 40), Size: 40, CreatedAt: at.Add(30 * time.Minute)}); err != nil {
			return err
		}
		for _, v := range []*session.Violation{
			{SessionID: s.ID, RepoID: repo.ID, Phase: "CONTEXT_RETRIEVAL", Severity: session.SeverityCritical, Code: "FORCED_ADVANCE",
				Message: "forced past failing BLOCKING gate CONTEXT_RETRIEVAL", Window: session.WindowCrossSessionDecay, DecayRuns: 1, CreatedAt: at.Add(10 * time.Minute)},
			{SessionID: s.ID, RepoID: repo.ID, Severity: session.SeverityCritical, Code: session.CodeBypass, Requirement: "pre-commit hook",
				Message: "commit 666666666666 landed without a passing pre-commit hook (git commit --no-verify?)",
				Window:  session.WindowCrossSessionDecay, DecayRuns: 3, CreatedAt: at.Add(30 * time.Minute)},
		} {
			if err := w.AddViolation(ctx, v); err != nil {
				return err
			}
		}
		return w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "tool:session_start", CreatedAt: at})
	})
	if err != nil {
		t.Fatalf("seed violated session: %v", err)
	}
}

func TestDashboardVerdict(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	env.seedViolated()
	for _, c := range []struct {
		name, path string
		want, not  []string
	}{
		{"violated session header", "/sessions/" + violatedID, []string{
			`class="badge verdict v-crit" id="verdict"`, "Completed with 2 CRITICAL violations",
			"commit-bypass", "BYPASS</span>", "landed without a passing pre-commit hook", // the bypass commit, flagged
		}, []string{"Completed cleanly"}},
		// Session 1 has no violation, but its RECOMMENDED gate failed and
		// was skipped: that is not clean (issue 25).
		{"failed gate that did not block is not clean", "/sessions/" + dashSID(1), []string{`v-warn" id="verdict"`, "Completed with 1 failed gate (not blocking)"}, []string{"v-crit", "cleanly"}},
		{"high session header", "/sessions/" + dashSID(2), []string{`v-high" id="verdict"`, "Completed with 1 HIGH violation<"}, nil},
		{"running session: idle and expiry", "/sessions/" + dashSID(6), []string{"Idle <strong>29m00s ago</strong>", "expires if idle in 99d23h"}, nil},
		{"running session after a forced gate: force refused", "/sessions/" + dashSID(6), []string{
			"Force is refused in this session:", "a CRITICAL BYPASS violation", "a CRITICAL FORCED_ADVANCE violation", `href="/sessions/` + violatedID + `"`}, nil},
		{"sessions list: worst severity", "/sessions?branch=feat/hurry", []string{"badge verdict v-crit", "2 CRITICAL</span>"}, []string{"st-complete"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := env.get(c.path, false)
			if rec.Code != http.StatusOK {
				t.Fatalf("GET %s: %d", c.path, rec.Code)
			}
			body := rec.Body.String()
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

// TestPositionNamesTheBlock: what blocks a session is named for what it
// is; a RECOMMENDED gate never blocks.
func TestPositionNamesTheBlock(t *testing.T) {
	spec := &protocolspec.Spec{Phases: []protocolspec.Phase{
		{ID: "RETRO", Title: "Retrospective", Gate: protocolspec.GateRecommended, Section: protocolspec.SectionEnd},
		{ID: "QA", Title: "QA", Gate: protocolspec.GateBlocking, Section: protocolspec.SectionEnd},
	}}
	ending := func(phase string) *session.Session {
		return &session.Session{ID: dashSID(1), State: session.StateEnding, Phase: phase}
	}
	ev := func(toks ...string) []session.Event {
		out := make([]session.Event, len(toks))
		for i, tk := range toks {
			out[i] = session.Event{Seq: int64(i + 1), Token: tk}
		}
		return out
	}
	failed := func(id string, lvl protocolspec.GateLevel) []session.PhaseResult {
		return []session.PhaseResult{{PhaseID: id, Status: session.PhaseFailed, Level: lvl, Message: "no retro notes"}}
	}
	rule := session.Violation{Code: "SEQUENCE_RULE", Requirement: "sequence rule end-after-forced-blocking-gate",
		Message: "tool:session_end refused by rule end-after-forced-blocking-gate (pattern a b): ending right after forcing"}
	for _, c := range []struct {
		name      string
		s         *session.Session
		rs        []session.PhaseResult
		evs       []session.Event
		vs        []session.Violation
		blocked   bool
		kind      string
		reasonHas string
	}{
		{"session_end refused by a rule on a RECOMMENDED phase", ending("RETRO"), failed("RETRO", protocolspec.GateRecommended),
			ev("tool:advance_phase", "tool:session_end:refused", "policy:end-after-forced-blocking-gate:block", "tool:validate_gate", "gate:RETRO:fail"),
			[]session.Violation{rule}, true, "policy", "session_end refused by sequence rule end-after-forced-blocking-gate: ending right after forcing"},
		{"a failing RECOMMENDED gate does not block", ending("RETRO"), failed("RETRO", protocolspec.GateRecommended),
			ev("tool:advance_phase", "tool:session_end"), nil, false, "", "RECOMMENDED gate RETRO failed (it cannot block"},
		{"a failing BLOCKING gate blocks", ending("QA"), failed("QA", protocolspec.GateBlocking),
			ev("tool:advance_phase:blocked"), nil, true, "gate", "no retro notes"},
		{"a refusal superseded by a later call is over", ending("QA"), nil,
			ev("tool:session_end:refused", "policy:r:block", "tool:record_evidence"), nil, false, "", "gate not passed yet"},
		{"force refused for a carried violation is not a rule", ending("QA"), nil,
			ev("tool:advance_phase:force:refused"), nil, false, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name != "a refusal superseded by a later call is over" {
				spec.Phases[1].Checks = nil
			} else {
				spec.Phases[1].Checks = []protocolspec.Check{{Kind: protocolspec.CheckCleanWorktree}}
			}
			p := positionOf(c.s, spec, c.rs, c.evs, c.vs)
			if c.kind == "gate" && p.BlockLabel() != "Blocked by BLOCKING gate QA:" {
				t.Errorf("label %q, want the gate named", p.BlockLabel())
			}
			if p.Blocked != c.blocked || string(p.Block) != c.kind || !strings.Contains(p.Reason, c.reasonHas) {
				t.Errorf("position = blocked %v kind %q reason %q; want blocked %v kind %q reason containing %q",
					p.Blocked, p.Block, p.Reason, c.blocked, c.kind, c.reasonHas)
			}
		})
	}
}

// TestOverviewPollAnswers204WhileUnchanged: the overview's poll sends the
// version it shows; the server answers 204 until something changed.
func TestOverviewPollAnswers204WhileUnchanged(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	page := env.get("/", false).Body.String()
	_, rest, ok := strings.Cut(page, `hx-get="/?v=`)
	if !ok {
		t.Fatal("the overview does not poll with its version")
	}
	v, _, _ := strings.Cut(rest, `"`)
	if rec := env.get("/?v="+v, true); rec.Code != http.StatusNoContent || rec.Body.Len() != 0 {
		t.Fatalf("unchanged overview: %d %q, want 204 and no body", rec.Code, rec.Body.String())
	}
	env.seedViolated() // a new session with violations: counts change
	rec := env.get("/?v="+v, true)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `<div id="overview"`) || strings.Contains(rec.Body.String(), `?v=`+v+`"`) {
		t.Fatalf("changed overview: %d, want 200 with a new version", rec.Code)
	}
}

// TestSessionPageForLongProtocols: requirement ids listed, each piece of
// evidence once, unreached phases of an ended session not PENDING, failing
// phases open, copyable fix commands on a blocked session.
func TestSessionPageForLongProtocols(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	done := env.get("/sessions/"+dashSID(1), false).Body.String()
	for _, w := range []string{"CONTEXT_RETRIEVAL.read-handoff-notes-record", "NOT REACHED", `<details id="ph-CONTEXT_RETRIEVAL"`,
		"2 pieces: 0 observed (sessiongate saw it happen), 2 claimed", "Each piece is listed once"} {
		if !strings.Contains(done, w) {
			t.Errorf("completed session page lacks %q", w)
		}
	}
	if strings.Contains(done, "</span> PENDING</span>") {
		t.Error("an ended session shows a phase as PENDING")
	}
	// Each piece of evidence once: its full sha256 appears in one title.
	if n := strings.Count(done, `title="`+strings.Repeat("ab", 32)+`"`); n != 1 {
		t.Errorf("evidence ab…ab is listed %d times, want once", n)
	}
	blocked := env.get("/sessions/"+dashSID(6), false).Body.String()
	for _, w := range []string{`<details id="ph-CONTEXT_RETRIEVAL" open`, "sessiongate session gate " + dashSID(6),
		"sessiongate session evidence " + dashSID(6) + " --phase CONTEXT_RETRIEVAL --type tool_output", `data-copy="sessiongate session advance ` + dashSID(6) + `"`,
		`data-event-filter`} {
		if !strings.Contains(blocked, w) {
			t.Errorf("blocked session page lacks %q", w)
		}
	}
}

// TestAPIPositionNamesTheBlock: /api/sessions/{id} says what blocks a
// running session and which carried violations refuse force.
func TestAPIPositionNamesTheBlock(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	env.seedViolated()
	rec := env.get("/api/sessions/"+dashSID(6), false)
	var out struct {
		Position struct {
			Blocked   bool                `json:"blocked"`
			Block     string              `json:"block"`
			BlockedBy string              `json:"blocked_by"`
			Carried   []session.Violation `json:"carried_violations"`
		} `json:"position"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("%v\n%s", err, rec.Body)
	}
	p := out.Position
	if !p.Blocked || p.Block != "gate" || p.BlockedBy != "BLOCKING gate CONTEXT_RETRIEVAL" || len(p.Carried) != 2 {
		t.Errorf("position = %+v, want blocked by the BLOCKING gate with 2 carried violations", p)
	}
}

// TestSupersededSessionsLinkEachOther: starting a session where one still
// runs abandons the old one; each page links to the other.
func TestSupersededSessionsLinkEachOther(t *testing.T) {
	env := newDashEnv(t, "")
	dir := gittest.New(t, nil)
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	first, err := env.engine.Start(ctx, session.StartRequest{Repo: repo, Spec: env.spec, Objective: "first try"})
	if err != nil {
		t.Fatal(err)
	}
	env.now = env.now.Add(time.Minute)
	second, err := env.engine.Start(ctx, session.StartRequest{Repo: repo, Spec: env.spec, Objective: "second try"})
	if err != nil {
		t.Fatal(err)
	}
	old := env.get("/sessions/"+first.SessionID, false).Body.String()
	if !strings.Contains(old, "Superseded:") || !strings.Contains(old, `href="/sessions/`+second.SessionID+`"`) {
		t.Error("the superseded session does not link to the one that replaced it")
	}
	cur := env.get("/sessions/"+second.SessionID, false).Body.String()
	if !strings.Contains(cur, "This session replaced session") || !strings.Contains(cur, `href="/sessions/`+first.SessionID+`"`) {
		t.Error("the new session does not link to the session it replaced")
	}
}
