package nextstep

import (
	"os"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
	"github.com/sessiongate/sessiongate/protocolspec"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// startPhase is the start section every protocol needs.
const startPhase = "# P\n\n## Session Start\n\n### Phase 1: Context (BLOCKING)\n\n<!-- gate: evidence manual -->\n\n"

// TestMCP: each action as the MCP call that does it.
func TestMCP(t *testing.T) {
	for _, tt := range []struct {
		step Step
		want string
	}{
		{Step{Action: RecordEvidence, Phase: "QA", Requirement: "QA-1", EvidenceType: "content_hash", Value: "docs/a.md"}, `record_evidence phase=QA requirement=QA-1 evidence_type=content_hash evidence="docs/a.md"`},
		{Step{Action: RecordEvidence, Phase: "QA"}, "record_evidence phase=QA"},
		{Step{Action: RunObserved, Phase: "QA"}, "run the command through `sessiongate run --phase QA -- COMMAND` (observed evidence)"},
		{Step{Action: RunObserved, Phase: "QA", Requirement: "QA-2"}, "run the command through `sessiongate run --requirement QA-2 -- COMMAND` (observed evidence)"},
		{Step{Action: CheckGate, Phase: "PLAN"}, "validate_gate phase=PLAN"},
		{Step{Action: Advance}, "advance_phase"},
		{Step{Action: Advance, Target: "WORKING"}, "advance_phase target_phase=WORKING"},
		{Step{Action: End}, "session_end with a summary"},
		{Step{Action: BlockedReason}, "get_blocked_reason"},
		{Step{Action: Start}, "session_start"},
		{Step{Action: UseTool, Value: "read docs/guide.md with the Read tool"}, "read docs/guide.md with the Read tool"},
		{Step{Action: "other"}, "other"},
	} {
		if got := tt.step.MCP(); got != tt.want {
			t.Errorf("%+v: MCP() = %q, want %q", tt.step, got, tt.want)
		}
	}
}

// TestRenderAndCap: Why before each rendered step; past MaxFixes one step
// says how many more and where they are listed.
func TestRenderAndCap(t *testing.T) {
	steps := []Step{{Action: CheckGate, Phase: "A", Why: "check"}, {Action: End}}
	if got, want := Render(steps, Step.MCP), "check: validate_gate phase=A; session_end with a summary"; got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
	for n := range 6 {
		in := make([]Step, n)
		got := Cap(in, "QA")
		switch {
		case n <= MaxFixes && len(got) != n:
			t.Errorf("Cap of %d: %d steps, want them all", n, len(got))
		case n > MaxFixes && (len(got) != MaxFixes+1 || got[MaxFixes].Action != BlockedReason || got[MaxFixes].Why != "and "+string(rune('0'+n-MaxFixes))+" more"):
			t.Errorf("Cap of %d: %+v, want %d and a blocked_reason step", n, got, MaxFixes)
		}
	}
}

// TestRequirementFix: a requirement to write a file is met by the file
// (a glob or folder names none, so no value), one to read a file by its
// hash, anything else by a note.
func TestRequirementFix(t *testing.T) {
	spec, err := protocolspec.Parse("P.md", []byte(startPhase+"## Session End\n\n### Phase 1: Handoff (REQUIRED)\n\n"+
		"1. You MUST write the handoff to `.agents/HANDOFF.md`.\n"+
		"2. You MUST read `docs/guide.md`.\n"+
		"3. You MUST write a session log under `.agents/sessions/`.\n"+
		"4. You MUST tell the user what changed.\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := &spec.Phases[1]
	if len(p.Requirements) != 4 {
		t.Fatalf("parsed %d requirements, want 4: %+v", len(p.Requirements), p.Requirements)
	}
	for i, want := range []struct{ kind, value, why string }{
		{protocolspec.EvidenceFilePath, ".agents/HANDOFF.md", "write .agents/HANDOFF.md"},
		{protocolspec.EvidenceContentHash, "docs/guide.md", "read docs/guide.md"},
		{protocolspec.EvidenceFilePath, "", "write a file under .agents/sessions/"},
		{protocolspec.EvidenceManual, "", ""},
	} {
		r := p.Requirements[i]
		got := RequirementFix(p, r)
		if got.Action != RecordEvidence || got.Phase != p.ID || got.Requirement != r.ID || got.EvidenceType != want.kind || got.Value != want.value || got.Why != want.why {
			t.Errorf("%s %q: %+v, want %s %q (%q)", r.ID, r.Text, got, want.kind, want.value, want.why)
		}
	}
}

// TestNeed: what each check kind needs, in words; a phase that owes
// evidence per requirement names them.
func TestNeed(t *testing.T) {
	p := &protocolspec.Phase{ID: "QA"}
	for _, tt := range []struct {
		kind protocolspec.CheckKind
		arg  string
		want string
	}{
		{protocolspec.CheckFileExists, "docs/*.md", "a file matching docs/*.md"},
		{protocolspec.CheckChangedSinceStart, "CHANGELOG.md", "CHANGELOG.md changed since the session started"},
		{protocolspec.CheckContentHash, "a.md", "content_hash evidence for a.md"},
		{protocolspec.CheckCommand, "go test ./...", "command passes: go test ./..."},
		{protocolspec.CheckCommitSinceStart, "", "a commit since the session started"},
		{protocolspec.CheckCleanWorktree, "", "a clean work tree"},
		{protocolspec.CheckEvidence, "tool_output", "tool_output evidence for QA"},
		{protocolspec.CheckMustEvidence, "", "one piece of evidence for QA"},
		{"future_kind", "x", "future_kind x"},
	} {
		if got := Need(p, tt.kind, tt.arg); got != tt.want {
			t.Errorf("Need(%s, %q) = %q, want %q", tt.kind, tt.arg, got, tt.want)
		}
	}
}

// TestNeedOwed: a phase that owes evidence per requirement names them.
func TestNeedOwed(t *testing.T) {
	spec, err := protocolspec.Parse("P.md", []byte(startPhase+"## Session End\n\n### Phase 1: QA (BLOCKING)\n\n1. You MUST run the tests.\n2. You MUST update the changelog.\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := &spec.Phases[1]
	got := Need(p, protocolspec.CheckMustEvidence, "")
	if len(p.OwedRequirements()) == 0 {
		t.Skipf("the phase owes nothing per requirement: %q", got)
	}
	for _, r := range p.OwedRequirements() {
		if !strings.Contains(got, r.ID) {
			t.Errorf("Need = %q, want it to name %s", got, r.ID)
		}
	}
}
