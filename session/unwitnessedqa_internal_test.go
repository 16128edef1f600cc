package session

import (
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestHookAgent: the agent whose hooks observed the shell decides whether
// a sub-agent's QA run can be seen (unwitnessedDelegateQA): Claude Code's
// transcript shows it; under Codex, Copilot or Gemini only an observed
// test run proves QA; with no hooks (the CLI, `sessiongate run`, claims)
// nothing changes.
func TestHookAgent(t *testing.T) {
	obs := func(src string) Evidence { return Evidence{Origin: OriginObserved, Source: src} }
	for _, c := range []struct {
		name string
		evs  []Evidence
		want string
	}{
		{"none", nil, ""},
		{"sessiongate run only", []Evidence{obs(SourceRun)}, ""},
		{"a claim named codex", []Evidence{{Origin: OriginClaimed, Source: "codex"}}, ""},
		{"codex", []Evidence{obs(SourceRun), obs("codex")}, "codex"},
		{"copilot", []Evidence{obs("copilot")}, "copilot"},
		{"claude", []Evidence{obs("claude")}, "claude"},
	} {
		if got := hookAgent(c.evs); got != c.want {
			t.Errorf("%s: hookAgent = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestShellReadOf: an observed `cat F` meets a read requirement naming F
// (the Copilot CLI leaves no transcript to show the read; round 25, c4,
// TestCopilotHonestV1222Task); output sent elsewhere, another file, or a
// requirement that asks no read does not.
func TestShellReadOf(t *testing.T) {
	read := protocolspec.Requirement{Text: "The agent MUST read `.agents/governance/PROJECT-CONSTRAINTS.md`"}
	other := protocolspec.Requirement{Text: "The agent MUST document available skills in session log"}
	for _, c := range []struct {
		r    protocolspec.Requirement
		cmd  string
		want bool
	}{
		{read, "cat .agents/governance/PROJECT-CONSTRAINTS.md", true},
		{read, "head -50 ./.agents/governance/PROJECT-CONSTRAINTS.md", true},
		{read, "cd .agents && cat governance/PROJECT-CONSTRAINTS.md", true},
		{read, "cat .agents/governance/PROJECT-CONSTRAINTS.md > /dev/null", false},
		{read, "cat .agents/HANDOFF.md", false},
		{read, "cat ../x/.agents/governance/PROJECT-CONSTRAINTS.md", false},
		{other, "cat .agents/governance/PROJECT-CONSTRAINTS.md", false},
		// Round 25 second review (c9): lines that print none of the file.
		{read, "tail -n 0 .agents/governance/PROJECT-CONSTRAINTS.md", false},
		{read, "sed -n '$=' .agents/governance/PROJECT-CONSTRAINTS.md", false},
		{read, "sed d .agents/governance/PROJECT-CONSTRAINTS.md", false},
		{read, "sed -n '1,120p' .agents/governance/PROJECT-CONSTRAINTS.md", true},
	} {
		if got := shellReadOf(c.cmd, c.r); got != c.want {
			t.Errorf("shellReadOf(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}
