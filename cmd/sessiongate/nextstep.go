package main

import (
	"fmt"

	"github.com/sessiongate/sessiongate/session"
)

// cliStep renders an engine's next step as the sessiongate command that
// does it (the engine's own text speaks MCP).
func cliStep(s session.NextStep) string {
	switch s.Action {
	case session.StepRecordEvidence:
		cmd := "sessiongate session evidence"
		if s.Requirement != "" {
			cmd += " --requirement " + s.Requirement
		} else if s.Phase != "" {
			cmd += " --phase " + s.Phase
		}
		if s.EvidenceType != "" {
			cmd += " --type " + s.EvidenceType
		}
		switch {
		case s.Value != "":
			cmd += " --value " + shellQuote(s.Value)
		case s.EvidenceType == session.EvidenceToolOutput:
			cmd += " --value - < OUTPUT"
		case s.EvidenceType == session.EvidenceFilePath || s.EvidenceType == session.EvidenceContentHash:
			cmd += " --value FILE" // one file a glob matches (Why names it)
		default:
			cmd += ` --value "..."`
		}
		return cmd
	case session.StepRunObserved:
		if s.Requirement != "" {
			return "sessiongate run --requirement " + s.Requirement + " -- COMMAND"
		}
		return "sessiongate run --phase " + s.Phase + " -- COMMAND"
	case session.StepCheckGate:
		return "sessiongate session gate --phase " + s.Phase
	case session.StepAdvance:
		if s.Target != "" {
			return "sessiongate session advance --to " + s.Target
		}
		return "sessiongate session advance"
	case session.StepEnd:
		return `sessiongate session end --summary "..."`
	case session.StepBlockedReason:
		return "sessiongate session status"
	case session.StepStart:
		return `sessiongate session start --objective "..."`
	case session.StepUseTool:
		return s.Value
	case session.StepMarkNA:
		if s.Requirement != "" {
			return `sessiongate session evidence --requirement ` + s.Requirement + ` --not-applicable "..."`
		}
		return `sessiongate session evidence --phase ` + s.Phase + ` --not-applicable "..."`
	}
	return string(s.Action)
}

// shellQuote quotes a value for a copy-pasted command line when needed.
func shellQuote(v string) string {
	for _, r := range v {
		if !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return fmt.Sprintf("%q", v)
		}
	}
	return v
}

// cliNext renders next steps for the CLI, falling back to the engine's
// text when it gave none.
func cliNext(steps []session.NextStep, fallback string) string {
	if len(steps) == 0 {
		return fallback
	}
	return session.RenderSteps(steps, cliStep)
}
