package toolneed

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestMCPToolsOnRealProtocols: the real team's protocols name serena's
// tools in exactly these requirements, and the server is serena.
func TestMCPToolsOnRealProtocols(t *testing.T) {
	want := map[string]string{
		"SERENA_INITIALIZATION.call-mcp-serena-activate": "mcp__serena__activate_project",
		"SERENA_INITIALIZATION.call-mcp-serena-initial":  "mcp__serena__initial_instructions",
		"SKILL_VALIDATION.read-skill-usage-mandatory":    "mcp__serena__read_memory",
		// 2025-12-22's "Session context MUST go to:" item (helper 363).
		"DOCUMENTATION_UPDATE.serena-memory-cross-session": "mcp__serena__write_memory",
	}
	seen := map[string]bool{}
	for _, f := range []string{"SESSION-PROTOCOL_2025-12-18_fd7d1d61d.md", "SESSION-PROTOCOL_2025-12-22_3821367d2.md"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "shared", "fixtures", "ai-agents", f))
		if err != nil {
			t.Fatalf("the real protocol in ../shared/fixtures: %v", err)
		}
		spec, err := protocolspec.Parse(f, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range spec.Phases {
			for _, r := range p.Requirements {
				tools, server := MCPTools(r)
				got := ""
				if len(tools) > 0 {
					got = tools[0]
					if server != "serena" {
						t.Errorf("%s: server %q, want serena", r.ID, server)
					}
				}
				if got != want[r.ID] {
					t.Errorf("%s %s (%q): tool %q, want %q", f, r.ID, r.Text, got, want[r.ID])
				}
				seen[r.ID] = seen[r.ID] || got != ""
			}
		}
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("%s: not found in the real protocols", id)
		}
	}
}
