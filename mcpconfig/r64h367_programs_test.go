package mcpconfig

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestR64H367Programs: what a server's definition starts, resolved as the
// CLI would, and the CLI commands that define a server.
func TestR64H367Programs(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(root, "tools"), 0o755)
	os.WriteFile(filepath.Join(root, "tools", "serve"), []byte("x"), 0o755)
	os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(`{"mcpServers": {
		"serena": {"command": "uvx", "args": ["--from", "git+https://github.com/oraios/serena", "serena", "start-mcp-server"]},
		"local": {"command": "python3", "args": ["server.py"]},
		"bin": {"command": "./tools/serve", "args": ["tools/serve", "--port", "1"]},
		"web": {"type": "http", "url": "https://example.com/mcp"}
	}}`), 0o644)
	os.WriteFile(filepath.Join(home, ".claude.json"), []byte(`{"mcpServers": {"u": {"command": "node", "args": ["/opt/u.mjs"]}},
		"projects": {"`+root+`": {"mcpServers": {"p": {"command": "sh", "args": ["run.sh"]}}}}}`), 0o644)
	env := map[string]string{"HOME": home, "PATH": "/usr/local/bin:relative:/usr/bin"}
	getenv := func(k string) string { return env[k] }
	progs := map[string][]string{}
	for _, d := range Defs(root, getenv) {
		progs[d.Name] = Programs(d, root, getenv)
	}
	want := map[string][]string{
		"serena": {"/usr/local/bin/uvx", "/usr/bin/uvx", filepath.Join(home, ".local/bin/uvx")},
		"local":  {"/usr/local/bin/python3", "/usr/bin/python3", filepath.Join(home, ".local/bin/python3"), filepath.Join(root, "server.py")},
		"bin":    {filepath.Join(root, "tools/serve"), filepath.Join(root, "tools/serve")},
		"web":    nil,
		"u":      {"/usr/local/bin/node", "/usr/bin/node", filepath.Join(home, ".local/bin/node"), "/opt/u.mjs"},
		"p":      {"/usr/local/bin/sh", "/usr/bin/sh", filepath.Join(home, ".local/bin/sh"), filepath.Join(root, "run.sh")},
	}
	for name, w := range want {
		if !slices.Equal(progs[name], w) {
			t.Errorf("%s: %q, want %q", name, progs[name], w)
		}
	}
	for _, c := range []struct {
		words            []string
		cli, sub, server string
		ok               bool
	}{
		{[]string{"claude", "mcp", "add", "--scope", "user", "serena", "--", "python3", "f.py"}, "claude", "add", "serena", true},
		{[]string{"claude", "mcp", "add", "-e", "A=1", "-s", "user", "serena", "python3"}, "claude", "add", "serena", true},
		{[]string{"/usr/bin/gemini", "mcp", "remove", "serena"}, "gemini", "remove", "serena", true},
		{[]string{"npx", "@openai/codex@latest", "mcp", "add", "serena", "--", "x"}, "codex", "add", "serena", true},
		{[]string{"claude", "mcp", "add-from-claude-desktop"}, "claude", "add-from-claude-desktop", "", true},
		{[]string{"claude", "mcp", "list"}, "", "", "", false},
		{[]string{"claude", "mcp", "get", "serena"}, "", "", "", false},
		{[]string{"echo", "claude", "mcp"}, "", "", "", false},
	} {
		cli, sub, server, ok := CLIDefine(c.words)
		if cli != c.cli || sub != c.sub || server != c.server || ok != c.ok {
			t.Errorf("%q: %q %q %q %v", c.words, cli, sub, server, ok)
		}
	}
}

// TestR64MayName: the raw-bytes test that keeps Defs' parse off an agent
// hook's path holds every name a config starts a program by (Replaced
// matches by file name), in the repository's and the user's configs, and
// no unrelated file name.
func TestR64MayName(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(`{"mcpServers": {"serena": {"command": "uvx", "args": ["serena"]}, "local": {"command": "python3", "args": ["tools/server.py"]}}}`), 0o644)
	os.WriteFile(filepath.Join(home, ".claude.json"), []byte(`{"mcpServers": {"u": {"command": "node", "args": ["/opt/u.mjs"]}}}`), 0o644)
	getenv := func(k string) string { return map[string]string{"HOME": home, "PATH": "/usr/bin"}[k] }
	for _, tc := range []struct {
		names []string
		want  bool
	}{
		{[]string{"uvx"}, true},
		{[]string{"main.go", "server.py"}, true},
		{[]string{"u.mjs"}, true},
		{[]string{"main.go", "README.md"}, false},
		{nil, false},
		{[]string{"", ".", "/"}, false},
	} {
		if got := MayName(root, getenv, tc.names); got != tc.want {
			t.Errorf("MayName(%q) = %v, want %v", tc.names, got, tc.want)
		}
		// Whatever MayName says false of, Replaced finds nothing in.
		if !tc.want {
			var writes []string
			for _, n := range tc.names {
				writes = append(writes, filepath.Join(root, n))
			}
			if s, _ := Replaced(Defs(root, getenv), root, getenv, writes, tc.names); s != "" {
				t.Errorf("Replaced(%q) = %s where MayName said no config names them", tc.names, s)
			}
		}
	}
}
