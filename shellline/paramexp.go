package shellline

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Round 23 (c3): parameter expansions that compute a name from a value
// set on the line. `X=SESSION_PROTOCOL.md; rm "${X/_/-}"`, `rm
// "${X%x}"`, `N=...; P=N; rm "${!P}"`, `rm "${A[@]:1}"` and `IFS=_;
// X=rm_SESSION-PROTOCOL.md; $X` write the protected file, and the write
// checks saw an unknown operand. The shell's own expansion (mvdan.cc/sh's
// expand) works them out from the values known; a variable not known, a
// command substitution or a glob makes the word unknown, as before.

// knownEnv is the line's known variables for expand; missing records a
// read of one not known.
type knownEnv struct {
	vars    map[string]string
	arrays  map[string][]string
	refs    map[string]bool // the names the word reads (expand also asks for IFS, PWD)
	missing bool
}

func (e *knownEnv) Get(name string) expand.Variable {
	if a, ok := e.arrays[name]; ok {
		return expand.Variable{Set: true, Kind: expand.Indexed, List: a}
	}
	v, ok := e.vars[name]
	if !ok || v == unknownWord || v == mergeBaseWord {
		if e.refs[name] || e.refs["!"] && name != "IFS" && name != "PWD" {
			e.missing = true
		}
		return expand.Variable{}
	}
	return expand.Variable{Set: true, Kind: expand.String, Str: v}
}

func (e *knownEnv) Each(func(string, expand.Variable) bool) {}

// expandedFields are the fields the shell makes of w from the known
// values; false when w needs a value not known, a command's output or
// a glob, or has no expansion to work out.
func expandedFields(w *syntax.Word, vars map[string]string, arrays map[string][]string) ([]string, bool) {
	has := false
	refs := map[string]bool{}
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ParamExp:
			has = true
			if x.Param != nil {
				refs[x.Param.Value] = true
			}
			if x.Excl {
				refs["!"] = true // ${!P}: the name P holds
			}
		case *syntax.SglQuoted:
			has = has || x.Dollar
		}
		return true
	})
	if !has || hasSubst(w) {
		return nil, false
	}
	env := &knownEnv{vars: vars, arrays: arrays, refs: refs}
	fs, err := expand.Fields(&expand.Config{Env: env}, w)
	if err != nil || env.missing {
		return nil, false
	}
	for _, f := range fs {
		if strings.ContainsAny(f, "\x00") {
			return nil, false
		}
	}
	return fs, true
}

// expandedLiteral is w's value as an assignment takes it (no field
// splitting), under the same terms as expandedFields.
func expandedLiteral(w *syntax.Word, vars map[string]string, arrays map[string][]string) (string, bool) {
	if hasSubst(w) {
		return "", false
	}
	refs := map[string]bool{}
	syntax.Walk(w, func(n syntax.Node) bool {
		if x, ok := n.(*syntax.ParamExp); ok {
			if x.Param != nil {
				refs[x.Param.Value] = true
			}
			if x.Excl {
				refs["!"] = true
			}
		}
		return true
	})
	env := &knownEnv{vars: vars, arrays: arrays, refs: refs}
	s, err := expand.Literal(&expand.Config{Env: env}, w)
	if err != nil || env.missing || strings.Contains(s, "\x00") {
		return "", false
	}
	return s, true
}

// hasSubst reports a command or process substitution in w.
func hasSubst(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}

// isPlainWord: w has no expansion that value() cannot read (a plain
// $X or ${X} is read there; unquoted, the shell splits it).
func isPlainWord(w *syntax.Word) bool {
	plain := true
	for _, p := range w.Parts {
		if _, ok := p.(*syntax.ParamExp); ok {
			return false // unquoted: split into fields
		}
	}
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ParamExp:
			if x.Exp != nil || x.Repl != nil || x.Slice != nil || x.Excl || x.Length || x.Index != nil && x.Param != nil && !knownIndex(x) {
				plain = false
			}
		case *syntax.SglQuoted:
			if x.Dollar {
				plain = false
			}
		}
		return plain
	})
	return plain
}

// knownIndex: ${A[N]} with N a literal number (value() reads it).
func knownIndex(x *syntax.ParamExp) bool {
	iw, ok := x.Index.(*syntax.Word)
	if !ok {
		return false
	}
	s, lit := Literal(iw)
	return lit && s != "@" && s != "*"
}

// trimmed is the arrays with each element's spaces trimmed (mapfile
// keeps a line's end).
func trimmed(arrays map[string][]string) map[string][]string {
	out := make(map[string][]string, len(arrays))
	for k, v := range arrays {
		if v == nil {
			continue
		}
		t := make([]string, len(v))
		for i, s := range v {
			t[i] = strings.TrimSpace(s)
		}
		out[k] = t
	}
	return out
}
