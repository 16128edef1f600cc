package agenthook

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/session"
)

// Every agent hook config (and every git hook) runs `sessiongate` from
// PATH, and the agent's shell has the CLI's PATH. A user folder on it
// (~/.local/bin, ~/go/bin where `go install` puts sessiongate) is the
// agent's to write: a `sessiongate` there that answers `{}`, or one written
// over the installed binary, turns every later hook into an allow (issue
// 25, tried with the real Claude Code and Codex CLIs:
// TestClaudeLazyAgentShadowsSessiongateOnPath). The hook's own PATH is the
// agent's, so the names it would resolve are known here.

// selfNames are the files a hook process would run as sessiongate.
var selfNames = []string{"sessiongate", "sessiongate.exe"}

// sessiongatePaths are the files that would run as `sessiongate` from PATH
// (a new one in any PATH folder shadows the rest) and the binary running
// now; dirs are the folders holding the one PATH resolves to and this
// binary (removing or renaming such a folder leaves the hooks with
// "command not found", which the CLIs take as a non-blocking error).
func sessiongatePaths(getenv func(string) string) (files, dirs []string) {
	for _, d := range filepath.SplitList(getenv("PATH")) {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		for _, n := range selfNames {
			files = append(files, filepath.Join(filepath.Clean(d), n))
		}
	}
	var exes []string
	if exe, err := os.Executable(); err == nil {
		exes = append(exes, exe)
		if real, err := filepath.EvalSymlinks(exe); err == nil && real != exe {
			exes = append(exes, real)
		}
	}
	if p, err := exec.LookPath("sessiongate"); err == nil && filepath.IsAbs(p) {
		exes = append(exes, p)
	}
	for _, e := range exes {
		files = append(files, filepath.Clean(e))
		dirs = append(dirs, filepath.Dir(filepath.Clean(e)))
	}
	return files, dirs
}

// foundAsTarget: a lookup of sessiongate by name in target position.
var foundAsTarget = lazyregexp.New("(>\\s*|\\s)\"?(\\$\\(|`)\\s*(which|command -v|type -[pP]|whereis)\\s+sessiongate\\s*(\\)|`)\"?\\s*($|[;&|)\\n])")

// selfBinaryWrite says why a tool call writes a file that would run as
// sessiongate, or one of its folders ("" when it does not): a path the edit
// names, a shell line's literal write target, the same named from the home
// folder (`~/.local/bin/sessiongate`), or a line that writes and finds the
// binary by name (`cp /bin/true "$(which sessiongate)"`).
func selfBinaryWrite(ev *Event, dir string, getenv func(string) string) string {
	paths, ok := eventWrites(ev)
	if !ok {
		return ""
	}
	files, dirs := sessiongatePaths(getenv)
	why := func(f string) string {
		return "sessiongate: " + ev.Tool.Name + " writes " + f + ", which the agent's and git's hooks run as `sessiongate` from PATH: a replacement there would answer every hook, so the agent being policed may not write it"
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		for _, f := range files {
			if p == f {
				return why(f)
			}
		}
		for _, d := range dirs {
			// A folder that holds the agent's own folder is no install
			// folder of the agent's (a binary built in the worktree).
			if rel, err := filepath.Rel(d, dir); err == nil && filepath.IsLocal(rel) || d == dir {
				continue
			}
			if p == d {
				return why(d)
			}
		}
	}
	// A git ahead on PATH: git runs the git hooks, a shim can skip them.
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		if shadowName(p) && filepath.Base(p) != "sessiongate" && onPath(filepath.Dir(p), getenv) {
			return why(p)
		}
	}
	if ev.Tool.Kind != session.ToolShell {
		return ""
	}
	c := ev.Tool.Command
	if w := installsShadow(c, dir, getenv); w != "" {
		return w
	}
	writes := lineWrites(c, paths)
	for _, w := range []string{"chmod ", "rm ", "ln ", "unlink ", "shutil."} {
		writes = writes || strings.Contains(c, w)
	}
	if f := namesConfigFile(c, files, getenv); f != "" && writes {
		return why(f)
	}
	// The binary found by name and written to: the last word of a
	// command (cp/mv/ln/install/tee's destination) or a redirection's
	// target, `cp /bin/true "$(which sessiongate)"`; python's
	// shutil.which. Copying it elsewhere (a source) is judged elsewhere.
	if foundAsTarget.MatchString(c) && writes {
		return why("the sessiongate that `which sessiongate` finds")
	}
	for _, find := range []string{"which('sessiongate')", `which("sessiongate")`} {
		if strings.Contains(c, find) && writes {
			return why("the sessiongate that `" + find + "` finds")
		}
	}
	return ""
}

// onPath reports whether d is one of PATH's folders.
func onPath(d string, getenv func(string) string) bool {
	for _, e := range filepath.SplitList(getenv("PATH")) {
		if filepath.IsAbs(e) && filepath.Clean(e) == d {
			return true
		}
	}
	return false
}
