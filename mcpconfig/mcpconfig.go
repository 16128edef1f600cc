// Package mcpconfig reads which MCP servers the configs an agent would
// read configure for a work tree: the repository's (.mcp.json,
// .claude/settings*.json, .gemini/settings.json, .cursor/mcp.json,
// .vscode/mcp.json, .codex/config.toml) and the user-level ones of Gemini
// CLI, Cursor and Codex (Claude Code's ~/.claude.json is userconfig's).
// A call of a server no config names cannot have been made, so typed
// evidence of one is judged against this list.
package mcpconfig

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/tailscale/hujson"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// Source is one config file and the servers it configures.
type Source struct {
	Path    string // repository-relative (slashes), or absolute for a user-level file
	User    bool   // outside the repository
	Exists  bool
	Err     error // it exists but could not be read or parsed
	Servers []string
}

// file is where one agent keeps MCP servers and how.
type file struct {
	rel  string
	toml bool   // codex: [mcp_servers.NAME]
	key  string // JSON: the object holding the servers
}

// projectFiles are the repository's MCP configs (each protected during a
// session: protect.DefaultPaths). Claude Code's settings files hold no
// servers as documented, but one that does is read all the same.
var projectFiles = []file{
	{rel: ".mcp.json", key: "mcpServers"},
	{rel: ".claude/settings.json", key: "mcpServers"},
	{rel: ".claude/settings.local.json", key: "mcpServers"},
	{rel: ".gemini/settings.json", key: "mcpServers"},
	{rel: ".cursor/mcp.json", key: "mcpServers"},
	{rel: ".vscode/mcp.json", key: "servers"},
	{rel: ".codex/config.toml", toml: true},
}

// ProjectFiles names the repository's MCP configs, for messages.
func ProjectFiles() []string {
	out := make([]string, len(projectFiles))
	for i, f := range projectFiles {
		out[i] = f.rel
	}
	return out
}

// Project reads the repository's MCP configs in worktree.
func Project(worktree string) []Source {
	out := make([]Source, 0, len(projectFiles))
	for _, f := range projectFiles {
		src := Source{Path: f.rel}
		b, err := boundedread.InRoot(worktree, f.rel, boundedread.DefaultLimit)
		src.Exists, src.Err = fill(&src, f, b, err)
		out = append(out, src)
	}
	return out
}

// ProjectAt reads the repository's MCP configs through read (a committed
// tree: read returns an error for a file it does not hold).
func ProjectAt(read func(rel string) ([]byte, error)) []Source {
	out := make([]Source, 0, len(projectFiles))
	for _, f := range projectFiles {
		src := Source{Path: f.rel}
		b, err := read(f.rel)
		if err != nil {
			err = fs.ErrNotExist // not in that commit
		}
		src.Exists, src.Err = fill(&src, f, b, err)
		out = append(out, src)
	}
	return out
}

// User reads the user-level MCP configs of Gemini CLI, Cursor and Codex
// that getenv's HOME (GEMINI_CLI_HOME, CODEX_HOME) points at.
func User(getenv func(string) string) []Source {
	home := getenv("HOME")
	var out []Source
	add := func(path string, f file) {
		if path == "" || !filepath.IsAbs(path) {
			return
		}
		src := Source{Path: path, User: true}
		b, err := boundedread.File(path, boundedread.DefaultLimit)
		src.Exists, src.Err = fill(&src, f, b, err)
		out = append(out, src)
	}
	gemini := ""
	if v := getenv("GEMINI_CLI_HOME"); v != "" {
		gemini = filepath.Join(v, ".gemini", "settings.json")
	} else if home != "" {
		gemini = filepath.Join(home, ".gemini", "settings.json")
	}
	add(gemini, file{key: "mcpServers"})
	if home != "" {
		add(filepath.Join(home, ".cursor", "mcp.json"), file{key: "mcpServers"})
	}
	codex := ""
	if v := getenv("CODEX_HOME"); v != "" {
		codex = filepath.Join(v, "config.toml")
	} else if home != "" {
		codex = filepath.Join(home, ".codex", "config.toml")
	}
	add(codex, file{toml: true})
	return out
}

// UserServers are the servers User's readable files configure.
func UserServers(getenv func(string) string) []string {
	var out []string
	for _, s := range User(getenv) {
		out = append(out, s.Servers...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// fill parses b (read with err) as f into src.
func fill(src *Source, f file, b []byte, err error) (exists bool, perr error) {
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	names, err := servers(f, b)
	if err != nil {
		return true, err
	}
	src.Servers = names
	return true, nil
}

// servers parses one config's server names (JSON files as JSONC: VS Code
// and Gemini CLI allow comments).
func servers(f file, b []byte) ([]string, error) {
	var names []string
	if f.toml {
		var c struct {
			MCPServers map[string]any `toml:"mcp_servers"`
		}
		if _, err := toml.Decode(string(b), &c); err != nil {
			return nil, err
		}
		for n := range c.MCPServers {
			names = append(names, n)
		}
	} else {
		v, err := hujson.Parse(b)
		if err != nil {
			return nil, err
		}
		v.Standardize()
		obj, ok := v.Value.(*hujson.Object)
		if !ok {
			return nil, errors.New("not a JSON object")
		}
		for _, m := range obj.Members {
			if m.Name.Value.(hujson.Literal).String() != f.key {
				continue
			}
			inner, ok := m.Value.Value.(*hujson.Object)
			if !ok {
				continue
			}
			for _, s := range inner.Members {
				names = append(names, s.Name.Value.(hujson.Literal).String())
			}
		}
	}
	slices.Sort(names)
	return names, nil
}

// Find is the first source that configures server (any case).
func Find(srcs []Source, server string) (Source, bool) {
	for _, s := range srcs {
		if slices.ContainsFunc(s.Servers, func(n string) bool { return strings.EqualFold(n, server) }) {
			return s, true
		}
	}
	return Source{}, false
}

// Getenv is os.Getenv, for User's callers.
func Getenv(k string) string { return os.Getenv(k) }
