package claudesettings

import "testing"

func TestMatches(t *testing.T) {
	for _, c := range []struct {
		matcher, tool string
		want          bool
	}{
		{"", "Agent", true},
		{"*", "Agent", true},
		{"Bash", "Bash", true},
		{"Bash", "BashOutput", false}, // an exact name
		{"Write|Edit", "Edit", true},
		{"Write|Edit", "NotebookEdit", false},          // still a list of exact names
		{"Write|Edit|mcp__.*", "NotebookEdit", true},   // a regex: unanchored
		{"Write|Edit|mcp__.*", "mcp__serena__x", true}, // the MCP part
		{"Bash|^Agent$|^Task$|mcp__.*", "Agent", true},
		{"Bash|^Agent$|^Task$|mcp__.*", "TaskCreate", false},
		{"Bash|^Agent$|^Task$|mcp__.*", "Task", true},
		{"Write|Edit|MultiEdit|NotebookEdit|Bash|mcp__.*", "Agent", false},
		{"mcp__lab", "mcp__lab__x", false}, // exact: the server prefix alone matches no tool
		{"(", "Agent", false},              // does not compile
	} {
		if got := Matches(c.matcher, c.tool); got != c.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", c.matcher, c.tool, got, c.want)
		}
	}
}

func TestRoutes(t *testing.T) {
	const ours = "sessiongate agent-hook "
	settings := `{
  // a comment, as Claude Code allows
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "other-tool check"}]},
      {"matcher": "Write|Edit|Bash|^Agent$|^Task$|mcp__.*", "hooks": [{"type": "command", "command": "sessiongate agent-hook claude PreToolUse", "timeout": 10}]},
    ],
    "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "sessiongate agent-hook claude PostToolUse"}]}]
  }
}`
	for _, c := range []struct {
		settings, event, tool string
		want                  bool
	}{
		{settings, "PreToolUse", "Agent", true},
		{settings, "PreToolUse", "mcp__serena__activate_project", true},
		{settings, "PreToolUse", "Read", false},
		{settings, "PostToolUse", "Agent", false},
		{`{"hooks": {"PreToolUse": [{"matcher": "Agent", "hooks": [{"type": "command", "command": "other-tool"}]}]}}`, "PreToolUse", "Agent", false},
		{`{"hooks": {"PreToolUse": [{"hooks": [{"command": "sessiongate agent-hook claude PreToolUse"}]}]}}`, "PreToolUse", "Agent", true},
		{`not json`, "PreToolUse", "Agent", false},
		{``, "PreToolUse", "Agent", false},
	} {
		if got := Routes([]byte(c.settings), c.event, c.tool, ours); got != c.want {
			t.Errorf("Routes(%.40q, %s, %s) = %v, want %v", c.settings, c.event, c.tool, got, c.want)
		}
	}
}
