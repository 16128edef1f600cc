package agenthook

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/shellline"
)

// The hooks find `sessiongate` and `git` by name, so what decides that
// name is as much the gate as the binary (issue 25, round 14 routes):
// a shell startup file the agent's next shell reads (Codex runs each line
// with `bash -lc`, Claude Code snapshots the user's shell at start), which
// can define a `git` function adding `-c core.hooksPath=/dev/null` or put
// a folder of shims ahead on PATH; and a PATH, BASH_ENV or exported
// function set on the line that runs git, which every git hook inherits.

// startupFiles are the shell startup files under the home folder (and
// $ZDOTDIR) that a login or interactive shell reads.
func startupFiles(getenv func(string) string) []string {
	home := getenv("HOME")
	if home == "" || !filepath.IsAbs(home) {
		return nil
	}
	var files []string
	for _, f := range []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".bash_aliases",
		".zshrc", ".zshenv", ".zprofile", ".zlogin", ".kshrc", ".mkshrc", ".config/fish"} {
		files = append(files, filepath.Join(home, f))
	}
	if z := getenv("ZDOTDIR"); z != "" && filepath.IsAbs(z) && filepath.Clean(z) != filepath.Clean(home) {
		for _, f := range []string{".zshrc", ".zshenv", ".zprofile", ".zlogin"} {
			files = append(files, filepath.Join(z, f))
		}
	}
	return files
}

// startupFileWrite says why a tool call writes a shell startup file (""
// when it does not). Any write counts: what the next shell defines from it
// cannot be judged from the line (`cat notes >> ~/.bashrc`), and a person
// can add a line there as easily as the agent can ask for it.
func startupFileWrite(ev *Event, dir string, getenv func(string) string) string {
	files := startupFiles(getenv)
	if len(files) == 0 {
		return ""
	}
	var paths []string
	switch ev.Tool.Kind {
	case session.ToolEdit, session.ToolOther:
		paths = ev.Tool.Paths
	case session.ToolShell:
		ps, _ := ev.shellWrites()
		paths = append(ps, ev.Tool.Paths...)
	default:
		return ""
	}
	why := func(f string) string {
		return "sessiongate: " + ev.Tool.Name + " writes " + f + ", a shell startup file: the agent's next shell and the git hooks it starts read it, and a `git` or `sessiongate` defined there, or a PATH set there, answers for the hooks; ask the person to change it"
	}
	// hit is the startup file (or folder of them) one of ps writes, or "".
	hit := func(ps []string) string {
		for _, p := range ps {
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			p = filepath.Clean(p)
			for _, f := range files {
				if rel, err := filepath.Rel(f, p); err == nil && filepath.IsLocal(rel) || p == f {
					return f
				}
			}
		}
		return ""
	}
	if f := hit(paths); f != "" {
		return why(f)
	}
	if ev.Tool.Kind == session.ToolShell {
		c := ev.Tool.Command
		f := namesConfigFile(c, files, getenv)
		if f == "" {
			return ""
		}
		// Named from the home folder (`>> ~/.profile`): the line is read
		// again with the home folder spelled out, so a read beside a
		// redirection (`source ~/.bashrc && npm test 2>&1`) stays a read.
		home := getenv("HOME")
		if !strings.ContainsAny(home, " \t'\"$`\\") {
			ps, ok := shellline.WritesIn(ev.Tool.Shell, homeWord.ReplaceAllString(c, "${1}"+home+"/"))
			if ok {
				if f := hit(ps); f != "" {
					return why(f)
				}
				return ""
			}
		}
		if lineWrites(c, paths) {
			return why(f)
		}
	}
	return ""
}

// pathAssign is a PATH assignment (prefix, export, env) and its value.
var pathAssign = regexp.MustCompile(`(?:^|[\s;&|(!{])(?:export\s+|declare\s+-x\s+|env\s+(?:-\S+\s+)*)?PATH=("[^"]*"|'[^']*'|[^\s;&|)]*)`)

// hookEnv is a variable or export that changes what a shell a git hook
// starts runs: BASH_ENV is sourced by a non-interactive bash (a hook with
// a bash shebang), an exported function is imported by it. (ENV is read
// by interactive shells only.)
var hookEnv = regexp.MustCompile(`(?:^|[\s;&|(!{])(?:BASH_ENV=|export\s+-f\b|declare\s+-[a-z]*f[a-z]*x|declare\s+-[a-z]*x[a-z]*f|typeset\s+-[a-z]*fx|typeset\s+-[a-z]*xf)`)

// shadowDef defines git or sessiongate as an alias, a function, a hashed
// path or a loaded builtin.
var shadowDef = regexp.MustCompile(`(?:^|[\s;&|(!{])(?:alias\s+(?:-\S+\s+)*["']?(?:git|sessiongate)=|hash\s+(?:-\S+\s+)*-p\s+\S+\s+(?:git|sessiongate)\b|enable\s+(?:-\S+\s+)*-f\s+\S+\s+(?:\S+\s+)*(?:git|sessiongate)\b|function\s+(?:git|sessiongate)\b|(?:git|sessiongate)\s*\(\s*\))`)

// gitRunsShim says why a shell line changes how git's hooks find
// sessiongate ("" when it does not): a PATH folder holding a `sessiongate`
// or `git`, or, on a line that runs git, a PATH folder that is not spelled
// out or not there yet (the line may make it), BASH_ENV or an exported
// function.
func gitRunsShim(line, dir string, getenv func(string) string) string {
	if m := shadowDef.FindString(line); m != "" {
		// Copilot's shell lives on between calls: a `git` defined now
		// answers the agent's later `git commit`.
		return "sessiongate: `" + strings.TrimSpace(m) + "` defines a `git` or `sessiongate` in the agent's shell, which a later line of the same shell runs instead of the real one, so the agent being policed may not define one"
	}
	if !strings.Contains(line, "PATH=") && !hookEnv.MatchString(line) {
		return "" // the common case: nothing to parse
	}
	runsGit := false
	for _, l := range append([]string{line}, shellline.Inner(line)...) {
		for _, p := range shellline.Programs(l) {
			if w := shellline.StripWrappers(p); len(w) > 0 && strings.TrimSuffix(filepath.Base(w[0]), ".exe") == "git" {
				runsGit = true
			}
		}
	}
	why := func(what string) string {
		return "sessiongate: `" + shortCmd(line) + "` " + what + ": git's hooks run `sessiongate` by name with the line's environment, so the agent being policed may not change how they find it"
	}
	if runsGit && hookEnv.MatchString(line) {
		return why("sets BASH_ENV or an exported function for git")
	}
	home := getenv("HOME")
	for _, m := range pathAssign.FindAllStringSubmatch(line, -1) {
		v := strings.Trim(m[1], `"'`)
		for _, d := range strings.Split(v, ":") {
			switch d {
			case "", "$PATH", "${PATH}":
				continue
			}
			for _, pre := range []string{"$PWD", "${PWD}"} {
				if rest, ok := strings.CutPrefix(d, pre); ok {
					d = dir + rest
				}
			}
			for _, pre := range []string{"~", "$HOME", "${HOME}"} {
				if rest, ok := strings.CutPrefix(d, pre); ok && home != "" && filepath.IsAbs(home) {
					d = home + rest
				}
			}
			if strings.ContainsAny(d, "$`") {
				if runsGit {
					return why("puts a folder it does not spell out on PATH for git")
				}
				continue
			}
			if !filepath.IsAbs(d) {
				d = filepath.Join(dir, d)
			}
			if _, err := os.Stat(d); err != nil {
				if runsGit {
					return why("puts a folder that is not there yet on PATH for git")
				}
				continue
			}
			for _, n := range []string{"sessiongate", "sessiongate.exe", "git", "git.exe"} {
				fi, err := os.Stat(filepath.Join(d, n))
				if err != nil {
					continue
				}
				// The one PATH finds already (/usr/bin ahead again) is
				// no shim.
				if real := lookIn(getenv("PATH"), n); real != nil && os.SameFile(fi, real) {
					continue
				}
				return why("puts " + filepath.Join(d, n) + " on PATH")
			}
		}
	}
	return ""
}

// lookIn is the file a PATH value resolves name to (nil when none).
func lookIn(path, name string) os.FileInfo {
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return fi
		}
	}
	return nil
}

func shortCmd(l string) string {
	if len(l) > 80 {
		return l[:80] + "..."
	}
	return l
}
