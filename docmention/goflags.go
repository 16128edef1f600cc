package docmention

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"
)

// A Go package is judged on its source before and after the change, not
// on the diff's lines: a flag counts when its definition, with the
// constants and variables it names resolved to their values, differs
// (cobra 611e16c named `--help` through a new `helpFlagName = "help"`
// constant: no change; `def := 3; flag.Int("n", def, "")` -> `def := 4`
// changes the default on a line no flag is named on). An environment
// variable counts when an expression that yields its name differs
// (cobra e63925d rebuilt "COBRA_ACTIVE_HELP" from parts: no change). An
// identifier counts when the package no longer declares it (moved
// between files: no change).

// goSide is one side (before or after) of a package: its parsed files,
// the values its declarations give each name, and its top-level names.
type goSide struct {
	fset  *token.FileSet
	files []*ast.File
	src   map[string]string
	decls map[string][]ast.Expr
	top   map[string]bool
	funcs map[string]*ast.FuncDecl   // the package's functions (no methods)
	meths map[string][]*ast.FuncDecl // the package's methods by name (any receiver)
	ext   map[string]string          // "alias.Name" -> a value another changed package gives it (this side's)
}

func parseGoSide(files map[string]string) (*goSide, bool) {
	s := &goSide{fset: token.NewFileSet(), src: files, decls: map[string][]ast.Expr{}, top: map[string]bool{}, funcs: map[string]*ast.FuncDecl{}, meths: map[string][]*ast.FuncDecl{}}
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		f, err := parser.ParseFile(s.fset, p, files[p], parser.SkipObjectResolution)
		if err != nil {
			return nil, false // the line rule judges a package that does not parse
		}
		s.files = append(s.files, f)
	}
	for _, f := range s.files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				s.top[d.Name.Name] = true
				if d.Recv == nil && d.Body != nil {
					s.funcs[d.Name.Name] = d
				}
				if d.Recv != nil && d.Body != nil {
					s.meths[d.Name.Name] = append(s.meths[d.Name.Name], d)
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						s.top[sp.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							s.top[n.Name] = true
						}
					}
				}
			}
		}
		// Every declaration with a value, package-level or local: a name
		// declared twice (a local `usage` in two functions) resolves to all
		// its values, so a change of either counts.
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				if len(n.Values) == len(n.Names) {
					for i, id := range n.Names {
						s.decls[id.Name] = append(s.decls[id.Name], n.Values[i])
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
							s.decls[id.Name] = append(s.decls[id.Name], n.Rhs[i])
						}
					}
				}
			}
			return true
		})
	}
	return s, true
}

// str evaluates a string expression: a literal, a concatenation, or a
// name whose every declaration gives the same string.
func (s *goSide) str(e ast.Expr, depth int) (string, bool) {
	if depth > 6 {
		return "", false
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			v, err := strconv.Unquote(e.Value)
			return v, err == nil
		}
	case *ast.ParenExpr:
		return s.str(e.X, depth+1)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, ok1 := s.str(e.X, depth+1)
			b, ok2 := s.str(e.Y, depth+1)
			return a + b, ok1 && ok2
		}
	case *ast.Ident:
		vs := s.decls[e.Name]
		if len(vs) == 0 {
			return "", false
		}
		first, ok := s.str(vs[0], depth+1)
		for _, v := range vs[1:] {
			if w, ok2 := s.str(v, depth+1); !ok2 || w != first {
				return "", false
			}
		}
		return first, ok
	}
	return "", false
}

// render writes an expression with the names it uses replaced by their
// values, so a refactor that only names a value differently reads the same.
func (s *goSide) render(e ast.Expr, depth int) string {
	if v, ok := s.str(e, 0); ok {
		return strconv.Quote(v)
	}
	// A number the source computes reads as its value: `2 + 3` for `5`,
	// `5000 * time.Millisecond` for `5 * time.Second` (round 23: read as
	// changed before, a false FAIL of the docs gate).
	if v, ok := s.num(e, nil, 0); ok {
		return v.ExactString()
	}
	if depth > 3 {
		return "…"
	}
	switch e := e.(type) {
	case nil:
		return ""
	case *ast.BasicLit:
		return e.Value
	case *ast.Ident:
		vs := s.decls[e.Name]
		if len(vs) == 0 || len(vs) > 8 {
			return e.Name
		}
		var out []string
		for _, v := range vs {
			if r := s.render(v, depth+1); !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
		slices.Sort(out)
		if len(out) == 1 {
			return out[0] // a literal named, or written in place, reads the same
		}
		return "(" + strings.Join(out, "|") + ")"
	case *ast.SelectorExpr:
		// limits.N, limits a package the session changed: N's value on
		// this side (round 22).
		if id, ok := e.X.(*ast.Ident); ok && len(s.decls[id.Name]) == 0 {
			if v, ok := s.ext[id.Name+"."+e.Sel.Name]; ok {
				return v
			}
		}
		// cfg.Default, cfg a value of the package built by a keyed
		// composite literal: the field's value alone, so another field
		// added or changed is no change of this one (round 22).
		if v, ok := s.field(e, depth); ok {
			return v
		}
		return s.render(e.X, depth+1) + "." + e.Sel.Name
	case *ast.ParenExpr:
		return "(" + s.render(e.X, depth) + ")"
	case *ast.UnaryExpr:
		return e.Op.String() + s.render(e.X, depth)
	case *ast.StarExpr:
		return "*" + s.render(e.X, depth)
	case *ast.BinaryExpr:
		return s.render(e.X, depth) + e.Op.String() + s.render(e.Y, depth)
	case *ast.CallExpr:
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			args[i] = s.render(a, depth)
		}
		call := s.render(e.Fun, depth) + "(" + strings.Join(args, ",") + ")"
		// A call of a function of the package (flag.Int("n", defaultN(),
		// ...)): what it returns is the value (round 22).
		if id, ok := e.Fun.(*ast.Ident); ok && len(s.decls[id.Name]) == 0 {
			if fd := s.funcs[id.Name]; fd != nil {
				call += "=" + s.returns(fd, depth+1)
			}
		}
		// A method of the package's (cfg.DefaultN()): what every method of
		// that name returns (round 23; the receiver's type is not resolved).
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && s.ownValue(sel.X) {
			for _, fd := range s.meths[sel.Sel.Name] {
				call += "=" + s.returns(fd, depth+1)
			}
		}
		return call
	case *ast.KeyValueExpr:
		return s.render(e.Key, depth) + ":" + s.render(e.Value, depth)
	case *ast.CompositeLit:
		elts := make([]string, len(e.Elts))
		for i, a := range e.Elts {
			elts[i] = s.render(a, depth)
		}
		return s.render(e.Type, depth) + "{" + strings.Join(elts, ",") + "}"
	}
	return s.text(e)
}

// ownValue: x is a value of the package's own (a name it declares, or
// something reached from one), not an imported package's name.
func (s *goSide) ownValue(x ast.Expr) bool {
	for {
		switch v := x.(type) {
		case *ast.Ident:
			return s.top[v.Name] || len(s.decls[v.Name]) > 0
		case *ast.SelectorExpr:
			x = v.X
		case *ast.CallExpr:
			x = v.Fun
		case *ast.ParenExpr:
			x = v.X
		case *ast.StarExpr:
			x = v.X
		case *ast.IndexExpr:
			x = v.X
		default:
			return false
		}
	}
}

// timeUnit: the time package's Duration constants (a switch: nothing
// built at init on the hook path).
func timeUnit(name string) (int64, bool) {
	switch name {
	case "Nanosecond":
		return 1, true
	case "Microsecond":
		return 1e3, true
	case "Millisecond":
		return 1e6, true
	case "Second":
		return 1e9, true
	case "Minute":
		return 60e9, true
	case "Hour":
		return 3600e9, true
	}
	return 0, false
}

// numericType: a type whose conversion a constant without changing the value it reads as.
func numericType(e ast.Expr) bool {
	switch f := e.(type) {
	case *ast.Ident:
		switch f.Name {
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "float32", "float64", "byte", "rune":
			return true
		}
	case *ast.SelectorExpr:
		id, ok := f.X.(*ast.Ident)
		return ok && id.Name == "time" && f.Sel.Name == "Duration"
	}
	return false
}

// num evaluates a numeric constant expression as Go does (go/constant):
// literals, arithmetic, names whose every declaration gives the same
// value, time units, numeric conversions, and a call of a package
// function or method whose one return is such an expression of its
// parameters (bound to the call's arguments). Anything else is not a
// number here, and is rendered as written.
func (s *goSide) num(e ast.Expr, bind map[string]constant.Value, depth int) (constant.Value, bool) {
	if depth > 8 {
		return nil, false
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.INT || e.Kind == token.FLOAT || e.Kind == token.CHAR {
			v := constant.MakeFromLiteral(e.Value, e.Kind, 0)
			return v, v.Kind() != constant.Unknown
		}
	case *ast.ParenExpr:
		return s.num(e.X, bind, depth+1)
	case *ast.UnaryExpr:
		if e.Op == token.ADD || e.Op == token.SUB || e.Op == token.XOR {
			if x, ok := s.num(e.X, bind, depth+1); ok && (e.Op != token.XOR || x.Kind() == constant.Int) {
				return constant.UnaryOp(e.Op, x, 0), true
			}
		}
	case *ast.BinaryExpr:
		x, ok1 := s.num(e.X, bind, depth+1)
		y, ok2 := s.num(e.Y, bind, depth+1)
		if !ok1 || !ok2 {
			return nil, false
		}
		ints := x.Kind() == constant.Int && y.Kind() == constant.Int
		switch e.Op {
		case token.ADD, token.SUB, token.MUL:
			return constant.BinaryOp(x, e.Op, y), true
		case token.QUO:
			if constant.Sign(y) == 0 {
				return nil, false
			}
			if ints {
				return constant.BinaryOp(x, token.QUO_ASSIGN, y), true // integer division
			}
			return constant.BinaryOp(x, token.QUO, y), true
		case token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			if !ints || e.Op == token.REM && constant.Sign(y) == 0 {
				return nil, false
			}
			return constant.BinaryOp(x, e.Op, y), true
		case token.SHL, token.SHR:
			n, exact := constant.Uint64Val(y)
			if !ints || !exact || n > 256 {
				return nil, false
			}
			return constant.Shift(x, e.Op, uint(n)), true
		}
	case *ast.Ident:
		if v, ok := bind[e.Name]; ok {
			return v, true
		}
		vs := s.decls[e.Name]
		if len(vs) == 0 || len(vs) > 8 {
			return nil, false
		}
		first, ok := s.num(vs[0], nil, depth+1)
		if !ok {
			return nil, false
		}
		for _, v := range vs[1:] {
			if w, ok := s.num(v, nil, depth+1); !ok || constant.Compare(w, token.NEQ, first) {
				return nil, false
			}
		}
		return first, true
	case *ast.SelectorExpr:
		if id, ok := e.X.(*ast.Ident); ok && id.Name == "time" && len(s.decls["time"]) == 0 {
			if u, ok := timeUnit(e.Sel.Name); ok {
				return constant.MakeInt64(u), true
			}
		}
	case *ast.CallExpr:
		if len(e.Args) == 1 && numericType(e.Fun) {
			return s.num(e.Args[0], bind, depth+1)
		}
		var fds []*ast.FuncDecl
		switch f := e.Fun.(type) {
		case *ast.Ident:
			if fd := s.funcs[f.Name]; fd != nil && len(s.decls[f.Name]) == 0 {
				fds = []*ast.FuncDecl{fd}
			}
		case *ast.SelectorExpr:
			if s.ownValue(f.X) {
				fds = s.meths[f.Sel.Name]
			}
		}
		if len(fds) != 1 {
			return nil, false
		}
		fd := fds[0]
		args := map[string]constant.Value{}
		i := 0
		for _, fl := range fd.Type.Params.List {
			if len(fl.Names) == 0 {
				return nil, false
			}
			for _, n := range fl.Names {
				if i >= len(e.Args) {
					return nil, false
				}
				v, ok := s.num(e.Args[i], bind, depth+1)
				if !ok {
					return nil, false
				}
				args[n.Name] = v
				i++
			}
		}
		if i != len(e.Args) {
			return nil, false
		}
		// Its one return statement (a closure's are its own); locals
		// resolve through the package's declarations, as in returns.
		var rets []*ast.ReturnStmt
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				rets = append(rets, n)
			}
			return true
		})
		if len(rets) != 1 || len(rets[0].Results) != 1 {
			return nil, false
		}
		return s.num(rets[0].Results[0], args, depth+1)
	}
	return nil, false
}

// returns renders what a function returns: each return statement's
// results, names resolved, in source order (a closure's returns are its
// own, not the function's).
func (s *goSide) returns(fd *ast.FuncDecl, depth int) string {
	if depth > 3 {
		return "…"
	}
	var out []string
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			rs := make([]string, len(n.Results))
			for i, r := range n.Results {
				rs[i] = s.render(r, depth)
			}
			out = append(out, strings.Join(rs, ","))
		}
		return true
	})
	return "{" + strings.Join(out, ";") + "}"
}

// field renders x.F where every value of the name x is a keyed composite
// literal (config{Default: 8}): F's value, or "zero" when a literal does
// not set it.
func (s *goSide) field(e *ast.SelectorExpr, depth int) (string, bool) {
	id, ok := e.X.(*ast.Ident)
	if !ok || depth > 3 {
		return "", false
	}
	vs := s.decls[id.Name]
	if len(vs) == 0 || len(vs) > 8 {
		return "", false
	}
	var out []string
	for _, v := range vs {
		if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
			v = u.X
		}
		cl, ok := v.(*ast.CompositeLit)
		if !ok {
			return "", false
		}
		r := "zero"
		for _, el := range cl.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				return "", false // positional: the field is not named
			}
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == e.Sel.Name {
				r = s.render(kv.Value, depth+1)
			}
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return "(" + strings.Join(out, "|") + ")", true
}

// lookupName: the flag's name when e is a Lookup of one
// (flag.Lookup("n"), cmd.Flags().Lookup("n")) or a name holding one
// (f := fs.Lookup("n")).
func (s *goSide) lookupName(e ast.Expr, depth int) string {
	if depth > 3 {
		return ""
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return s.lookupName(e.X, depth+1)
	case *ast.Ident:
		vs := s.decls[e.Name]
		if len(vs) != 1 {
			return ""
		}
		return s.lookupName(vs[0], depth+1)
	case *ast.CallExpr:
		sel, ok := e.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Lookup" && sel.Sel.Name != "ShorthandLookup" || len(e.Args) != 1 {
			return ""
		}
		// Any receiver (pflag.CommandLine, a command's flag set): the
		// DefValue assigned to its result is specific enough.
		if v, ok := s.str(e.Args[0], 0); ok && flagShaped(v) {
			return v
		}
	}
	return ""
}

// text is an expression's source with its spaces collapsed.
func (s *goSide) text(n ast.Node) string {
	if n == nil || n.Pos() == token.NoPos {
		return ""
	}
	f := s.fset.File(n.Pos())
	if f == nil {
		return ""
	}
	src := s.src[f.Name()]
	a, b := f.Offset(n.Pos()), f.Offset(n.End())
	if a < 0 || b > len(src) || a > b {
		return ""
	}
	return strings.Join(strings.Fields(src[a:b]), " ")
}

// flagMethod: a method that defines a flag (flag, pflag/cobra: Bool,
// BoolP, BoolVar, BoolVarP, StringSlice, Var, Func, TextVar, ...), not one
// that reads, looks up or annotates one (GetBool, Lookup, SetAnnotation).
func flagMethod(name string) bool {
	for _, p := range []string{"Get", "Set", "Lookup", "Parse", "Changed", "Mark", "Add"} {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	for _, p := range []string{"Bool", "String", "Int", "Uint", "Float", "Duration", "Count", "IP", "Var", "Func", "TextVar", "Bytes", "Time"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// flagReceiver: the flag or pflag package, a FlagSet (a name holding
// "flag", or fs), or a cobra command's Flags() / PersistentFlags().
func flagReceiver(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.Ident:
		n := strings.ToLower(e.Name)
		return "", strings.Contains(n, "flag") || n == "fs" || n == "set"
	case *ast.SelectorExpr:
		return "", strings.Contains(strings.ToLower(e.Sel.Name), "flag")
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && strings.HasSuffix(sel.Sel.Name, "Flags") {
			return sel.Sel.Name, true
		}
	}
	return "", false
}

func flagShaped(v string) bool {
	if v == "" || len(v) > 60 {
		return false
	}
	for i, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || i > 0 && (c == '-' || c == '_' || c == '.')) {
			return false
		}
	}
	return true
}

// goFlags returns each flag the side defines ("--name") with the
// signatures of its definitions (resolved), and the file of the first.
func (s *goSide) goFlags() (map[string][]string, map[string]string) {
	sigs, where := map[string][]string{}, map[string]string{}
	add := func(name, sig string, n ast.Node) {
		k := "--" + name
		sigs[k] = append(sigs[k], sig)
		if _, ok := where[k]; !ok {
			where[k] = s.fset.File(n.Pos()).Name()
		}
	}
	for _, f := range s.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				// flag.Lookup("n").DefValue = "5" (pflag's NoOptDefVal too):
				// the default help and docs show, changed after definition.
				for i, l := range n.Lhs {
					sel, ok := l.(*ast.SelectorExpr)
					if !ok || len(n.Rhs) != len(n.Lhs) || sel.Sel.Name != "DefValue" && sel.Sel.Name != "NoOptDefVal" {
						continue
					}
					if name := s.lookupName(sel.X, 0); name != "" {
						add(name, sel.Sel.Name+"="+s.render(n.Rhs[i], 0), n)
					}
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if ok && sel.Sel.Name == "Set" && len(n.Args) == 2 {
					// flag.Set("count", "9") in init: the value a run
					// starts with, set after the definition (round 22).
					if _, ok := flagReceiver(sel.X); ok {
						if v, ok := s.str(n.Args[0], 0); ok && flagShaped(v) {
							add(v, "Set("+s.render(n.Args[1], 0)+")", n)
						}
					}
					return true
				}
				if !ok || !flagMethod(sel.Sel.Name) {
					return true
				}
				recv, ok := flagReceiver(sel.X)
				if !ok {
					return true
				}
				name := ""
				var args []string
				for i, a := range n.Args {
					if u, ok := a.(*ast.UnaryExpr); ok && u.Op == token.AND {
						continue // where the value is stored is no behaviour
					}
					v, ok := s.str(a, 0)
					if ok && name == "" {
						name = v
					}
					if i == len(n.Args)-1 && !ok && !strings.Contains(sel.Sel.Name, "Func") {
						// The usage text, built at run time ("help for " +
						// name): the program's own help, not its behaviour.
						args = append(args, "usage")
						continue
					}
					args = append(args, s.render(a, 0))
				}
				if flagShaped(name) {
					add(name, recv+"."+sel.Sel.Name+"("+strings.Join(args, ",")+")", n)
				}
			case *ast.CompositeLit:
				// urfave/cli: &cli.BoolFlag{Name: "verbose", Value: true, ...}
				if !strings.HasSuffix(s.text(n.Type), "Flag") {
					return true
				}
				name := ""
				var kv []string
				for _, e := range n.Elts {
					p, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					k := s.text(p.Key)
					if k == "Destination" {
						continue
					}
					v, ok := s.str(p.Value, 0)
					if ok && k == "Name" {
						name = v
					}
					if k == "Usage" && !ok {
						kv = append(kv, k+":usage")
						continue
					}
					kv = append(kv, k+":"+s.render(p.Value, 0))
				}
				slices.Sort(kv)
				if flagShaped(name) {
					add(name, s.text(n.Type)+"{"+strings.Join(kv, ",")+"}", n)
				}
			}
			return true
		})
	}
	for k := range sigs {
		slices.Sort(sigs[k])
	}
	return sigs, where
}

// envUses returns, for each wanted variable name, the expressions that
// yield it (the whole expression around it, resolved), and the variables
// the side passes to os.Getenv, os.LookupEnv, os.Setenv or os.Unsetenv.
func (s *goSide) envUses(want map[string]bool) (map[string][]string, map[string]string) {
	uses, read := map[string][]string{}, map[string]string{}
	for _, f := range s.files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if c, ok := n.(*ast.CallExpr); ok && len(c.Args) > 0 {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok && strings.Contains(sel.Sel.Name, "env") || ok && strings.Contains(sel.Sel.Name, "Env") {
					if v, ok := s.str(c.Args[0], 0); ok && reEnvName(v) {
						want[v] = true
						if _, ok := read[v]; !ok {
							read[v] = s.fset.File(c.Pos()).Name()
						}
					}
				}
			}
			if e, ok := n.(ast.Expr); ok {
				switch e.(type) {
				case *ast.BasicLit, *ast.Ident, *ast.BinaryExpr:
					if v, ok := s.str(e, 0); ok && want[v] {
						root := e
						for i := len(stack) - 1; i >= 0; i-- {
							pe, ok := stack[i].(ast.Expr)
							if !ok {
								break
							}
							if _, fn := pe.(*ast.FuncLit); fn {
								break
							}
							root = pe
						}
						uses[v] = append(uses[v], s.render(root, 0))
						return false // ast.Inspect sends no nil for a node it does not enter
					}
				}
			}
			stack = append(stack, n)
			return true
		})
	}
	for k := range uses {
		slices.Sort(uses[k])
	}
	return uses, read
}

// reEnvName: an environment variable's shape (TOOL_HOME), as reEnvVar reads it.
func reEnvName(v string) bool {
	if len(v) < 3 || v[0] < 'A' || v[0] > 'Z' || !strings.Contains(v, "_") {
		return false
	}
	for _, c := range v {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Touched lists the names a change touched whose value or behaviour
// changed: Names of each file, with a Go package's flags, environment
// variables and identifiers judged on the package before and after (a
// change of which Whole holds; unchanged holds the package's other files,
// path -> source). A package that does not parse, or whose files' sides
// are not known, is judged by its lines.
func Touched(changes []Change, unchanged map[string]string) []Name {
	return TouchedIn(changes, unchanged, nil)
}

// TouchedIn is Touched with importPath naming each changed folder's
// import path (its nearest go.mod's module and the rest: a nested
// module's package is imported by a path that need not end in its folder,
// round 23); nil, or "", matches by the folder's suffix alone.
func TouchedIn(changes []Change, unchanged map[string]string, importPath func(dir string) string) []Name {
	var out []Name
	byDir := map[string][]Change{}
	var dirs []string
	for _, c := range changes {
		if goSource(c.Path) {
			d := path.Dir(c.Path)
			if byDir[d] == nil {
				dirs = append(dirs, d)
			}
			byDir[d] = append(byDir[d], c)
			continue
		}
		for _, n := range Names(c) {
			n.Kept = n.Kind == KindFlag && !c.Deleted && namedOn(n.Text, c.Added)
			out = append(out, n)
		}
	}
	vb, va := exportedValues(dirs, byDir, unchanged)
	for _, d := range dirs {
		out = append(out, goTouched(d, byDir[d], unchanged, vb, va, importPath)...)
	}
	// A package the session did not change whose flags use a changed
	// package's exported value (flag.Int("n", limits.N, ...)): judged on
	// both sides of that value (round 22). unchanged holds its files when
	// the caller found it imports the changed package (ImportersWanted).
	if len(va) > 0 || len(vb) > 0 {
		other := map[string]bool{}
		var odirs []string
		for p := range unchanged {
			if d := path.Dir(p); goSource(p) && byDir[d] == nil && !other[d] {
				other[d] = true
				odirs = append(odirs, d)
			}
		}
		slices.Sort(odirs)
		for _, d := range odirs {
			out = append(out, goTouched(d, nil, unchanged, vb, va, importPath)...)
		}
	}
	return out
}

// exportedValues renders, for each changed package whose exported
// top-level constants or variables differ, their values before and after,
// keyed by the package's import path suffix ("internal/limits") and name.
func exportedValues(dirs []string, byDir map[string][]Change, unchanged map[string]string) (before, after map[string]map[string]string) {
	before, after = map[string]map[string]string{}, map[string]map[string]string{}
	for _, d := range dirs {
		b, a := map[string]string{}, map[string]string{}
		for p, src := range unchanged {
			if path.Dir(p) == d && goSource(p) {
				b[p], a[p] = src, src
			}
		}
		whole := true
		for _, c := range byDir[d] {
			if !c.Whole {
				whole = false
				break
			}
			if c.Before != "" {
				b[c.Path] = c.Before
			}
			if !c.Deleted && c.Body != "" {
				a[c.Path] = c.Body
			}
		}
		if !whole {
			continue
		}
		sb, ok1 := parseGoSide(b)
		sa, ok2 := parseGoSide(a)
		if !ok1 || !ok2 {
			continue
		}
		eb, ea := sb.exported(), sa.exported()
		for k, v := range ea {
			if eb[k] != v {
				if before[d] == nil {
					before[d], after[d] = map[string]string{}, map[string]string{}
				}
				before[d][k], after[d][k] = eb[k], v
			}
		}
		for k, v := range eb {
			if _, ok := ea[k]; !ok {
				if before[d] == nil {
					before[d], after[d] = map[string]string{}, map[string]string{}
				}
				before[d][k], after[d][k] = v, "(removed)"
			}
		}
	}
	return before, after
}

// exported renders the package's exported top-level constants and
// variables that have a value.
func (s *goSide) exported() map[string]string {
	out := map[string]string{}
	for _, f := range s.files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST && g.Tok != token.VAR {
				continue
			}
			for _, sp := range g.Specs {
				vs, ok := sp.(*ast.ValueSpec)
				if !ok || len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, n := range vs.Names {
					if n.IsExported() {
						out[n.Name] = s.render(vs.Values[i], 0)
					}
				}
			}
		}
	}
	return out
}

// ChangedValueDirs lists the changed Go packages (folders) whose exported
// constants or variables changed value: the caller may then look for the
// packages importing them (their flags' defaults may use the values) and
// pass their files as unchanged to Touched.
func ChangedValueDirs(changes []Change, unchanged map[string]string) []string {
	byDir := map[string][]Change{}
	var dirs []string
	for _, c := range changes {
		if goSource(c.Path) {
			d := path.Dir(c.Path)
			if byDir[d] == nil {
				dirs = append(dirs, d)
			}
			byDir[d] = append(byDir[d], c)
		}
	}
	vb, va := exportedValues(dirs, byDir, unchanged)
	var out []string
	for _, d := range dirs {
		if len(vb[d]) > 0 || len(va[d]) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// withExt sets a side's values of other packages' names: for each import
// of the side's files whose path ends in a changed folder, alias.Name.
func (s *goSide) withExt(vals map[string]map[string]string, importPath func(string) string) {
	if len(vals) == 0 {
		return
	}
	s.ext = map[string]string{}
	for _, f := range s.files {
		for _, im := range f.Imports {
			ip, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				continue
			}
			for d, m := range vals {
				if d == "." || !(ip == d || strings.HasSuffix(ip, "/"+d) || importPath != nil && ip == importPath(d)) {
					continue
				}
				alias := path.Base(ip)
				if im.Name != nil {
					alias = im.Name.Name
				}
				for k, v := range m {
					s.ext[alias+"."+k] = v
				}
			}
		}
	}
}

func goSource(p string) bool {
	return strings.HasSuffix(p, ".go") && !IgnoredPath(p)
}

func goTouched(dir string, changes []Change, unchanged map[string]string, vb, va map[string]map[string]string, importPath func(string) string) []Name {
	var lines []Name
	for _, c := range changes {
		lines = append(lines, Names(c)...)
	}
	before, after := map[string]string{}, map[string]string{}
	for p, src := range unchanged {
		if path.Dir(p) == dir && goSource(p) {
			before[p], after[p] = src, src
		}
	}
	for _, c := range changes {
		if !c.Whole {
			return lines
		}
		if c.Before != "" {
			before[c.Path] = c.Before
		}
		if !c.Deleted && c.Body != "" {
			after[c.Path] = c.Body
		}
	}
	sb, ok1 := parseGoSide(before)
	sa, ok2 := parseGoSide(after)
	if !ok1 || !ok2 {
		return lines
	}
	sb.withExt(vb, importPath)
	sa.withExt(va, importPath)
	fb, wb := sb.goFlags()
	fa, wa := sa.goFlags()
	want := map[string]bool{}
	for _, n := range lines {
		if n.Kind == KindVariable {
			want[n.Text] = true
		}
	}
	eb, rb := sb.envUses(want)
	ea, ra := sa.envUses(want)
	// A pass over the after side may add names the before side's pass
	// did not look for (and the other way): look once more for both.
	if len(want) > 0 {
		eb, _ = sb.envUses(want)
		ea, _ = sa.envUses(want)
	}
	seen := map[string]bool{}
	var out []Name
	keep := func(n Name) {
		if !seen[n.Kind+n.Text] {
			seen[n.Kind+n.Text] = true
			out = append(out, n)
		}
	}
	for _, n := range lines {
		switch n.Kind {
		case KindFlag:
			if slices.Equal(fb[n.Text], fa[n.Text]) {
				continue // its definition reads the same, values resolved
			}
			n.Kept = len(fa[n.Text]) > 0
		case KindVariable:
			if slices.Equal(eb[n.Text], ea[n.Text]) {
				continue
			}
		case KindIdentifier:
			if sa.top[n.Text] {
				continue // still declared: moved to another file of the package
			}
		}
		keep(n)
	}
	// Changed with no line of the diff naming it: a default or name held
	// by a variable or constant, maybe in another file of the package.
	for _, k := range sortedKeys(fb, fa) {
		if !slices.Equal(fb[k], fa[k]) {
			f := wa[k]
			if f == "" {
				f = wb[k]
			}
			keep(Name{Kind: KindFlag, Text: k, File: f, Kept: len(fa[k]) > 0})
		}
	}
	for _, k := range sortedKeys(eb, ea) {
		if (rb[k] != "" || ra[k] != "") && !slices.Equal(eb[k], ea[k]) {
			f := ra[k]
			if f == "" {
				f = rb[k]
			}
			keep(Name{Kind: KindVariable, Text: k, File: f})
		}
	}
	return out
}

func sortedKeys(a, b map[string][]string) []string {
	var ks []string
	for _, m := range []map[string][]string{a, b} {
		for k := range m {
			if !slices.Contains(ks, k) {
				ks = append(ks, k)
			}
		}
	}
	slices.Sort(ks)
	return ks
}
