package testrun

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// goCodeReplaced is the Go twin of pyCodeReplaced: the reason a Go test
// file now adds, in code that runs before any test (an init function,
// TestMain, a package-level variable's initialiser), an assignment of a
// package variable the code under test calls through, or "". Such a
// variable is one the package's non-test files (pkgSrc: path -> source)
// initialise to a function of their own: `var greetFn = greet`, `var
// greetFn = func(...) ...`. `func init() { greetFn = fakeGreet }` in a
// _test.go makes every test run the fake and never the package's code.
// A variable that holds another package's function (`var now =
// time.Now`, a clock or os.Exit) is a collaborator the tests may stub;
// an assignment inside a test function is that test's own business.
func goCodeReplaced(was, now []byte, pkgSrc func() map[string][]byte) string {
	if n := string(now); !strings.Contains(n, "func init(") && !strings.Contains(n, "func TestMain(") && !strings.Contains(n, "\nvar ") {
		return "" // nothing runs before the tests: the package is not read
	}
	pkgName, own := goOwnFuncVars(pkgSrc())
	if len(own) == 0 {
		return ""
	}
	old := map[string]bool{}
	for _, a := range goEarlyAssigns(was, pkgName, own) {
		old[a.key] = true
	}
	for _, a := range goEarlyAssigns(now, pkgName, own) {
		if !old[a.key] {
			return "adds " + quoteShort(a.text) + " in " + a.where + ": every test runs what it puts in place of the package's " + a.target + ", not its code"
		}
	}
	return ""
}

// goOwnFuncVars names the package of pkgSrc's files and its package-level
// variables initialised to one of its own functions or a function literal.
func goOwnFuncVars(pkgSrc map[string][]byte) (string, map[string]bool) {
	var files []*ast.File
	paths := make([]string, 0, len(pkgSrc))
	for p := range pkgSrc {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	fset := token.NewFileSet()
	pkgName := ""
	funcs := map[string]bool{} // the package's functions that do something
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") || path.Ext(p) != ".go" || pkgSrc[p] == nil {
			continue
		}
		f, err := parser.ParseFile(fset, p, pkgSrc[p], parser.SkipObjectResolution)
		if err != nil || (pkgName != "" && f.Name.Name != pkgName) {
			continue
		}
		pkgName = f.Name.Name
		files = append(files, f)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				funcs[fd.Name.Name] = !goTrivialBody(fd.Body)
			}
		}
	}
	own := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					switch v := vs.Values[i].(type) {
					case *ast.FuncLit:
						own[n.Name] = !goTrivialBody(v.Body)
					case *ast.Ident:
						own[n.Name] = funcs[v.Name]
					case *ast.SelectorExpr:
						// A seam over the reading of files (`var readFile =
						// os.ReadFile`): the repository's files are the code's
						// inputs, so a stand-in set before every test hides the
						// data the work committed (lazy pass 24, c3). A clock or
						// os.Exit stays a collaborator the tests may stub.
						if x, ok := v.X.(*ast.Ident); ok && goFileReaders[x.Name+"."+v.Sel.Name] {
							own[n.Name] = true
						}
					}
				}
			}
		}
	}
	return pkgName, own
}

// goFileReaders are the standard library's functions that read files,
// by package name as imported.
var goFileReaders = map[string]bool{
	"os.ReadFile": true, "os.Open": true, "os.OpenFile": true, "os.ReadDir": true,
	"ioutil.ReadFile": true, "ioutil.ReadDir": true, "fs.ReadFile": true,
}

// goTrivialBody reports a body that does nothing: empty, or one return
// of literals and names (`return nil`, `return false`). A variable
// initialised to such a function is a test hook (Go's own `var
// testHookStepTime = func() {}`, `var rowsCloseHook = func() ... { return
// nil }`) that tests set on purpose, not the code under test: measured on
// the module cache, these were the only shapes read otherwise.
func goTrivialBody(b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return true
	}
	if len(b.List) > 1 {
		return false
	}
	r, ok := b.List[0].(*ast.ReturnStmt)
	if !ok {
		return false
	}
	for _, e := range r.Results {
		switch e.(type) {
		case *ast.BasicLit, *ast.Ident:
		default:
			return false
		}
	}
	return true
}

type goAssign struct{ key, text, where, target string }

// goEarlyAssigns lists the assignments of own's variables in src's code
// that runs before the tests: init functions, TestMain, and package-level
// initialisers (function literals they call run too). A function literal
// that is not called there (a deferred restore, a t.Cleanup) is not read.
// In an external test package (pkg_test) the variable is reached through
// the import of the package (`greet.GreetFn = ...`).
func goEarlyAssigns(src []byte, pkgName string, own map[string]bool) []goAssign {
	if len(src) == 0 {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	internal := f.Name.Name == pkgName
	if !internal && f.Name.Name != pkgName+"_test" {
		return nil
	}
	alias := map[string]bool{} // the external test package's names for the package
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		n := path.Base(p)
		if im.Name != nil {
			n = im.Name.Name
		}
		if n == pkgName || path.Base(p) == pkgName && im.Name != nil {
			alias[n] = true
		}
	}
	target := func(e ast.Expr) string {
		switch e := e.(type) {
		case *ast.Ident:
			if internal && own[e.Name] {
				return e.Name
			}
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok && !internal && alias[x.Name] && own[e.Sel.Name] {
				return x.Name + "." + e.Sel.Name
			}
		case *ast.ParenExpr:
			return ""
		}
		return ""
	}
	text := func(n ast.Node) string {
		return strings.Join(strings.Fields(string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])), " ")
	}
	fileFuncs := map[string]*ast.BlockStmt{} // the test file's own functions, which init may call
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
			fileFuncs[fd.Name.Name] = fd.Body
		}
	}
	followed := map[string]bool{}
	var out []goAssign
	var walk func(n ast.Node, where string)
	walk = func(n ast.Node, where string) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				// `func init() { setup() }`: the file's function runs now too
				// (each followed once, so recursion ends).
				if id, ok := n.Fun.(*ast.Ident); ok && fileFuncs[id.Name] != nil && !followed[id.Name] && !strings.HasPrefix(id.Name, "Test") {
					followed[id.Name] = true
					walk(fileFuncs[id.Name], where)
				}
				if fl, ok := n.Fun.(*ast.FuncLit); ok {
					walk(fl.Body, where) // called here: it runs now
					for _, a := range n.Args {
						walk(a, where)
					}
					return false
				}
			case *ast.FuncLit, *ast.DeferStmt, *ast.GoStmt:
				return false // run later, if at all: a restore, a cleanup
			case *ast.AssignStmt:
				if n.Tok != token.ASSIGN {
					return true
				}
				for _, l := range n.Lhs {
					if t := target(l); t != "" {
						out = append(out, goAssign{key: where + "\x00" + text(n), text: text(n), where: where, target: t})
					}
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Body != nil && d.Name.Name == "init" {
				walk(d.Body, "init")
			}
			if d.Recv == nil && d.Body != nil && d.Name.Name == "TestMain" {
				// What TestMain does after the tests ran (a restore) replaces
				// nothing they saw.
				for _, st := range d.Body.List {
					walk(st, "TestMain")
					if goCallsRun(st) {
						break
					}
				}
			}
		case *ast.GenDecl:
			if d.Tok == token.VAR {
				for _, s := range d.Specs {
					for _, v := range s.(*ast.ValueSpec).Values {
						walk(v, "a package-level initialiser")
					}
				}
			}
		}
	}
	return out
}

// goCallsRun reports whether n calls a Run method (TestMain's m.Run()).
func goCallsRun(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if se, ok := c.Fun.(*ast.SelectorExpr); ok && se.Sel.Name == "Run" && len(c.Args) == 0 {
				found = true
			}
		}
		return !found
	})
	return found
}

// goPkgSources reads the non-test Go files of the folder dir (slash path
// from root) from the work tree.
func goPkgSources(root, dir string) map[string][]byte {
	out := map[string][]byte{}
	ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil {
		return out
	}
	for _, e := range ents {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			if b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(dir), n)); err == nil && len(b) < 1<<20 {
				out[path.Join(dir, n)] = b
			}
		}
	}
	return out
}
