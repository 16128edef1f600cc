package session

import (
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
)

// StepAction is what a next step asks the caller to do. The engine says
// what to do; each caller (CLI, MCP, hooks, dashboard) says how in its own
// terms: the CLI names its commands and flags, MCP its tools and arguments.
type StepAction string

// Step actions.
const (
	StepRecordEvidence StepAction = "record_evidence" // record evidence for Phase (EvidenceType, Requirement, Value)
	StepRunObserved    StepAction = "run"             // run the check's command through sessiongate (observed evidence)
	StepCheckGate      StepAction = "check_gate"      // check Phase's gate again
	StepAdvance        StepAction = "advance"         // move on (to Target when set)
	StepEnd            StepAction = "end"             // end the session with a summary
	StepBlockedReason  StepAction = "blocked_reason"  // ask why the session is blocked
	StepStart          StepAction = "start"           // start a session
	// StepUseTool asks the agent for a tool call its transcript will show
	// (Value says which: "read docs/guide.md with the Read tool").
	StepUseTool StepAction = "use_tool"
)

// NextStep is one thing the caller can do next, as data.
type NextStep struct {
	Action       StepAction `json:"action"`
	Phase        string     `json:"phase,omitempty"`
	EvidenceType string     `json:"evidence_type,omitempty"`
	Requirement  string     `json:"requirement,omitempty"`
	Target       string     `json:"target,omitempty"`
	// Value is the evidence to give when it is known (a path for content_hash).
	Value string `json:"value,omitempty"`
	// Why says what the step achieves, in words every interface shares.
	Why string `json:"why,omitempty"`
}

// MCP renders the step as the MCP tool call that does it.
func (s NextStep) MCP() string {
	switch s.Action {
	case StepRecordEvidence:
		var b strings.Builder
		b.WriteString("record_evidence")
		if s.Phase != "" {
			b.WriteString(" phase=" + s.Phase)
		}
		if s.Requirement != "" {
			b.WriteString(" requirement=" + s.Requirement)
		}
		if s.EvidenceType != "" {
			b.WriteString(" evidence_type=" + s.EvidenceType)
		}
		if s.Value != "" {
			fmt.Fprintf(&b, " evidence=%q", s.Value)
		}
		return b.String()
	case StepRunObserved:
		if s.Requirement != "" {
			return "run the command through `sessiongate run --requirement " + s.Requirement + " -- COMMAND` (observed evidence)"
		}
		return "run the command through `sessiongate run --phase " + s.Phase + " -- COMMAND` (observed evidence)"
	case StepCheckGate:
		return "validate_gate phase=" + s.Phase
	case StepAdvance:
		if s.Target != "" {
			return "advance_phase target_phase=" + s.Target
		}
		return "advance_phase"
	case StepEnd:
		return "session_end with a summary"
	case StepBlockedReason:
		return "get_blocked_reason"
	case StepStart:
		return "session_start"
	case StepUseTool:
		return s.Value
	}
	return string(s.Action)
}

// RenderSteps joins steps rendered by render, each after its Why.
func RenderSteps(steps []NextStep, render func(NextStep) string) string {
	var parts []string
	for _, s := range steps {
		r := render(s)
		if s.Why != "" {
			r = s.Why + ": " + r
		}
		parts = append(parts, r)
	}
	return strings.Join(parts, "; ")
}

// fixFor is the step that would make a failing check pass, or nil when
// there is nothing to record (fix the work and check again).
func fixFor(p *protocolspec.Phase, cr CheckResult) *NextStep {
	phase := p.ID
	if cr.Status != StatusFail {
		return nil
	}
	if len(cr.Open) > 0 && (cr.Open[0].tool != "" || cr.Kind == protocolspec.CheckMustEvidence) {
		step := openFix(p, cr.Open[0])
		return &step
	}
	switch cr.Kind {
	case protocolspec.CheckEvidence:
		if strings.HasPrefix(cr.Message, "no ") {
			return &NextStep{Action: StepRecordEvidence, Phase: phase, EvidenceType: orKind(orAny(cr.Arg))}
		}
		return &NextStep{Action: StepRunObserved, Phase: phase}
	case protocolspec.CheckMustEvidence:
		return &NextStep{Action: StepRecordEvidence, Phase: phase, EvidenceType: EvidenceManual}
	case protocolspec.CheckContentHash:
		return &NextStep{Action: StepRecordEvidence, Phase: phase, EvidenceType: EvidenceContentHash, Value: cr.Arg}
	}
	return nil
}

// openFix is the step that meets one open requirement: the tool call
// when the agent's transcript decides, a run when only an observed run
// counts, else RequirementFix.
func openFix(p *protocolspec.Phase, o RequirementStatus) NextStep {
	switch {
	case o.tool != "":
		return NextStep{Action: StepUseTool, Phase: p.ID, Requirement: o.ID, Value: o.tool}
	case o.observed:
		return NextStep{Action: StepRunObserved, Phase: p.ID, Requirement: o.ID}
	}
	if r, ok := p.Requirement(o.ID); ok {
		return RequirementFix(p, r)
	}
	return NextStep{Action: StepRecordEvidence, Phase: p.ID, Requirement: o.ID, EvidenceType: EvidenceManual}
}

// fixesFor is the fix of every open requirement of a failing check, in
// the check's (the protocol's) order; nil when Fix alone says it.
func fixesFor(p *protocolspec.Phase, cr CheckResult) []NextStep {
	if cr.Status != StatusFail || len(cr.Open) < 2 {
		return nil
	}
	out := make([]NextStep, 0, len(cr.Open))
	for _, o := range cr.Open {
		out = append(out, openFix(p, o))
	}
	return out
}

// MaxGateFixes is how many fixes a blocked gate's message lists before
// "and N more": enough for the usual phase, short of a wall of text.
const MaxGateFixes = 3

// CapFixes keeps the first MaxGateFixes of steps and, for the rest, a
// step pointing to the status that lists every one ("and N more").
func CapFixes(steps []NextStep, phase string) []NextStep {
	if len(steps) <= MaxGateFixes {
		return steps
	}
	n := len(steps) - MaxGateFixes
	return append(steps[:MaxGateFixes:MaxGateFixes], NextStep{Action: StepBlockedReason, Phase: phase, Why: fmt.Sprintf("and %d more", n)})
}

func orAny(k string) string {
	if k == "" {
		return "any"
	}
	return k
}

// RequirementFix is the evidence that meets requirement r of phase p, of a
// kind the engine takes for it: a write requirement refuses a note (it
// wrote nothing), so its step is the file it asks for; a read one the read
// file's hash; anything else a manual note. Every hint (CLI, MCP, agent
// hooks) is rendered from it, so none names evidence that is then refused.
func RequirementFix(p *protocolspec.Phase, r protocolspec.Requirement) NextStep {
	step := NextStep{Action: StepRecordEvidence, Phase: p.ID, Requirement: r.ID, EvidenceType: EvidenceManual}
	if targets := toolneed.Writes(p, r); len(targets) > 0 {
		step.EvidenceType = EvidenceFilePath
		step.Value, step.Why = fileOf(targets[0], "write")
		return step
	}
	if toolneed.Of(r) == toolneed.Read {
		step.EvidenceType = EvidenceContentHash
		step.Value, step.Why = fileOf(r.NamedPaths()[0], "read")
	}
	return step
}

// fileOf is the value a path step gives for g, and what to do first: a
// glob or a folder names no one file, so the value is left to the caller
// (one file it matches).
func fileOf(g, verb string) (value, why string) {
	if dir, ok := strings.CutSuffix(g, "/**"); ok {
		return "", verb + " a file under " + dir + "/"
	}
	if strings.ContainsAny(g, "*?[") {
		return "", verb + " a file matching " + g
	}
	return g, verb + " " + g
}
