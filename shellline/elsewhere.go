package shellline

import (
	"path"
	"path/filepath"
	"strings"
)

// RanElsewhere names the folder outside the worktree root where a command
// line ran its work, or "" when it stayed inside: the line starts in dir
// (the agent's shell folder; "" is the root) and `cd`/`pushd` move it; `git
// -C DIR` and `make -C DIR` (`--directory`) work in DIR, and so do `go
// -C`, `npm --prefix` and `cargo --manifest-path` (runnerDir). A test run after
// `cd ../other-worktree` tested another checkout (a pristine one, or
// another session's), not the session's work: `sessiongate run --phase
// QA_VALIDATION -- sh -c 'cd ../pristine && sh tests/run.sh'` passed the
// QA gate of a session whose change broke the tests. Only literal folders
// are judged (`cd "$dir"` is unknown and left alone).
func RanElsewhere(root, dir, line string) string {
	root = filepath.ToSlash(filepath.Clean(root))
	cwd := root
	if dir != "" && filepath.IsAbs(dir) {
		cwd = filepath.ToSlash(filepath.Clean(dir))
	}
	under := func(p, r string) bool {
		return p == r || strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/")
	}
	realRoot := ""
	inside := func(p string) bool {
		if under(p, root) {
			return true
		}
		// A symlinked spelling of the root (/tmp and /private/tmp) is the root.
		if realRoot == "" {
			realRoot = root
			if r, err := filepath.EvalSymlinks(root); err == nil {
				realRoot = filepath.ToSlash(r)
			}
		}
		if r, err := filepath.EvalSymlinks(filepath.FromSlash(p)); err == nil {
			p = filepath.ToSlash(r)
		}
		return under(p, realRoot)
	}
	if !inside(cwd) {
		return cwd
	}
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return ""
	}
	at := func(from, to string) string {
		if path.IsAbs(to) {
			return path.Clean(to)
		}
		return path.Join(from, to)
	}
	for _, c := range calls {
		// `cd {,/tmp/x}` runs `cd /tmp/x`: the words the shell runs.
		words := expandedWords(c)
		if d := envChdir(words); d != "" && !strings.HasPrefix(d, "~") {
			// `env -C /tmp sh -c exit` ran in /tmp: only the rest of
			// this call moves there, so cwd stays for the next one.
			if p := at(cwd, d); !inside(p) {
				return p
			}
		}
		w := StripWrappers(words)
		if len(w) == 0 {
			continue
		}
		prog := w[0][strings.LastIndexByte(w[0], '/')+1:]
		switch prog {
		case "cd", "pushd":
			if len(w) == 2 && w[1] != "" && w[1] != "-" && !strings.HasPrefix(w[1], "~") {
				cwd = at(cwd, w[1])
				if !inside(cwd) {
					return cwd
				}
			}
		case "git", "make", "gmake":
			for i := 1; i < len(w); i++ {
				d := ""
				switch {
				case w[i] == "-C" && i+1 < len(w):
					d = w[i+1]
				case prog != "git" && strings.HasPrefix(w[i], "--directory="):
					d = strings.TrimPrefix(w[i], "--directory=")
				case prog != "git" && strings.HasPrefix(w[i], "-C") && len(w[i]) > 2:
					d = w[i][2:]
				}
				if d != "" && !strings.HasPrefix(d, "~") {
					if p := at(cwd, d); !inside(p) {
						return p
					}
				}
			}
		default:
			if d := runnerDir(prog, w); d != "" && !strings.HasPrefix(d, "~") {
				if p := at(cwd, d); !inside(p) {
					return p
				}
			}
		}
	}
	return ""
}

// runnerDir is the folder a test runner's own flag makes it work in, ""
// when none: `go -C DIR` / `go test -C DIR` (go takes -C only as the first
// flag, of go or of its subcommand; --C and -C= too), `npm --prefix DIR`
// (-C, --prefix=) and `cargo --manifest-path DIR/Cargo.toml`. Each ran
// another copy's tests while the line read as a run of the worktree's
// (`go test -C /tmp/good ./...` passed QA on a pristine copy).
func runnerDir(prog string, w []string) string {
	flagDir := func(a, next string, names ...string) string {
		for _, n := range names {
			if a == n {
				return next
			}
			if v, ok := strings.CutPrefix(a, n+"="); ok {
				return v
			}
		}
		return ""
	}
	switch prog {
	case "go":
		for i := 1; i <= 2 && i < len(w); i++ {
			next := ""
			if i+1 < len(w) {
				next = w[i+1]
			}
			if d := flagDir(w[i], next, "-C", "--C"); d != "" {
				return d
			}
			if strings.HasPrefix(w[i], "-") {
				return "" // another flag first: go rejects a later -C
			}
		}
	case "npm", "pnpm":
		for i := 1; i < len(w) && w[i] != "--"; i++ {
			next := ""
			if i+1 < len(w) {
				next = w[i+1]
			}
			if d := flagDir(w[i], next, "--prefix", "-C", "--dir"); d != "" {
				return d
			}
		}
	case "cargo":
		for i := 1; i < len(w) && w[i] != "--"; i++ {
			next := ""
			if i+1 < len(w) {
				next = w[i+1]
			}
			if m := flagDir(w[i], next, "--manifest-path"); m != "" {
				return path.Dir(m)
			}
		}
	}
	return ""
}

// envChdir returns the folder `env -C DIR` (`-CDIR`, `--chdir DIR`,
// `--chdir=DIR`) runs its program in, "" when the call is no env or sets
// none. Assignments before env and env's other options are skipped.
func envChdir(words []string) string {
	i := 0
	for i < len(words) && strings.Contains(words[i], "=") && !strings.HasPrefix(words[i], "-") {
		i++
	}
	if i >= len(words) || words[i][strings.LastIndexByte(words[i], '/')+1:] != "env" {
		return ""
	}
	for i++; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-C" || w == "--chdir":
			if i+1 < len(words) {
				return words[i+1]
			}
			return ""
		case strings.HasPrefix(w, "--chdir="):
			return strings.TrimPrefix(w, "--chdir=")
		case strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "C"):
			// Short options bundled: -iC/tmp, -iC /tmp.
			rest := w[strings.IndexByte(w, 'C')+1:]
			if rest != "" {
				return rest
			}
			if i+1 < len(words) {
				return words[i+1]
			}
			return ""
		case w == "-u" || w == "--unset" || w == "-S" || w == "--split-string":
			i++ // the option's value
		case strings.HasPrefix(w, "-") || strings.Contains(w, "="):
		default:
			return "" // the program
		}
	}
	return ""
}
