package agenthook_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestR64H367MCPProgramWrites: helper 364's open row. The config files
// are protected, the program they start was not: `cp fake.py
// ~/.local/bin/uvx` under a .mcp.json saying `uvx ... serena
// start-mcp-server`, a work-tree script the config runs rewritten, or the
// server defined again in the user's scope with the CLI's own `mcp add`
// gave a server answering every call with success at the CLI's next start.
func TestR64H367MCPProgramWrites(t *testing.T) {
	r := newRepo(t, "")
	writeFile(t, filepath.Join(r.root, ".mcp.json"), `{"mcpServers": {
  "serena": {"command": "uvx", "args": ["--from", "git+https://github.com/oraios/serena", "serena", "start-mcp-server", "--context", "ide-assistant"]},
  "tools": {"command": "python3", "args": ["tools/mcp_server.py"]}
}}`)
	writeFile(t, filepath.Join(r.root, "tools/mcp_server.py"), "# the team's server\n")
	writeFile(t, filepath.Join(r.root, "fake.py"), "# answers every call with success\n")
	writeFile(t, filepath.Join(r.root, "uvx"), "#!/bin/sh\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "mcp servers")
	var home string
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	if err := os.MkdirAll(filepath.Join(home, ".local", "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	const sid = "mcp-program"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	bash := golden(t, r, "claude", "PreToolUse-Bash", sid)
	pathDir := ""
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if filepath.IsAbs(d) {
			pathDir = d
			break
		}
	}
	for _, c := range []struct {
		line string
		deny bool
	}{
		{`cp fake.py ~/.local/bin/uvx`, true},
		{`cp fake.py $HOME/.local/bin/uvx && chmod +x ~/.local/bin/uvx`, true},
		{`cat > ~/.local/bin/uvx <<'EOF'` + "\n#!/bin/sh\nexec python3 fake.py\nEOF", true},
		{`install -m 755 fake.py ` + home + `/.local/bin/uvx`, true},
		{`ln -sf "$PWD/fake.py" ~/.local/bin/uvx`, true},
		{`cp uvx ~/.local/bin/`, true},
		{`cp fake.py ` + pathDir + `/uvx`, true},
		{`tee ~/.local/bin/uvx < fake.py`, true},
		{`dd if=fake.py of=$HOME/.local/bin/uvx`, true},
		{`sh -c "cp fake.py ~/.local/bin/uvx"`, true},
		{`x=~/.local/bin; cp fake.py $x/uvx`, true},
		{`cd ~/.local/bin && cp ` + r.root + `/fake.py uvx`, true},
		{`python3 -c "import shutil; shutil.copy('fake.py', '` + home + `/.local/bin/uvx')"`, true},
		{`mv fake.py ~/.local/bin/uvx`, true},
		{`cp -t ~/.local/bin uvx`, true},
		{`go build -o ~/.local/bin/uvx ./cmd/fake`, true},
		{`sed -i 's/x/y/' tools/mcp_server.py`, true},
		{`echo 'print(1)' > tools/mcp_server.py`, true},
		{`cp fake.py tools/mcp_server.py`, true},
		{`claude mcp add --scope user serena -- python3 fake.py`, true},
		{`claude mcp add serena -s user -e X=1 -- python3 fake.py`, true},
		{`claude mcp add-json -s user serena '{"command":"python3","args":["fake.py"]}'`, true},
		{`claude mcp remove serena -s local`, true},
		{`gemini mcp add -s user serena python3 fake.py`, true},
		{`codex mcp add serena -- python3 fake.py`, true},
		{`npx -y @anthropic-ai/claude-code mcp add -s user tools python3 fake.py`, true},
		// Honest twins.
		{`uv sync`, false},
		{`pip install -e .`, false},
		{`uvx ruff check .`, false},
		{`cp fake.py tools/other.py`, false},
		{`echo notes > ~/.local/bin/README.txt`, false},
		{`claude mcp list`, false},
		{`claude mcp get serena`, false},
		{`claude mcp add -s user context7 -- npx -y @upstash/context7-mcp`, false},
		{`cat tools/mcp_server.py > /tmp/copy.py`, false},
		{`go build -o bin/app ./cmd/app`, false},
		{`gcc -O2 -o hello hello.c`, false},
	} {
		out, _ := r.hook("claude", "PreToolUse", with(bash, "tool_input", map[string]any{"command": c.line}))
		denied := pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny"
		if why := pathStr(out, "hookSpecificOutput", "permissionDecisionReason"); denied != c.deny {
			t.Errorf("%q: denied %v, want %v (%s)", c.line, denied, c.deny, why)
		}
	}
	write := golden(t, r, "claude", "PreToolUse-Write", sid)
	for _, c := range []struct {
		path string
		deny bool
	}{
		{filepath.Join(r.root, "tools/mcp_server.py"), true},
		{filepath.Join(home, ".local/bin/uvx"), true},
		{filepath.Join(r.root, "tools/helper.py"), false},
	} {
		out, _ := r.hook("claude", "PreToolUse", with(write, "tool_input", map[string]any{"file_path": c.path, "content": "x\n"}))
		denied := pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny"
		if why := pathStr(out, "hookSpecificOutput", "permissionDecisionReason"); denied != c.deny {
			t.Errorf("Write %s: denied %v, want %v (%s)", c.path, denied, c.deny, why)
		}
	}
}
