package session

import (
	"path"
	"path/filepath"
	"strings"
)

// DefaultProtectedPaths are the files that decide how a session is policed,
// relative to the worktree root: the config, the agent hook configs, the
// MCP client configs and the pre-commit framework's configs. The protocol
// document is added by ProtectedPaths. .git/hooks is outside the tree and
// is checked by `sessiongate doctor`, not here.
var DefaultProtectedPaths = []string{
	"sessiongate.yaml",
	".sessiongate.yaml",
	".claude/settings.json",
	".claude/settings.local.json",
	".cursor/hooks.json",
	".gemini/settings.json",
	".mcp.json",
	".cursor/mcp.json",
	".vscode/mcp.json",
	".pre-commit-config.yaml",
	".pre-commit-hooks.yaml",
}

// defaultProtocolPaths are protected when no protocol path is known.
var defaultProtocolPaths = []string{"SESSION-PROTOCOL.md", ".agents/SESSION-PROTOCOL.md"}

// ProtectedPaths returns the repository-relative paths and globs that the
// agent being policed must not change during a session (issue 17.4): the
// protocol document (protocolPath, else cfg.ProtocolPath, else both default
// locations), DefaultProtectedPaths and the config's protected_paths. Every
// entry is anchored at the worktree root and uses slashes; `*` matches
// within one segment and `**` any number of segments ("ci/**", "**/x.yaml").
// It returns nil when protection is off (protect: false).
//
// protocolPath may be absolute (it is then made relative to nothing and
// used only when relative; pass a repository-relative path).
func ProtectedPaths(cfg Config, protocolPath string) []string {
	if !cfg.Protect {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		p = strings.TrimPrefix(path.Clean(filepath.ToSlash(p)), "./")
		if p == "" || p == "." || path.IsAbs(p) || strings.HasPrefix(p, "../") || seen[p] {
			return
		}
		seen[p] = true
		out = append(out, p)
	}
	switch {
	case protocolPath != "":
		add(protocolPath)
	case cfg.ProtocolPath != "":
		add(cfg.ProtocolPath)
	default:
		for _, p := range defaultProtocolPaths {
			add(p)
		}
	}
	for _, p := range DefaultProtectedPaths {
		add(p)
	}
	for _, p := range cfg.ProtectedPaths {
		add(p)
	}
	return out
}

// IsProtected reports whether rel, a path relative to the worktree root
// (slashes or the OS separator; "./" allowed), is one of the files the
// policed agent may not change: the agent hook runtime denies Write/Edit
// on it, and pre-commit reports a change to it as a PROTECTED_CHANGE
// violation unless a person ran `sessiongate protocol accept`. Matching is
// case-insensitive (macOS and Windows file systems are), so denying errs on
// the safe side. An absolute path or one that leaves the repository
// returns false: make it relative first (ProtectedRel does, following
// symlinks). Always false with protect: false.
func (e *Engine) IsProtected(rel string) bool {
	return isProtected(ProtectedPaths(e.Config, ""), rel)
}

// ProtectedRel turns p (absolute, or relative to the worktree root) into a
// worktree-relative path, following symlinks so that a link to a protected
// file counts as that file, and reports whether it is protected. A path
// outside root returns ("", false).
func (e *Engine) ProtectedRel(root, p string) (string, bool) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	cands := []string{p}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		cands = append(cands, real)
	} else if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		// A file about to be created: its folder may be a link.
		cands = append(cands, filepath.Join(dir, filepath.Base(p)))
	}
	first := ""
	for _, c := range cands {
		for _, r := range []string{root, realRoot} {
			rel, err := filepath.Rel(r, c)
			if err != nil || !filepath.IsLocal(rel) {
				continue
			}
			if first == "" {
				first = filepath.ToSlash(rel)
			}
			if e.IsProtected(rel) {
				return filepath.ToSlash(rel), true
			}
		}
	}
	return first, false
}

// isProtected matches rel against root-anchored patterns, ignoring case.
func isProtected(patterns []string, rel string) bool {
	rel = filepath.ToSlash(rel)
	if rel == "" || path.IsAbs(rel) || filepath.IsAbs(rel) {
		return false
	}
	rel = path.Clean(rel)
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	name := strings.Split(strings.ToLower(rel), "/")
	for _, p := range patterns {
		if matchSegs(strings.Split(strings.ToLower(p), "/"), name) {
			return true
		}
	}
	return false
}
