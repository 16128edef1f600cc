package session_test

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

const hookProtocol = `# Protocol

## Session Start

### Phase 1: Context Retrieval (BLOCKING)

<!-- gate: evidence tool_output -->

1. The agent MUST read the notes.

## Session End

### Phase 1: Quality Checks (REQUIRED)

<!-- gate: command "! grep -l FORBIDDEN {staged:*.txt}" hooks=pre-commit -->

1. The agent MUST NOT commit forbidden words.

### Phase 2: QA Validation (BLOCKING)

<!-- gate: evidence tool_output -->

1. The agent MUST run the tests.

### Phase 3: Notes (RECOMMENDED)

<!-- gate: file_exists "NOTES.md" hooks=pre-commit -->

1. The agent SHOULD keep notes.
`

func (e *env) hookReq(policy session.HookPolicy) session.HookRequest {
	return session.HookRequest{
		Repo:   e.repo,
		Policy: policy,
		Tree: func(context.Context) (string, error) {
			return gittest.Git(e.t, e.root, "write-tree"), nil
		},
	}
}

// working starts a session and walks it to WORKING.
func (e *env) working() string {
	e.t.Helper()
	id := e.start("hooks")
	e.evidence(id, "CONTEXT_RETRIEVAL", "tool_output", "read the notes")
	if res := e.advance(id); res.State != session.StateWorking {
		e.t.Fatalf("session did not reach WORKING: %+v", res)
	}
	return id
}

func TestPreCommit(t *testing.T) {
	required := session.HookPolicy{RequireSession: true, BypassEnv: "SESSIONGATE_BYPASS"}
	tests := []struct {
		name        string
		policy      session.HookPolicy
		setup       func(e *env) string // returns the session id ("" for none)
		bypass      string
		sessionEnv  func(e *env, id string) string
		allowed     bool
		escaped     bool
		gate        string
		reason      string // substring of the reasons
		token       string // last event of the session
		violation   string // code of a recorded violation
		warningPart string
	}{
		{name: "no session required", policy: required, setup: func(*env) string { return "" },
			reason: "require_session: true"},
		{name: "no session optional", policy: session.HookPolicy{}, setup: func(*env) string { return "" }, allowed: true},
		{name: "start gate pending", policy: required, setup: func(e *env) string { return e.start("x") },
			gate: "CONTEXT_RETRIEVAL", reason: "start protocol", token: session.TokPreCommitBlocked},
		{name: "working clean change", policy: required, setup: func(e *env) string {
			gittest.Write(e.t, e.root, "a.txt", "fine\n")
			gittest.Git(e.t, e.root, "add", "a.txt")
			return e.working()
		}, allowed: true, token: session.TokPreCommitPass, warningPart: "NOTES.md"},
		{name: "staged file fails the gate", policy: required, setup: func(e *env) string {
			gittest.Write(e.t, e.root, "bad.txt", "FORBIDDEN\n")
			gittest.Git(e.t, e.root, "add", "bad.txt")
			return e.working()
		}, gate: "QUALITY_CHECKS", reason: "command exited 1", token: session.TokPreCommitBlocked},
		{name: "unstaged file is not checked", policy: required, setup: func(e *env) string {
			gittest.Write(e.t, e.root, "bad.txt", "FORBIDDEN\n")
			gittest.Write(e.t, e.root, "a.txt", "fine\n")
			gittest.Git(e.t, e.root, "add", "a.txt")
			return e.working()
		}, allowed: true, token: session.TokPreCommitPass},
		{name: "escape hatch lets it through", policy: required, bypass: "hotfix", setup: func(e *env) string {
			gittest.Write(e.t, e.root, "bad.txt", "FORBIDDEN\n")
			gittest.Git(e.t, e.root, "add", "bad.txt")
			return e.working()
		}, allowed: true, escaped: true, gate: "QUALITY_CHECKS", token: session.TokPreCommitEscape, violation: session.CodeEscapeHatch},
		{name: "config phase runs whole gate", policy: session.HookPolicy{RequireSession: true, PreCommit: []string{"QA_VALIDATION"}}, setup: func(e *env) string {
			return e.working()
		}, gate: "QA_VALIDATION", reason: "no tool_output evidence", token: session.TokPreCommitBlocked},
		{name: "config phase unknown warns", policy: session.HookPolicy{PreCommit: []string{"NOPE"}}, setup: func(e *env) string {
			return e.working()
		}, allowed: true, token: session.TokPreCommitPass, warningPart: "NOPE"},
		{name: "session of another worktree", policy: required, setup: func(e *env) string { return e.working() },
			sessionEnv: func(e *env, id string) string {
				other := newEnv(e.t, hookProtocol)
				other.engine = e.engine // same database
				return other.working()
			}, reason: "not of"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, hookProtocol)
			ctx := context.Background()
			id := tc.setup(e)
			req := e.hookReq(tc.policy)
			req.Bypass = tc.bypass
			if tc.sessionEnv != nil {
				req.SessionID = tc.sessionEnv(e, id)
			}
			d, err := e.engine.PreCommit(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if d.Allowed != tc.allowed || d.Escaped != tc.escaped {
				t.Fatalf("allowed=%v escaped=%v, want %v %v: %+v", d.Allowed, d.Escaped, tc.allowed, tc.escaped, d)
			}
			if d.Gate != tc.gate {
				t.Errorf("gate %q, want %q", d.Gate, tc.gate)
			}
			if !strings.Contains(strings.Join(d.Reasons, "; "), tc.reason) {
				t.Errorf("reasons %q lack %q", d.Reasons, tc.reason)
			}
			if !d.Allowed && d.NextStep == "" {
				t.Error("a block must say the next step")
			}
			if tc.warningPart != "" && !strings.Contains(strings.Join(d.Warnings, "; "), tc.warningPart) {
				t.Errorf("warnings %q lack %q", d.Warnings, tc.warningPart)
			}
			if tc.token != "" {
				evs, err := e.db.LastEvents(ctx, id, 1)
				if err != nil || len(evs) != 1 {
					t.Fatalf("last event: %v %v", evs, err)
				}
				if evs[0].Token != tc.token {
					t.Errorf("last event %q, want %q", evs[0].Token, tc.token)
				}
				if tc.allowed {
					var det struct{ Tree string }
					_ = json.Unmarshal([]byte(evs[0].Detail), &det)
					if want := gittest.Git(t, e.root, "write-tree"); det.Tree != want {
						t.Errorf("event tree %q, want %q (detail %s)", det.Tree, want, evs[0].Detail)
					}
				}
			}
			if tc.violation != "" {
				vs, _ := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: id})
				if len(vs) != 1 || vs[0].Code != tc.violation || vs[0].Severity != session.SeverityHigh {
					t.Errorf("violations %+v, want one HIGH %s", vs, tc.violation)
				}
			}
		})
	}
}

func TestPostCommitBypassIsCarried(t *testing.T) {
	e := newEnv(t, hookProtocol)
	ctx := context.Background()
	policy := session.HookPolicy{RequireSession: true}
	id := e.working()

	gittest.Write(t, e.root, "a.txt", "one\n")
	gittest.Git(t, e.root, "add", "a.txt")
	if d, err := e.engine.PreCommit(ctx, e.hookReq(policy)); err != nil || !d.Allowed {
		t.Fatalf("pre-commit: %+v %v", d, err)
	}
	gittest.Git(t, e.root, "commit", "-q", "--no-verify", "-m", "gated")
	head, tree := gittest.Git(t, e.root, "rev-parse", "HEAD"), gittest.Git(t, e.root, "rev-parse", "HEAD^{tree}")
	req := e.hookReq(policy)
	req.Commit, req.CommitTree = head, tree
	d, err := e.engine.PostCommit(ctx, req)
	if err != nil || len(d.Violations) != 0 {
		t.Fatalf("gated commit: %+v %v", d, err)
	}

	// The same flow without the pre-commit hook: a bypass.
	gittest.Write(t, e.root, "b.txt", "two\n")
	gittest.Git(t, e.root, "add", "b.txt")
	gittest.Git(t, e.root, "commit", "-q", "--no-verify", "-m", "ungated")
	req.Commit, req.CommitTree = gittest.Git(t, e.root, "rev-parse", "HEAD"), gittest.Git(t, e.root, "rev-parse", "HEAD^{tree}")
	d, err = e.engine.PostCommit(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Violations) != 1 {
		t.Fatalf("want one violation, got %+v", d)
	}
	v := d.Violations[0]
	if v.Code != session.CodeBypass || v.Severity != session.SeverityCritical || v.Window != session.WindowCrossSessionDecay || v.DecayRuns != 3 {
		t.Errorf("bypass violation %+v", v)
	}
	if got := e.tokens(id); got[len(got)-1] != session.TokPostCommitBypass {
		t.Errorf("last token %q", got[len(got)-1])
	}
	ev, _ := e.db.ListEvidence(ctx, id)
	commits, bypassed := 0, 0
	for _, x := range ev {
		if x.Kind == session.EvidenceCommitSHA && x.Step == session.HookPostCommit && x.Observed() {
			commits++
		}
		if x.Kind == session.EvidenceBypassCommit && x.Ref == req.Commit && x.Observed() {
			bypassed++
		}
	}
	if commits != 1 || bypassed != 1 {
		t.Errorf("want 1 commit_sha and 1 bypass_commit evidence, got %d and %d", commits, bypassed)
	}

	// A replayed commit (rebase, cherry-pick) never ran pre-commit: no violation.
	req.Replay = "cherry-pick"
	if d, err := e.engine.PostCommit(ctx, req); err != nil || len(d.Violations) != 0 {
		t.Errorf("replay: %+v %v", d, err)
	}

	e.now = e.now.Add(time.Minute)
	res, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "next"})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range res.Carried {
		found = found || c.Code == session.CodeBypass
	}
	if !found {
		t.Errorf("next session_start does not carry the bypass: %+v", res.Carried)
	}
}

func TestPostCommitWithoutSession(t *testing.T) {
	e := newEnv(t, hookProtocol)
	ctx := context.Background()
	policy := session.HookPolicy{RequireSession: true, BypassEnv: "SESSIONGATE_BYPASS"}

	// Escape hatch with no session: pre-commit records it, post-commit matches it.
	gittest.Write(t, e.root, "a.txt", "one\n")
	gittest.Git(t, e.root, "add", "a.txt")
	req := e.hookReq(policy)
	req.Bypass = "1"
	d, err := e.engine.PreCommit(ctx, req)
	if err != nil || !d.Allowed || !d.Escaped || len(d.Violations) != 1 {
		t.Fatalf("escape without session: %+v %v", d, err)
	}
	gittest.Git(t, e.root, "commit", "-q", "--no-verify", "-m", "escaped")
	req.Commit, req.CommitTree = gittest.Git(t, e.root, "rev-parse", "HEAD"), gittest.Git(t, e.root, "rev-parse", "HEAD^{tree}")
	if d, err := e.engine.PostCommit(ctx, req); err != nil || len(d.Violations) != 0 {
		t.Fatalf("escaped commit counted as a bypass: %+v %v", d, err)
	}
	// --no-verify with no session: a bypass outside any session.
	gittest.Write(t, e.root, "b.txt", "two\n")
	gittest.Git(t, e.root, "add", "b.txt")
	gittest.Git(t, e.root, "commit", "-q", "--no-verify", "-m", "bypass")
	req = e.hookReq(policy)
	req.Commit, req.CommitTree = gittest.Git(t, e.root, "rev-parse", "HEAD"), gittest.Git(t, e.root, "rev-parse", "HEAD^{tree}")
	d, err = e.engine.PostCommit(ctx, req)
	if err != nil || len(d.Violations) != 1 || d.Violations[0].Code != session.CodeBypass || d.Violations[0].SessionID != "" {
		t.Fatalf("bypass without session: %+v %v", d, err)
	}
	// Without require_session nothing is recorded.
	req.Policy.RequireSession = false
	if d, err := e.engine.PostCommit(ctx, req); err != nil || len(d.Violations) != 0 {
		t.Errorf("optional session: %+v %v", d, err)
	}
}

func TestPrePush(t *testing.T) {
	e := newEnv(t, hookProtocol)
	ctx := context.Background()
	policy := session.HookPolicy{RequireSession: true, PrePush: []string{"QA_VALIDATION"}}
	req := e.hookReq(policy)

	d, err := e.engine.PrePush(ctx, req)
	if err != nil || d.Allowed {
		t.Fatalf("no session: %+v %v", d, err)
	}
	id := e.working()
	d, err = e.engine.PrePush(ctx, req)
	if err != nil || d.Allowed || d.Gate != "QA_VALIDATION" || !strings.Contains(d.NextStep, "session end") {
		t.Fatalf("QA not passed: %+v %v", d, err)
	}
	deletes := req
	deletes.DeletesOnly = true
	if d, err := e.engine.PrePush(ctx, deletes); err != nil || !d.Allowed {
		t.Errorf("deleting refs: %+v %v", d, err)
	}

	gittest.Write(t, e.root, "NOTES.md", "notes\n")
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "work")
	e.evidence(id, "QA_VALIDATION", "tool_output", "ok 42 tests")
	end, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "done"})
	if err != nil || !end.Ended {
		t.Fatalf("end: %+v %v", end, err)
	}
	// After session_end the completed session still answers for the worktree.
	d, err = e.engine.PrePush(ctx, req)
	if err != nil || !d.Allowed || d.SessionID != id {
		t.Fatalf("after session_end: %+v %v", d, err)
	}
	if got := e.tokens(id); got[len(got)-1] != session.TokPrePushPass {
		t.Errorf("last token %q", got[len(got)-1])
	}
}

func TestCommitMsgTrailer(t *testing.T) {
	e := newEnv(t, hookProtocol)
	ctx := context.Background()
	d, err := e.engine.CommitMsg(ctx, e.hookReq(session.HookPolicy{}))
	if err != nil || len(d.Trailers) != 0 {
		t.Fatalf("no session: %+v %v", d, err)
	}
	id := e.working()
	d, err = e.engine.CommitMsg(ctx, e.hookReq(session.HookPolicy{}))
	snap, _ := e.engine.LatestSnapshot(ctx, id)
	// The third is the chain head of the session's events (Session-Events).
	if err != nil || len(d.Trailers) != 3 || d.Trailers[0] != "Session-Id: "+id || d.Trailers[1] != "Session-Snapshot: "+snap || snap == "" ||
		!regexp.MustCompile(`^Session-Events: [0-9]+:[0-9a-f]{64}$`).MatchString(d.Trailers[2]) {
		t.Fatalf("trailers %+v %v (latest snapshot %q)", d, err, snap)
	}
}

// TestPreCommitSequenceRule: a commit right after a failed gate is let
// through with the shipped warn rule's warning, recorded as an event.
func TestPreCommitSequenceRule(t *testing.T) {
	e := newEnv(t, hookProtocol)
	ctx := context.Background()
	id := e.working()
	if g, err := e.engine.ValidateGate(ctx, id, "QA_VALIDATION"); err != nil || g.Status != session.StatusFail {
		t.Fatalf("gate %+v %v", g, err)
	}
	gittest.Write(t, e.root, "a.txt", "fine\n")
	gittest.Git(t, e.root, "add", "a.txt")
	d, err := e.engine.PreCommit(ctx, e.hookReq(session.HookPolicy{}))
	if err != nil || !d.Allowed || len(d.Warnings) == 0 || !strings.Contains(d.Warnings[0], "commit-after-failed-gate") {
		t.Fatalf("decision %+v %v", d, err)
	}
	if !slices.Contains(e.tokens(id), "policy:commit-after-failed-gate:warn") {
		t.Fatalf("events %v", e.tokens(id))
	}
}

// TestRecordOnlyCommitNeedsNoSession: after session_end, committing the
// session record is allowed although require_session blocks other commits.
func TestRecordOnlyCommitNeedsNoSession(t *testing.T) {
	e := newEnv(t, gateProtocol("<!-- gate: evidence manual -->"))
	e.engine.Config.SessionRecord = ".agents/sessions/{session_id}.json"
	ctx := context.Background()
	id := e.start("record")
	e.evidence(id, "CHECK", session.EvidenceManual, "reviewed the change with the maintainer")
	e.advance(id)
	end, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "s"})
	if err != nil || !end.Ended || end.RecordFile == "" {
		t.Fatalf("end %+v %v", end, err)
	}
	gittest.Git(t, e.root, "add", end.RecordFile)
	d, err := e.engine.PreCommit(ctx, e.hookReq(session.HookPolicy{RequireSession: true}))
	if err != nil || !d.Allowed {
		t.Fatalf("record commit: %+v %v", d, err)
	}
	gittest.Write(t, e.root, "other.txt", "x")
	gittest.Git(t, e.root, "add", "other.txt")
	d, err = e.engine.PreCommit(ctx, e.hookReq(session.HookPolicy{RequireSession: true}))
	if err != nil || d.Allowed {
		t.Fatalf("record plus another file was allowed: %+v %v", d, err)
	}
}

func TestExpiredSessionIsNoSession(t *testing.T) {
	e := newEnv(t, hookProtocol)
	ctx := context.Background()
	e.working()
	e.now = e.now.Add(48 * time.Hour)
	d, err := e.engine.PreCommit(ctx, e.hookReq(session.HookPolicy{RequireSession: true}))
	if err != nil || d.Allowed || !strings.Contains(strings.Join(d.Reasons, " "), "expired") {
		t.Fatalf("expired: %+v %v", d, err)
	}
	d, err = e.engine.PreCommit(ctx, e.hookReq(session.HookPolicy{}))
	if err != nil || !d.Allowed {
		t.Fatalf("expired, optional: %+v %v", d, err)
	}
}

func TestPrePushEscapeWithoutSession(t *testing.T) {
	e := newEnv(t, hookProtocol)
	ctx := context.Background()
	req := e.hookReq(session.HookPolicy{RequireSession: true, BypassEnv: "SESSIONGATE_BYPASS"})
	req.Bypass = "release"
	d, err := e.engine.PrePush(ctx, req)
	if err != nil || !d.Allowed || !d.Escaped || len(d.Violations) != 1 {
		t.Fatalf("%+v %v", d, err)
	}
	if v := d.Violations[0]; v.Code != session.CodeEscapeHatch || v.SessionID != "" || v.RepoID == 0 || !strings.Contains(v.Message, "blocked push") {
		t.Errorf("violation %+v", v)
	}
}

// TestRecordOnlyCommitIsNoBypass: post-commit agrees with pre-commit that a
// commit of an ended session's record needs no session.
func TestRecordOnlyCommitIsNoBypass(t *testing.T) {
	e := newEnv(t, gateProtocol("<!-- gate: evidence manual -->"))
	e.engine.Config.SessionRecord = ".agents/sessions/{session_id}.json"
	ctx := context.Background()
	id := e.start("record")
	e.evidence(id, "CHECK", session.EvidenceManual, "reviewed the change with the maintainer")
	e.advance(id)
	end, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "s"})
	if err != nil || !end.Ended {
		t.Fatalf("end %+v %v", end, err)
	}
	postCommit := func(files ...string) *session.HookDecision {
		t.Helper()
		gittest.Git(t, e.root, append([]string{"add"}, files...)...)
		gittest.Git(t, e.root, "commit", "-q", "--no-verify", "-m", "c")
		req := e.hookReq(session.HookPolicy{RequireSession: true})
		req.Commit, req.CommitTree = gittest.Git(t, e.root, "rev-parse", "HEAD"), gittest.Git(t, e.root, "rev-parse", "HEAD^{tree}")
		req.CommitFiles = func(context.Context) ([]string, error) {
			return strings.Split(gittest.Git(t, e.root, "diff-tree", "--no-commit-id", "--name-only", "-r", "HEAD"), "\n"), nil
		}
		d, err := e.engine.PostCommit(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := postCommit(end.RecordFile); len(d.Violations) != 0 {
		t.Errorf("the record commit was a bypass: %+v", d.Violations)
	}
	gittest.Write(t, e.root, "other.txt", "x")
	if d := postCommit("other.txt"); len(d.Violations) != 1 || d.Violations[0].Code != session.CodeBypass {
		t.Errorf("a --no-verify commit with no session: %+v", d.Violations)
	}
}
