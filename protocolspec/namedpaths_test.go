package protocolspec

import (
	"slices"
	"testing"
)

func TestRequirementNamedPaths(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"The agent MUST verify .claude/skills/ directory exists", []string{".claude/skills/**"}},
		{"The agent MUST read .agents/governance/PROJECT-CONSTRAINTS.md", []string{".agents/governance/PROJECT-CONSTRAINTS.md"}},
		{"The agent MUST create a session log file at .agents/sessions/YYYY-MM-DD-session-NN.md", []string{".agents/sessions/*-*-*-session-*.md"}},
		{"The agent MUST document available skills in session log under \"Skill Inventory\"", nil},
		{"The agent MUST read the skill-usage-mandatory memory using mcp__serena__read_memory with memory_file_name=\"skill-usage-mandatory\"", nil},
		{"The agent MUST follow https://example.com/a/b.md and e.g. the README", nil},
	} {
		got := Requirement{Text: c.text}.NamedPaths()
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.text, got, c.want)
		}
	}
}
