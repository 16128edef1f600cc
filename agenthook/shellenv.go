package agenthook

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
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
	// Claude Code sources the files of its session-env folder (what its
	// SessionStart, Setup, CwdChanged and FileChanged hooks wrote through
	// CLAUDE_ENV_FILE) before each Bash call: an `export
	// P=SESSION-PROTOCOL.md` written there is set in every later call,
	// where `rm "$P"` names no file (round 22).
	claude := filepath.Join(home, ".claude")
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" && filepath.IsAbs(d) {
		claude = d
	}
	files = append(files, filepath.Join(claude, "session-env"))
	if f := getenv("CLAUDE_ENV_FILE"); f != "" && filepath.IsAbs(f) {
		files = append(files, filepath.Clean(f))
	}
	return files
}

// envFileWord is the variable naming Claude Code's session env file.
var envFileWord = lazyregexp.New(`\$(?:CLAUDE_ENV_FILE\b|\{CLAUDE_ENV_FILE\})`)

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
		if envFileWord.MatchString(c) {
			// `echo 'export P=...' >> "$CLAUDE_ENV_FILE"`: read with the
			// file spelled out (a file of the session-env folder when the
			// hook's environment does not hold it).
			f := getenv("CLAUDE_ENV_FILE")
			if f == "" || !filepath.IsAbs(f) {
				f = filepath.Join(files[len(files)-1], "session", "sessionstart-hook-0.sh")
				for _, g := range files {
					if filepath.Base(g) == "session-env" {
						f = filepath.Join(g, "session", "sessionstart-hook-0.sh")
					}
				}
			}
			if !strings.ContainsAny(f, " \t'\"$`\\") {
				if ps, ok := shellline.WritesIn(ev.Tool.Shell, envFileWord.ReplaceAllString(c, f)); ok {
					if f := hit(ps); f != "" {
						return why(f)
					}
				}
			}
		}
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
var pathAssign = lazyregexp.New(`(?:^|[\s;&|(!{])(?:export\s+|declare\s+-x\s+|env\s+(?:-\S+\s+)*)?PATH=("[^"]*"|'[^']*'|[^\s;&|)]*)`)

// hookEnv is a variable or export that changes what a shell a git hook
// starts runs: BASH_ENV is sourced by a non-interactive bash (a hook with
// a bash shebang), an exported function is imported by it. (ENV is read
// by interactive shells only.)
var hookEnv = lazyregexp.New(`(?:^|[\s;&|(!{])(?:BASH_ENV=|export\s+-f\b|declare\s+-[a-z]*f[a-z]*x|declare\s+-[a-z]*x[a-z]*f|typeset\s+-[a-z]*fx|typeset\s+-[a-z]*xf)`)

// gitRunsShim says why a shell line changes how git's hooks find
// sessiongate ("" when it does not): a PATH folder holding a `sessiongate`
// or `git`, or, on a line that runs git, a PATH folder that is not spelled
// out or not there yet (the line may make it), BASH_ENV or an exported
// function.
//
// persistent is a shell that lives on between calls (Copilot's): what an
// earlier line exported there (GOPATH) is not in the hook's environment,
// so no expansion is read from it.
func gitRunsShim(line, dir string, getenv func(string) string, persistent bool) string {
	// Read from the parse: quoted text and a here-document's body
	// (`grep 'func git()' -r .`) define nothing.
	if m := shellline.DefinesCommand(line, "git", "sessiongate"); m != "" {
		// Copilot's shell lives on between calls: a `git` defined now
		// answers the agent's later `git commit`.
		return "sessiongate: `" + m + "` defines a `git` or `sessiongate` in the agent's shell, which a later line of the same shell runs instead of the real one, so the agent being policed may not define one"
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
	goDirs := !persistent && !goEnvSet.MatchString(line)
	var bases []string // the line's folders, read when an element is relative
	basesRead := false
	for _, m := range pathAssign.FindAllStringSubmatch(line, -1) {
		v := strings.Trim(m[1], `"'`)
		for _, d := range strings.Split(v, ":") {
			switch d {
			case "$PATH", "${PATH}":
				continue
			case "":
				// An empty element is the current folder (POSIX), where
				// git runs its hooks: a `sessiongate` there answers.
				if v == "" || !runsGit {
					continue
				}
				return why("puts the current folder on PATH for git (an empty PATH element)")
			}
			// What the hook knows without running anything: Go's folders
			// from its environment and go's env file (unless the line
			// changes them), and the line's folder.
			if goDirs {
				d = goEnvDir.ReplaceAllStringFunc(d, func(x string) string {
					if v := goEnv(goEnvName(x), getenv); v != "" {
						return v
					}
					return x // unknown: judged as not spelled out
				})
			}
			for _, pre := range []string{"$(pwd)", "`pwd`"} {
				if rest, ok := strings.CutPrefix(d, pre); ok {
					d = "$PWD" + rest
				}
			}
			rel := false
			for _, pre := range []string{"$PWD", "${PWD}"} {
				if rest, ok := strings.CutPrefix(d, pre); ok {
					d, rel = "."+rest, true
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
			// A relative folder (or $PWD) is where the line is when PATH
			// is set: its folder, or one a `cd` on the line moves to.
			cands := []string{d}
			if rel = rel || !filepath.IsAbs(d); rel {
				if !basesRead {
					bases, basesRead = lineFolders(line, dir, home), true
				}
				if len(bases) == 0 && runsGit {
					return why("puts a folder on PATH for git after a `cd` it does not spell out")
				}
				cands = cands[:0]
				for _, b := range bases {
					cands = append(cands, filepath.Join(b, d))
				}
			}
			for _, d := range cands {
				if why := shimIn(d, line, dir, runsGit, getenv); why != "" {
					return why
				}
			}
		}
	}
	return ""
}

// shimIn says why the folder d, put on PATH by line, answers for git's
// hooks ("" when it does not): it holds a `sessiongate` or `git` other than
// the ones PATH finds, or, on a line that runs git, it is not there yet
// or the line writes into it (`cp x bin/sessiongate && PATH=$PWD/bin:$PATH
// git commit`).
func shimIn(d, line, dir string, runsGit bool, getenv func(string) string) string {
	why := func(what string) string {
		return "sessiongate: `" + shortCmd(line) + "` " + what + ": git's hooks run `sessiongate` by name with the line's environment, so the agent being policed may not change how they find it"
	}
	d = filepath.Clean(d)
	if _, err := os.Stat(d); err != nil {
		if runsGit {
			return why("puts a folder that is not there yet on PATH for git")
		}
		return ""
	}
	if runsGit {
		if ws, ok := shellline.Writes(line); ok {
			for _, w := range ws {
				if !filepath.IsAbs(w) {
					w = filepath.Join(dir, w)
				}
				if w = filepath.Clean(w); w == d || filepath.Dir(w) == d {
					return why("writes into " + d + ", a folder it puts on PATH for git")
				}
			}
		}
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
	return ""
}

// lineFolders lists the folders a line is in: its start folder and each
// one a literal `cd` or `pushd` on it moves to (in order, each from the
// last). None when a `cd` goes where only run time knows (`cd "$D"`, `cd -`).
func lineFolders(line, dir, home string) []string {
	out := []string{dir}
	cur := dir
	for _, p := range shellline.Programs(line) {
		w := shellline.StripWrappers(p)
		if len(w) == 0 || w[0] != "cd" && w[0] != "pushd" {
			continue
		}
		var t string
		for _, a := range w[1:] {
			if !strings.HasPrefix(a, "-") || a == "-" {
				t = a
				break
			}
		}
		switch {
		case len(w) == 1 || t == "" && len(w) > 1 && strings.HasPrefix(w[len(w)-1], "-") && w[len(w)-1] != "-":
			t = home
		case t == "" || t == "-" || strings.HasPrefix(t, "~") && len(t) > 1 && t[1] != '/':
			return nil
		}
		if rest, ok := strings.CutPrefix(t, "~"); ok {
			t = home + rest
		}
		if t == "" {
			return nil
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(cur, t)
		}
		cur = filepath.Clean(t)
		out = append(out, cur)
	}
	return out
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

// goEnvDir is a PATH element part naming one of Go's folders: `$(go env
// GOPATH)`, its backquoted form, $GOPATH or ${GOBIN}.
var goEnvDir = lazyregexp.New("\\$\\(\\s*go\\s+env\\s+(?:GOPATH|GOBIN)\\s*\\)|`\\s*go\\s+env\\s+(?:GOPATH|GOBIN)\\s*`|\\$\\{?(?:GOPATH|GOBIN)\\}?")

// goEnvSet is a line that changes what `go env` answers: it sets GOPATH,
// GOBIN or GOENV, or writes go's env file.
var goEnvSet = lazyregexp.New(`\b(?:GOPATH|GOBIN|GOENV|GOROOT)=|\bgo\s+env\s+(?:-\S+\s+)*-[wu]\b`)

func goEnvName(x string) string {
	if strings.Contains(x, "GOBIN") {
		return "GOBIN"
	}
	return "GOPATH"
}

// goEnv is what `go env NAME` prints for GOPATH or GOBIN, read as go reads
// it (the environment, then go's env file, then GOPATH's default) without
// running go: the first GOPATH folder's answer is what `$(go env
// GOPATH)/bin` names when GOPATH is one folder. "" when unknown (a GOPATH
// list, no home folder).
func goEnv(name string, getenv func(string) string) string {
	v := getenv(name)
	if v == "" {
		file := getenv("GOENV")
		if file == "" {
			if cfg := getenv("XDG_CONFIG_HOME"); cfg != "" && filepath.IsAbs(cfg) {
				file = filepath.Join(cfg, "go", "env")
			} else if h := getenv("HOME"); h != "" && filepath.IsAbs(h) {
				file = filepath.Join(h, ".config", "go", "env")
			}
		}
		if file != "" && file != "off" {
			if b, err := boundedread.File(file, boundedread.DefaultLimit); err == nil {
				for _, l := range strings.Split(string(b), "\n") {
					if k, val, ok := strings.Cut(strings.TrimSpace(l), "="); ok && k == name {
						v = strings.Trim(val, `"'`)
					}
				}
			}
		}
	}
	if v == "" && name == "GOPATH" {
		if h := getenv("HOME"); h != "" && filepath.IsAbs(h) {
			v = filepath.Join(h, "go")
		}
	}
	if v == "" || !filepath.IsAbs(v) || strings.Contains(v, string(os.PathListSeparator)) {
		return ""
	}
	return filepath.Clean(v)
}
