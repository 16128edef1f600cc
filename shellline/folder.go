package shellline

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// UnknownDir is TestRun.Dir and ScriptTarget.Dir when the folder a run
// stood in cannot be read from the line: after `cd $VAR`, a bare `cd`,
// `cd -`, `eval`, a `popd` with nothing pushed. It names no folder of the
// repository, so such a run covers none (round 56, helper 336's F1: a
// folder move the reader did not follow left the run at the last `cd`).
const UnknownDir = "?"

// joinDir is dir d taken from folder base: "" is where the line started,
// an absolute d stays absolute (callers map paths under the repository's
// root), an unknown or non-literal ("") d makes the folder unknown.
func joinDir(base, d string) string {
	switch {
	case d == "" || d == UnknownDir:
		return UnknownDir
	case path.IsAbs(d):
		return path.Clean(d)
	case base == UnknownDir:
		return UnknownDir
	}
	if j := path.Join(base, d); j != "." {
		return j
	}
	return ""
}

// folderTracker follows the shell's folder across a line's calls: cd,
// builtin cd, command cd, pushd and popd (helper 336's F1/F2/F20). One
// tracker serves TestRuns and ScriptTargets.
type folderTracker struct {
	dir   string
	stack []string
}

// step reads call words w, and the parsed words they come from (nodes,
// expandedArgs; nil when not at hand); it reports whether w moves the
// shell (and so runs nothing else).
func (f *folderTracker) step(w []string, nodes []*syntax.Word) bool {
	if len(w) == 0 {
		return false
	}
	if len(nodes) != len(w) {
		nodes = nil
	}
	for len(w) > 1 && (w[0] == "builtin" || w[0] == "command") && (w[1] == "cd" || w[1] == "pushd" || w[1] == "popd" || w[1] == "builtin" || w[1] == "command") {
		w = w[1:]
		if nodes != nil {
			nodes = nodes[1:]
		}
	}
	switch w[0] {
	case "cd", "pushd":
		args := w[1:]
		for len(args) > 0 && (args[0] == "-P" || args[0] == "-L" || args[0] == "-e" || args[0] == "-@" || args[0] == "-n") {
			args = args[1:] // cd's link options; pushd -n changes no folder but is rare: read as unknown below
		}
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if w[0] == "pushd" {
			f.stack = append(f.stack, f.dir)
		}
		if len(args) != 1 || args[0] == "-" || strings.HasPrefix(args[0], "+") || strings.HasPrefix(args[0], "-") || len(w) > 1 && w[1] == "-n" {
			f.dir = UnknownDir // home, the previous folder, a stack entry
			return true
		}
		if args[0] == "" && nodes != nil {
			// `cd "$(git rev-parse --show-toplevel)"`: the repository's
			// root (toplevelDir).
			if d, ok := toplevelDir(f.dir, nodes[len(w)-len(args)]); ok {
				f.dir = d
				return true
			}
		}
		f.dir = joinDir(f.dir, args[0])
		return true
	case "popd":
		if len(w) == 1 && len(f.stack) > 0 {
			f.dir, f.stack = f.stack[len(f.stack)-1], f.stack[:len(f.stack)-1]
		} else {
			f.dir = UnknownDir
		}
		return true
	case "eval":
		// eval's text is not read here: one that may move the shell
		// (`eval 'cd ../web'`, `eval "$X"`) leaves the folder unknown.
		for _, a := range w[1:] {
			if a == "" || strings.Contains(a, "cd") || strings.Contains(a, "pushd") || strings.Contains(a, "popd") {
				f.dir = UnknownDir
				break
			}
		}
		return false
	}
	return false
}

// toplevelDir reads a cd's folder word that is the repository's top
// folder, `"$(git rev-parse --show-toplevel)"` (or `...`, unquoted),
// with a literal "/sub" after it or nothing: "" (the root: the callers
// take a run's folder relative to the repository's root, as where the
// line started) or the folder under it. It is that root only from a
// folder inside where the line started (dir, relative, not above it): an
// absolute or unknown folder, or one above, may be another repository's.
// Anything else in the substitution (`|| echo web`, `git -C x`, other
// flags) is no folder read here: false.
func toplevelDir(dir string, w *syntax.Word) (string, bool) {
	if w == nil || dir == UnknownDir || path.IsAbs(dir) || dir == ".." || strings.HasPrefix(dir, "../") {
		return "", false
	}
	var parts []syntax.WordPart // the word's parts, double quotes opened
	quoted := map[syntax.WordPart]bool{}
	for _, p := range w.Parts {
		if q, ok := p.(*syntax.DblQuoted); ok {
			if q.Dollar {
				return "", false
			}
			for _, x := range q.Parts {
				parts = append(parts, x)
				quoted[x] = true
			}
			continue
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "", false
	}
	cs, ok := parts[0].(*syntax.CmdSubst)
	if !ok || !showsToplevel(cs) {
		return "", false
	}
	var rest strings.Builder
	for _, p := range parts[1:] {
		switch x := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(x.Value, "\\") || !quoted[p] && strings.ContainsAny(x.Value, "*?[~") {
				return "", false // an escape, a glob: not read here
			}
			rest.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			rest.WriteString(x.Value)
		default:
			return "", false // `$(...)/$SUB`, a second substitution
		}
	}
	sub := rest.String()
	if sub == "" {
		return "", true
	}
	if !strings.HasPrefix(sub, "/") {
		return "", false // `$(...)web` is a sibling of the root, not under it
	}
	sub = strings.TrimLeft(sub, "/")
	if sub == "" {
		return "", true
	}
	return joinDir("", sub), true // "../x" is outside: the callers drop it
}

// showsToplevel reports a command substitution that is exactly `git
// rev-parse --show-toplevel`, its errors to /dev/null or not.
func showsToplevel(cs *syntax.CmdSubst) bool {
	if cs.TempFile || cs.ReplyVar || len(cs.Stmts) != 1 {
		return false
	}
	st := cs.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || st.Disown {
		return false
	}
	for _, r := range st.Redirs {
		if t, _ := Literal(r.Word); r.Op != syntax.RdrOut || r.N == nil || r.N.Value != "2" || t != "/dev/null" {
			return false
		}
	}
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) > 0 || len(c.Args) != 3 {
		return false
	}
	for i, want := range []string{"git", "rev-parse", "--show-toplevel"} {
		if s, ok := Literal(c.Args[i]); !ok || s != want {
			return false
		}
	}
	return true
}

// runChdir is the folder the wrappers in front of w move the command to
// (`env -C DIR`, `env -CDIR`, `env --chdir=DIR`), "" when none, relative
// to where the call stands (joinDir).
func runChdir(w []string) (string, bool) {
	pre := w[:len(w)-len(StripWrappers(w))]
	dir, moved := "", false
	inEnv := false
	for i := 0; i < len(pre); i++ {
		a := pre[i]
		if !strings.HasPrefix(a, "-") {
			inEnv = a == "env"
			continue
		}
		if !inEnv {
			continue
		}
		switch {
		case (a == "-C" || a == "--chdir") && i+1 < len(pre):
			i++
			dir, moved = joinDir(dir, pre[i]), true
		case strings.HasPrefix(a, "--chdir="):
			dir, moved = joinDir(dir, strings.TrimPrefix(a, "--chdir=")), true
		case !strings.HasPrefix(a, "--") && strings.Contains(a, "C"):
			// -CDIR, or bundled: -iC DIR, -iCDIR (elsewhere.go's envChdir)
			rest := a[strings.IndexByte(a, 'C')+1:]
			if rest == "" && i+1 < len(pre) {
				i++
				rest = pre[i]
			}
			dir, moved = joinDir(dir, rest), true
		}
	}
	return dir, moved
}

// dirFlag reads a runner's folder flag at args[i] (-C DIR, -CDIR,
// --directory=DIR, --prefix DIR, --cwd=DIR, --dir DIR): the folder, how
// many words it took, and whether it was one. Glued -CDIR is make's and
// pnpm's.
func dirFlag(prog string, args []string, i int) (string, int, bool) {
	a := args[i]
	long := map[string]bool{"--prefix": true, "--cwd": true, "--dir": true, "--directory": true}
	if prog == "make" || prog == "gmake" {
		long = map[string]bool{"--directory": true}
	}
	if a == "-C" || long[a] {
		if i+1 < len(args) {
			return args[i+1], 2, true
		}
		return "", 0, false
	}
	if name, val, ok := strings.Cut(a, "="); ok && long[name] {
		return val, 1, true
	}
	if (prog == "make" || prog == "gmake" || prog == "pnpm") && strings.HasPrefix(a, "-C") && len(a) > 2 {
		return a[2:], 1, true
	}
	return "", 0, false
}
