package session

import (
	"fmt"
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

// pyStartupFile reports whether p is a Python startup file in a
// site-packages (or dist-packages) folder.
func pyStartupFile(p string) bool {
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

// startupWrite names a write by the agent to a Python startup file or the
// user's npm config, "" when the call makes none. paths are the shell
// line's writes (absolute); active: the npm config is the session's
// concern only while one runs.
func startupWrite(root string, call ToolCall, paths []string, active bool) string {
	switch call.Kind {
	case ToolEdit:
		paths = call.Paths
	case ToolShell:
	default:
		return ""
	}
	if call.Kind == ToolShell && call.Shell != shellline.PowerShell {
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
			if pyStartupFile(p) || names && (path.Base(q) == "site-packages" || path.Base(q) == "dist-packages") {
				return fmt.Sprintf("%s writes %s, a Python startup file: every Python start in that environment runs it, a test run too (`import os; os._exit(0)` passes every run)", orTool(call.Name), p)
			}
		}
	}
	for _, p := range paths {
		if pyStartupFile(p) {
			return fmt.Sprintf("%s writes %s, a Python startup file: every Python start in that environment runs it, a test run too (`import os; os._exit(0)` passes every run)", orTool(call.Name), filepath.Base(p))
		}
		if active && filepath.Base(p) == ".npmrc" && len(inWorktree(root, []string{p})) == 0 && filepath.IsAbs(p) {
			return fmt.Sprintf("%s writes %s, the user's npm config: its script-shell and node-options decide how `npm test` runs", orTool(call.Name), p)
		}
	}
	if call.Kind == ToolShell && active {
		if m := userNpmrcWrite().FindStringSubmatch(call.Command); m != nil && !strings.HasPrefix(m[1], filepath.ToSlash(root)+"/") {
			return fmt.Sprintf("the shell command writes %s, the user's npm config: its script-shell and node-options decide how `npm test` runs", m[1])
		}
	}
	return ""
}
