package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// reqProtocol has a must_evidence phase with a summary sentence, three
// listed MUSTs (one conditional), a MUST NOT and a SHOULD, plus a phase
// with an evidence tool_output gate.
const reqProtocol = `# P

## Session Start

### Phase 1: Skill Validation (BLOCKING)

The agent MUST validate skills before starting work.

1. The agent MUST verify the skills directory exists
2. The agent MUST read PROJECT-CONSTRAINTS.md
3. If the serena MCP is not available, the agent MUST read the memory file instead
4. The agent MUST NOT skip this phase
5. The agent SHOULD list the scripts

### Phase 2: Tool Check (BLOCKING)

<!-- gate: evidence tool_output -->

1. The agent MUST run the tool check.
2. The agent SHOULD note the tool version.

## Session End

### Phase 1: Wrap Up (REQUIRED)

<!-- gate: commit_since_start -->

- The agent MUST commit.
`

const (
	reqDir   = "SKILL_VALIDATION.verify-skills-directory-exists"
	reqRead  = "SKILL_VALIDATION.read-project-constraints-md"
	reqCond  = "SKILL_VALIDATION.serena-mcp-not-available"
	reqMustN = "SKILL_VALIDATION.not-skip-phase"
	reqSumm  = "SKILL_VALIDATION.validate-skills-before-starting"
	reqOther = "TOOL_CHECK.run-tool-check"
)

func TestRequirementIDsFromTheProtocol(t *testing.T) {
	e := newEnv(t, reqProtocol)
	p, _ := e.spec.Phase("SKILL_VALIDATION")
	var ids []string
	for _, r := range p.Requirements {
		ids = append(ids, r.ID)
	}
	for _, want := range []string{reqSumm, reqDir, reqRead, reqCond, reqMustN} {
		if !slices.Contains(ids, want) {
			t.Fatalf("ids %v lack %s", ids, want)
		}
	}
	var owed []string
	for _, r := range p.OwedRequirements() {
		owed = append(owed, r.ID)
	}
	if strings.Join(owed, " ") != strings.Join([]string{reqDir, reqRead, reqCond}, " ") {
		t.Fatalf("owed %v: want the three listed MUSTs (not the summary, not MUST NOT, not SHOULD)", owed)
	}
}

// TestRecordEvidenceForRequirements drives one session through every rule
// of evidence bound to requirements; each step states what it proves.
func TestRecordEvidenceForRequirements(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, reqProtocol)
	id := e.start("requirements")
	rec := func(r session.EvidenceRequest) (*session.Evidence, error) {
		r.ID = id
		if r.Kind == "" && !r.NotApplicable {
			r.Kind = session.EvidenceToolOutput
		}
		return e.engine.RecordEvidence(ctx, r)
	}
	count := func() int {
		evs, err := e.db.ListEvidence(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return len(evs)
	}
	gate := func() *session.GateResult {
		g, err := e.engine.ValidateGate(ctx, id, "SKILL_VALIDATION")
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	refusals := []struct {
		name string
		req  session.EvidenceRequest
		want string
	}{
		{"unbound with three open", session.EvidenceRequest{Phase: "SKILL_VALIDATION", Evidence: "drwxr-xr-x .claude/skills"}, "3 are open: name the one"},
		{"unknown id", session.EvidenceRequest{Phase: "SKILL_VALIDATION", Requirement: "SKILL_VALIDATION.nope", Evidence: "x y z"}, `unknown requirement "SKILL_VALIDATION.nope" in phase SKILL_VALIDATION: use one of`},
		{"requirement of another phase", session.EvidenceRequest{Phase: "SKILL_VALIDATION", Requirement: reqOther, Evidence: "tool ok output"}, "belongs to phase TOOL_CHECK, not SKILL_VALIDATION: record it with phase=TOOL_CHECK"},
		// Unconditional: taken only pending a person, with a reason one can judge.
		{"n/a on unconditional, a reason that says nothing", session.EvidenceRequest{Requirement: reqDir, NotApplicable: true, Evidence: "no skills here"}, "says nothing"},
		{"n/a without reason", session.EvidenceRequest{Requirement: reqCond, NotApplicable: true, Evidence: "N/A"}, "needs the reason it does not apply"},
		{"n/a on the whole phase, a reason that says nothing", session.EvidenceRequest{Phase: "SKILL_VALIDATION", NotApplicable: true, Evidence: "serena is available"}, "says nothing"},
		{"failing output", session.EvidenceRequest{Requirement: reqDir, Evidence: "Validate-Skills: 6 validation(s) failed rc=1"}, "reports a non-zero exit (rc=1)"},
		{"exit code", session.EvidenceRequest{Requirement: reqDir, Evidence: "ls: cannot access '.claude/skills'\nexit code 2"}, "a non-zero exit"},
		{"padding ok", session.EvidenceRequest{Requirement: reqDir, Evidence: "ok"}, "is a placeholder"},
		{"padding todo", session.EvidenceRequest{Requirement: reqRead, Kind: session.EvidenceManual, Evidence: "TODO read it later"}, "is a placeholder"},
		{"padding on a conditional MUST points to not_applicable", session.EvidenceRequest{Requirement: reqCond, Evidence: "skipped"}, "record not_applicable with the reason"},
		{"failing output naming a SHOULD still counts for an evidence gate", session.EvidenceRequest{Phase: "TOOL_CHECK", Requirement: "TOOL_CHECK.note-tool-version", Evidence: "tool-check: 2 errors"}, "reports failures or errors"},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			before := count()
			_, err := rec(c.req)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
			if count() != before {
				t.Fatal("a refused record left evidence behind")
			}
		})
	}
	// Success outputs that mention zero failures are evidence, not failures.
	if _, err := rec(session.EvidenceRequest{Requirement: reqDir, Evidence: "checked .claude/skills: 12 files, 0 errors, 0 failed"}); err != nil {
		t.Fatalf("0 errors refused: %v", err)
	}
	// The slug alone resolves within the phase.
	if ev, err := rec(session.EvidenceRequest{Phase: "SKILL_VALIDATION", Requirement: "read-project-constraints-md", Kind: session.EvidenceManual, Evidence: "read PROJECT-CONSTRAINTS.md: no force pushes, conventional commits"}); err != nil || ev.Requirement != reqRead {
		t.Fatalf("slug: %+v %v", ev, err)
	}
	// The same body for another requirement counts once: refused.
	if _, err := rec(session.EvidenceRequest{Requirement: reqCond, Kind: session.EvidenceManual, Evidence: "read PROJECT-CONSTRAINTS.md: no force pushes, conventional commits"}); err == nil || !strings.Contains(err.Error(), "already recorded for requirement "+reqRead) {
		t.Fatalf("same body twice: %v", err)
	}
	// Two of three met: the gate lists the open one by id, never passes by count.
	g := gate()
	if g.Status != session.StatusFail || !strings.Contains(g.Message, reqCond) || len(g.Checks[0].Open) != 1 || g.Checks[0].Open[0].ID != reqCond {
		t.Fatalf("gate with one open: %+v", g)
	}
	// Unbound evidence now binds to the one open requirement...
	ev, err := rec(session.EvidenceRequest{Phase: "SKILL_VALIDATION", Kind: session.EvidenceManual, Evidence: "serena MCP answered; read skill-usage-mandatory via mcp__serena__read_memory"})
	if err != nil || ev.Requirement != reqCond {
		t.Fatalf("bind to the one open: %+v %v", ev, err)
	}
	if g := gate(); g.Status != session.StatusPass {
		t.Fatalf("gate with every requirement met: %+v", g)
	}
	// ...and with none open it is kept for the phase and counts for nothing.
	if ev, err := rec(session.EvidenceRequest{Phase: "SKILL_VALIDATION", Kind: session.EvidenceManual, Evidence: "listed the scripts too"}); err != nil || ev.Requirement != "" {
		t.Fatalf("unbound with none open: %+v %v", ev, err)
	}
	// The blocked report of the next phase names what it needs.
	if res := e.advance(id); !res.Advanced || res.To != "TOOL_CHECK" {
		t.Fatalf("advance: %+v", res)
	}
}

func TestNotApplicableMeetsAConditionalRequirement(t *testing.T) {
	ctx := context.Background()
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir()) // no user MCP config
	e := newEnv(t, reqProtocol)
	// The mark below says serena is available: so it is (issue 25.4
	// checks it).
	gittest.Write(t, e.root, ".mcp.json", `{"mcpServers":{"serena":{"command":"serena"}}}`)
	gittest.Git(t, e.root, "add", ".mcp.json")
	gittest.Git(t, e.root, "commit", "-q", "-m", "serena")
	id := e.start("n/a")
	e.evidenceFor(id, reqDir, "drwxr-xr-x .claude/skills")
	e.evidenceFor(id, reqRead, "read PROJECT-CONSTRAINTS.md")
	rep, err := e.engine.BlockedReason(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.IsBlocked || len(rep.BlockedPhases) == 0 || len(rep.BlockedPhases[0].OpenRequirements) != 1 || !strings.Contains(strings.Join(rep.SuggestedActions, "\n"), reqCond) {
		t.Fatalf("blocked report does not name %s: %+v", reqCond, rep)
	}
	ev, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: reqCond, NotApplicable: true, Evidence: "the serena MCP is available; read the memory through it"})
	if err != nil || ev.Step != session.StepNotApplicable || ev.Phase != "SKILL_VALIDATION" || ev.Kind != session.EvidenceManual {
		t.Fatalf("not applicable: %+v %v", ev, err)
	}
	sts, err := e.engine.Requirements(ctx, id, "SKILL_VALIDATION")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{reqDir: session.ReqMet, reqRead: session.ReqMet, reqCond: session.ReqNotApplicable}
	for _, s := range sts {
		if want[s.ID] != s.Status {
			t.Errorf("%s: %s (%s), want %s", s.ID, s.Status, s.Reason, want[s.ID])
		}
	}
	v, err := e.engine.View(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Checklist[0].RequirementList; len(got) != 6 || got[3].ID != reqCond || got[3].Status != session.ReqNotApplicable || !got[0].Summary {
		t.Fatalf("checklist requirement list: %+v", got)
	}
}

func (e *env) evidenceFor(id, req, body string) {
	e.t.Helper()
	if _, err := e.engine.RecordEvidence(context.Background(), session.EvidenceRequest{ID: id, Requirement: req, Kind: session.EvidenceToolOutput, Evidence: body}); err != nil {
		e.t.Fatalf("record evidence for %s: %v", req, err)
	}
}

// TestObservedOutranksClaimed: the newest observed run decides a
// requirement; a claimed success does not outweigh an observed failure.
func TestObservedOutranksClaimed(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, reqProtocol)
	id := e.start("observed")
	e.evidenceFor(id, reqRead, "read PROJECT-CONSTRAINTS.md")
	e.evidenceFor(id, reqCond, "read the memory file")
	obs := func(code int) {
		if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "SKILL_VALIDATION", Requirement: reqDir, Source: session.SourceRun,
			Command: "test -d .claude/skills", ExitCode: code, Duration: time.Millisecond}); err != nil {
			t.Fatal(err)
		}
	}
	obs(1)
	e.evidenceFor(id, reqDir, "the directory exists, trust me")
	g, err := e.engine.ValidateGate(ctx, id, "SKILL_VALIDATION")
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != session.StatusFail || !strings.Contains(g.Message, "a claim does not outrank it") {
		t.Fatalf("claimed success over observed failure: %+v", g)
	}
	obs(0)
	if g, _ := e.engine.ValidateGate(ctx, id, "SKILL_VALIDATION"); g.Status != session.StatusPass {
		t.Fatalf("after an observed success: %+v", g)
	}
}

// TestObservedRequired: origin=observed and the config's observed: list
// make claims count for nothing.
func TestObservedRequired(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name     string
		protocol string
		cfg      []string
	}{
		{"annotation", strings.Replace(reqProtocol, "<!-- gate: evidence tool_output -->", "<!-- gate: evidence tool_output origin=observed -->", 1), nil},
		{"config", reqProtocol, []string{"TOOL_CHECK"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.protocol)
			e.engine.Config.ObservedPhases = c.cfg
			id := e.start("observed required")
			if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "TOOL_CHECK", Kind: session.EvidenceToolOutput, Evidence: "tool check: all good"}); err != nil {
				t.Fatal(err)
			}
			g, err := e.engine.ValidateGate(ctx, id, "TOOL_CHECK")
			if err != nil || g.Status != session.StatusFail || !strings.Contains(g.Message, "needs observed evidence") {
				t.Fatalf("claim passed an observed-only gate: %+v %v", g, err)
			}
			// A command the hook only saw while the phase was current says nothing.
			if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "TOOL_CHECK", Source: "claude", Command: "ls -la", ExitCode: 0}); err != nil {
				t.Fatal(err)
			}
			if g, _ := e.engine.ValidateGate(ctx, id, "TOOL_CHECK"); g.Status != session.StatusFail {
				t.Fatalf("an unrelated observed ls passed: %+v", g)
			}
			if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "TOOL_CHECK", Source: session.SourceRun, Command: "./check-tools", ExitCode: 0}); err != nil {
				t.Fatal(err)
			}
			if g, _ := e.engine.ValidateGate(ctx, id, "TOOL_CHECK"); g.Status != session.StatusPass {
				t.Fatalf("observed run did not pass: %+v", g)
			}
		})
	}
}

// artifactProtocol asks the session to create a log and a QA report (the
// built-in gates) and to update the log.
const artifactProtocol = `# P

## Session Start

### Phase 1: Session Log (REQUIRED)

- The agent MUST create a session log.

## Session End

### Phase 1: Documentation Update (REQUIRED)

- The agent MUST update the session log.

### Phase 2: QA Validation (BLOCKING)

- The agent MUST write a QA report.

### Phase 3: Static Check (REQUIRED)

<!-- gate: file_exists "tools/lint.sh" -->

- The agent MUST keep the lint script.
`

func TestArtifactsBelongToTheSession(t *testing.T) {
	ctx := context.Background()
	record := session.DefaultRecordPath
	cases := []struct {
		name   string
		phase  string
		before func(t *testing.T, e *env) // committed before the session starts
		during func(t *testing.T, e *env, id string)
		want   session.GateStatus
		msg    string
	}{
		{"older session log", "SESSION_LOG", func(t *testing.T, e *env) {
			gittest.Write(t, e.root, ".agents/sessions/2025-12-01-session-1.md", "# old\n")
		}, nil, session.StatusFail, "older than this session"},
		{".gitkeep only", "SESSION_LOG", nil, func(t *testing.T, e *env, _ string) { gittest.Write(t, e.root, ".agents/sessions/.gitkeep", "") }, session.StatusFail, "(a placeholder)"},
		{"empty file", "SESSION_LOG", nil, func(t *testing.T, e *env, _ string) { gittest.Write(t, e.root, ".agents/sessions/log.md", "") }, session.StatusFail, "(a placeholder)"},
		{"new log untracked", "SESSION_LOG", func(t *testing.T, e *env) { gittest.Write(t, e.root, ".agents/sessions/.gitkeep", "") }, func(t *testing.T, e *env, _ string) {
			gittest.Write(t, e.root, ".agents/sessions/2026-11-21-session-2.md", "# Session 2\n")
		}, session.StatusPass, "created or changed in this session"},
		{"old log edited, unstaged", "SESSION_LOG", func(t *testing.T, e *env) { gittest.Write(t, e.root, ".agents/sessions/s.md", "# s\n") }, func(t *testing.T, e *env, _ string) {
			gittest.Write(t, e.root, ".agents/sessions/s.md", "# s\nmore\n")
		}, session.StatusPass, "created or changed"},
		{"new log committed", "SESSION_LOG", nil, func(t *testing.T, e *env, _ string) {
			gittest.Write(t, e.root, ".agents/sessions/new.md", "# new\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "log")
		}, session.StatusPass, "created or changed"},
		{"new log staged", "SESSION_LOG", nil, func(t *testing.T, e *env, _ string) {
			gittest.Write(t, e.root, ".agents/sessions/new.md", "# new\n")
			gittest.Git(t, e.root, "add", "-A")
		}, session.StatusPass, "created or changed"},
		{"stale QA report", "QA_VALIDATION", func(t *testing.T, e *env) { gittest.Write(t, e.root, ".agents/qa/001-old.md", "# QA\npass\n") }, nil, session.StatusFail, "older than this session"},
		{"new QA report", "QA_VALIDATION", func(t *testing.T, e *env) { gittest.Write(t, e.root, ".agents/qa/001-old.md", "# QA\n") }, func(t *testing.T, e *env, _ string) {
			gittest.Write(t, e.root, ".agents/qa/002-new.md", "# QA\npass\n")
		}, session.StatusPass, "002-new.md"},
		{"a session record is not the log", "SESSION_LOG", nil, func(t *testing.T, e *env, _ string) {
			e.engine.Config.SessionRecord = ".agents/sessions/{session_id}.json"
			gittest.Write(t, e.root, ".agents/sessions/5b8d3c7e-1f2a-4b6c-9d0e-8a7b6c5d4e3f.json", "{}\n")
		}, session.StatusFail, "(a sessiongate record)"},
		{"sessiongate's folder is not the log", "DOCUMENTATION_UPDATE", nil, func(t *testing.T, e *env, _ string) {
			e.engine.Config.SessionRecord = record
			gittest.Write(t, e.root, ".sessiongate/records/5b8d3c7e-1f2a-4b6c-9d0e-8a7b6c5d4e3f.json", "{}\n")
		}, session.StatusFail, "not changed since the session started"},
		{"a record under the log folder is no update", "DOCUMENTATION_UPDATE", nil, func(t *testing.T, e *env, _ string) {
			e.engine.Config.SessionRecord = ".agents/sessions/{session_id}.json"
			gittest.Write(t, e.root, ".agents/sessions/5b8d3c7e-1f2a-4b6c-9d0e-8a7b6c5d4e3f.json", "{}\n")
		}, session.StatusFail, "do not count"},
		{"deleted log is no update", "DOCUMENTATION_UPDATE", func(t *testing.T, e *env) { gittest.Write(t, e.root, ".agents/sessions/s.md", "# s\n") }, func(t *testing.T, e *env, _ string) {
			removeFile(t, e.root, ".agents/sessions/s.md")
		}, session.StatusFail, "(deleted)"},
		{"updated log", "DOCUMENTATION_UPDATE", func(t *testing.T, e *env) { gittest.Write(t, e.root, ".agents/sessions/s.md", "# s\n") }, func(t *testing.T, e *env, _ string) {
			gittest.Write(t, e.root, ".agents/sessions/s.md", "# s\ndone: x\n")
		}, session.StatusPass, "changed"},
		{"a file the phase only keeps may be old", "STATIC_CHECK", func(t *testing.T, e *env) { gittest.Write(t, e.root, "tools/lint.sh", "#!/bin/sh\n") }, nil, session.StatusPass, "exists"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, artifactProtocol)
			if c.before != nil {
				c.before(t, e)
				gittest.Git(t, e.root, "add", "-A")
				gittest.Git(t, e.root, "commit", "-q", "-m", "before")
			}
			id := e.start("artifacts")
			if c.during != nil {
				c.during(t, e, id)
			}
			g, err := e.engine.ValidateGate(ctx, id, c.phase)
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want || !strings.Contains(g.Message, c.msg) {
				t.Fatalf("%s: %s %q, want %s containing %q", c.phase, g.Status, g.Message, c.want, c.msg)
			}
		})
	}
}

func TestRunRecordsObservedEvidence(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, reqProtocol)
	id := e.start("run")
	gittest.Write(t, e.root, "check.sh", "#!/bin/sh\necho \"checked in $(pwd)\"\necho warn >&2\nexit ${1:-0}\n")
	if err := os.Chmod(filepath.Join(e.root, "check.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	res, err := e.engine.Run(ctx, session.RunRequest{ID: id, Phase: "TOOL_CHECK", Argv: []string{"./check.sh", "3"}, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	ev := res.Evidence
	if res.ExitCode != 3 || ev.ExitCode == nil || *ev.ExitCode != 3 || !ev.Observed() || ev.Source != session.SourceRun || ev.Phase != "TOOL_CHECK" ||
		ev.Command != "./check.sh 3" || !strings.Contains(out.String(), "checked in "+e.root) || len(ev.SHA256) != 64 {
		t.Fatalf("run: %+v %+v output %q", res, ev, out.String())
	}
	if g, _ := e.engine.ValidateGate(ctx, id, "TOOL_CHECK"); g.Status != session.StatusFail {
		t.Fatalf("an observed failure passed: %+v", g)
	}
	count := func() int {
		evs, _ := e.db.ListEvidence(ctx, id)
		return len(evs)
	}
	refusals := []struct {
		name string
		req  session.RunRequest
		want string
	}{
		{"no such command", session.RunRequest{Phase: "TOOL_CHECK", Argv: []string{"sessiongate-no-such-tool-xyz"}}, `command "sessiongate-no-such-tool-xyz" not found on PATH`},
		{"no such path", session.RunRequest{Phase: "TOOL_CHECK", Argv: []string{"./nope.sh"}}, "command ./nope.sh does not exist"},
		{"not executable", session.RunRequest{Phase: "TOOL_CHECK", Argv: []string{"./README.md"}}, "not an executable file"},
		{"no phase", session.RunRequest{Argv: []string{"true"}}, "name the phase"},
		{"unknown phase", session.RunRequest{Phase: "NOPE", Argv: []string{"true"}}, `unknown phase "NOPE"`},
		{"unknown requirement", session.RunRequest{Phase: "SKILL_VALIDATION", Requirement: "nope", Argv: []string{"true"}}, "unknown requirement"},
		{"requirement of another phase", session.RunRequest{Phase: "TOOL_CHECK", Requirement: reqDir, Argv: []string{"true"}}, "belongs to phase SKILL_VALIDATION"},
		{"several open", session.RunRequest{Phase: "SKILL_VALIDATION", Argv: []string{"true"}}, "3 are open"},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			before := count()
			c.req.ID = id
			_, err := e.engine.Run(ctx, c.req)
			if !errors.Is(err, session.ErrCannotRun) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want ErrCannotRun with %q", err, c.want)
			}
			if count() != before {
				t.Fatal("a refused run recorded evidence")
			}
		})
	}
	t.Run("timeout kills the process group", func(t *testing.T) {
		// sh starts a child that would outlive sh; both must die.
		gittest.Write(t, e.root, "hang.sh", "#!/bin/sh\nsleep 30 &\necho $! > child.pid\nwait\n")
		os.Chmod(filepath.Join(e.root, "hang.sh"), 0o755)
		before := count()
		start := time.Now()
		res, err := e.engine.Run(ctx, session.RunRequest{ID: id, Phase: "TOOL_CHECK", Argv: []string{"./hang.sh"}, Timeout: 300 * time.Millisecond})
		if !errors.Is(err, session.ErrCannotRun) || !strings.Contains(err.Error(), "timed out after 300ms") || !strings.Contains(err.Error(), "command_timeout") {
			t.Fatalf("err %v", err)
		}
		if time.Since(start) > 10*time.Second || res == nil || !res.TimedOut || count() != before+1 || *res.Evidence.ExitCode != -1 {
			t.Fatalf("timed-out run: %+v after %s", res, time.Since(start))
		}
		b, _ := os.ReadFile(filepath.Join(e.root, "child.pid"))
		pid := strings.TrimSpace(string(b))
		for i := 0; i < 50; i++ {
			if _, err := os.Stat("/proc/" + pid); err != nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		if st, err := os.ReadFile("/proc/" + pid + "/stat"); err == nil && !strings.Contains(string(st), ") Z ") {
			t.Fatalf("child %s of the timed-out command still runs", pid)
		}
	})
}

// TestObservedRunOfTheConfiguredCommand: a command sessiongate.yaml gives a
// phase (commands:) attributes an observed run to that phase, and the run
// counts for the phase's observed-only evidence gate.
func TestObservedRunOfTheConfiguredCommand(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, strings.Replace(reqProtocol, "<!-- gate: evidence tool_output -->", "<!-- gate: evidence tool_output origin=observed -->", 1))
	e.engine.Config.Commands = map[string]string{"TOOL_CHECK": "go vet ./..."}
	id := e.start("configured command")
	ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Source: "claude", Command: "go vet ./session", ExitCode: 0})
	if err != nil || ev.Phase != "TOOL_CHECK" {
		t.Fatalf("observed run of the configured command attributed to %q: %v", ev.Phase, err)
	}
	g, err := e.engine.ValidateGate(ctx, id, "TOOL_CHECK")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range g.Checks {
		if c.Kind == "evidence" && c.Status != session.StatusPass {
			t.Fatalf("observed run of the configured command did not count: %+v", c)
		}
	}
}

// TestRunsThatProveNothing: a run that proves nothing by construction
// (`true`, `echo ok`, `sh -c 'exit 0'`) meets no requirement and passes no
// evidence gate, bound or not; a shell script's status counts only when it
// is its command's own; a real command still does.
func TestRunsThatProveNothing(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, reqProtocol)
	id := e.start("nothing")
	run := func(phase, req, cmd string, code int) {
		t.Helper()
		if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: phase, Requirement: req, Source: session.SourceRun,
			Command: cmd, ExitCode: code, Duration: time.Millisecond}); err != nil {
			t.Fatal(err)
		}
	}
	status := func(phase string) session.GateStatus {
		t.Helper()
		g, err := e.engine.ValidateGate(ctx, id, phase)
		if err != nil {
			t.Fatal(err)
		}
		return g.Status
	}
	for _, cmd := range []string{"true", "echo 'the tool check passed'", "sh -c 'exit 0'", "bash -c 'echo ok; true'"} {
		run("TOOL_CHECK", "", cmd, 0)
		if st := status("TOOL_CHECK"); st == session.StatusPass {
			t.Errorf("TOOL_CHECK passed on an observed %q", cmd)
		}
	}
	e.evidenceFor(id, reqRead, "read PROJECT-CONSTRAINTS.md")
	e.evidenceFor(id, reqCond, "read the memory file")
	run("SKILL_VALIDATION", reqDir, "true", 0)
	if st := status("SKILL_VALIDATION"); st == session.StatusPass {
		t.Error("a requirement was met by a bound `true`")
	}
	run("SKILL_VALIDATION", reqDir, "sh -c 'test -d .claude/skills || true'", 0)
	if st := status("SKILL_VALIDATION"); st == session.StatusPass {
		t.Error("a requirement was met by `test -d ... || true` (the status is true's)")
	}
	run("SKILL_VALIDATION", reqDir, "test -d .claude/skills", 0)
	if st := status("SKILL_VALIDATION"); st != session.StatusPass {
		t.Errorf("a real check run did not meet the requirement: %s", st)
	}
	run("TOOL_CHECK", "", "./tools/check --all", 0)
	if st := status("TOOL_CHECK"); st != session.StatusPass {
		t.Errorf("a real tool run did not pass TOOL_CHECK: %s", st)
	}
}

// TestRunThatRanNoTests: `go test -run NONE ./...` exits 0 having run no
// test; its observed run does not pass the gate, and the gate says why.
func TestRunThatRanNoTests(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, reqProtocol)
	id := e.start("no tests")
	rec := func(cmd, out string) {
		t.Helper()
		if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "TOOL_CHECK", Source: session.SourceRun,
			Command: cmd, ExitCode: 0, Duration: time.Millisecond, Output: []byte(out)}); err != nil {
			t.Fatal(err)
		}
	}
	rec("go test -run NONE ./...", "ok  \texample.com/a\t0.003s [no tests to run]\n?   \texample.com/b\t[no test files]\n")
	g, err := e.engine.ValidateGate(ctx, id, "TOOL_CHECK")
	if err != nil {
		t.Fatal(err)
	}
	if g.Status == session.StatusPass || !strings.Contains(g.Message, "ran no tests") {
		t.Fatalf("a run of no tests: %+v", g)
	}
	rec("go test ./...", "ok  \texample.com/a\t0.013s\n?   \texample.com/b\t[no test files]\n")
	if g, _ := e.engine.ValidateGate(ctx, id, "TOOL_CHECK"); g.Status != session.StatusPass {
		t.Fatalf("a run of the tests: %+v", g)
	}
}

// TestRunThatSkipsTheTests: a test runner told not to run the tests (go
// test -exec=true reports every package ok; -list, -c, pytest
// --collect-only) exits 0 having checked nothing; its observed run does
// not pass the gate, and the gate says why.
func TestRunThatSkipsTheTests(t *testing.T) {
	ctx := context.Background()
	for _, cmd := range []string{
		"go test -exec=true ./...",
		"GOFLAGS=-exec=true go test ./...",
		"go test -list . ./...",
		"python3 -m pytest --collect-only",
	} {
		t.Run(cmd, func(t *testing.T) {
			e := newEnv(t, reqProtocol)
			id := e.start("skips the tests")
			rec := func(cmd string) {
				t.Helper()
				if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "TOOL_CHECK", Source: session.SourceRun,
					Command: cmd, ExitCode: 0, Duration: time.Millisecond, Output: []byte("ok  \texample.com/a\t0.003s\n")}); err != nil {
					t.Fatal(err)
				}
			}
			rec(cmd)
			g, err := e.engine.ValidateGate(ctx, id, "TOOL_CHECK")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status == session.StatusPass || !strings.Contains(g.Message, "runs no test") {
				t.Fatalf("%s passed the gate: %+v", cmd, g)
			}
			rec("go test ./...")
			if g, _ := e.engine.ValidateGate(ctx, id, "TOOL_CHECK"); g.Status != session.StatusPass {
				t.Fatalf("a run of the tests after it: %+v", g)
			}
		})
	}
}

// TestRunsOfHelpOrVersion: `git status --help` exits 0 printing the
// manual, and passed the starter's Git State gate ("MUST run `git status`
// and record its output"); `npx markdownlint-cli2 --version` met "MUST run
// `npx markdownlint-cli2 --fix`". A run that asks a tool about itself
// proves it is installed, not that it ran, unless the requirement asks
// for that flag.
func TestRunsOfHelpOrVersion(t *testing.T) {
	const proto = "# P\n\n## Session Start\n\n### Phase 1: Git State (REQUIRED)\n\n<!-- gate: evidence tool_output -->\n\n" +
		"1. The agent MUST run `git status` and record its output as evidence.\n\n" +
		"### Phase 2: Lint (REQUIRED)\n\n<!-- gate: must_evidence -->\n\n1. The agent MUST run `npx markdownlint-cli2 --fix \"**/*.md\"`.\n\n" +
		"### Phase 3: Versions (REQUIRED)\n\n<!-- gate: must_evidence -->\n\n1. The agent MUST record `node --version` in the log.\n\n" +
		"## Session End\n\n### Phase 1: Wrap Up (REQUIRED)\n\n<!-- gate: commit_since_start -->\n\n- The agent MUST commit.\n"
	ctx := context.Background()
	e := newEnv(t, proto)
	id := e.start("help")
	run := func(phase, req, cmd string) session.GateStatus {
		t.Helper()
		if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: phase, Requirement: req, Source: session.SourceRun,
			Command: cmd, ExitCode: 0, Duration: time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		g, err := e.engine.ValidateGate(ctx, id, phase)
		if err != nil {
			t.Fatal(err)
		}
		return g.Status
	}
	if st := run("GIT_STATE", "", "git status --help"); st == session.StatusPass {
		t.Error("GIT_STATE passed on an observed `git status --help`")
	}
	if st := run("GIT_STATE", "", "git status"); st != session.StatusPass {
		t.Errorf("GIT_STATE did not pass on `git status`: %s", st)
	}
	if st := run("LINT", "", "npx markdownlint-cli2 --version"); st == session.StatusPass {
		t.Error("LINT passed on `npx markdownlint-cli2 --version`")
	}
	if st := run("LINT", "LINT.run-npx-markdownlint-cli2", "npx markdownlint-cli2 --help"); st == session.StatusPass {
		t.Error("LINT passed on `npx markdownlint-cli2 --help` bound to the requirement")
	}
	if st := run("LINT", "", `npx markdownlint-cli2 --fix "**/*.md"`); st != session.StatusPass {
		t.Errorf("LINT did not pass on the protocol's own command: %s", st)
	}
	if st := run("VERSIONS", "VERSIONS.record-node-version-log", "node --version"); st != session.StatusPass {
		t.Errorf("VERSIONS did not pass on the `node --version` it asks for: %s", st)
	}
}
