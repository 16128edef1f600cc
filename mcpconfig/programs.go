package mcpconfig

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/tailscale/hujson"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// A config names a server; what answers its calls is the program the
// config starts. The config files are protected during a session, but an
// agent that replaces the program (`cp fake.py ~/.local/bin/uvx` under a
// config saying `uvx --from git+... serena start-mcp-server`), edits a
// work-tree script the config runs, or defines the server again in a
// scope git cannot see (`claude mcp add --scope user serena -- python3
// fake.py`) gets a server answering every call with success, and a
// transcript of "successful" mcp__serena__* calls at the CLI's next start
// (helper 364's open row). Defs and Programs say what each server starts,
// for the agent hook to deny such writes and for the evidence rule to
// distrust a server whose program or user-level definition changed.

// Def is one server's definition in one config.
type Def struct {
	Name    string
	Source  string // the config's path (repository-relative or absolute)
	User    bool   // a user-level config, outside the repository
	Command string
	Args    []string
	Cwd     string
	// Hash is the sha256 of the definition as written (its JSON or TOML
	// value re-encoded): a change of any field changes it.
	Hash string
}

type rawDef struct {
	Command string   `json:"command" toml:"command"`
	Args    []string `json:"args" toml:"args"`
	Cwd     string   `json:"cwd" toml:"cwd"`
}

// Defs are the server definitions of the repository's configs in worktree
// and of the user-level configs of Claude Code (CLAUDE_CONFIG_DIR or
// ~/.claude.json: top level and the project's), Gemini CLI, Cursor and
// Codex, as getenv points at them.
func Defs(worktree string, getenv func(string) string) []Def {
	var out []Def
	for _, f := range projectFiles {
		b, err := boundedread.InRoot(worktree, f.rel, boundedread.DefaultLimit)
		if err == nil {
			out = append(out, defsOf(f, b, f.rel, false)...)
		}
	}
	return append(out, UserDefs(worktree, getenv)...)
}

// MayName reports whether a config Defs reads holds one of names (file
// names) in its raw bytes. Replaced matches a program by its file name,
// which the config that starts it spells: a write none of whose names a
// config holds replaces no program, and Defs' parse is kept off the
// hook's path (a 3.3 MB ~/.claude.json of project history made every
// Edit's PreToolUse 3.9x slower, round 64).
func MayName(worktree string, getenv func(string) string, names []string) bool {
	var keep []string
	for _, n := range names {
		if n != "" && n != "." && n != "/" && !slices.Contains(keep, n) {
			keep = append(keep, n)
		}
	}
	if len(keep) == 0 {
		return false
	}
	holds := func(b []byte) bool {
		return slices.ContainsFunc(keep, func(n string) bool { return bytes.Contains(b, []byte(n)) })
	}
	for _, f := range projectFiles {
		if b, err := boundedread.InRoot(worktree, f.rel, boundedread.DefaultLimit); err == nil && holds(b) {
			return true
		}
	}
	if claude := claudeUserFile(getenv); claude != "" {
		if b, err := boundedread.File(claude, 4*boundedread.DefaultLimit); err == nil && holds(b) {
			return true
		}
	}
	for _, src := range User(getenv) {
		if !src.Exists || src.Err != nil {
			continue
		}
		if b, err := boundedread.File(src.Path, boundedread.DefaultLimit); err == nil && holds(b) {
			return true
		}
	}
	return false
}

// claudeUserFile is Claude Code's user config (CLAUDE_CONFIG_DIR's or
// ~/.claude.json), "" when neither is set.
func claudeUserFile(getenv func(string) string) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, ".claude.json")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".claude.json")
	}
	return ""
}

// UserDefs are Defs' user-level definitions only.
func UserDefs(worktree string, getenv func(string) string) []Def {
	var out []Def
	if claude := claudeUserFile(getenv); claude != "" {
		if b, err := boundedread.File(claude, 4*boundedread.DefaultLimit); err == nil {
			out = append(out, defsOf(file{key: "mcpServers"}, b, claude, true)...)
			var u struct {
				Projects map[string]struct {
					MCPServers map[string]json.RawMessage `json:"mcpServers"`
				} `json:"projects"`
			}
			if json.Unmarshal(b, &u) == nil {
				out = append(out, jsonDefs(u.Projects[worktree].MCPServers, claude, true)...)
			}
		}
	}
	for _, src := range User(getenv) {
		if !src.Exists || src.Err != nil {
			continue
		}
		f := file{key: "mcpServers"}
		if strings.HasSuffix(src.Path, ".toml") {
			f = file{toml: true}
		}
		if b, err := boundedread.File(src.Path, boundedread.DefaultLimit); err == nil {
			out = append(out, defsOf(f, b, src.Path, true)...)
		}
	}
	return out
}

// defsOf parses one config's definitions (JSON as JSONC).
func defsOf(f file, b []byte, source string, user bool) []Def {
	if f.toml {
		var c struct {
			MCPServers map[string]toml.Primitive `toml:"mcp_servers"`
		}
		md, err := toml.Decode(string(b), &c)
		if err != nil {
			return nil
		}
		var out []Def
		for name, prim := range c.MCPServers {
			var r rawDef
			var all map[string]any
			_ = md.PrimitiveDecode(prim, &r)
			_ = md.PrimitiveDecode(prim, &all)
			j, _ := json.Marshal(all) // map keys sorted: a stable encoding
			out = append(out, Def{Name: name, Source: source, User: user, Command: r.Command, Args: r.Args, Cwd: r.Cwd, Hash: hashOf(j)})
		}
		slices.SortFunc(out, func(a, b Def) int { return strings.Compare(a.Name, b.Name) })
		return out
	}
	std, err := hujson.Standardize(b)
	if err != nil {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(std, &m) != nil {
		return nil
	}
	var servers map[string]json.RawMessage
	if json.Unmarshal(m[f.key], &servers) != nil {
		return nil
	}
	return jsonDefs(servers, source, user)
}

func jsonDefs(servers map[string]json.RawMessage, source string, user bool) []Def {
	var out []Def
	for name, raw := range servers {
		var r rawDef
		_ = json.Unmarshal(raw, &r)
		var all any
		_ = json.Unmarshal(raw, &all)
		j, _ := json.Marshal(all)
		out = append(out, Def{Name: name, Source: source, User: user, Command: r.Command, Args: r.Args, Cwd: r.Cwd, Hash: hashOf(j)})
	}
	slices.SortFunc(out, func(a, b Def) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func hashOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// scriptExts are the file names a server's argument may be run as (an
// interpreter's script): `python3 tools/serena.py`, `node server.mjs`.
var scriptExts = []string{".py", ".js", ".mjs", ".cjs", ".ts", ".sh", ".rb", ".pl", ".php", ".bash"}

// Programs are the absolute paths whose file is what d starts: its
// command resolved as the CLI would (a path from the server's folder, the
// work tree by default; a bare name in every PATH folder and
// ~/.local/bin, where a file made earlier in PATH is the program too),
// and the script files its arguments name. A URL server starts nothing.
func Programs(d Def, worktree string, getenv func(string) string) []string {
	if d.Command == "" {
		return nil
	}
	base := worktree
	if d.Cwd != "" {
		base = d.Cwd
		if !filepath.IsAbs(base) {
			base = filepath.Join(worktree, base)
		}
	}
	var out []string
	if strings.ContainsAny(d.Command, `/\`) {
		out = append(out, at(base, d.Command, getenv))
	} else {
		for _, dir := range PathDirs(getenv) {
			out = append(out, filepath.Join(dir, d.Command))
		}
	}
	for _, a := range d.Args {
		if strings.HasPrefix(a, "-") || strings.Contains(a, "://") || strings.HasPrefix(a, "git+") {
			continue
		}
		if v, ok := strings.CutPrefix(a, "file:"); ok {
			a = v
		}
		if strings.ContainsAny(a, `/\`) && exists(at(base, a, getenv)) || slices.Contains(scriptExts, strings.ToLower(filepath.Ext(a))) {
			out = append(out, at(base, a, getenv))
		}
	}
	return out
}

// PathDirs are the absolute folders of getenv's PATH, and ~/.local/bin
// (where uv and pipx put uvx and serena's launchers) when PATH lacks it.
func PathDirs(getenv func(string) string) []string {
	var out []string
	for _, d := range filepath.SplitList(getenv("PATH")) {
		if filepath.IsAbs(d) && !slices.Contains(out, filepath.Clean(d)) {
			out = append(out, filepath.Clean(d))
		}
	}
	if h := getenv("HOME"); h != "" {
		if lb := filepath.Join(h, ".local", "bin"); !slices.Contains(out, lb) {
			out = append(out, lb)
		}
	}
	return out
}

// at is p made absolute from base (~ from HOME).
func at(base, p string, getenv func(string) string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && getenv("HOME") != "" {
		return filepath.Join(getenv("HOME"), rest)
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Replaced names the server and the program that a write to one of the
// absolute paths writes replaces or creates: a program path itself, or a
// folder holding one when the line's words name the program's file name
// (`cp uvx ~/.local/bin/`). "" when none.
func Replaced(defs []Def, worktree string, getenv func(string) string, writes, words []string) (server, program string) {
	for _, d := range defs {
		for _, p := range Programs(d, worktree, getenv) {
			for _, w := range writes {
				w = filepath.Clean(w)
				if w == p || samePath(w, p) {
					return d.Name, p
				}
				if w == filepath.Dir(p) && slices.ContainsFunc(words, func(x string) bool { return filepath.Base(x) == filepath.Base(p) }) {
					if fi, err := os.Stat(w); err == nil && fi.IsDir() {
						return d.Name, p
					}
				}
			}
		}
	}
	return "", ""
}

// samePath: w and p are one file through a symlinked folder
// (~/.local/bin linked elsewhere).
func samePath(w, p string) bool {
	a, err1 := filepath.EvalSymlinks(filepath.Dir(w))
	b, err2 := filepath.EvalSymlinks(filepath.Dir(p))
	return err1 == nil && err2 == nil && a == b && filepath.Base(w) == filepath.Base(p)
}

// CLIDefine reads a call's words as an agent CLI's own MCP config command
// (`claude mcp add|add-json|remove|add-from-claude-desktop`, `gemini mcp
// add|remove`, `codex mcp add|remove`): the CLI, the subcommand and the
// server it names ("" for add-from-claude-desktop, which imports any).
func CLIDefine(words []string) (cli, sub, server string, ok bool) {
	for i := 0; i+2 < len(words); i++ {
		// A CLI by its name, or its npm package run by npx
		// (@anthropic-ai/claude-code@latest, @google/gemini-cli, @openai/codex).
		b := strings.TrimSuffix(filepath.Base(words[i]), ".cmd")
		b, _, _ = strings.Cut(b, "@")
		b = strings.TrimSuffix(strings.TrimSuffix(b, "-code"), "-cli")
		if b != "claude" && b != "gemini" && b != "codex" || words[i+1] != "mcp" {
			continue
		}
		sub = words[i+2]
		switch sub {
		case "add", "add-json", "remove", "rm", "add-from-claude-desktop", "login", "logout":
		default:
			return "", "", "", false
		}
		if sub == "login" || sub == "logout" {
			return "", "", "", false
		}
		// The first operand after the subcommand, skipping options and the
		// values of those that take one.
		valued := map[string]bool{"-s": true, "--scope": true, "-t": true, "--transport": true, "-e": true, "--env": true, "-H": true, "--header": true, "--client-id": true, "--url": true, "--bearer-token-env-var": true, "--timeout": true}
		for j := i + 3; j < len(words); j++ {
			w := words[j]
			if w == "--" {
				if j+1 < len(words) {
					return b, sub, words[j+1], true
				}
				break
			}
			if strings.HasPrefix(w, "-") {
				if valued[w] {
					j++
				}
				continue
			}
			return b, sub, w, true
		}
		return b, sub, "", true
	}
	return "", "", "", false
}
