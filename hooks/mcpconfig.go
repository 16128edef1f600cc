package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tailscale/hujson"
)

// MCPClient is one MCP client's project configuration file.
type MCPClient struct {
	Name string // claude, cursor, vscode
	Path string // relative to the work tree root, slash-separated
	Key  string // top-level object that holds the servers
	// Entry is sessiongate's server entry. It runs `sessiongate` from
	// PATH: the file is committed, so it must not carry this machine's
	// path (doctor says when sessiongate is not on PATH).
	Entry map[string]any
}

// ServerName is the key sessiongate's entry has in every client config.
const ServerName = "sessiongate"

// MCPCommand is the command every MCP entry runs (from PATH).
const MCPCommand = "sessiongate"

// MCPClients are the clients install --mcp knows. VS Code's mcp.json is
// JSONC (comments, trailing commas); the others are read the same way.
var MCPClients = []MCPClient{
	{Name: "claude", Path: ".mcp.json", Key: "mcpServers", Entry: map[string]any{"command": MCPCommand, "args": []string{"mcp"}}},
	{Name: "cursor", Path: ".cursor/mcp.json", Key: "mcpServers", Entry: map[string]any{"command": MCPCommand, "args": []string{"mcp"}}},
	{Name: "vscode", Path: ".vscode/mcp.json", Key: "servers", Entry: map[string]any{"type": "stdio", "command": MCPCommand, "args": []string{"mcp"}}},
}

// ParseMCPClients reads a list of MCP client names.
func ParseMCPClients(names []string) ([]MCPClient, error) {
	var out []MCPClient
	for _, n := range names {
		n = strings.TrimSpace(strings.ToLower(n))
		if n == "" {
			continue
		}
		found := false
		for _, c := range MCPClients {
			if c.Name == n {
				out = append(out, c)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown MCP client %q (want claude, cursor or vscode)", n)
		}
	}
	return out, nil
}

// filePlan is the new content of one config file, decided before any
// file is written.
type filePlan struct {
	path   string
	exists bool
	mode   fs.FileMode
	out    []byte // nil: unchanged
	remove bool   // uninstall emptied a file
	action string // wrote, updated, removed, unchanged
	note   string
}

// planMCP reads one client's config (JSON or JSONC) and computes the file
// with sessiongate's server merged in (install) or taken out (uninstall).
// Comments, key order and formatting of everything else are kept. A file
// that cannot be parsed, or whose "sessiongate" server is someone else's,
// is refused before anything is written.
func planMCP(root string, c MCPClient, install bool) (filePlan, error) {
	verb := "install"
	if !install {
		verb = "uninstall"
	}
	p := filePlan{path: filepath.Join(root, filepath.FromSlash(c.Path)), mode: 0o644, action: "unchanged"}
	refuse := func(why string) error {
		return fmt.Errorf("%s --mcp %s: %s %s; nothing was changed (fix or move the file, then run it again)", verb, c.Name, p.path, why)
	}
	b, err := os.ReadFile(p.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if !install {
			return p, nil
		}
		b = []byte("{}\n")
	case err != nil:
		return p, refuse("cannot be read: " + err.Error())
	default:
		p.exists = true
		if st, err := os.Stat(p.path); err == nil {
			p.mode = st.Mode().Perm()
		}
	}
	v, err := hujson.Parse(b)
	if err != nil {
		return p, refuse("is not valid JSON or JSONC (" + err.Error() + ")")
	}
	top, ok := v.Value.(*hujson.Object)
	if !ok {
		return p, refuse("is not a JSON object at the top level")
	}
	unit := indentUnit(b)
	memberIndent := unit
	if len(top.Members) > 0 {
		memberIndent = lineIndent(top.Members[0].Name.BeforeExtra, unit)
	}
	sv := jsonMember(top, c.Key)
	if sv == nil {
		if !install {
			return p, nil
		}
		addMember(top, c.Key, mustValue(map[string]any{}, "", unit), unit, "")
		sv = jsonMember(top, c.Key)
	}
	servers, ok := sv.Value.(*hujson.Object)
	if !ok {
		return p, refuse(fmt.Sprintf("has %q that is not an object", c.Key))
	}
	srvIndent := memberIndent + unit
	if len(servers.Members) > 0 {
		srvIndent = lineIndent(servers.Members[0].Name.BeforeExtra, srvIndent)
	}
	cur := jsonMember(servers, ServerName)
	if install {
		switch {
		case cur != nil && sameValue(cur, c.Entry):
			return p, nil
		case cur != nil && !isOurMCPEntry(cur):
			return p, refuse(fmt.Sprintf("has a %q server that does not run `sessiongate mcp`", ServerName) + ": rename or remove it")
		case cur != nil:
			// Ours from an older install (an absolute path): replace it
			// where it is.
			nv := mustValue(c.Entry, srvIndent, unit)
			nv.BeforeExtra, nv.AfterExtra = cur.BeforeExtra, cur.AfterExtra
			*cur = nv
			p.action = "updated"
		default:
			addMember(servers, ServerName, mustValue(c.Entry, srvIndent, unit), unit, memberIndent)
			p.action = "updated"
			if !p.exists {
				p.action = "wrote"
			}
		}
		p.note = "MCP server " + ServerName + " for " + c.Name + " runs `" + MCPCommand + " mcp` from PATH"
	} else {
		if cur == nil {
			return p, nil
		}
		if !isOurMCPEntry(cur) {
			return p, nil // someone else's server of that name: not ours to remove
		}
		removeMember(servers, ServerName)
		if len(servers.Members) == 0 && !hasComment(servers.AfterExtra) {
			removeMember(top, c.Key)
		}
		p.action = "updated"
		p.note = "removed MCP server " + ServerName
	}
	v.UpdateOffsets()
	out := v.Pack()
	if !install && len(top.Members) == 0 && !hasComment(out) {
		p.remove, p.action, p.note = true, "removed", "held only sessiongate's MCP server"
		return p, nil
	}
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	if _, err := hujson.Parse(out); err != nil {
		return p, fmt.Errorf("%s --mcp %s: the merged %s does not parse (%v); nothing was changed: please report this", verb, c.Name, p.path, err)
	}
	p.out = out
	return p, nil
}

// planMCPs plans every client's file; the first refusal refuses them all.
func planMCPs(root string, clients []MCPClient, install bool) ([]filePlan, error) {
	var plans []filePlan
	for _, c := range clients {
		p, err := planMCP(root, c, install)
		if err != nil {
			return nil, err
		}
		plans = append(plans, p)
	}
	return plans, nil
}

// sameValue compares a parsed value with x by meaning, not formatting.
func sameValue(v *hujson.Value, x any) bool {
	std := v.Clone()
	std.Standardize()
	want := mustValue(x, "", "")
	want.Standardize()
	return sameJSON(std.Pack(), want.Pack())
}

// isOurMCPEntry reports whether a server entry runs `sessiongate mcp`
// (from PATH, or by an absolute path an older install wrote).
func isOurMCPEntry(v *hujson.Value) bool {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return false
	}
	cmd := jsonMember(obj, "command")
	if cmd == nil {
		return false
	}
	lit, ok := cmd.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		return false
	}
	base := strings.TrimSuffix(filepath.Base(filepath.ToSlash(lit.String())), ".exe")
	if base != MCPCommand {
		return false
	}
	av := jsonMember(obj, "args")
	if av == nil {
		return false
	}
	arr, ok := av.Value.(*hujson.Array)
	if !ok || len(arr.Elements) == 0 {
		return false
	}
	first, ok := arr.Elements[0].Value.(hujson.Literal)
	return ok && first.Kind() == '"' && first.String() == "mcp"
}

// mcpEntry reads sessiongate's entry from a client config: the command,
// whether the file exists, and a parse error.
func mcpEntry(root string, c MCPClient) (command string, exists bool, err error) {
	p := filepath.Join(root, filepath.FromSlash(c.Path))
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", true, err
	}
	v, err := hujson.Parse(b)
	if err != nil {
		return "", true, fmt.Errorf("%s is not valid JSON or JSONC: %w", p, err)
	}
	top, ok := v.Value.(*hujson.Object)
	if !ok {
		return "", true, fmt.Errorf("%s is not a JSON object", p)
	}
	sv := jsonMember(top, c.Key)
	if sv == nil {
		return "", true, nil
	}
	servers, ok := sv.Value.(*hujson.Object)
	if !ok {
		return "", true, fmt.Errorf("%s: %q is not an object of servers", p, c.Key)
	}
	e := jsonMember(servers, ServerName)
	if e == nil {
		return "", true, nil
	}
	obj, ok := e.Value.(*hujson.Object)
	if !ok {
		return "", true, fmt.Errorf("%s: server %q is not an object", p, ServerName)
	}
	if cv := jsonMember(obj, "command"); cv != nil {
		if lit, ok := cv.Value.(hujson.Literal); ok && lit.Kind() == '"' {
			return lit.String(), true, nil
		}
	}
	return "", true, fmt.Errorf("%s: server %q has no command", p, ServerName)
}
