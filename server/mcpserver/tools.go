package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/session"
)

// Tool inputs. Descriptions come from the jsonschema tags; nothing here can
// name a command: commands come only from the protocol or the config file.

// SessionStartInput is session_start's input.
type SessionStartInput struct {
	Objective      string `json:"objective" jsonschema:"what this session is for, in a sentence or two (required)"`
	Branch         string `json:"branch,omitempty" jsonschema:"branch to record (default: the worktree's current branch)"`
	StartingCommit string `json:"starting_commit,omitempty" jsonschema:"hex commit id the session counts changes and commits from (default: HEAD)"`
}

// ValidateGateInput is validate_gate's input.
type ValidateGateInput struct {
	SessionID string `json:"session_id" jsonschema:"the session_id session_start returned (a UUID)"`
	Phase     string `json:"phase,omitempty" jsonschema:"phase id to check, as in the checklist (default: the current phase)"`
}

// AdvancePhaseInput is advance_phase's input.
type AdvancePhaseInput struct {
	SessionID   string `json:"session_id" jsonschema:"the session_id session_start returned (a UUID)"`
	TargetPhase string `json:"target_phase,omitempty" jsonschema:"phase id to advance to, or WORKING; every gate on the way is checked (default: the next phase)"`
	Force       bool   `json:"force,omitempty" jsonschema:"skip a failing BLOCKING or REQUIRED gate; recorded as a CRITICAL or HIGH violation"`
	Reason      string `json:"reason,omitempty" jsonschema:"why the gate is skipped (required with force; recorded with the violation)"`
}

// RecordEvidenceInput is record_evidence's input.
type RecordEvidenceInput struct {
	SessionID    string `json:"session_id" jsonschema:"the session_id session_start returned (a UUID)"`
	Phase        string `json:"phase" jsonschema:"phase id the evidence is for, as in the checklist"`
	EvidenceType string `json:"evidence_type" jsonschema:"tool_output (command output), file_path or content_hash (a repository-relative path; content_hash proves you read the current version), commit_sha, or manual (a decision or note)"`
	Evidence     string `json:"evidence" jsonschema:"the evidence itself: output, path, commit sha or decision (at most 64 KiB; only its sha256 and a short reference are stored)"`
	Step         string `json:"step,omitempty" jsonschema:"optional checklist step; 'condition' records that a conditional gate's condition does not hold"`
	Requirement  string `json:"requirement,omitempty" jsonschema:"id of the requirement or checklist row this evidence satisfies (PHASE.slug from the checklist or get_blocked_reason; the slug alone within phase). A phase that owes evidence per requirement needs it whenever more than one is open"`
	// NotApplicable marks a requirement (or, without one, the phase) as not applying.
	NotApplicable bool `json:"not_applicable,omitempty" jsonschema:"true: the requirement (without requirement: the phase) does not apply; evidence is the reason (evidence_type manual). A condition sessiongate can check is checked; otherwise the mark waits for a person's acceptance and the session is not clean until then. Refused for the work itself (tests, commits) and for more than half of a phase's requirements"`
	// Ref is manual evidence's short reference, stored instead of its text.
	Ref string `json:"ref,omitempty" jsonschema:"manual evidence only: a short reference to store (a ticket, a file, who decided); the text itself is never stored, only its sha256"`
}

// SessionEndInput is session_end's input.
type SessionEndInput struct {
	SessionID        string `json:"session_id" jsonschema:"the session_id session_start returned (a UUID)"`
	Summary          string `json:"summary" jsonschema:"what the session did (required; the next session_start shows it)"`
	NextSessionNotes string `json:"next_session_notes,omitempty" jsonschema:"notes for the next session"`
	SkipQA           bool   `json:"skip_qa,omitempty" jsonschema:"skip the QA phase; allowed only when every changed file is documentation"`
}

// SessionIDInput names a session.
type SessionIDInput struct {
	SessionID string `json:"session_id" jsonschema:"the session_id session_start returned (a UUID)"`
}

// ValidateGateOutput is validate_gate's result: the gate and whether it passes.
type ValidateGateOutput struct {
	SessionID string `json:"session_id"`
	Passed    bool   `json:"passed"`
	session.GateResult
	Next string `json:"next_step"`
}

// RecordEvidenceOutput is record_evidence's result: what was stored.
type RecordEvidenceOutput struct {
	SessionID    string `json:"session_id"`
	Phase        string `json:"phase"`
	Step         string `json:"step,omitempty"`
	Requirement  string `json:"requirement,omitempty"`
	EvidenceType string `json:"evidence_type"`
	// Origin is always claimed here: sessiongate was told, it did not see
	// it. Observed evidence comes from agent hooks that watch the shell.
	Origin     session.EvidenceOrigin `json:"origin"`
	SHA256     string                 `json:"sha256"`
	Ref        string                 `json:"ref"`
	Size       int                    `json:"size"`
	RecordedAt time.Time              `json:"recorded_at"`
	// OpenRequirements are the phase's requirements still waiting for
	// evidence, when it owes evidence per requirement.
	OpenRequirements []session.RequirementStatus `json:"open_requirements"`
	Next             string                      `json:"next_step"`
	// Warnings from sequence rules that let the call through.
	Warnings []string `json:"warnings,omitempty"`
}

func (m *handlers) addTools(srv *mcp.Server) {
	// Every tool writes to the session's history (events), so none is
	// read-only or idempotent; none reaches beyond the repository.
	closed := false
	addTool(srv, &mcp.Tool{
		Name:  "session_start",
		Title: "Start a session",
		Description: "Start a protocol session in this repository: records branch, starting commit and the protocol's hash, " +
			"and returns the session_id to pass to every other tool, the phases that block work, the checklist, " +
			"and the summaries of the last sessions. An older active session in the same worktree is superseded.",
		OutputSchema: outputSchema[session.StartResult](map[string]string{
			"session_id":          "handle of the session: pass it to every other tool",
			"state":               "INIT (start phases), WORKING, ENDING (end phases), COMPLETE, ABANDONED or TERMINATED",
			"phase":               "current phase id",
			"blocked_until":       "mandatory start phases whose gates must pass before work",
			"checklist":           "every phase of the protocol with its gate level, checks and status",
			"history":             "the last ended sessions of this repository, newest first",
			"carried_violations":  "violations of the previous session the next one must see",
			"superseded_sessions": "older active sessions of this worktree now ABANDONED",
			"expires_at":          "when the session expires without activity",
		}),
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: &closed},
	}, m.sessionStart)

	addTool(srv, &mcp.Tool{
		Name:  "validate_gate",
		Title: "Check a phase's gate",
		Description: "Run a phase's gate checks against the repository (default: the current phase) and record the result. " +
			"It never moves the session. A failing gate is a normal result (passed=false) that says what is missing.",
		OutputSchema: outputSchema[ValidateGateOutput](map[string]string{
			"passed":            "true when the gate passes or has nothing to check",
			"phase":             "phase id checked",
			"requirement_level": "BLOCKING, REQUIRED, RECOMMENDED, OPTIONAL or UNSPECIFIED",
			"status":            "PASS, FAIL or SKIPPED",
			"checks":            "each check: kind, status, message, evidence reference",
			"output":            "tail of a failing command's output (returned, never stored)",
			"next_step":         "what to do next",
		}),
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: &closed},
	}, m.validateGate)

	addTool(srv, &mcp.Tool{
		Name:  "advance_phase",
		Title: "Advance to the next phase",
		Description: "Move the session to the next phase (or to target_phase), checking every gate on the way. " +
			"A failing BLOCKING or REQUIRED gate stops the advance (isError, with the blocking phase and what it needs) " +
			"unless force=true with a reason, which records a violation. Failing RECOMMENDED or OPTIONAL gates are skipped with a warning.",
		OutputSchema: outputSchema[session.AdvanceResult](map[string]string{
			"advanced":   "whether the session moved",
			"from":       "position before the call",
			"to":         "position after the call (a phase id, WORKING, or DONE when every end phase passed)",
			"gates":      "every gate checked on the way",
			"warnings":   "optional gates skipped",
			"violations": "violations recorded by a forced advance",
			"blocked":    "the phase that stopped the advance and what it needs",
			"next_step":  "what to do next",
		}),
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: &closed},
	}, m.advancePhase)

	addTool(srv, &mcp.Tool{
		Name:  "record_evidence",
		Title: "Record evidence for a phase",
		Description: "Record evidence that a phase's requirement is met. Only its sha256 and a short reference are stored " +
			"(a repository-relative path, a commit sha, the first line of a decision). Paths must stay inside the repository.",
		InputSchema: evidenceInputSchema(),
		OutputSchema: outputSchema[RecordEvidenceOutput](map[string]string{
			"sha256":    "sha256 of the evidence (of the file, for file_path and content_hash)",
			"origin":    "claimed: sessiongate was told, it did not see it happen (observed evidence comes from agent hooks watching the shell)",
			"ref":       "the short reference stored",
			"size":      "bytes of the evidence (of the file, for file_path and content_hash)",
			"next_step": "what to do next",
		}),
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: &closed},
	}, m.recordEvidence)

	addTool(srv, &mcp.Tool{
		Name:  "session_end",
		Title: "End the session",
		Description: "Walk the remaining end phases (never forcing) and complete the session with a summary and notes for the next one. " +
			"A failing mandatory end phase blocks the end (isError, with what it needs); fix it and call session_end again.",
		OutputSchema: outputSchema[session.EndResult](map[string]string{
			"ended":         "whether the session is now COMPLETE",
			"ending_commit": "HEAD when the session ended",
			"gates":         "every end gate checked",
			"blocked":       "the end phase that blocks and what it needs",
			"next_step":     "what to do next",
		}),
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: &closed},
	}, m.sessionEnd)

	addTool(srv, &mcp.Tool{
		Name:        "get_blocked_reason",
		Title:       "Why is the session blocked?",
		Description: "Check the current phase's gate without recording a gate result and list the mandatory phases still ahead, with the evidence each needs and suggested actions.",
		OutputSchema: outputSchema[session.BlockedReport](map[string]string{
			"is_blocked":        "true while a mandatory gate fails or the start protocol is unfinished",
			"blocked_phases":    "phases that block: phase, requirement_level, reason, evidence_needed",
			"suggested_actions": "what to do, in order",
		}),
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: &closed},
	}, m.blockedReason)
}

// outputSchema infers T's schema and describes its top-level properties.
func outputSchema[T any](desc map[string]string) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("output schema %T: %v", *new(T), err))
	}
	for k, d := range desc {
		p, ok := s.Properties[k]
		if !ok {
			panic(fmt.Sprintf("output schema %T has no property %q", *new(T), k))
		}
		p.Description = d
	}
	return s
}

// evidenceInputSchema is the inferred schema with evidence_type as an enum.
func evidenceInputSchema() *jsonschema.Schema {
	s, err := jsonschema.For[RecordEvidenceInput](nil)
	if err != nil {
		panic(fmt.Sprintf("record_evidence input schema: %v", err))
	}
	for _, k := range session.EvidenceKinds {
		s.Properties["evidence_type"].Enum = append(s.Properties["evidence_type"].Enum, k)
	}
	return s
}

// text is a short readable content block next to structuredContent.
func textContent(format string, a ...any) []mcp.Content {
	return []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, a...)}}
}

func (m *handlers) sessionStart(ctx context.Context, _ *mcp.CallToolRequest, in SessionStartInput) (*mcp.CallToolResult, *session.StartResult, error) {
	e, err := m.engine()
	if err != nil {
		return nil, nil, err
	}
	if m.opts.LoadSpec == nil || m.opts.Repo == nil {
		return nil, nil, fmt.Errorf("session_start: no repository or protocol configured: run sessiongate inside a git repository with a SESSION-PROTOCOL.md")
	}
	spec, err := m.opts.LoadSpec(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("session_start: load the protocol: %v; fix that, then call session_start again", err)
	}
	res, err := e.Start(ctx, session.StartRequest{Repo: m.opts.Repo, Spec: spec, Objective: in.Objective, Branch: in.Branch, StartingCommit: in.StartingCommit})
	if err != nil {
		return nil, nil, m.toolError(ctx, "session_start", "", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Session %s started: %s", res.SessionID, res.State)
	if res.Phase != "" {
		fmt.Fprintf(&b, " at phase %s", res.Phase)
	}
	b.WriteString(".\n")
	if len(res.BlockedUntil) > 0 {
		fmt.Fprintf(&b, "Work is blocked until these gates pass: %s.\n", strings.Join(res.BlockedUntil, ", "))
	}
	for _, v := range res.Carried {
		fmt.Fprintf(&b, "Previous session's violation: %s %s in %s: %s\n", v.Severity, v.Code, v.Phase, v.Message)
	}
	if len(res.History) > 0 {
		h := res.History[0]
		fmt.Fprintf(&b, "Last session (%s): %s", h.State, oneLine(h.Summary))
		if h.NextNotes != "" {
			fmt.Fprintf(&b, " Notes: %s", oneLine(h.NextNotes))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Pass session_id %s to every other tool.", res.SessionID)
	return &mcp.CallToolResult{Content: textContent("%s", b.String())}, res, nil
}

func (m *handlers) validateGate(ctx context.Context, _ *mcp.CallToolRequest, in ValidateGateInput) (*mcp.CallToolResult, *ValidateGateOutput, error) {
	e, err := m.engine()
	if err != nil {
		return nil, nil, err
	}
	// One view of HEAD for the whole call: its checks ask for HEAD from
	// four places (gitrepo.WithCallSnapshot); the next call reads it anew.
	g, err := e.ValidateGate(gitrepo.WithCallSnapshot(ctx), in.SessionID, in.Phase)
	if err != nil {
		return nil, nil, m.toolError(ctx, "validate_gate", in.SessionID, err)
	}
	out := &ValidateGateOutput{SessionID: in.SessionID, Passed: g.Status != session.StatusFail, GateResult: *g}
	if out.Checks == nil {
		out.Checks = []session.CheckResult{}
	}
	var msg string
	if out.Passed {
		out.Next = "advance_phase to move past " + g.Phase
		msg = fmt.Sprintf("%s gate %s: %s. %s.", g.Level, g.Phase, g.Status, g.Message)
	} else {
		var need []string
		for _, c := range g.Checks {
			if c.Status == session.StatusFail {
				if c.Fix != nil {
					// The engine's fix as data, said in MCP's terms:
					// every open requirement's, capped.
					fixes := session.CapFixes(c.Fixes, g.Phase)
					if len(fixes) == 0 {
						fixes = []session.NextStep{*c.Fix}
					}
					need = append(need, c.Message+": "+session.RenderSteps(fixes, session.NextStep.MCP))
				} else {
					need = append(need, c.Message)
				}
			}
		}
		out.Next = "fix what failed (" + strings.Join(need, "; ") + "), then validate_gate again"
		msg = fmt.Sprintf("%s gate %s: FAIL. %s.", g.Level, g.Phase, g.Message)
	}
	return &mcp.CallToolResult{Content: textContent("%s%s Next: %s.", msg, warningsText(g.Warnings), out.Next)}, out, nil
}

// warningsText renders sequence-rule warnings for a tool's text content:
// every tool result carries them, in structuredContent and in the text a
// model reads.
func warningsText(ws []string) string {
	var b strings.Builder
	for _, w := range ws {
		fmt.Fprintf(&b, " Warning: %s.", w)
	}
	return b.String()
}

func (m *handlers) advancePhase(ctx context.Context, _ *mcp.CallToolRequest, in AdvancePhaseInput) (*mcp.CallToolResult, *session.AdvanceResult, error) {
	e, err := m.engine()
	if err != nil {
		return nil, nil, err
	}
	res, err := e.Advance(ctx, session.AdvanceRequest{ID: in.SessionID, Target: in.TargetPhase, Force: in.Force, Reason: in.Reason})
	if err != nil {
		return nil, nil, m.toolError(ctx, "advance_phase", in.SessionID, err)
	}
	if res.Gates == nil {
		res.Gates = []session.GateResult{}
	}
	var b strings.Builder
	if res.Advanced {
		fmt.Fprintf(&b, "Advanced %s -> %s (%s).", res.From, res.To, res.State)
	} else {
		fmt.Fprintf(&b, "Not advanced: still at %s.", res.From)
	}
	if res.Blocked != nil {
		fmt.Fprintf(&b, " Blocked by %s gate %s: %s.", res.Blocked.Level, res.Blocked.Phase, res.Blocked.Reason)
	}
	for _, v := range res.Violations {
		fmt.Fprintf(&b, " Violation recorded: %s %s in %s.", v.Severity, v.Code, v.Phase)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, " Warning: %s.", w)
	}
	fmt.Fprintf(&b, " Next: %s.", res.Next)
	// A blocked advance did not do what was asked: isError, so the model
	// notices, with the structured result still attached.
	return &mcp.CallToolResult{IsError: res.Blocked != nil, Content: textContent("%s", b.String())}, res, nil
}

func (m *handlers) recordEvidence(ctx context.Context, _ *mcp.CallToolRequest, in RecordEvidenceInput) (*mcp.CallToolResult, *RecordEvidenceOutput, error) {
	e, err := m.engine()
	if err != nil {
		return nil, nil, err
	}
	ev, err := e.RecordEvidence(ctx, session.EvidenceRequest{ID: in.SessionID, Phase: in.Phase, Kind: in.EvidenceType, Evidence: in.Evidence, Step: in.Step,
		Requirement: in.Requirement, NotApplicable: in.NotApplicable, Ref: in.Ref})
	if err != nil {
		return nil, nil, m.toolError(ctx, "record_evidence", in.SessionID, err)
	}
	origin := ev.Origin
	if origin == "" {
		origin = session.OriginClaimed
	}
	out := &RecordEvidenceOutput{SessionID: ev.SessionID, Phase: ev.Phase, Step: ev.Step, Requirement: ev.Requirement, EvidenceType: ev.Kind, Origin: origin, SHA256: ev.SHA256,
		Ref: ev.Ref, Size: ev.Size, RecordedAt: ev.CreatedAt, OpenRequirements: []session.RequirementStatus{},
		Next: "validate_gate phase=" + ev.Phase + " to see whether its gate passes now", Warnings: ev.Warnings}
	if sts, err := e.Requirements(ctx, ev.SessionID, ev.Phase); err == nil {
		for _, st := range sts {
			if st.Status == session.ReqOpen {
				out.OpenRequirements = append(out.OpenRequirements, st)
			}
		}
		if len(sts) > 0 && len(out.OpenRequirements) > 0 {
			ids := make([]string, len(out.OpenRequirements))
			for i, o := range out.OpenRequirements {
				ids[i] = o.ID
			}
			out.Next = fmt.Sprintf("%d requirement(s) of %s still open: %s", len(ids), ev.Phase, strings.Join(ids, ", "))
		}
	}
	what := ev.Phase
	if ev.Requirement != "" {
		what = ev.Requirement
	}
	if ev.Step == session.StepNotApplicable || ev.Step == session.StepCondition {
		pending := ""
		if marks, err := e.NotApplicableMarks(ctx, ev.SessionID); err == nil {
			for _, mk := range session.PendingNA(marks) {
				if mk.Phase == ev.Phase && mk.Requirement == ev.Requirement {
					pending = " No machine can check that it does not apply: the mark waits for a person's acceptance (sessiongate session accept-na), and the session is not clean until then."
				}
			}
		}
		return &mcp.CallToolResult{Content: textContent("Recorded %s as not applicable (%s).%s%s Next: %s.", what, ev.Ref, pending, warningsText(ev.Warnings), out.Next)}, out, nil
	}
	return &mcp.CallToolResult{Content: textContent("Recorded claimed %s evidence for %s (%s, sha256 %s); commands sessiongate sees run through the agent's hooks are recorded as observed evidence, which outranks claims.%s Next: %s.", ev.Kind, what, ev.Ref, shortSHA(ev.SHA256), warningsText(ev.Warnings), out.Next)}, out, nil
}

func (m *handlers) sessionEnd(ctx context.Context, _ *mcp.CallToolRequest, in SessionEndInput) (*mcp.CallToolResult, *session.EndResult, error) {
	e, err := m.engine()
	if err != nil {
		return nil, nil, err
	}
	if m.opts.BeforeEnd != nil {
		m.opts.BeforeEnd(ctx)
	}
	res, err := e.End(ctx, session.EndRequest{ID: in.SessionID, Summary: in.Summary, NextNotes: in.NextSessionNotes, SkipQA: in.SkipQA})
	if err != nil {
		return nil, nil, m.toolError(ctx, "session_end", in.SessionID, err)
	}
	if res.Gates == nil {
		res.Gates = []session.GateResult{}
	}
	var b strings.Builder
	if res.Ended {
		// The verdict `session end` prints: a COMPLETE with a skipped or
		// vacuous mandatory gate, or a violation, is not clean here either.
		if v, err := e.View(ctx, res.SessionID); err == nil {
			res.Verdict = session.Verdict(v)
		}
		fmt.Fprintf(&b, "Session %s complete at %s.", res.SessionID, shortSHA(res.EndCommit))
		if res.Verdict != "" {
			fmt.Fprintf(&b, " Verdict: %s.", res.Verdict)
		}
	} else {
		fmt.Fprintf(&b, "Session %s not ended (%s).", res.SessionID, res.State)
	}
	if res.Blocked != nil {
		fmt.Fprintf(&b, " Blocked by %s gate %s: %s.", res.Blocked.Level, res.Blocked.Phase, res.Blocked.Reason)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, " Warning: %s.", w)
	}
	fmt.Fprintf(&b, " Next: %s.", res.Next)
	return &mcp.CallToolResult{IsError: !res.Ended, Content: textContent("%s", b.String())}, res, nil
}

func (m *handlers) blockedReason(ctx context.Context, _ *mcp.CallToolRequest, in SessionIDInput) (*mcp.CallToolResult, *session.BlockedReport, error) {
	e, err := m.engine()
	if err != nil {
		return nil, nil, err
	}
	rep, err := e.BlockedReason(ctx, in.SessionID)
	if err != nil {
		return nil, nil, m.toolError(ctx, "get_blocked_reason", in.SessionID, err)
	}
	var b strings.Builder
	if rep.IsBlocked {
		fmt.Fprintf(&b, "Blocked (%s", rep.State)
		if rep.Phase != "" {
			fmt.Fprintf(&b, " at %s", rep.Phase)
		}
		b.WriteString(").")
		for _, p := range rep.BlockedPhases {
			fmt.Fprintf(&b, " %s (%s): %s", p.Phase, p.Level, p.Reason)
			if len(p.EvidenceNeeded) > 0 {
				fmt.Fprintf(&b, "; needs %s", strings.Join(p.EvidenceNeeded, "; "))
			}
			b.WriteString(".")
		}
	} else {
		fmt.Fprintf(&b, "Not blocked (%s).", rep.State)
	}
	if len(rep.SuggestedActions) > 0 {
		fmt.Fprintf(&b, " Next: %s.", strings.Join(rep.SuggestedActions, "; "))
	}
	b.WriteString(warningsText(rep.Warnings))
	return &mcp.CallToolResult{Content: textContent("%s", b.String())}, rep, nil
}

func shortSHA(sha string) string {
	if sha == "" {
		return "(no commit)"
	}
	return shorten.SHA(sha)
}

func oneLine(s string) string { return shorten.Line(s, 200, "...") }
