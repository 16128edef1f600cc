package shellline

import (
	"maps"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
)

// LineEnv is what a command line does to the environment of the commands
// on it that run tests (RunsTests' programs), on top of the environment
// the line was run in. A test's skip condition that reads a variable is
// judged by the environment the run had (testrun/envconds.go); the hook
// that records the run has the agent's process environment, which does
// not hold `GREET_SKIP=1 go test ./...`'s variable (issue 25, round 18).
type LineEnv struct {
	// Set are variables given a value the line spells ("" when set empty).
	Set map[string]string
	// Opaque are variables given a value the line does not spell
	// (`X=$(cat f) go test`): set, value unknown.
	Opaque map[string]bool
	// Unset are variables taken away (`env -u X`, `unset X`).
	Unset map[string]bool
	// Cleared: the command starts from an empty environment (`env -i`).
	Cleared bool
}

// Empty: the line changes nothing in its tests' environment.
func (e LineEnv) Empty() bool {
	return len(e.Set) == 0 && len(e.Opaque) == 0 && len(e.Unset) == 0 && !e.Cleared
}

// TestEnv reads, for the commands of line that run tests, the variables
// the line sets in their environment: `NAME=V cmd`, `export NAME=V; cmd`
// (and `NAME=V; export NAME`, `set -a; NAME=V; cmd`, in a subshell or
// not), `env NAME=V cmd` (also behind other wrappers, with -u and -i),
// and make's `make test NAME=V` (make exports command-line variables to
// its recipes). base resolves $NAME in a value (the environment the line
// ran in; nil: none). When several commands run tests, a variable set for
// any of them is set: each run's skips count.
func TestEnv(line string, base func(string) (string, bool)) LineEnv {
	out := LineEnv{Set: map[string]string{}, Opaque: map[string]bool{}, Unset: map[string]bool{}}
	calls, f, ok := Calls(Unwrap(line))
	if !ok {
		return out
	}
	var exported map[*syntax.CallExpr]map[string]string
	lineVars := map[string]string{}
	set := func(name string, w *syntax.Word) {
		v, ok := resolveEnvWord(w, lineVars, base)
		delete(out.Unset, name)
		if !ok {
			if _, spelled := out.Set[name]; !spelled {
				out.Opaque[name] = true
			}
			return
		}
		delete(out.Opaque, name)
		out.Set[name] = v
	}
	// `GREET_SKIP=1 sh -c 'go test ./...'`: the wrapper's own assignments
	// are in the environment of every command of its script (Unwrap drops
	// them with the wrapper); the script's own come after and win.
	for _, a := range WrapperAssigns(line) {
		v, ok := resolveEnvWord(a.Value, map[string]string{}, base)
		if !ok {
			out.Opaque[a.Name.Value] = true
			continue
		}
		out.Set[a.Name.Value] = v
	}
	for _, c := range calls {
		if !callRunsTests(expandedWords(c)) {
			continue
		}
		if exported == nil {
			exported = Exported(f)
			lineVars = lineAssigns(f)
		}
		// `unset X` earlier on the line (an export after it comes back below)
		for _, u := range calls {
			if u.Node.Pos().Offset() >= c.Node.Pos().Offset() || len(u.Words) < 2 || u.Words[0] != "unset" {
				continue
			}
			for _, n := range u.Words[1:] {
				if isName(n) {
					out.Unset[n] = true
					delete(out.Set, n)
					delete(out.Opaque, n)
				}
			}
		}
		for n, v := range exported[c.Node] {
			delete(out.Unset, n)
			delete(out.Opaque, n)
			out.Set[n] = v
		}
		for _, a := range c.Node.Assigns {
			if a.Name != nil && !a.Append && a.Index == nil {
				set(a.Name.Value, a.Value)
			}
		}
		wrappedEnv(c, set, &out)
	}
	return out
}

// wrappedEnv reads env's words in a call (`env -u X Y=1 go test`, also
// `timeout 60 env ...`), and make's NAME=VALUE arguments.
func wrappedEnv(c Call, set func(string, *syntax.Word), out *LineEnv) {
	args := c.Node.Args
words:
	for i := 0; i < len(args); i++ {
		w, _ := Literal(args[i])
		name := CommandName(w)
		switch {
		case name == "env":
			for i++; i < len(args); i++ {
				a, lit := Literal(args[i])
				switch {
				case !lit:
					// NAME=$(...): the name is literal text before the expansion
					if p := literalPrefix(args[i]); strings.Contains(p, "=") && isName(p[:strings.IndexByte(p, '=')]) {
						out.Opaque[p[:strings.IndexByte(p, '=')]] = true
						continue
					}
					return
				case a == "-i" || a == "-" || a == "--ignore-environment":
					out.Cleared = true
				case (a == "-u" || a == "--unset") && i+1 < len(args):
					i++
					if n, ok := Literal(args[i]); ok {
						out.Unset[n] = true
						delete(out.Set, n)
						delete(out.Opaque, n)
					}
				case strings.HasPrefix(a, "--unset="):
					n := strings.TrimPrefix(a, "--unset=")
					out.Unset[n] = true
					delete(out.Set, n)
					delete(out.Opaque, n)
				case strings.HasPrefix(a, "-"):
					if (a == "-C" || a == "--chdir") && i+1 < len(args) {
						i++
					}
				case strings.Contains(a, "=") && isName(a[:strings.IndexByte(a, '=')]):
					n, v, _ := strings.Cut(a, "=")
					delete(out.Unset, n)
					delete(out.Opaque, n)
					out.Set[n] = v
				default:
					i-- // the command env runs: read its words too (make)
					continue words
				}
			}
			return
		case name == "make" || name == "gmake":
			for _, a := range args[i+1:] {
				if s, ok := Literal(a); ok && !strings.HasPrefix(s, "-") {
					if n, v, ok := strings.Cut(s, "="); ok && isName(n) {
						delete(out.Unset, n)
						delete(out.Opaque, n)
						out.Set[n] = v
					}
				}
			}
			return
		case IsWrapper(name) || i > 0 && (strings.HasPrefix(w, "-") || durationRE.MatchString(w)):
			continue // a wrapper, its options, timeout's duration
		default:
			return
		}
	}
}

var durationRE = lazyregexp.New(`^[0-9.]+[smhd]?$`)

// lineAssigns are the line's literal plain assignments (`X=1; Y=$X go
// test` resolves Y), last value kept.
func lineAssigns(f *syntax.File) map[string]string {
	vars := map[string]string{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if x, ok := n.(*syntax.CallExpr); ok && len(x.Args) == 0 {
			for _, a := range x.Assigns {
				if a.Name == nil {
					continue
				}
				if v, ok := Literal(a.Value); ok || a.Value == nil {
					vars[a.Name.Value] = v
				}
			}
		}
		return true
	})
	return vars
}

// resolveEnvWord is an assignment's value: literal, or built from $NAME
// the line or base knows and $(echo ...) (resolve).
func resolveEnvWord(w *syntax.Word, lineVars map[string]string, base func(string) (string, bool)) (string, bool) {
	if w == nil {
		return "", true
	}
	if v, ok := Literal(w); ok {
		return v, true
	}
	vars := lineVars
	if base != nil {
		vars = maps.Clone(lineVars)
		syntax.Walk(w, func(n syntax.Node) bool {
			if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil {
				if _, known := vars[pe.Param.Value]; !known {
					if v, ok := base(pe.Param.Value); ok {
						vars[pe.Param.Value] = v
					}
				}
			}
			return true
		})
	}
	return resolve(w, vars, nil)
}
