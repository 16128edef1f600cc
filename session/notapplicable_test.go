package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// naProtocol: a start phase of unconditional MUSTs (reads, chores, the
// tests), a phase of one chore, and an end phase that is the work.
const naProtocol = "# P\n\n## Session Start\n\n### Phase 1: Context (BLOCKING)\n\n" +
	"1. The agent MUST read `docs/guide.md`.\n" +
	"2. The agent MUST list the open issues that concern the objective.\n" +
	"3. The agent MUST note the deploy window agreed with the release manager.\n" +
	"4. The agent MUST write down the open questions for the user.\n" +
	"5. The agent MUST skim the changelog of the last release.\n" +
	"6. The agent MUST run the test suite once before starting.\n\n" +
	"### Phase 2: Skills (REQUIRED)\n\n" +
	"1. The agent MUST list the skills folder.\n\n" +
	"## Session End\n\n### Phase 1: QA Validation (BLOCKING)\n\n<!-- gate: evidence tool_output -->\n\n" +
	"1. The agent MUST run the tests and record their output.\n"

const (
	naGuide     = "CONTEXT.read-docs-guide-md"
	naIssues    = "CONTEXT.list-open-issues-concern"
	naDeploy    = "CONTEXT.note-deploy-window-agreed"
	naQuestions = "CONTEXT.write-down-open-questions"
	naChangelog = "CONTEXT.skim-changelog-last-release"
	naTests     = "CONTEXT.run-test-suite-once"
)

// TestNotApplicableLazyRoutes: the ways a lazy agent would wave
// requirements through with "not applicable" are refused, naming why; the
// honest marks (a file the repository lacks, a chore that does not fit,
// with its own reason) are taken.
func TestNotApplicableLazyRoutes(t *testing.T) {
	ctx := context.Background()
	type mark struct {
		phase, req, reason string
		refused            string // "" = taken
	}
	cases := []struct {
		name  string
		guide bool   // docs/guide.md committed before the session
		rm    bool   // ... and removed from the work tree during it
		marks []mark // in order; the last is the one judged
	}{
		{name: "empty reason", marks: []mark{{"CONTEXT", naIssues, " ", "evidence is empty"}}},
		{name: "placeholder reason", marks: []mark{{"CONTEXT", naIssues, "N/A", "needs the reason it does not apply"}}},
		{name: "reason that says nothing", marks: []mark{{"CONTEXT", naIssues, "not needed here", "says nothing"}}},
		{name: "the tests are the work", marks: []mark{{"CONTEXT", naTests, "the suite is slow and this change is small", "is the work itself"}}},
		{name: "a phase that is the work", marks: []mark{{"QA_VALIDATION", "", "the change is small and obviously right", "is the work itself"}}},
		{name: "one reason copied across marks", marks: []mark{
			{"CONTEXT", naIssues, "this repository has no issue tracker at all", ""},
			{"CONTEXT", naDeploy, "This repository has no issue tracker at all.", "reason already given"}}},
		{name: "more than half of a phase", marks: []mark{
			{"CONTEXT", naIssues, "this repository has no issue tracker at all", ""},
			{"CONTEXT", naDeploy, "the project ships no releases, so no deploy window", ""},
			{"CONTEXT", naQuestions, "the user answered every question in the task", ""},
			{"CONTEXT", naChangelog, "there was no release before this one", "marked as a whole"}}},
		{name: "a file the repository has", guide: true, marks: []mark{{"CONTEXT", naGuide, "the guide is not in this repository", "in the work tree"}}},
		{name: "a file removed during the session", guide: true, rm: true, marks: []mark{{"CONTEXT", naGuide, "the guide is not in this repository", "the repository has at"}}},
		// Honest.
		{name: "a file the repository lacks", marks: []mark{{"CONTEXT", naGuide, "there is no docs/guide.md in this repository", ""}}},
		{name: "a chore that does not fit", marks: []mark{{"CONTEXT", naDeploy, "the project ships no releases, so no deploy window", ""}}},
		{name: "half of a phase", marks: []mark{
			{"CONTEXT", naIssues, "this repository has no issue tracker at all", ""},
			{"CONTEXT", naDeploy, "the project ships no releases, so no deploy window", ""},
			{"CONTEXT", naQuestions, "the user answered every question in the task", ""}}},
		{name: "a phase that does not fit", marks: []mark{{"SKILLS", "", "this repository keeps no skills folder and never did", ""}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, naProtocol)
			if c.guide {
				gittest.Write(t, e.root, "docs/guide.md", "# Guide\n")
				gittest.Git(t, e.root, "add", "-A")
				gittest.Git(t, e.root, "commit", "-q", "-m", "guide")
			}
			id := e.start(c.name)
			if c.rm {
				removeFile(t, e.root, "docs/guide.md")
			}
			for i, m := range c.marks {
				if m.phase == "QA_VALIDATION" {
					e.toWorkingNA(id)
				}
				_, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: m.phase, Requirement: m.req, NotApplicable: true, Evidence: m.reason})
				switch {
				case m.refused == "" && err != nil:
					t.Fatalf("mark %d (%s) refused: %v", i, m.req, err)
				case m.refused != "" && err == nil:
					t.Fatalf("mark %d (%s) taken, want a refusal containing %q", i, m.req, m.refused)
				case m.refused != "" && !strings.Contains(err.Error(), m.refused):
					t.Fatalf("mark %d (%s): %v, want %q", i, m.req, err, m.refused)
				}
			}
			marks, err := e.engine.NotApplicableMarks(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			taken := 0
			if c.marks[0].phase == "QA_VALIDATION" {
				taken = 1 // toWorkingNA's mark on the absent guide
			}
			for _, m := range c.marks {
				if m.refused == "" {
					taken++
				}
			}
			if len(marks) != taken {
				t.Fatalf("%d marks stored, want %d (a refused mark stores nothing): %+v", len(marks), taken, marks)
			}
			for _, m := range marks {
				want := session.NAPending
				if m.Requirement == naGuide {
					want = session.NAChecked // the file's absence was checked
				}
				if m.Standing != want {
					t.Fatalf("%s stands %s, want %s", m.What(), m.Standing, want)
				}
			}
		})
	}
}

// toWorkingNA passes naProtocol's start phases honestly (the guide is
// absent, so its read is marked checked) and advances to WORKING.
func (e *env) toWorkingNA(id string) {
	e.t.Helper()
	ctx := context.Background()
	for _, r := range []string{naIssues, naDeploy, naQuestions, naChangelog, naTests} {
		if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT", Requirement: r, Kind: session.EvidenceToolOutput, Evidence: "did " + r}); err != nil {
			e.t.Fatal(err)
		}
	}
	if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT", Requirement: naGuide, NotApplicable: true, Evidence: "there is no docs/guide.md here"}); err != nil {
		e.t.Fatal(err)
	}
	e.evidence(id, "SKILLS", session.EvidenceToolOutput, "skills/: a.md b.md")
	res, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING"})
	if err != nil || res.State != session.StateWorking {
		e.t.Fatalf("to WORKING: %+v %v", res, err)
	}
}

// TestNotApplicablePendingGate: a pending mark lets the gate pass (honest
// work goes on), a phase marked as a whole is skipped, never passed, and
// both stay pending in the view until a person's acceptance on the records
// ref, which only then reads accepted; the record's snapshot marks them.
func TestNotApplicablePendingGate(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, naProtocol)
	id := e.start("pending gate")
	for _, r := range []string{naIssues, naQuestions, naChangelog, naTests} {
		if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT", Requirement: r, Kind: session.EvidenceToolOutput, Evidence: "did " + r}); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []struct{ phase, req, reason string }{
		{"CONTEXT", naGuide, "there is no docs/guide.md in this repository"},
		{"CONTEXT", naDeploy, "the project ships no releases, so no deploy window"},
		{"SKILLS", "", "this repository keeps no skills folder and never did"},
	} {
		if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: m.phase, Requirement: m.req, NotApplicable: true, Evidence: m.reason}); err != nil {
			t.Fatalf("%s/%s: %v", m.phase, m.req, err)
		}
	}
	res, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING"})
	if err != nil || res.State != session.StateWorking {
		t.Fatalf("honest work with pending marks did not go on: %+v %v", res, err)
	}
	v, err := e.engine.View(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range v.Phases {
		switch p.PhaseID {
		case "CONTEXT":
			if p.Status != session.PhasePassed {
				t.Fatalf("CONTEXT %s, want PASSED (one pending mark of six)", p.Status)
			}
		case "SKILLS":
			if p.Status == session.PhasePassed || p.Decision != session.DecisionNotApplicablePending {
				t.Fatalf("SKILLS marked as a whole reads %s %s: a phase not done must not read as passed", p.Status, p.Decision)
			}
		}
	}
	if got := len(session.PendingNA(v.NotApplicable)); got != 2 {
		t.Fatalf("%d pending marks in the view, want 2: %+v", got, v.NotApplicable)
	}
	rec, err := e.engine.Record(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	st := map[string]string{}
	for _, ev := range rec.Snapshots[len(rec.Snapshots)-1].State.Evidence {
		if ev.NotApplicable != "" {
			st[ev.Phase+"/"+ev.Requirement] = ev.NotApplicable
		}
	}
	if st["CONTEXT/"+naGuide] != session.NAChecked || st["CONTEXT/"+naDeploy] != session.NAPending || st["SKILLS/"] != session.NAPending {
		t.Fatalf("the record's snapshot marks %v", st)
	}

	if _, err := e.engine.AcceptNotApplicable(ctx, session.AcceptNARequest{Repo: e.repo, SessionID: id, Which: naGuide, Who: "Dev", Reason: "fine", Via: "test"}); err == nil {
		t.Fatal("accepting a checked mark: nothing pending to accept, want an error")
	}
	got, err := e.engine.AcceptNotApplicable(ctx, session.AcceptNARequest{Repo: e.repo, SessionID: id, Which: naDeploy, Who: "Dev <dev@example.invalid>", Reason: "no releases indeed", Via: "test"})
	if err != nil || len(got) != 1 {
		t.Fatalf("accept %s: %+v %v", naDeploy, got, err)
	}
	marks, err := e.engine.NotApplicableMarks(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range marks {
		want := map[string]string{naGuide: session.NAChecked, naDeploy: session.NAAccepted, "": session.NAPending}[m.Requirement]
		if m.Standing != want {
			t.Fatalf("%s stands %s after the acceptance of %s, want %s", m.What(), m.Standing, naDeploy, want)
		}
	}
}

// TestNotApplicableRealProtocolMissingFile: the team's protocol
// (2025-12-22) asks to read .agents/governance/PROJECT-CONSTRAINTS.md. In
// a repository without it, the read is marked not applicable with no
// person needed (the absence is checked); with the file there, the mark is
// refused.
func TestNotApplicableRealProtocolMissingFile(t *testing.T) {
	doc := fixtureProtocol(t, "SESSION-PROTOCOL_2025-12-22_3821367d2.md")
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir()) // no user MCP config
	const cons = "SKILL_VALIDATION.read-agents-governance-project"
	ctx := context.Background()
	for _, has := range []bool{false, true} {
		e := newEnv(t, string(doc))
		if has {
			gittest.Write(t, e.root, ".agents/governance/PROJECT-CONSTRAINTS.md", "# Constraints\n\nConventional commits.\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "constraints")
		}
		id := e.start("constraints")
		_, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: cons, NotApplicable: true, Evidence: "this repository has no .agents/governance/PROJECT-CONSTRAINTS.md"})
		switch {
		case !has && err != nil:
			t.Fatalf("the missing file's read marked not applicable: refused: %v", err)
		case has && (err == nil || !strings.Contains(err.Error(), "PROJECT-CONSTRAINTS.md")):
			t.Fatalf("the present file's read marked not applicable: %v, want a refusal naming the file", err)
		}
		if !has {
			marks, err := e.engine.NotApplicableMarks(ctx, id)
			if err != nil || len(marks) != 1 || marks[0].Standing != session.NAChecked {
				t.Fatalf("marks %+v %v, want one checked", marks, err)
			}
			continue
		}
		// "If the serena MCP is not available, then the agent MUST read
		// .serena/memories/skill-usage-mandatory.md": the file is there, but
		// the condition is about the MCP: with serena configured the mark
		// is taken, checked by the machine (it was pending a person before
		// issue 25.4, and a false block before that).
		gittest.Write(t, e.root, ".serena/memories/skill-usage-mandatory.md", "# Skills\n")
		gittest.Write(t, e.root, ".mcp.json", `{"mcpServers":{"serena":{"command":"serena"}}}`)
		if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: "SKILL_VALIDATION.serena-mcp-not-available", NotApplicable: true, Evidence: "the serena MCP is available; the memory was read through it"}); err != nil {
			t.Fatalf("the Serena condition's mark: %v", err)
		}
		marks, err := e.engine.NotApplicableMarks(ctx, id)
		if err != nil || len(marks) != 1 || marks[0].Standing != session.NAChecked {
			t.Fatalf("marks %+v %v, want the Serena mark checked", marks, err)
		}
	}
}

// TestNotApplicableOptionalPhase: a phase the protocol makes optional
// (its title, or a condition on its every MUST) marked not applicable,
// as a whole or by requirement, owes no person's acceptance: skipping it
// ends clean, so marking it does too (lazy pass 39's honest row ended
// "not clean: N/A pending acceptance"). A REQUIRED phase's mark still
// waits for a person.
func TestNotApplicableOptionalPhase(t *testing.T) {
	ctx := context.Background()
	const proto = "# P\n\n## Session Start\n\n### Phase 1: Context (BLOCKING)\n\n1. The agent MUST list the open issues that concern the objective.\n\n" +
		"## Session End\n\n### Phase 1: Optional Retrospective\n\nWhen the work produced durable learning, write it to `docs/learnings.md`.\n\n" +
		"### Phase 2: Notes\n\nWrite down the deploy window agreed with the release manager.\n"
	e := newEnv(t, proto)
	id := e.start("optional phase")
	if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT", Requirement: "CONTEXT.list-open-issues-concern", Kind: session.EvidenceToolOutput, Evidence: "issue 12 only"}); err != nil {
		t.Fatal(err)
	}
	if res, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING"}); err != nil || res.State != session.StateWorking {
		t.Fatalf("advance to WORKING: %+v %v", res, err)
	}
	for _, m := range []struct{ phase, reason string }{
		{"OPTIONAL_RETROSPECTIVE", "a one-line change: nothing durable was learned"},
		{"NOTES", "the project ships no releases, so no deploy window"},
	} {
		if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: m.phase, NotApplicable: true, Evidence: m.reason}); err != nil {
			t.Fatalf("%s: %v", m.phase, err)
		}
	}
	marks, err := e.engine.NotApplicableMarks(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range marks {
		got[m.Phase] = m.Standing
	}
	if got["OPTIONAL_RETROSPECTIVE"] != session.NAOptional || got["NOTES"] != session.NAPending {
		t.Fatalf("standings %v, want the optional phase's %s and the required one's %s", got, session.NAOptional, session.NAPending)
	}
	if p := session.PendingNA(marks); len(p) != 1 || p[0].Phase != "NOTES" {
		t.Fatalf("pending marks %+v, want NOTES's alone", p)
	}
}
