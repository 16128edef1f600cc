package mcpconfig_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/mcpconfig"
)

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestR62H360ProjectConfigs: each agent's repository config is read with
// its own key (VS Code's "servers", Codex's [mcp_servers.X]); JSONC
// comments and trailing commas parse; a broken file is reported, not
// taken as configuring anything; a missing one is not an error.
func TestR62H360ProjectConfigs(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".mcp.json", `{"mcpServers":{"a":{}}}`)
	write(t, root, ".gemini/settings.json", "// c\n{\"mcpServers\":{\"b\":{},},}")
	write(t, root, ".vscode/mcp.json", `{"servers":{"c":{}},"mcpServers":{"not-vscode":{}}}`)
	write(t, root, ".codex/config.toml", "model = \"x\"\n[mcp_servers.d]\ncommand = \"d\"\n[mcp_servers.d.env]\nK = \"v\"\n")
	write(t, root, ".cursor/mcp.json", "{broken")
	srcs := mcpconfig.Project(root)
	for server, path := range map[string]string{"a": ".mcp.json", "B": ".gemini/settings.json", "c": ".vscode/mcp.json", "d": ".codex/config.toml"} {
		s, ok := mcpconfig.Find(srcs, server)
		if !ok || s.Path != path {
			t.Errorf("%s: found %v in %q, want %s", server, ok, s.Path, path)
		}
	}
	for _, server := range []string{"not-vscode", "K", "env"} {
		if s, ok := mcpconfig.Find(srcs, server); ok {
			t.Errorf("%s found in %s", server, s.Path)
		}
	}
	for _, s := range srcs {
		switch s.Path {
		case ".cursor/mcp.json":
			if !s.Exists || s.Err == nil {
				t.Errorf("broken .cursor/mcp.json: exists %v err %v", s.Exists, s.Err)
			}
		case ".claude/settings.json":
			if s.Exists || s.Err != nil {
				t.Errorf("missing file: exists %v err %v", s.Exists, s.Err)
			}
		}
	}
}

// TestR62H360UserConfigs: the user-level files follow HOME,
// GEMINI_CLI_HOME and CODEX_HOME as the agents do.
func TestR62H360UserConfigs(t *testing.T) {
	home, gem, codex := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, home, ".cursor/mcp.json", `{"mcpServers":{"cur":{}}}`)
	write(t, home, ".gemini/settings.json", `{"mcpServers":{"ignored":{}}}`)
	write(t, gem, ".gemini/settings.json", `{"mcpServers":{"gem":{}}}`)
	write(t, codex, "config.toml", "[mcp_servers.cdx]\ncommand = \"x\"\n")
	env := map[string]string{"HOME": home, "GEMINI_CLI_HOME": gem, "CODEX_HOME": codex}
	got := mcpconfig.UserServers(func(k string) string { return env[k] })
	if !slices.Equal(got, []string{"cdx", "cur", "gem"}) {
		t.Fatalf("user servers %v", got)
	}
}
