// Package startupfile tells a write by the agent to a file that every
// later program start runs or reads: a Python startup file in a
// site-packages folder, or the user's npm config. It needs no session:
// the agent hook (session) asks it for each file tool and shell line.
package startupfile

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/shellline"
)

// Files every later program start runs or reads, written by the agent
// itself (issue 25): a `.pth` file with an `import` line, or a
// sitecustomize.py/usercustomize.py, in a site-packages folder runs at
// every Python start in that environment (`import os; os._exit(0)` makes
// each test run "pass" without running a test); the user's ~/.npmrc
// decides how npm runs every script (script-shell). pip, uv and poetry
// write .pth files too (`pip install -e .`), so only a direct write by the
// agent (a typed line, a file tool) is denied: the installers are left alone.

// PyStartupFile reports whether p is a Python startup file in a
// site-packages (or dist-packages) folder.
func PyStartupFile(p string) bool {
	p = filepath.ToSlash(p)
	if !strings.Contains(p, "/site-packages/") && !strings.Contains(p, "/dist-packages/") && !strings.HasPrefix(p, "site-packages/") {
		return false
	}
	b := filepath.Base(p)
	return strings.HasSuffix(b, ".pth") || b == "sitecustomize.py" || b == "usercustomize.py"
}

// userNpmrcWrite matches a typed line that writes a .npmrc in the home
// folder or another folder outside the repository by a redirection, tee,
// cp, mv or install (the line rules' write list leaves out paths that start
// with ~ or $HOME).
var userNpmrcWrite = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:>>?|\btee(?:\s+-a)?|\b(?:cp|mv|install|ln)\s+(?:-\S+\s+)*\S+)\s*["']?((?:~|\$HOME|\$\{HOME\}|/)[^\s"';|&]*\.npmrc)\b`)
})

// userGitConfigWrite matches a typed line that writes git's user or
// system config by a redirection, tee, an in-place sed, or as the last
// operand of cp/mv/install/ln; the config named as a source
// (`cp ~/.gitconfig /tmp/backup`) is a read. Spellings it misses are
// caught where it matters, before the next commit (session/hooksdir.go).
var userGitConfigWrite = sync.OnceValue(func() *regexp.Regexp {
	target := `["']?((?:~|\$HOME|\$\{HOME\}|"\$HOME")/(?:\.gitconfig|\.config/git/config)|\$\{?XDG_CONFIG_HOME\}?/git/config|/etc/gitconfig)["']?`
	writer := `(?:>>?|>\||\btee(?:\s+-a)?\s+(?:[^\s;&|]+\s+)*?|\bsed\s+(?:[^\s;&|]+\s+)*?-i\S*\s+(?:[^\s;&|]+\s+)*?)\s*` + target + `(?:[\s;&|)]|$)`
	last := `\b(?:cp|mv|install|ln)\s+(?:[^\s;&|]+\s+)+` + target + `\s*(?:[;&|)]|$)`
	return regexp.MustCompile(writer + `|` + last)
})

// UserGitConfig reports whether the absolute path p is git's user or
// system config: ~/.gitconfig, $XDG_CONFIG_HOME/git/config (or
// ~/.config/git/config), /etc/gitconfig. A core.hooksPath set there
// replaces the repository's hooks folder, where sessiongate's hooks are.
func UserGitConfig(p string) bool {
	if !filepath.IsAbs(p) {
		return false
	}
	p = filepath.Clean(p)
	if p == filepath.FromSlash("/etc/gitconfig") {
		return true
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return false
	}
	for _, c := range []string{filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config")} {
		if p == c {
			return true
		}
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" && p == filepath.Join(x, "git", "config") {
		return true
	}
	return false
}

// Call is the tool call Write judges, as the agent hook read it.
type Call struct {
	Tool    string // the tool's name ("" reads "the tool")
	Edit    bool   // a file tool: Paths are the files it writes
	Shell   bool   // a shell line: Command
	Dialect shellline.Dialect
	Command string
	Paths   []string // an edit's files
}

// Write names a write by the agent to a Python startup file or the
// user's npm config, "" when the call makes none. paths are the shell
// line's writes (absolute); active: the npm config is the session's
// concern only while one runs.
func Write(root string, call Call, paths []string, active bool) string {
	switch {
	case call.Edit:
		paths = call.Paths
	case call.Shell:
	default:
		return ""
	}
	if call.Shell && call.Dialect != shellline.PowerShell {
		// What the line builds (`d=...site-packages; echo ... > $d/x.pth`,
		// a glob `python3*`), and a copy into the folder itself
		// (`cp x.pth .venv/lib/python3.12/site-packages/`): the file the
		// copy makes is named by the line's other words.
		targets, _, _ := shellline.WriteTargets(call.Command)
		cand := append([]string{}, paths...)
		for _, t := range targets {
			cand = append(cand, t.Text)
		}
		names := strings.Contains(call.Command, ".pth") || strings.Contains(call.Command, "sitecustomize") || strings.Contains(call.Command, "usercustomize")
		for _, p := range cand {
			q := strings.TrimSuffix(filepath.ToSlash(p), "/")
			if PyStartupFile(p) || names && (path.Base(q) == "site-packages" || path.Base(q) == "dist-packages") {
				return fmt.Sprintf("%s writes %s, a Python startup file: every Python start in that environment runs it, a test run too (`import os; os._exit(0)` passes every run)", orTool(call.Tool), p)
			}
		}
	}
	for _, p := range paths {
		if PyStartupFile(p) {
			return fmt.Sprintf("%s writes %s, a Python startup file: every Python start in that environment runs it, a test run too (`import os; os._exit(0)` passes every run)", orTool(call.Tool), filepath.Base(p))
		}
		if active && filepath.Base(p) == ".npmrc" && filepath.IsAbs(p) && !inside(root, p) {
			return fmt.Sprintf("%s writes %s, the user's npm config: its script-shell and node-options decide how `npm test` runs", orTool(call.Tool), p)
		}
		if active && UserGitConfig(p) && !inside(root, p) {
			return fmt.Sprintf("%s writes %s, "+gitConfigWhy, orTool(call.Tool), p)
		}
	}
	if call.Shell && active {
		if m := userNpmrcWrite().FindStringSubmatch(call.Command); m != nil && !strings.HasPrefix(m[1], filepath.ToSlash(root)+"/") {
			return fmt.Sprintf("the shell command writes %s, the user's npm config: its script-shell and node-options decide how `npm test` runs", m[1])
		}
		if m := userGitConfigWrite().FindStringSubmatch(call.Command); m != nil {
			return fmt.Sprintf("the shell command writes %s, "+gitConfigWhy, m[1]+m[2])
		}
	}
	return ""
}

// gitConfigWhy says why git's user config is not the agent's to write.
const gitConfigWhy = "git's user or system config: a core.hooksPath or alias set there takes sessiongate's git hooks away from every commit (use `git config --global KEY VALUE` for what a session needs)"

func orTool(name string) string {
	if name == "" {
		return "the tool"
	}
	return name
}

// inside reports whether the absolute path p is in the worktree at root.
func inside(root, p string) bool {
	rel, err := filepath.Rel(root, filepath.Clean(p))
	return err == nil && filepath.IsLocal(rel)
}
