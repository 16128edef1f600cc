package agenthook

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/session"
)

// writeVerbs are words in a tool's name that say it changes what it is
// given (an MCP server's write_file, edit_file, move_file, create_directory).
var writeVerbs = []string{"write", "edit", "create", "delete", "remove", "move", "rename", "patch",
	"replace", "append", "insert", "update", "save", "upload", "mkdir", "apply", "overwrite"}

// pathKeys are argument names that hold a file path in the tools people
// add (MCP filesystem servers and the like); a key ending in "path" or
// "paths" counts too.
var pathKeys = map[string]bool{"file": true, "filename": true, "target": true, "target_file": true,
	"destination": true, "dest": true, "source": true, "files": true}

// runVerbs are words in a tool's name that say it runs what it is given
// (an MCP server's execute_command, run_shell, start_process, terminal).
var runVerbs = []string{"exec", "run", "shell", "command", "terminal", "bash", "process", "spawn", "cmd"}

// commandKeys are argument names that hold a shell line.
var commandKeys = []string{"command", "cmd", "commandline", "command_line", "shell_command", "script", "commands"}

// otherTool classifies a tool the agent does not ship (an MCP server's):
// one whose name says it runs a command and that is given a shell line is
// judged as the agent's own shell (issue 25: an MCP server's
// execute_command wrote a sessiongate shim on PATH that the same line in
// Bash could not); one that says it writes is judged by the paths it
// names (otherToolPaths); anything else needs no decision.
func otherTool(name string, in map[string]json.RawMessage) session.ToolCall {
	if line := otherToolLine(name, in); line != "" {
		return session.ToolCall{Name: name, Kind: session.ToolShell, Command: line}
	}
	return session.ToolCall{Name: name, Kind: session.ToolOther, Paths: otherToolPaths(name, in)}
}

// otherToolLine is the shell line a running tool is given ("" when the
// tool does not say it runs one, or is sessiongate's own).
func otherToolLine(name string, in map[string]json.RawMessage) string {
	low := strings.ToLower(name)
	if strings.HasPrefix(low, "mcp__sessiongate__") || strings.HasPrefix(low, "mcp_sessiongate_") || in == nil {
		return ""
	}
	runs := false
	for _, v := range runVerbs {
		runs = runs || strings.Contains(low, v)
	}
	if !runs {
		return ""
	}
	for k, raw := range in {
		lk := strings.ToLower(k)
		for _, want := range commandKeys {
			if lk != want {
				continue
			}
			var s string
			if json.Unmarshal(raw, &s) == nil && strings.TrimSpace(s) != "" {
				return s
			}
			var ss []string
			if json.Unmarshal(raw, &ss) == nil && len(ss) > 0 {
				// argv: judged as the line it would be.
				return strings.Join(ss, " ")
			}
		}
	}
	return ""
}

// otherToolPaths returns the file paths a tool the agent does not ship
// names, when its name says it writes: such a call is judged as an edit
// of those paths (after runner.decide keeps the ones inside the worktree).
// sessiongate's own MCP tools write nothing.
func otherToolPaths(name string, in map[string]json.RawMessage) []string {
	low := strings.ToLower(name)
	// Claude Code names MCP tools mcp__server__tool, Gemini CLI mcp_server_tool.
	if strings.HasPrefix(low, "mcp__sessiongate__") || strings.HasPrefix(low, "mcp_sessiongate_") || in == nil {
		return nil
	}
	// The tool's own name, past Claude Code's MCP prefix.
	if i := strings.LastIndex(low, "__"); i >= 0 {
		low = low[i+2:]
	}
	verb := false
	for _, v := range writeVerbs {
		if strings.Contains(low, v) {
			verb = true
			break
		}
	}
	if !verb {
		return nil
	}
	var out []string
	for k, raw := range in {
		lk := strings.ToLower(k)
		if !pathKeys[lk] && !strings.HasSuffix(lk, "path") && !strings.HasSuffix(lk, "paths") {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" {
			out = append(out, s)
			continue
		}
		var ss []string
		if json.Unmarshal(raw, &ss) == nil {
			for _, s := range ss {
				if s != "" {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// insideWorktree keeps the paths that name something in the worktree at
// root (relative paths are taken from dir, the agent's folder).
func insideWorktree(root, dir string, paths []string) []string {
	var out []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		rel, err := filepath.Rel(root, filepath.Clean(p))
		if err == nil && filepath.IsLocal(rel) {
			out = append(out, p)
		}
	}
	return out
}

// judgeOther turns a writing tool's call into an edit of the worktree
// paths it names; a call that names none stays as it is.
func judgeOther(t *session.ToolCall, root, dir string) {
	if t.Kind != session.ToolOther || len(t.Paths) == 0 {
		return
	}
	if in := insideWorktree(root, dir, t.Paths); len(in) > 0 {
		t.Kind, t.Paths = session.ToolEdit, in
	} else {
		t.Paths = nil
	}
}
