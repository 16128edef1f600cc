package shellline

import (
	"maps"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Exported maps each simple command of a parsed line to the variables
// that `export NAME=VALUE` (or `declare -x`, `typeset -x`, `NAME=V;
// export NAME`) earlier on the line put in its environment, with literal
// values: `export PYTEST_ADDOPTS=--co; pytest` runs pytest with it. A
// subshell, a pipe's part or a command substitution keeps its exports to
// itself; `unset NAME` takes one back. A command with nothing exported
// before it is not in the map.
//
// What an earlier Bash call exported is not seen, and needs no reading:
// Claude Code's Bash tool keeps the working folder between calls but
// starts each in a fresh environment (checked with Claude Code 2.1.330:
// `export X=1` in one call, `echo $X` in the next prints nothing).
func Exported(f *syntax.File) map[*syntax.CallExpr]map[string]string {
	e := exportWalk{out: map[*syntax.CallExpr]map[string]string{}}
	e.stmts(f.Stmts, map[string]string{}, map[string]string{})
	return e.out
}

// allexport is the key env holds while `set -a` is on: every
// assignment after it is exported (`set -a; GREET_SKIP=1; go test`).
const allexport = "\x00allexport"

// setsAllexport reads `set -a`/`set +a`, `set -o allexport`/`set +o
// allexport` (and flag groups such as -ea): ok when c switches it.
func setsAllexport(c *syntax.CallExpr) (on, ok bool) {
	if w, lit := Literal(c.Args[0]); !lit || w != "set" {
		return false, false
	}
	for i := 1; i < len(c.Args); i++ {
		a, lit := Literal(c.Args[i])
		if !lit || len(a) < 2 || a[0] != '-' && a[0] != '+' || a == "--" {
			continue
		}
		if a[1:] == "o" && i+1 < len(c.Args) {
			if n, _ := Literal(c.Args[i+1]); n == "allexport" {
				on, ok = a[0] == '-', true
			}
			i++
			continue
		}
		if strings.Contains(a[1:], "a") {
			on, ok = a[0] == '-', true
		}
	}
	return on, ok
}

type exportWalk struct {
	out map[*syntax.CallExpr]map[string]string
}

// stmts walks statements in order in one shell: env holds the exported
// variables, vars the line's other literal assignments.
func (e exportWalk) stmts(ss []*syntax.Stmt, env, vars map[string]string) {
	for _, s := range ss {
		e.stmt(s, env, vars)
	}
}

func (e exportWalk) stmt(s *syntax.Stmt, env, vars map[string]string) {
	if s == nil {
		return
	}
	switch c := s.Cmd.(type) {
	case *syntax.DeclClause:
		e.decl(c, env, vars)
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			for _, a := range c.Assigns {
				if a.Name == nil {
					continue
				}
				v, ok := Literal(a.Value)
				if a.Value == nil {
					v, ok = "", true
				}
				if !ok {
					delete(vars, a.Name.Value)
					delete(env, a.Name.Value)
					continue
				}
				vars[a.Name.Value] = v
				_, exported := env[a.Name.Value]
				if _, all := env[allexport]; exported || all {
					env[a.Name.Value] = v // an exported variable stays exported; under set -a all are
				}
			}
			return
		}
		if len(env) > 0 {
			m := maps.Clone(env)
			delete(m, allexport)
			if len(m) > 0 {
				e.out[c] = m
			}
		}
		e.inner(c, env, vars)
		if on, ok := setsAllexport(c); ok {
			if on {
				env[allexport] = ""
			} else {
				delete(env, allexport)
			}
		}
		if w, ok := Literal(c.Args[0]); ok && w == "unset" {
			for _, a := range c.Args[1:] {
				if n, ok := Literal(a); ok {
					delete(env, n)
					delete(vars, n)
				}
			}
		}
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			e.stmt(c.X, maps.Clone(env), maps.Clone(vars))
			e.stmt(c.Y, maps.Clone(env), maps.Clone(vars))
			return
		}
		e.stmt(c.X, env, vars)
		e.stmt(c.Y, env, vars)
	case *syntax.Subshell:
		e.stmts(c.Stmts, maps.Clone(env), maps.Clone(vars))
	case *syntax.Block:
		e.stmts(c.Stmts, env, vars)
	case *syntax.IfClause:
		for x := c; x != nil; x = x.Else {
			e.stmts(x.Cond, env, vars)
			e.stmts(x.Then, env, vars)
		}
	case *syntax.WhileClause:
		e.stmts(c.Cond, env, vars)
		e.stmts(c.Do, env, vars)
	case *syntax.ForClause:
		e.stmts(c.Do, env, vars)
	case *syntax.CaseClause:
		for _, it := range c.Items {
			e.stmts(it.Stmts, env, vars)
		}
	case *syntax.TimeClause:
		e.stmt(c.Stmt, env, vars)
	case *syntax.CoprocClause:
		e.stmt(c.Stmt, maps.Clone(env), maps.Clone(vars))
	case *syntax.FuncDecl:
		// its commands run where it is called; not followed here
	}
}

// inner walks the command substitutions in a call's words, each its own
// subshell.
func (e exportWalk) inner(c *syntax.CallExpr, env, vars map[string]string) {
	for _, w := range c.Args {
		syntax.Walk(w, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.CmdSubst:
				e.stmts(x.Stmts, maps.Clone(env), maps.Clone(vars))
				return false
			case *syntax.ProcSubst:
				e.stmts(x.Stmts, maps.Clone(env), maps.Clone(vars))
				return false
			}
			return true
		})
	}
}

// decl reads export/declare -x/typeset -x/local -x (local is the
// function's own, read as the line's).
func (e exportWalk) decl(d *syntax.DeclClause, env, vars map[string]string) {
	if d.Variant == nil {
		return
	}
	export := d.Variant.Value == "export"
	unexport := false
	for _, a := range d.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			if fl, ok := Literal(a.Value); ok && strings.HasPrefix(fl, "-") {
				if strings.Contains(fl, "x") && d.Variant.Value != "export" {
					export = true
				}
				if d.Variant.Value == "export" && strings.Contains(fl, "n") {
					unexport = true // export -n NAME
				}
			}
		}
	}
	for _, a := range d.Args {
		if a.Name == nil {
			continue
		}
		n := a.Name.Value
		if unexport {
			delete(env, n)
			continue
		}
		if a.Naked { // export NAME: the value the line gave it
			if v, ok := vars[n]; ok && export {
				env[n] = v
			}
			continue
		}
		v, ok := Literal(a.Value)
		if a.Value == nil {
			v, ok = "", true
		}
		if !ok {
			delete(vars, n)
			delete(env, n)
			continue
		}
		vars[n] = v
		if export {
			env[n] = v
		} else if _, was := env[n]; was {
			env[n] = v
		}
	}
}
