package transcript

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DataDir is the folder under which an agent CLI keeps its transcripts,
// from the environment the agent ran its hook with:
//   - claude: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects
//   - gemini: $GEMINI_CLI_HOME/.gemini/tmp, else ~/.gemini/tmp
//   - codex: $CODEX_HOME/sessions, else ~/.codex/sessions
//   - copilot: $COPILOT_HOME/session-state, else ~/.copilot/session-state
func DataDir(agent string, getenv func(string) string) (string, error) {
	home := getenv("HOME")
	if home == "" {
		home = getenv("USERPROFILE")
	}
	under := func(env string, def ...string) (string, error) {
		if v := getenv(env); v != "" {
			if !filepath.IsAbs(v) {
				return "", fmt.Errorf("%s=%q is not an absolute path", env, v)
			}
			return v, nil
		}
		if home == "" || !filepath.IsAbs(home) {
			return "", errors.New("no absolute HOME to find the agent's data folder")
		}
		return filepath.Join(append([]string{home}, def...)...), nil
	}
	var root string
	var err error
	switch agent {
	case Claude:
		root, err = under("CLAUDE_CONFIG_DIR", ".claude")
		root = filepath.Join(root, "projects")
	case Gemini:
		if v := getenv("GEMINI_CLI_HOME"); v != "" && filepath.IsAbs(v) {
			return filepath.Join(v, ".gemini", "tmp"), nil
		}
		root, err = under("", ".gemini")
		root = filepath.Join(root, "tmp")
	case Codex:
		root, err = under("CODEX_HOME", ".codex")
		root = filepath.Join(root, "sessions")
	case Copilot:
		root, err = under("COPILOT_HOME", ".copilot")
		root = filepath.Join(root, "session-state")
	default:
		return "", fmt.Errorf("no transcript format for agent %q", agent)
	}
	if err != nil {
		return "", err
	}
	return filepath.Clean(root), nil
}

// Check decides whether path, as an agent CLI named it in a hook payload,
// may be read as that agent's transcript, and returns it with symlinks
// resolved. It must be an absolute .jsonl path inside the agent's data
// folder (DataDir) once symlinks are resolved, never inside the
// repository's work tree, and, when it exists, a regular file (not a
// symlink to something else). worktree is the repository root.
func Check(agent, path string, getenv func(string) string, worktree string) (string, error) {
	if path == "" {
		return "", errors.New("no transcript path")
	}
	if len(path) > 4096 || strings.ContainsRune(path, 0) {
		return "", errors.New("transcript path is not a usable path")
	}
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("transcript path %q is not absolute", path)
	}
	if filepath.Ext(path) != ".jsonl" {
		return "", fmt.Errorf("transcript path %q is not a .jsonl file", path)
	}
	dir, err := DataDir(agent, getenv)
	if err != nil {
		return "", fmt.Errorf("%s's data folder: %w", agent, err)
	}
	rdir := resolve(dir)
	rpath := resolve(filepath.Clean(path))
	if !inside(rdir, rpath) {
		return "", fmt.Errorf("transcript path %s is not inside %s's data folder %s", path, agent, dir)
	}
	if worktree != "" {
		if wt := resolve(worktree); inside(wt, rpath) || inside(wt, rdir) {
			return "", fmt.Errorf("transcript path %s is inside the repository's work tree %s: the agent could write it", path, worktree)
		}
	}
	if fi, err := os.Lstat(rpath); err == nil && !fi.Mode().IsRegular() {
		return "", fmt.Errorf("transcript path %s is not a regular file", path)
	}
	return rpath, nil
}

// resolve resolves the symlinks of p's longest existing ancestor (the
// transcript, even its folder, may not exist yet at session start).
func resolve(p string) string {
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// inside reports whether p is dir or below it.
func inside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}
