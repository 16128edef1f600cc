package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MCPClient is one MCP client's project configuration file.
type MCPClient struct {
	Name string // claude, cursor, vscode
	Path string // relative to the work tree root
	Key  string // top-level object that holds the servers
	// Entry returns the server entry for an absolute binary path.
	Entry func(binary string) map[string]any
}

// ServerName is the key sessiongate's entry has in every client config.
const ServerName = "sessiongate"

// MCPClients are the clients install --mcp knows.
var MCPClients = []MCPClient{
	{Name: "claude", Path: ".mcp.json", Key: "mcpServers", Entry: func(bin string) map[string]any {
		return map[string]any{"command": bin, "args": []string{"mcp"}}
	}},
	{Name: "cursor", Path: filepath.Join(".cursor", "mcp.json"), Key: "mcpServers", Entry: func(bin string) map[string]any {
		return map[string]any{"command": bin, "args": []string{"mcp"}}
	}},
	{Name: "vscode", Path: filepath.Join(".vscode", "mcp.json"), Key: "servers", Entry: func(bin string) map[string]any {
		return map[string]any{"type": "stdio", "command": bin, "args": []string{"mcp"}}
	}},
}

func parseClients(names []string) ([]MCPClient, error) {
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
			return nil, fmt.Errorf("install: unknown MCP client %q (want claude, cursor or vscode)", n)
		}
	}
	return out, nil
}

// member is one key of a JSON object, its value kept as written.
type member struct {
	key string
	val json.RawMessage
}

// object is a JSON object that keeps its key order, so merging into a
// user's file changes only our entry.
type object []member

func (o object) get(k string) (json.RawMessage, bool) {
	for _, m := range o {
		if m.key == k {
			return m.val, true
		}
	}
	return nil, false
}

func (o object) set(k string, v json.RawMessage) object {
	for i := range o {
		if o[i].key == k {
			o[i].val = v
			return o
		}
	}
	return append(o, member{k, v})
}

// parseObject reads a JSON object keeping key order; anything else, or
// trailing data, is an error with the byte offset.
func parseObject(b []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonErr(b, dec, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("the top level is not a JSON object")
	}
	var o object
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, jsonErr(b, dec, err)
		}
		k := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, jsonErr(b, dec, err)
		}
		o = append(o, member{k, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, jsonErr(b, dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the top-level object at %s", lineCol(b, dec.InputOffset()))
	}
	return o, nil
}

func jsonErr(b []byte, dec *json.Decoder, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%v at %s", err, lineCol(b, se.Offset))
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("unexpected end of file")
	}
	return fmt.Errorf("%v at %s", err, lineCol(b, dec.InputOffset()))
}

func lineCol(b []byte, off int64) string {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	line, col := 1, 1
	for _, c := range b[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("line %d, column %d", line, col)
}

// encode writes an ordered object with two-space indentation, each value
// re-indented from its original text.
func (o object) encode() ([]byte, error) {
	var b bytes.Buffer
	if len(o) == 0 {
		return []byte("{}\n"), nil
	}
	b.WriteString("{\n")
	for i, m := range o {
		k, _ := json.Marshal(m.key)
		b.WriteString("  ")
		b.Write(k)
		b.WriteString(": ")
		var v bytes.Buffer
		if err := json.Indent(&v, m.val, "  ", "  "); err != nil {
			return nil, err
		}
		b.Write(v.Bytes())
		if i < len(o)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// writeMCPConfig merges sessiongate's server entry into one client's config
// at root, keeping every other key and server. A file that is not valid
// JSON is left untouched and reported.
func writeMCPConfig(root string, c MCPClient, binary string) (Change, error) {
	p := filepath.Join(root, c.Path)
	old, err := os.ReadFile(p)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Change{}, fmt.Errorf("install --mcp %s: read %s: %w", c.Name, p, err)
	}
	var top object
	if exists && len(bytes.TrimSpace(old)) > 0 {
		if top, err = parseObject(old); err != nil {
			return Change{}, fmt.Errorf("install --mcp %s: %s is not valid JSON (%v): fix or remove it; it was left untouched", c.Name, p, err)
		}
	}
	var servers object
	if raw, ok := top.get(c.Key); ok {
		if servers, err = parseObject(raw); err != nil {
			return Change{}, fmt.Errorf("install --mcp %s: %s: %q is not a JSON object (%v): fix it; the file was left untouched", c.Name, p, c.Key, err)
		}
	}
	entry, err := json.Marshal(c.Entry(binary))
	if err != nil {
		return Change{}, err
	}
	if cur, ok := servers.get(ServerName); ok && sameJSON(cur, entry) {
		return Change{Path: p, Action: "unchanged"}, nil
	}
	servers = servers.set(ServerName, entry)
	sb, err := servers.encode()
	if err != nil {
		return Change{}, err
	}
	top = top.set(c.Key, bytes.TrimSpace(sb))
	out, err := top.encode()
	if err != nil {
		return Change{}, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return Change{}, fmt.Errorf("install --mcp %s: %w", c.Name, err)
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(p); err == nil {
		mode = st.Mode().Perm()
	}
	if err := writeFileAtomic(p, out, mode); err != nil {
		return Change{}, fmt.Errorf("install --mcp %s: %w", c.Name, err)
	}
	action := "wrote"
	if exists {
		action = "updated"
	}
	return Change{Path: p, Action: action, Note: "MCP server " + ServerName + " for " + c.Name}, nil
}

// sameJSON compares two JSON values by meaning, not formatting.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

// mcpEntry reads sessiongate's entry from a client config: the command,
// whether the file exists, and a parse error.
func mcpEntry(root string, c MCPClient) (command string, exists bool, err error) {
	p := filepath.Join(root, c.Path)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", true, err
	}
	top, err := parseObject(b)
	if err != nil {
		return "", true, fmt.Errorf("%s is not valid JSON: %w", p, err)
	}
	raw, ok := top.get(c.Key)
	if !ok {
		return "", true, nil
	}
	var servers map[string]struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal(raw, &servers); err != nil {
		return "", true, fmt.Errorf("%s: %q is not an object of servers: %w", p, c.Key, err)
	}
	return servers[ServerName].Command, true, nil
}
