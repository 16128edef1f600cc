package hooks

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// codexTrust is what $CODEX_HOME/config.toml says about a project: Codex
// loads a project's .codex/ (its hooks.json included) only when the project
// is trusted, and runs each hook only once the hook is trusted too
// ([hooks.state."<key>"] trusted_hash, or --dangerously-bypass-hook-trust).
type codexTrust struct {
	Config      string // the config.toml read
	Exists      bool
	Trusted     bool   // [projects."<root or a parent>"] trust_level = "trusted"
	TrustedAt   string // the folder the trust entry names
	HookStates  int    // [hooks.state."..."] entries that name this project
	HookTrusted int    // of those, with a trusted_hash
	Err         error
}

// readCodexTrust scans config.toml line by line for the tables that
// matter (no TOML library: only table headers and two keys are read).
func readCodexTrust(root string, getenv func(string) string) codexTrust {
	home := getenv("CODEX_HOME")
	if home == "" {
		h := getenv("HOME")
		if h == "" {
			h = getenv("USERPROFILE")
		}
		home = filepath.Join(h, ".codex")
	}
	ct := codexTrust{Config: filepath.Join(home, "config.toml")}
	b, err := os.ReadFile(ct.Config)
	if errors.Is(err, fs.ErrNotExist) {
		return ct
	}
	ct.Exists = true
	if err != nil {
		ct.Err = err
		return ct
	}
	roots := map[string]bool{}
	for p := filepath.Clean(root); ; p = filepath.Dir(p) {
		roots[p] = true
		if real, err := filepath.EvalSymlinks(p); err == nil {
			roots[real] = true
		}
		if filepath.Dir(p) == p {
			break
		}
	}
	table, tableKey := "", ""
	hookTrusted := false
	flush := func() {
		if table == "hooks.state" && strings.Contains(tableKey, root) {
			ct.HookStates++
			if hookTrusted {
				ct.HookTrusted++
			}
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") && !strings.HasPrefix(line, "[[") {
			flush()
			table, tableKey, hookTrusted = splitTableHeader(line)
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.Trim(strings.TrimSpace(strings.SplitN(v, "#", 2)[0]), `"'`)
		switch {
		case table == "projects" && k == "trust_level" && v == "trusted" && roots[filepath.Clean(tableKey)]:
			if !ct.Trusted || len(tableKey) > len(ct.TrustedAt) {
				ct.Trusted, ct.TrustedAt = true, tableKey
			}
		case table == "hooks.state" && k == "trusted_hash" && v != "":
			hookTrusted = true
		}
	}
	flush()
	return ct
}

// splitTableHeader reads `[projects."/a/b"]` as ("projects", "/a/b").
func splitTableHeader(line string) (table, key string, _ bool) {
	line = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(line, "#", 2)[0], "["), " "))
	line = strings.TrimSuffix(strings.TrimSpace(line), "]")
	for _, q := range []string{`"`, `'`} {
		if i := strings.Index(line, q); i > 0 && strings.HasSuffix(line, q) {
			return strings.TrimSuffix(line[:i], "."), line[i+1 : len(line)-1], false
		}
	}
	return line, "", false
}
