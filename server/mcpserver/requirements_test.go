package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sessiongate/sessiongate/server/mcpserver"
	"github.com/sessiongate/sessiongate/session"
)

// requirementsProtocol's start phase owes evidence per requirement.
const requirementsProtocol = `# P

## Session Start

### Phase 1: Skill Validation (BLOCKING)

1. The agent MUST verify the skills directory exists
2. If the serena MCP is not available, the agent MUST read the memory file

## Session End

### Phase 1: Git Operations (REQUIRED)

- The agent MUST commit.
`

// TestMCPEvidenceForRequirements: requirement ids reach the agent through
// session_start's checklist and get_blocked_reason; record_evidence names
// them (requirement, not_applicable); bad input is isError and records
// nothing.
func TestMCPEvidenceForRequirements(t *testing.T) {
	transports(t, func(t *testing.T, f *mcpFixture, cs *mcp.ClientSession) {
		if err := os.WriteFile(filepath.Join(f.root, "SESSION-PROTOCOL.md"), []byte(requirementsProtocol), 0o644); err != nil {
			t.Fatal(err)
		}
		// serena is configured, so "if the serena MCP is not available" can
		// be marked not applicable (the machine checks it since issue 25.4).
		if err := os.WriteFile(filepath.Join(f.root, ".mcp.json"), []byte(`{"mcpServers":{"serena":{"command":"serena"}}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		const dir, cond = "SKILL_VALIDATION.verify-skills-directory-exists", "SKILL_VALIDATION.serena-mcp-not-available"
		start := mcpOK[session.StartResult](t, cs, "session_start", map[string]any{"objective": "requirements"})
		id := start.SessionID
		if rl := start.Checklist[0].RequirementList; len(rl) != 2 || rl[0].ID != dir || rl[1].ID != cond || !rl[1].Conditional || rl[0].Status != session.ReqOpen {
			t.Fatalf("checklist requirement list %+v", rl)
		}
		why := mcpOK[session.BlockedReport](t, cs, "get_blocked_reason", map[string]any{"session_id": id})
		if len(why.BlockedPhases) == 0 || len(why.BlockedPhases[0].OpenRequirements) != 2 || !strings.Contains(strings.Join(why.SuggestedActions, "\n"), cond) {
			t.Fatalf("get_blocked_reason lacks the open ids: %+v", why)
		}
		count := func() int {
			evs, err := f.db.ListEvidence(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			return len(evs)
		}
		ev := func(extra map[string]any) map[string]any {
			m := map[string]any{"session_id": id, "phase": "SKILL_VALIDATION", "evidence_type": "tool_output"}
			for k, v := range extra {
				m[k] = v
			}
			return m
		}
		for _, c := range []struct {
			name string
			args map[string]any
			want string
		}{
			{"naming none while two are open", ev(map[string]any{"evidence": "drwxr-xr-x skills"}), "2 are open"},
			{"unknown requirement", ev(map[string]any{"evidence": "drwxr-xr-x skills", "requirement": "SKILL_VALIDATION.nope"}), "unknown requirement"},
			{"requirement of another phase", ev(map[string]any{"evidence": "abc", "requirement": "GIT_OPERATIONS.commit"}), "belongs to phase GIT_OPERATIONS"},
			{"not applicable on an unconditional MUST, a reason that says nothing", ev(map[string]any{"evidence": "no skills here", "requirement": dir, "not_applicable": true, "evidence_type": "manual"}), "says nothing"},
			{"failing output", ev(map[string]any{"evidence": "ls: cannot access '.claude/skills': No such file or directory\nexit status 2", "requirement": dir}), "not evidence of success"},
			{"padding", ev(map[string]any{"evidence": "N/A", "requirement": dir}), "is a placeholder"},
		} {
			before := count()
			res := mcpCall(t, cs, "record_evidence", c.args)
			if !res.IsError || !strings.Contains(mcpText(res), c.want) {
				t.Fatalf("%s: isError %v %q, want %q", c.name, res.IsError, mcpText(res), c.want)
			}
			if count() != before {
				t.Fatalf("%s: refused evidence was recorded", c.name)
			}
		}
		out := mcpOK[mcpserver.RecordEvidenceOutput](t, cs, "record_evidence", ev(map[string]any{"evidence": "drwxr-xr-x .claude/skills (12 files)", "requirement": dir}))
		if out.Requirement != dir || len(out.OpenRequirements) != 1 || out.OpenRequirements[0].ID != cond || !strings.Contains(out.Next, cond) {
			t.Fatalf("record_evidence result %+v", out)
		}
		na := mcpOK[mcpserver.RecordEvidenceOutput](t, cs, "record_evidence", ev(map[string]any{"evidence": "the serena MCP answered, so the memory was read through it", "requirement": "serena-mcp-not-available", "not_applicable": true, "evidence_type": "manual"}))
		if na.Step != session.StepNotApplicable || na.Requirement != cond || len(na.OpenRequirements) != 0 {
			t.Fatalf("not_applicable result %+v", na)
		}
		adv := mcpOK[session.AdvanceResult](t, cs, "advance_phase", map[string]any{"session_id": id})
		if !adv.Advanced || adv.To != session.PosWorking {
			t.Fatalf("advance after every requirement is met: %+v", adv)
		}
		// Every refusal above is the caller's to fix: none reaches the
		// operator's log as an internal error.
		if strings.Contains(f.logs.String(), "level=ERROR") {
			t.Errorf("a caller's mistake was logged as an internal error:\n%s", f.logs.String())
		}
	})
}
