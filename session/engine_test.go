package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/policy"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

const flowProtocol = `# Protocol

## Session Start

### Phase 1: Context Retrieval (BLOCKING)

<!-- gate: evidence tool_output -->

1. The agent MUST read the notes.

### Phase 2: Plan (RECOMMENDED)

<!-- gate: file_exists "PLAN.md" -->

1. The agent SHOULD write a plan.

### Phase 3: Issue Context (BLOCKING when an issue is linked)

<!-- gate: evidence manual -->

1. The agent MUST read the linked issue.

## Session End

### Phase 1: Quality Checks (REQUIRED)

<!-- gate: command "test -z \"$(grep -l TODO {changed:*.txt})\"" -->

1. The agent MUST NOT leave TODOs.

### Phase 2: QA Validation (BLOCKING)

<!-- gate: file_exists "qa/*.md" -->

1. The agent MUST write a QA report.

### Phase 3: Git Operations (REQUIRED)

<!-- gate: commit_since_start -->

1. The agent MUST commit.
`

func TestStartStateAndHistory(t *testing.T) {
	e := newEnv(t, flowProtocol)
	ctx := context.Background()
	res, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "fix the bug"})
	if err != nil {
		t.Fatal(err)
	}
	if err := session.ValidateID(res.SessionID); err != nil {
		t.Fatalf("session id %q: %v", res.SessionID, err)
	}
	if res.State != session.StateInit || res.Phase != "CONTEXT_RETRIEVAL" {
		t.Fatalf("state %s phase %s, want INIT CONTEXT_RETRIEVAL", res.State, res.Phase)
	}
	if got := strings.Join(res.BlockedUntil, ","); got != "CONTEXT_RETRIEVAL,ISSUE_CONTEXT" {
		t.Fatalf("blocked_until %s", got)
	}
	if len(res.Checklist) != 6 {
		t.Fatalf("checklist has %d items, want 6", len(res.Checklist))
	}
	s, _ := e.db.GetSession(ctx, res.SessionID)
	if s.StartCommit != gittest.Git(t, e.root, "rev-parse", "HEAD") || s.Branch != "main" || s.ProtocolSHA != e.spec.SHA256 {
		t.Fatalf("session recorded %+v", s)
	}

	// A second start in the same worktree supersedes the first.
	res2, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "second"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res2.Superseded) != 1 || res2.Superseded[0] != res.SessionID {
		t.Fatalf("superseded %v", res2.Superseded)
	}
	old, _ := e.db.GetSession(ctx, res.SessionID)
	if old.State != session.StateAbandoned {
		t.Fatalf("old session state %s, want ABANDONED", old.State)
	}
	// History shows the ended session to the next start.
	res3, _ := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "third"})
	if len(res3.History) != 2 {
		t.Fatalf("history has %d entries, want 2", len(res3.History))
	}
}

func TestStartValidation(t *testing.T) {
	e := newEnv(t, flowProtocol)
	ctx := context.Background()
	cases := []struct {
		name string
		req  session.StartRequest
		want string
	}{
		{"no objective", session.StartRequest{Objective: "  "}, "objective is required"},
		{"bad commit", session.StartRequest{Objective: "x", StartingCommit: "HEAD~1; rm -rf /"}, "invalid starting_commit"},
		{"unknown commit", session.StartRequest{Objective: "x", StartingCommit: "1234567890abcdef1234567890abcdef12345678"}, "not a commit in this repository"},
		{"bad branch", session.StartRequest{Objective: "x", Branch: "a b"}, "invalid branch"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.req.Repo, c.req.Spec = e.repo, e.spec
			_, err := e.engine.Start(ctx, c.req)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
		})
	}
	// A commit that is not an ancestor of HEAD (another branch) is refused;
	// an ancestor is accepted and recorded.
	base := gittest.Git(t, e.root, "rev-parse", "HEAD")
	gittest.Git(t, e.root, "checkout", "-q", "-b", "side")
	gittest.Git(t, e.root, "commit", "-q", "--allow-empty", "-m", "side")
	side := gittest.Git(t, e.root, "rev-parse", "HEAD")
	gittest.Git(t, e.root, "checkout", "-q", "main")
	if _, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "x", StartingCommit: side}); err == nil || !strings.Contains(err.Error(), "not an ancestor of HEAD") {
		t.Fatalf("side-branch starting commit: %v", err)
	}
	gittest.Git(t, e.root, "commit", "-q", "--allow-empty", "-m", "next")
	res, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "x", StartingCommit: base[:10]})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := e.db.GetSession(ctx, res.SessionID); s.StartCommit != base {
		t.Fatalf("starting commit %q, want %s", s.StartCommit, base)
	}
	for _, id := range []string{"", "abc", "../../etc/passwd", strings.Repeat("a", 36), "123e4567-e89b-12d3-a456-42661417400g"} {
		if _, err := e.engine.ValidateGate(ctx, id, ""); !errors.Is(err, session.ErrInvalidID) {
			t.Errorf("id %q: err %v, want ErrInvalidID", id, err)
		}
	}
	if _, err := e.engine.ValidateGate(ctx, "123e4567-e89b-42d3-a456-426614174000", ""); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("unknown id: err %v, want ErrNotFound", err)
	}
}

func TestWholeSession(t *testing.T) {
	e := newEnv(t, flowProtocol)
	ctx := context.Background()
	id := e.start("whole session")

	// BLOCKING gate without evidence blocks.
	res := e.advance(id)
	if res.Advanced || res.Blocked == nil || res.Blocked.Phase != "CONTEXT_RETRIEVAL" {
		t.Fatalf("advance without evidence: %+v", res)
	}
	if !slices.Contains(e.tokens(id), "gate:CONTEXT_RETRIEVAL:fail") || !slices.Contains(e.tokens(id), "tool:advance_phase:blocked") {
		t.Fatalf("events %v", e.tokens(id))
	}
	rep, err := e.engine.BlockedReason(ctx, id)
	if err != nil || !rep.IsBlocked || rep.BlockedPhases[0].Phase != "CONTEXT_RETRIEVAL" || len(rep.BlockedPhases[0].EvidenceNeeded) == 0 {
		t.Fatalf("blocked reason %+v %v", rep, err)
	}

	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read HANDOFF: nothing pending")
	res = e.advance(id)
	if !res.Advanced || res.To != "PLAN" {
		t.Fatalf("advance with evidence: %+v", res)
	}
	// RECOMMENDED gate failing is skipped with a warning, not a violation.
	res = e.advance(id)
	if !res.Advanced || res.To != "ISSUE_CONTEXT" || len(res.Warnings) != 1 || len(res.Violations) != 0 {
		t.Fatalf("recommended skip: %+v", res)
	}
	// Conditional BLOCKING gate: recording that the condition does not hold skips it.
	if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "ISSUE_CONTEXT", Kind: session.EvidenceManual, Evidence: "no issue linked", Step: session.StepCondition}); err != nil {
		t.Fatal(err)
	}
	res = e.advance(id)
	if !res.Advanced || res.State != session.StateWorking || res.Gates[0].Decision != session.DecisionConditionNotMet {
		t.Fatalf("conditional: %+v", res)
	}
	if !slices.Contains(e.tokens(id), "decision:ISSUE_CONTEXT:condition_not_met") {
		t.Fatalf("condition decision not recorded: %v", e.tokens(id))
	}

	// Work: a file with a TODO, not committed yet.
	gittest.Write(t, e.root, "notes.txt", "TODO finish\n")
	end, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "did it"})
	if err != nil {
		t.Fatal(err)
	}
	if end.Ended || end.Blocked == nil || end.Blocked.Phase != "QUALITY_CHECKS" {
		t.Fatalf("end with TODO: %+v", end)
	}
	gittest.Write(t, e.root, "notes.txt", "done\n")
	gittest.Write(t, e.root, "qa/report.md", "ok\n")
	end, err = e.engine.End(ctx, session.EndRequest{ID: id, Summary: "did it"})
	if err != nil {
		t.Fatal(err)
	}
	if end.Ended || end.Blocked == nil || end.Blocked.Phase != "GIT_OPERATIONS" {
		t.Fatalf("end without commit: %+v", end)
	}
	// The work is committed on a branch made after the start: the record
	// names that branch, not the one the session started on.
	started, err := e.db.GetSession(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, e.root, "checkout", "-q", "-b", "feature/whole")
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "work")
	end, err = e.engine.End(ctx, session.EndRequest{ID: id, Summary: "did it", NextNotes: "look at X"})
	if err != nil {
		t.Fatal(err)
	}
	if !end.Ended || end.State != session.StateComplete || end.EndCommit != gittest.Git(t, e.root, "rev-parse", "HEAD") {
		t.Fatalf("end: %+v", end)
	}
	if ended, err := e.db.GetSession(ctx, id); err != nil || ended.Branch != "feature/whole" || started.Branch == "feature/whole" {
		t.Fatalf("branch at start %q, at end %+v (%v): want the branch the work was committed on", started.Branch, ended, err)
	}
	if !slices.Contains(e.tokens(id), session.TokBranchMoved) {
		t.Fatalf("no %s event: %v", session.TokBranchMoved, e.tokens(id))
	}
	// An ended session refuses further calls with a clear error.
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id}); !errors.Is(err, session.ErrEnded) {
		t.Fatalf("advance after end: %v", err)
	}
	next, _ := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "next"})
	if len(next.History) != 1 || next.History[0].NextNotes != "look at X" {
		t.Fatalf("history %+v", next.History)
	}
}

func TestForceRecordsViolation(t *testing.T) {
	e := newEnv(t, flowProtocol)
	ctx := context.Background()
	id := e.start("force")
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Force: true}); err == nil || !strings.Contains(err.Error(), "reason") {
		t.Fatalf("force without reason: %v", err)
	}
	res, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING", Force: true, Reason: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Advanced || res.State != session.StateWorking {
		t.Fatalf("forced advance: %+v", res)
	}
	// Two BLOCKING gates forced -> two CRITICAL violations; PLAN skipped with a warning.
	if len(res.Violations) != 2 || res.Violations[0].Severity != session.SeverityCritical || res.Violations[0].Code != "FORCED_ADVANCE" {
		t.Fatalf("violations %+v", res.Violations)
	}
	vs, _ := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: id})
	if len(vs) != 2 {
		t.Fatalf("stored violations %d", len(vs))
	}
	if !slices.Contains(e.tokens(id), "tool:advance_phase:force") {
		t.Fatalf("events %v", e.tokens(id))
	}
	v, _ := e.engine.View(ctx, id)
	if v.Checklist[0].Status != session.PhaseForced || v.Checklist[1].Status != session.PhaseSkipped {
		t.Fatalf("checklist %+v", v.Checklist)
	}
	// Backwards and unknown targets are refused.
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "PLAN"}); err == nil {
		t.Fatal("backward target accepted")
	}
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "NOPE"}); err == nil || !strings.Contains(err.Error(), "unknown target") {
		t.Fatalf("unknown target: %v", err)
	}
}

func TestSkipQA(t *testing.T) {
	e := newEnv(t, flowProtocol)
	ctx := context.Background()
	id := e.start("docs")
	e.toWorking(id)
	gittest.Write(t, e.root, "main.go", "package main\n")
	if _, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "s", SkipQA: true}); err == nil || !strings.Contains(err.Error(), "main.go") {
		t.Fatalf("skip_qa with code changed: %v", err)
	}
	gittest.Git(t, e.root, "rm", "-q", "--cached", "--ignore-unmatch", "main.go")
	removeFile(t, e.root, "main.go")
	gittest.Write(t, e.root, "docs/guide.md", "words\n")
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "docs")
	end, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "docs", SkipQA: true})
	if err != nil {
		t.Fatal(err)
	}
	if !end.Ended {
		t.Fatalf("docs-only end: %+v", end)
	}
	v, _ := e.engine.View(ctx, id)
	for _, it := range v.Checklist {
		if it.Phase == "QA_VALIDATION" && (it.Status != session.PhaseSkipped || it.Decision != "SKIPPED: docs-only") {
			t.Fatalf("QA phase %+v", it)
		}
	}
}

func TestExpiryTerminateDelete(t *testing.T) {
	e := newEnv(t, flowProtocol)
	ctx := context.Background()
	id := e.start("expire")
	e.now = e.now.Add(25 * time.Hour)
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id}); !errors.Is(err, session.ErrExpired) {
		t.Fatalf("advance after idle timeout: %v", err)
	}
	s, _ := e.db.GetSession(ctx, id)
	if s.State != session.StateAbandoned || !slices.Contains(e.tokens(id), "session:expired") {
		t.Fatalf("expired session %s, events %v", s.State, e.tokens(id))
	}

	id2 := e.start("terminate")
	if _, err := e.engine.Terminate(ctx, id2, ""); err == nil {
		t.Fatal("terminate without reason accepted")
	}
	if _, err := e.engine.Terminate(ctx, id2, "wrong objective"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id2, Kind: session.EvidenceManual, Evidence: "x", Phase: "PLAN"}); !errors.Is(err, session.ErrTerminated) {
		t.Fatalf("evidence on terminated session: %v", err)
	}
	v, err := e.engine.View(ctx, id2) // soft delete keeps the data
	if err != nil || !v.Session.Terminated || v.Session.TerminateReason != "wrong objective" {
		t.Fatalf("view of terminated: %+v %v", v, err)
	}
	if err := e.engine.Delete(ctx, id2); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.GetSession(ctx, id2); !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("deleted session still there: %v", err)
	}
	if evs, _ := e.db.ListEvents(ctx, id2, 0, 0); len(evs) != 0 {
		t.Fatalf("events of deleted session remain: %d", len(evs))
	}
}

func TestEvidenceValidation(t *testing.T) {
	e := newEnv(t, flowProtocol)
	ctx := context.Background()
	id := e.start("evidence")
	gittest.Write(t, e.root, "docs/a.md", "hello\n")
	cases := []struct {
		name       string
		req        session.EvidenceRequest
		want       string // error substring; "" means success
		wantRef    string
		wantSHAHex bool
	}{
		{"too large", session.EvidenceRequest{Kind: session.EvidenceToolOutput, Evidence: strings.Repeat("x", session.MaxEvidenceBytes+1)}, "64 KiB", "", false},
		{"empty", session.EvidenceRequest{Kind: session.EvidenceToolOutput, Evidence: " "}, "empty", "", false},
		{"bad kind", session.EvidenceRequest{Kind: "screenshot", Evidence: "x"}, "unknown evidence_type", "", false},
		{"unknown phase", session.EvidenceRequest{Phase: "NOPE", Kind: session.EvidenceManual, Evidence: "x"}, "unknown phase", "", false},
		{"path escapes", session.EvidenceRequest{Kind: session.EvidenceFilePath, Evidence: "../outside.txt"}, "outside the repository", "", false},
		{"absolute path", session.EvidenceRequest{Kind: session.EvidenceFilePath, Evidence: "/etc/passwd"}, "outside the repository", "", false},
		{"missing file", session.EvidenceRequest{Kind: session.EvidenceFilePath, Evidence: "nope.md"}, "does not exist", "", false},
		{"bad sha", session.EvidenceRequest{Kind: session.EvidenceCommitSHA, Evidence: "zzzz"}, "not a hex commit", "", false},
		{"phase not applicable on a placeholder", session.EvidenceRequest{Kind: session.EvidenceManual, Evidence: "x", Step: "condition"}, "needs the reason it does not apply", "", false},
		{"file path", session.EvidenceRequest{Kind: session.EvidenceFilePath, Evidence: "docs/a.md"}, "", "docs/a.md", true},
		{"tool output hashed", session.EvidenceRequest{Kind: session.EvidenceToolOutput, Evidence: "secret output body"}, "", "18 bytes", true},
		{"decision keeps no text", session.EvidenceRequest{Kind: session.EvidenceManual, Evidence: "decision: docs-only\nmore"}, "", "", true},
		{"decision with an explicit ref", session.EvidenceRequest{Kind: session.EvidenceManual, Evidence: "decision: docs-only\nmore", Ref: "docs-only, see #12"}, "", "docs-only, see #12", true},
		{"a secret in the ref is redacted", session.EvidenceRequest{Kind: session.EvidenceManual, Evidence: "x", Ref: "login with password=hunter2"}, "", "login with password=[redacted]", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.req.ID = id
			ev, err := e.engine.RecordEvidence(ctx, c.req)
			if c.want != "" {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("err %v, want %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ev.Ref != c.wantRef || len(ev.SHA256) != 64 || ev.Body != nil {
				t.Fatalf("evidence %+v", ev)
			}
		})
	}
	// Privacy: the stored rows never hold the raw tool output.
	evs, _ := e.db.ListEvidence(ctx, id)
	for _, ev := range evs {
		if strings.Contains(ev.Ref, "secret") || ev.Body != nil {
			t.Fatalf("raw body stored: %+v", ev)
		}
	}
}

// TestSequenceRulesInEngine: the shipped rules fire on real calls, refused
// calls record a violation, and history survives a new engine (a restart).
func TestSequenceRulesInEngine(t *testing.T) {
	e := newEnv(t, flowProtocol)
	ctx := context.Background()
	id := e.start("rules")
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Force: true, Reason: "first"}); err != nil {
		t.Fatal(err)
	}
	// A restart: a new engine over the same database still sees the history.
	e.engine = session.NewEngine(e.db, session.Config{}, e.engine.OpenRepo)
	e.engine.Now = func() time.Time { return e.now }
	_, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Force: true, Reason: "second"})
	if !errors.Is(err, policy.ErrBlocked) || !strings.Contains(err.Error(), "repeated-forced-advance") {
		t.Fatalf("second forced advance: %v", err)
	}
	vs, _ := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: id})
	codes := map[string]int{}
	for _, v := range vs {
		codes[v.Code]++
	}
	if codes["SEQUENCE_RULE"] != 1 || codes["FORCED_ADVANCE"] != 1 { // checked before the retries below
		t.Fatalf("violations %v", codes)
	}
	// Retrying the refused call is refused again, however often.
	for i := 0; i < 6; i++ {
		if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Force: true, Reason: "retry"}); !errors.Is(err, policy.ErrBlocked) {
			t.Fatalf("retry %d: %v", i, err)
		}
	}
	toks := e.tokens(id)
	if !slices.Contains(toks, "policy:repeated-forced-advance:block") || !slices.Contains(toks, "tool:advance_phase:force:refused") {
		t.Fatalf("events %v", toks)
	}
	// A different call in between breaks the run: the next force is allowed.
	e.evidence(id, "PLAN", session.EvidenceManual, "plan")
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Force: true, Reason: "third"}); err != nil {
		t.Fatalf("force after another call: %v", err)
	}
	// A disabled rule does not fire.
	e2 := newEnv(t, flowProtocol)
	e2.engine.Config.Policy = &policy.Config{Disable: []string{"repeated-forced-advance"}}
	id2 := e2.start("disabled")
	for i := 0; i < 2; i++ {
		if _, err := e2.engine.Advance(ctx, session.AdvanceRequest{ID: id2, Force: true, Reason: "x"}); err != nil {
			t.Fatalf("forced advance %d with the rule disabled: %v", i, err)
		}
	}
}

// TestCarriedViolationsDecay: forcing a BLOCKING gate is carried into the
// next session only (decay_runs 1), which may not force while it is active.
func TestCarriedViolationsDecay(t *testing.T) {
	e := newEnv(t, flowProtocol)
	ctx := context.Background()
	id1 := e.start("forcer")
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id1, Force: true, Reason: "skip"}); err != nil {
		t.Fatal(err)
	}
	e.now = e.now.Add(time.Minute)
	res2, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "next"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res2.Carried) != 1 || res2.Carried[0].SessionID != id1 || res2.Carried[0].Window != session.WindowCrossSessionDecay {
		t.Fatalf("carried into the next session: %+v", res2.Carried)
	}
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: res2.SessionID, Force: true, Reason: "again"}); !errors.Is(err, session.ErrForceRefused) {
		t.Fatalf("force with an active carried violation: %v", err)
	}
	// A throwaway start does not wear the violation off: only completed
	// sessions count as runs.
	e.now = e.now.Add(time.Minute)
	throwaway, _ := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "throwaway"})
	if len(throwaway.Carried) != 1 {
		t.Fatalf("superseding a session wore the violation off: %+v", throwaway.Carried)
	}
	id2 := throwaway.SessionID
	e.toWorking(id2)
	gittest.Write(t, e.root, "qa/r.md", "ok")
	gittest.Git(t, e.root, "add", "-A")
	e.hookCommit("work") // a plain git commit here would be reconciled as a BYPASS, carried again
	if end, err := e.engine.End(ctx, session.EndRequest{ID: id2, Summary: "done"}); err != nil || !end.Ended {
		t.Fatalf("end: %+v %v", end, err)
	}
	e.now = e.now.Add(time.Minute)
	res3, _ := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "third"})
	if len(res3.Carried) != 0 {
		t.Fatalf("violation still carried after a completed session: %+v", res3.Carried)
	}
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: res3.SessionID, Force: true, Reason: "ok now"}); err != nil {
		t.Fatalf("force after decay: %v", err)
	}
}

// TestSnapshotsAndRecord: snapshots at start, each move and the end; the
// record file holds them and its ids recompute.
func TestSnapshotsAndRecord(t *testing.T) {
	e := newEnv(t, flowProtocol)
	e.engine.Config.SessionRecord = ".agents/sessions/{session_id}.json"
	ctx := context.Background()
	id := e.start("snapshots")
	e.toWorking(id)
	gittest.Write(t, e.root, "qa/r.md", "ok")
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "work")
	end, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "done"})
	if err != nil || !end.Ended {
		t.Fatalf("end: %+v %v", end, err)
	}
	snaps, _ := e.db.ListSnapshots(ctx, id)
	if len(snaps) < 3 || snaps[len(snaps)-1].SnapshotID != end.SnapshotID {
		t.Fatalf("%d snapshots, last %v, end %s", len(snaps), snaps, end.SnapshotID)
	}
	if end.RecordFile != ".agents/sessions/"+id+".json" {
		t.Fatalf("record file %q (warnings %v)", end.RecordFile, end.Warnings)
	}
	b, err := os.ReadFile(filepath.Join(e.root, end.RecordFile))
	if err != nil {
		t.Fatal(err)
	}
	var rec snapshot.Record
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Snapshots) != len(snaps) || rec.Envelope.Snapshot.StateSnapshotID != end.SnapshotID {
		t.Fatalf("record has %d snapshots, envelope %s", len(rec.Snapshots), rec.Envelope.Snapshot.StateSnapshotID)
	}
	for i, p := range rec.Snapshots {
		got, _, err := p.ID()
		if err != nil || got != snaps[i].SnapshotID {
			t.Fatalf("snapshot %d recomputes to %s, stored %s", i, got, snaps[i].SnapshotID)
		}
	}
	if strings.Contains(string(b), e.root) || strings.Contains(string(b), "created_at") {
		t.Fatal("record holds a path or a time")
	}
}

// TestCarriedViolationOutsideSession: a carried violation that no session
// recorded (a commit made with none running) is named as such when it
// refuses a force, never as "from session " with an empty id.
func TestCarriedViolationOutsideSession(t *testing.T) {
	e := newEnv(t, flowProtocol)
	ctx := context.Background()
	id := e.start("first")
	s, err := e.db.GetSession(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.db.Update(ctx, func(w session.Writer) error {
		return w.AddViolation(ctx, &session.Violation{RepoID: s.RepoID, Severity: "CRITICAL", Code: "BYPASS", Message: "commit without hooks",
			Window: session.WindowCrossSessionDecay, DecayRuns: 1, CreatedAt: e.now})
	}); err != nil {
		t.Fatal(err)
	}
	e.now = e.now.Add(time.Minute)
	res, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "next"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.engine.Advance(ctx, session.AdvanceRequest{ID: res.SessionID, Force: true, Reason: "again"})
	if !errors.Is(err, session.ErrForceRefused) || !strings.Contains(err.Error(), "recorded outside any session at 2026-11-21T10:00:00Z") || strings.Contains(err.Error(), "session  ") {
		t.Fatalf("force with a carried violation from no session: %v", err)
	}
}
