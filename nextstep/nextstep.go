// Package nextstep says what a caller can do next, as data: record a piece
// of evidence, run a check where sessiongate sees it, check a gate again,
// advance, end. The engine decides which steps a blocked gate or session
// needs (session/nextstep.go); each caller (CLI, MCP, hooks, dashboard)
// renders them in its own terms. What a requirement's evidence is (a file
// to write, a file to read and hash, a note) and what a check needs in
// words are read from the protocol alone: no session.
package nextstep

import (
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
)

// Action is what a next step asks the caller to do. The engine says what
// to do; each caller says how: the CLI names its commands and flags, MCP
// its tools and arguments.
type Action string

// Step actions.
const (
	RecordEvidence Action = "record_evidence" // record evidence for Phase (EvidenceType, Requirement, Value)
	RunObserved    Action = "run"             // run the check's command through sessiongate (observed evidence)
	CheckGate      Action = "check_gate"      // check Phase's gate again
	Advance        Action = "advance"         // move on (to Target when set)
	End            Action = "end"             // end the session with a summary
	BlockedReason  Action = "blocked_reason"  // ask why the session is blocked
	Start          Action = "start"           // start a session
	// UseTool asks the agent for a tool call its transcript will show
	// (Value says which: "read docs/guide.md with the Read tool").
	UseTool Action = "use_tool"
	// NotApplicable asks to mark Requirement (or Phase) not applicable
	// with the reason, where sessiongate checked it does not apply (an
	// MCP server configured nowhere): a claim would be refused.
	NotApplicable Action = "not_applicable"
)

// Step is one thing the caller can do next, as data.
type Step struct {
	Action       Action `json:"action"`
	Phase        string `json:"phase,omitempty"`
	EvidenceType string `json:"evidence_type,omitempty"`
	Requirement  string `json:"requirement,omitempty"`
	Target       string `json:"target,omitempty"`
	// Value is the evidence to give when it is known (a path for content_hash).
	Value string `json:"value,omitempty"`
	// Why says what the step achieves, in words every interface shares.
	Why string `json:"why,omitempty"`
}

// MCP renders the step as the MCP tool call that does it.
func (s Step) MCP() string {
	switch s.Action {
	case RecordEvidence:
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
	case RunObserved:
		if s.Requirement != "" {
			return "run the command through `sessiongate run --requirement " + s.Requirement + " -- COMMAND` (observed evidence)"
		}
		return "run the command through `sessiongate run --phase " + s.Phase + " -- COMMAND` (observed evidence)"
	case CheckGate:
		return "validate_gate phase=" + s.Phase
	case Advance:
		if s.Target != "" {
			return "advance_phase target_phase=" + s.Target
		}
		return "advance_phase"
	case End:
		return "session_end with a summary"
	case BlockedReason:
		return "get_blocked_reason"
	case Start:
		return "session_start"
	case UseTool:
		return s.Value
	case NotApplicable:
		if s.Requirement != "" {
			return "record_evidence requirement=" + s.Requirement + " not_applicable=true evidence=\"REASON\""
		}
		return "record_evidence phase=" + s.Phase + " not_applicable=true evidence=\"REASON\""
	}
	return string(s.Action)
}

// Render joins steps rendered by render, each after its Why.
func Render(steps []Step, render func(Step) string) string {
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

// MaxFixes is how many fixes a blocked gate's message lists before "and N
// more": enough for the usual phase, short of a wall of text.
const MaxFixes = 3

// Cap keeps the first MaxFixes of steps and, for the rest, a step pointing
// to the status that lists every one ("and N more").
func Cap(steps []Step, phase string) []Step {
	if len(steps) <= MaxFixes {
		return steps
	}
	n := len(steps) - MaxFixes
	return append(steps[:MaxFixes:MaxFixes], Step{Action: BlockedReason, Phase: phase, Why: fmt.Sprintf("and %d more", n)})
}

// RequirementFix is the evidence that meets requirement r of phase p, of a
// kind the engine takes for it: a write requirement refuses a note (it
// wrote nothing), so its step is the file it asks for; a read one the read
// file's hash; anything else a manual note. Every hint (CLI, MCP, agent
// hooks) is rendered from it, so none names evidence that is then refused.
func RequirementFix(p *protocolspec.Phase, r protocolspec.Requirement) Step {
	step := Step{Action: RecordEvidence, Phase: p.ID, Requirement: r.ID, EvidenceType: protocolspec.EvidenceManual}
	if targets := toolneed.Writes(p, r); len(targets) > 0 {
		step.EvidenceType = protocolspec.EvidenceFilePath
		step.Value, step.Why = fileOf(targets[0], "write")
		return step
	}
	if toolneed.Of(r) == toolneed.Read {
		step.EvidenceType = protocolspec.EvidenceContentHash
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

// Need says in words what one check of phase p needs to pass (a blocked
// phase's "evidence needed", the hooks' block messages).
func Need(p *protocolspec.Phase, kind protocolspec.CheckKind, arg string) string {
	switch kind {
	case protocolspec.CheckFileExists:
		return "a file matching " + arg
	case protocolspec.CheckChangedSinceStart:
		return arg + " changed since the session started"
	case protocolspec.CheckContentHash:
		return "content_hash evidence for " + arg
	case protocolspec.CheckCommand:
		return "command passes: " + arg
	case protocolspec.CheckCommitSinceStart:
		return "a commit since the session started"
	case protocolspec.CheckCleanWorktree:
		return "a clean work tree"
	case protocolspec.CheckEvidence:
		return arg + " evidence for " + p.ID
	case protocolspec.CheckMustEvidence:
		owed := p.OwedRequirements()
		if len(owed) == 0 {
			return "one piece of evidence for " + p.ID
		}
		ids := make([]string, len(owed))
		for i, r := range owed {
			ids[i] = r.ID
		}
		return "evidence for each requirement of " + p.ID + " (by requirement id; a conditional one may be recorded as not applicable with a reason): " + strings.Join(ids, ", ")
	}
	return string(kind) + " " + arg
}
