package session

import (
	"os"
	"path/filepath"
	"testing"
)

func TestIsProtected(t *testing.T) {
	on := Config{Protect: true, ProtectedPaths: []string{"ci/**", "scripts/gate-*.sh"}}
	cases := []struct {
		name string
		cfg  Config
		rel  string
		want bool
	}{
		{"protocol default", on, "SESSION-PROTOCOL.md", true},
		{"protocol in .agents", on, ".agents/SESSION-PROTOCOL.md", true},
		{"dot slash", on, "./sessiongate.yaml", true},
		{"case folded", on, ".Claude/Settings.json", true},
		{"claude local", on, ".claude/settings.local.json", true},
		{"cursor hooks", on, ".cursor/hooks.json", true},
		{"gemini", on, ".gemini/settings.json", true},
		{"codex hooks", on, ".codex/hooks.json", true},
		{"codex project config", on, ".codex/config.toml", true},
		{"copilot hooks", on, ".github/hooks/sessiongate.json", true},
		{"another copilot hook file", on, ".github/hooks/extra.json", true},
		{"github workflow", on, ".github/workflows/ci.yml", false},
		{"mcp", on, ".mcp.json", true},
		{"vscode mcp", on, ".vscode/mcp.json", true},
		{"pre-commit config", on, ".pre-commit-config.yaml", true},
		{"os separator", on, filepath.Join(".claude", "settings.json"), true},
		{"extra ** glob", on, "ci/deep/x.yml", true},
		{"extra * glob", on, "scripts/gate-lint.sh", true},
		{"not anchored elsewhere", on, "sub/sessiongate.yaml", false},
		{"ordinary file", on, "main.go", false},
		{"other claude file", on, ".claude/commands/x.md", false},
		{"leaves repo", on, "../sessiongate.yaml", false},
		{"absolute", on, "/sessiongate.yaml", false},
		{"empty", on, "", false},
		{"protection off", Config{}, "sessiongate.yaml", false},
		{"configured protocol", Config{Protect: true, ProtocolPath: "docs/PROTO.md"}, "docs/PROTO.md", true},
		{"configured protocol replaces defaults", Config{Protect: true, ProtocolPath: "docs/PROTO.md"}, "SESSION-PROTOCOL.md", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &Engine{Config: c.cfg}
			if got := e.IsProtected(c.rel); got != c.want {
				t.Fatalf("IsProtected(%q) = %v, want %v (patterns %v)", c.rel, got, c.want, ProtectedPaths(c.cfg, ""))
			}
		})
	}
}

func TestProtectedRelFollowsSymlinks(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "sessiongate.yaml"), []byte("protect: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sessiongate.yaml", filepath.Join(root, "innocent.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".claude", filepath.Join(root, "cl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := &Engine{Config: Config{Protect: true}}
	cases := []struct {
		p       string
		wantRel string
		want    bool
	}{
		{filepath.Join(root, "sessiongate.yaml"), "sessiongate.yaml", true},
		{"innocent.txt", "sessiongate.yaml", true},
		{filepath.Join(root, "cl", "settings.json"), ".claude/settings.json", true}, // not yet created, through a linked folder
		{filepath.Join(root, "main.go"), "main.go", false},
		{"/etc/passwd", "", false},
	}
	for _, c := range cases {
		rel, ok := e.ProtectedRel(root, c.p)
		if ok != c.want || rel != c.wantRel {
			t.Errorf("ProtectedRel(%q) = %q, %v; want %q, %v", c.p, rel, ok, c.wantRel, c.want)
		}
	}
}
