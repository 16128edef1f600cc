package userconfig_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
	"github.com/sessiongate/sessiongate/userconfig"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

func write(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRead: the names the user config offers a worktree (top level and
// the project's own), its sub-agents, and hashes (never values) of the
// npm keys that decide how a script runs.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", dir)
	npmrc := filepath.Join(dir, "npmrc")
	t.Setenv("npm_config_userconfig", npmrc)
	write(t, filepath.Join(dir, ".claude.json"), `{"mcpServers":{"serena":{}},"projects":{"/w":{"mcpServers":{"context7":{}}},"/other":{"mcpServers":{"x":{}}}}}`)
	write(t, filepath.Join(dir, "agents", "Reviewer.md"), "x")
	write(t, filepath.Join(dir, "agents", "notes.txt"), "x")
	write(t, npmrc, "registry=https://example.invalid/\nscript-shell = /tmp/x.sh\n# node-options=--require x\n")

	c := userconfig.Read("/w")
	for _, tc := range []struct {
		what      string
		got, want []string
	}{
		{"servers", c.MCPServers, []string{"context7", "serena"}},
		{"agents", c.Agents, []string{"reviewer"}},
	} {
		if !slices.Equal(tc.got, tc.want) {
			t.Errorf("%s = %q, want %q", tc.what, tc.got, tc.want)
		}
	}
	if !c.HasServer("Serena") || c.HasServer("x") || !c.HasAgent("REVIEWER") {
		t.Errorf("HasServer/HasAgent fold case and keep to the worktree: %+v", c)
	}
	if len(c.NpmRun) != 1 || c.NpmRun["script-shell"] == "" || c.NpmRun["script-shell"] == "/tmp/x.sh" || !c.NpmKnown {
		t.Errorf("NpmRun = %v (known %v), want one hashed script-shell", c.NpmRun, c.NpmKnown)
	}
	if userconfig.Npmrc() != npmrc {
		t.Errorf("Npmrc() = %q, want npm_config_userconfig %q", userconfig.Npmrc(), npmrc)
	}
}

// TestReadNothing: no config files, no names and no error.
func TestReadNothing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", dir)
	t.Setenv("npm_config_userconfig", filepath.Join(dir, "none"))
	if c := userconfig.Read("/w"); len(c.MCPServers)+len(c.Agents)+len(c.NpmRun) != 0 {
		t.Errorf("Read with no files = %+v, want empty", c)
	}
}
