package testrun

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// testMainHelper reads the same-file function a TestMain hands its
// *testing.M (or m.Run) to (`os.Exit(run(m.Run))`), one level deep: ok
// when one does and calls what it was handed using its result (`return
// f()`, `code := f()`); why says what the helper does instead when it
// never calls it, or drops its result (round 19 c2: the local rule read
// every such TestMain as never calling m.Run, honest or not). found is
// false when TestMain hands m to no function of the file.
func testMainHelper(src []byte) (found, ok bool, why string) {
	f, err := parser.ParseFile(token.NewFileSet(), "x_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		return false, false, ""
	}
	funcs := map[string]*ast.FuncDecl{}
	var tm *ast.FuncDecl
	for _, d := range f.Decls {
		if fd, isFn := d.(*ast.FuncDecl); isFn && fd.Recv == nil && fd.Body != nil {
			funcs[fd.Name.Name] = fd
			if fd.Name.Name == "TestMain" {
				tm = fd
			}
		}
	}
	if tm == nil || len(tm.Type.Params.List) != 1 || len(tm.Type.Params.List[0].Names) != 1 {
		return false, false, ""
	}
	m := tm.Type.Params.List[0].Names[0].Name
	ast.Inspect(tm.Body, func(n ast.Node) bool {
		c, isCall := n.(*ast.CallExpr)
		if !isCall || ok {
			return !ok
		}
		id, isID := c.Fun.(*ast.Ident)
		if !isID {
			return true
		}
		if h := funcs[id.Name]; h == nil || h == tm {
			return true
		}
		h := funcs[id.Name]
		for i, a := range c.Args {
			method := ""
			switch a := a.(type) {
			case *ast.Ident: // run(m): the helper calls p.Run()
				if a.Name != m {
					continue
				}
				method = "Run"
			case *ast.SelectorExpr: // run(m.Run): the helper calls p()
				if x, isX := a.X.(*ast.Ident); !isX || x.Name != m || a.Sel.Name != "Run" {
					continue
				}
			default:
				continue
			}
			p := paramName(h, i)
			if p == "" {
				continue
			}
			found = true
			if usesCall(h.Body, p, method) {
				ok = true
				return false
			}
			why = "its TestMain hands " + m + ".Run to " + id.Name + ", which never calls it with its result used: no test runs, or failing tests exit 0"
		}
		return true
	})
	return found, ok, why
}

// paramName is the name of fd's i-th parameter ("" when unnamed).
func paramName(fd *ast.FuncDecl, i int) string {
	k := 0
	for _, fl := range fd.Type.Params.List {
		if len(fl.Names) == 0 {
			k++
			continue
		}
		for _, n := range fl.Names {
			if k == i {
				if n.Name == "_" {
					return ""
				}
				return n.Name
			}
			k++
		}
	}
	return ""
}

// usesCall: body calls p() (method "") or p.method() somewhere its
// result is used: not as a statement of its own, nor assigned to _ only.
func usesCall(body *ast.BlockStmt, p, method string) bool {
	isCall := func(e ast.Expr) bool {
		c, ok := e.(*ast.CallExpr)
		if !ok {
			return false
		}
		if method == "" {
			id, ok := c.Fun.(*ast.Ident)
			return ok && id.Name == p
		}
		s, ok := c.Fun.(*ast.SelectorExpr)
		if !ok || s.Sel.Name != method {
			return false
		}
		id, ok := s.X.(*ast.Ident)
		return ok && id.Name == p
	}
	dropped := map[ast.Expr]bool{}
	used := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ExprStmt:
			dropped[n.X] = true
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == "_" {
						dropped[n.Rhs[i]] = true
					}
				}
			}
		case *ast.CallExpr:
			if isCall(n) && !dropped[n] {
				used = true
			}
		}
		return !used
	})
	return used
}
