package session_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// delegateProtocol asks for a sub-agent as the real 2025-12-22 protocol
// does ("MUST invoke the qa agent", with Claude Code's call beside it).
const delegateProtocol = "# Session Protocol\n\n## Session Start\n\n### Phase 1: Orientation (BLOCKING)\n\n" +
	"1. The agent MUST invoke the qa agent after completing feature implementation:\n\n" +
	"   ```python\n   Task(subagent_type=\"qa\", prompt=\"Validate [feature name]\")\n   ```\n\n" +
	"2. The agent MUST wait for QA validation to complete\n\n" +
	"## Session End\n\n### Phase 1: Wrap Up (REQUIRED)\n\n1. The agent MUST summarize the session.\n"

const txReqQA = "ORIENTATION.invoke-qa-after-completing"

// TestTranscriptDelegation: while Claude Code's transcript is known, a
// requirement to invoke a sub-agent is met only by the agent's call of
// that sub-agent (the Agent tool, or Task before Claude Code 2.1), never
// by a claim or by any file (the real protocol's QA gate was met by any
// file). Where no such sub-agent is defined the call cannot be made, and
// claims count as before.
func TestTranscriptDelegation(t *testing.T) {
	requireGit(t)
	agent := func(tool, typ string) string {
		return fmt.Sprintf(`{"description":"Validate the change","prompt":"Validate the feature","subagent_type":%q}`, typ)
	}
	yes, no := true, false
	tests := []struct {
		name    string
		defined bool // .claude/agents/qa.md is in the repository
		bind    bool
		after   string
		status  string
		reason  string
		claimOK *bool
	}{
		{"no transcript: claims as before", true, false, "", session.ReqOpen, "no evidence", &yes},
		{"the qa sub-agent ran", true, true, claudeLines("a1", "Agent", agent("Agent", "qa"), "QA passed: 12 checks", false), session.ReqMet, "Agent qa (call a1)", nil},
		{"Task, the tool's name before 2.1", true, true, claudeLines("a1", "Task", agent("Task", "qa"), "QA passed", false), session.ReqMet, "Task qa (call a1)", nil},
		{"no sub-agent ran: a claim is refused", true, true, "", session.ReqOpen, "shows no run of the qa sub-agent", &no},
		{"another sub-agent ran", true, true, claudeLines("a1", "Agent", agent("Agent", "general-purpose"), "done", false), session.ReqOpen, "shows no run of the qa sub-agent", &no},
		{"the qa sub-agent failed", true, true, claudeLines("a1", "Agent", agent("Agent", "qa"), "Agent type 'qa' not found", true), session.ReqOpen, "shows no run of the qa sub-agent", &no},
		{"no qa sub-agent defined: claims as before", false, true, "", session.ReqOpen, "no evidence", &yes},
		// The lazy way back to claims: delete the definition.
		{"the definition deleted during the session", true, true, "", session.ReqOpen, "shows no run of the qa sub-agent", &no},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, delegateProtocol)
			ctx := context.Background()
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir()) // no user agents
			if tt.defined {
				gittest.Write(t, e.root, ".claude/agents/qa.md", "---\nname: qa\ndescription: QA\n---\nValidate.\n")
				gittest.Git(t, e.root, "add", ".claude")
				gittest.Git(t, e.root, "commit", "-q", "-m", "qa agent")
			}
			gittest.Write(t, e.root, "qa-report.md", "# QA\n\nAll checks passed.\n")
			id := e.start("delegation")
			path := filepath.Join(t.TempDir(), "projects", "p", "s.jsonl")
			os.MkdirAll(filepath.Dir(path), 0o700)
			if tt.bind {
				if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
					t.Fatal(err)
				}
			}
			appendTo(t, path, tt.after)
			if strings.Contains(tt.name, "deleted") {
				os.RemoveAll(filepath.Join(e.root, ".claude", "agents"))
			}
			st := e.reqStatus(id, txReqQA)
			if st.Status != tt.status || !strings.Contains(st.Reason, tt.reason) {
				t.Fatalf("%s %q, want %s with %q", st.Status, st.Reason, tt.status, tt.reason)
			}
			if tt.claimOK == nil {
				return
			}
			err := e.claim(id, txReqQA, session.EvidenceManual, "I invoked the qa agent and it passed every check")
			if (err == nil) != *tt.claimOK {
				t.Fatalf("manual claim: %v, want accepted %v", err, *tt.claimOK)
			}
			if !*tt.claimOK {
				if err := e.claim(id, txReqQA, session.EvidenceFilePath, "qa-report.md"); err == nil || !strings.Contains(err.Error(), "Agent tool") {
					t.Fatalf("a file for the sub-agent requirement: %v, want refused naming the Agent tool", err)
				}
			}
		})
	}
}
