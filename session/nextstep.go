package session

import (
	"strings"

	"github.com/sessiongate/sessiongate/nextstep"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// The next steps, as data, are nextstep's: these names alias them (the
// CLI, MCP server, hooks and dashboard use them). Which steps a failing
// check needs is decided here, from the gate's CheckResult.
type (
	StepAction = nextstep.Action
	NextStep   = nextstep.Step
)

// Step actions.
const (
	StepRecordEvidence = nextstep.RecordEvidence
	StepRunObserved    = nextstep.RunObserved
	StepCheckGate      = nextstep.CheckGate
	StepAdvance        = nextstep.Advance
	StepEnd            = nextstep.End
	StepBlockedReason  = nextstep.BlockedReason
	StepStart          = nextstep.Start
	StepUseTool        = nextstep.UseTool
	StepMarkNA         = nextstep.NotApplicable
)

// RenderSteps joins steps rendered by render, each after its Why.
func RenderSteps(steps []NextStep, render func(NextStep) string) string {
	return nextstep.Render(steps, render)
}

// MaxGateFixes is how many fixes a blocked gate's message lists before
// "and N more".
const MaxGateFixes = nextstep.MaxFixes

// CapFixes keeps the first MaxGateFixes of steps and a step pointing to
// the rest (nextstep.Cap).
func CapFixes(steps []NextStep, phase string) []NextStep { return nextstep.Cap(steps, phase) }

// RequirementFix is the evidence that meets requirement r of phase p, of a
// kind the engine takes for it (nextstep.RequirementFix).
func RequirementFix(p *protocolspec.Phase, r protocolspec.Requirement) NextStep {
	return nextstep.RequirementFix(p, r)
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

func orAny(k string) string {
	if k == "" {
		return "any"
	}
	return k
}
