package testrun

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
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
	return goCodeReplacedWith(was, now, pkgSrc, nil)
}

// goHelperSrc gives the non-test Go files (path -> source) of the
// repository's package an import path names, as at the start (start) or
// now; nil when the path names none of the repository's packages.
type goHelperSrc func(importPath string, start bool) map[string][]byte

// goCodeReplacedWith is goCodeReplaced that also reads, through helper,
// the repository's other packages the test file calls or imports from
// code that runs before the tests (lazy pass 26, c1: a
// greettest.Install() in init, or a blank import of a stub package whose
// init sets greet.GreetFn; go test passed the broken code under both).
// A helper's swap counts when the call is new or the helper's swap is.
func goCodeReplacedWith(was, now []byte, pkgSrc func() map[string][]byte, helper goHelperSrc) string {
	if n := string(now); !strings.Contains(n, "func init(") && !strings.Contains(n, "func TestMain(") && !strings.Contains(n, "\nvar ") &&
		(helper == nil || !strings.Contains(n, "import")) {
		return "" // nothing runs before the tests: the package is not read
	}
	pkgName, own := goOwnFuncVars(pkgSrc())
	if len(own) == 0 {
		return ""
	}
	old := map[string]bool{}
	oldAs, oldCalls := goEarlyAssignsCalls(was, pkgName, own, nil)
	for _, a := range oldAs {
		old[a.key] = true
	}
	nowAs, nowCalls := goEarlyAssignsCalls(now, pkgName, own, nil)
	for _, a := range nowAs {
		if !old[a.key] {
			return "adds " + quoteShort(a.text) + " in " + a.where + ": every test runs what it puts in place of the package's " + a.target + ", not its code"
		}
	}
	if helper == nil || len(nowCalls) == 0 {
		return ""
	}
	for _, a := range goHelperAssigns(oldCalls, pkgName, own, func(p string) map[string][]byte { return helper(p, true) }) {
		old[a.key] = true
	}
	for _, a := range goHelperAssigns(nowCalls, pkgName, own, func(p string) map[string][]byte { return helper(p, false) }) {
		if !old[a.key] {
			return "runs " + a.where + " before the tests, which adds " + quoteShort(a.text) + ": every test runs what it puts in place of the package's " + a.target + ", not its code"
		}
	}
	return ""
}

// goHelperAssigns lists the seam assignments the called functions (and
// init functions) of the repository's other packages make, src giving a
// package's files by import path. What a helper calls in a further
// package (and the init functions of what it imports) is followed too, up
// to goHelperDepth packages away (lazy pass 27, c3: greettest.Install()
// calling stubs.Swap() passed the broken code one level past the rule).
func goHelperAssigns(calls []goHelperCall, pkgName string, own map[string]bool, src func(string) map[string][]byte) []goAssign {
	var out []goAssign
	done := map[goHelperCall]bool{}
	for depth := 0; depth < goHelperDepth && len(calls) > 0; depth++ {
		fns := map[string]map[string]bool{}
		var paths []string
		for _, c := range calls {
			if done[c] {
				continue
			}
			done[c] = true
			if fns[c.importPath] == nil {
				fns[c.importPath] = map[string]bool{}
				paths = append(paths, c.importPath)
			}
			fns[c.importPath][c.fn] = true
		}
		calls = nil
		for _, p := range paths {
			files := src(p)
			names := make([]string, 0, len(files))
			for n := range files {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				if strings.HasSuffix(n, "_test.go") || path.Ext(n) != ".go" {
					continue
				}
				as, next := goEarlyAssignsCalls(files[n], pkgName, own, fns[p])
				for _, a := range as {
					a.key = p + "\x00" + a.key
					out = append(out, a)
				}
				calls = append(calls, next...)
			}
		}
	}
	return out
}

// goHelperDepth bounds how many packages away from the test file a
// helper's swap is looked for.
const goHelperDepth = 4

// goPkgDir is the folder (slash path from the root) of the repository's
// package an import path names: the longest tail of the path that is a
// folder holding Go files (isPkg), "" when none is. No go.mod is read, so
// verify's range reader finds it the same way.
func goPkgDir(importPath string, isPkg func(dir string) bool) string {
	parts := strings.Split(importPath, "/")
	for i := 1; i < len(parts); i++ {
		if d := strings.Join(parts[i:], "/"); isPkg(d) {
			return d
		}
	}
	return ""
}

// localGoHelperSrc is goHelperSrc over a work tree (now) and the start
// commit (start).
func localGoHelperSrc(ctx context.Context, repo Repo, start string) goHelperSrc {
	return func(importPath string, atStart bool) map[string][]byte {
		dir := goPkgDir(importPath, func(d string) bool {
			return len(goPkgSources(repo.Root(), d)) > 0
		})
		if dir == "" {
			return nil
		}
		now := goPkgSources(repo.Root(), dir)
		if !atStart {
			return now
		}
		out := map[string][]byte{}
		for p := range now {
			if b, err := repo.ReadAt(ctx, start, p); err == nil {
				out[p] = b
			}
		}
		return out
	}
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
	// methods: the package's methods that do something; imports: the
	// names a file imports packages by (a selector on one is no method
	// value).
	methods := map[string]bool{}
	imports := map[string]bool{}
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
			} else if ok {
				methods[fd.Name.Name] = methods[fd.Name.Name] || !goTrivialBody(fd.Body)
			}
		}
		for _, im := range f.Imports {
			n := ""
			if im.Name != nil {
				n = im.Name.Name
			} else if p, err := strconv.Unquote(im.Path.Value); err == nil {
				n = path.Base(p)
			}
			imports[n] = true
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
						// A method value of the package's own type (`var
						// greetFn = greeter{}.greet`, lazy pass 26): the code
						// under test as much as a plain function.
						if x, ok := v.X.(*ast.Ident); (!ok || !imports[x.Name]) && methods[v.Sel.Name] {
							own[n.Name] = true
							continue
						}
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

// goHelperCall is a call, from code that runs before the tests, of a
// function of another non-standard package (fn "init": the package is
// imported, so its init functions run).
type goHelperCall struct{ importPath, fn string }

// goEarlyAssigns lists the assignments of own's variables in src's code
// that runs before the tests: init functions, TestMain, and package-level
// initialisers (function literals they call run too). A function literal
// that is not called there (a deferred restore, a t.Cleanup) is not read.
// In an external test package (pkg_test) the variable is reached through
// the import of the package (`greet.GreetFn = ...`). Lazy pass 26 (c1):
// also a write through the variable's address (`p := &greetFn; *p = f`,
// `*(*func() string)(unsafe.Pointer(&greetFn)) = f`,
// `reflect.ValueOf(&greet.GreetFn).Elem().Set(...)`) and a local name
// `//go:linkname`d to it; go test passed the broken code under each.
func goEarlyAssigns(src []byte, pkgName string, own map[string]bool) []goAssign {
	as, _ := goEarlyAssignsCalls(src, pkgName, own, nil)
	return as
}

// goEarlyAssignsCalls is goEarlyAssigns that also lists the calls of
// other non-standard packages' functions (and the imports of such
// packages) that run before the tests. helperFns, when set, reads src as
// a helper package (any package name) whose early code is its init
// functions and the functions named in helperFns.
func goEarlyAssignsCalls(src []byte, pkgName string, own map[string]bool, helperFns map[string]bool) ([]goAssign, []goHelperCall) {
	if len(src) == 0 {
		return nil, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x_test.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil
	}
	internal := f.Name.Name == pkgName && helperFns == nil
	if !internal && f.Name.Name != pkgName+"_test" && helperFns == nil {
		return nil, nil
	}
	alias := map[string]bool{}    // the external test package's names for the package
	others := map[string]string{} // other non-standard packages, by name: their import paths
	var calls []goHelperCall
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		n := path.Base(p)
		if im.Name != nil {
			n = im.Name.Name
		}
		if n == pkgName || path.Base(p) == pkgName && im.Name != nil {
			alias[n] = true
		} else if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ".") {
			others[n] = p
			calls = append(calls, goHelperCall{p, "init"})
		}
	}
	// `//go:linkname seam example.com/greet.greetFn`: seam is the
	// package's variable under another name.
	linked := map[string]string{}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			w := strings.Fields(strings.TrimPrefix(c.Text, "//"))
			if len(w) == 3 && w[0] == "go:linkname" {
				if i := strings.LastIndex(w[2], "."); i > 0 && path.Base(w[2][:i]) == pkgName && own[w[2][i+1:]] {
					linked[w[1]] = w[2][i+1:]
				}
			}
		}
	}
	target := func(e ast.Expr) string {
		switch e := e.(type) {
		case *ast.Ident:
			if internal && own[e.Name] {
				return e.Name
			}
			if v := linked[e.Name]; v != "" {
				return v
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
	// addressed names the variable whose address e takes, "" when none.
	addressed := func(e ast.Node) string {
		t := ""
		ast.Inspect(e, func(n ast.Node) bool {
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND && t == "" {
				t = target(u.X)
			}
			return t == ""
		})
		return t
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
	ptrs := map[string]string{} // locals holding a seam's address (or a reflect.Value of it)
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
				if se, ok := n.Fun.(*ast.SelectorExpr); ok {
					if x, ok := se.X.(*ast.Ident); ok && others[x.Name] != "" {
						calls = append(calls, goHelperCall{others[x.Name], se.Sel.Name})
					}
					// reflect's Set on a Value of the seam's address.
					if strings.HasPrefix(se.Sel.Name, "Set") {
						t := addressed(se.X)
						if id, ok := goRootIdent(se.X); ok && t == "" {
							t = ptrs[id]
						}
						if t != "" {
							out = append(out, goAssign{key: where + "\x00" + text(n), text: text(n), where: where, target: t})
						}
					}
				}
			case *ast.FuncLit, *ast.DeferStmt, *ast.GoStmt:
				return false // run later, if at all: a restore, a cleanup
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE || n.Tok == token.ASSIGN {
					for i, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok && i < len(n.Rhs) {
							if t := addressed(n.Rhs[i]); t != "" {
								ptrs[id.Name] = t
							}
						}
					}
				}
				if n.Tok != token.ASSIGN {
					return true
				}
				for _, l := range n.Lhs {
					t := target(l)
					if st, ok := l.(*ast.StarExpr); ok && t == "" {
						// `*p = f`, `*(*T)(unsafe.Pointer(&greetFn)) = f`
						if t = addressed(st.X); t == "" {
							if id, ok := goRootIdent(st.X); ok {
								t = ptrs[id]
							}
						}
					}
					if t != "" {
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
			if d.Recv == nil && d.Body != nil && (d.Name.Name == "init" || helperFns[d.Name.Name]) {
				where := d.Name.Name
				if helperFns != nil {
					where = f.Name.Name + "." + d.Name.Name
				}
				walk(d.Body, where)
			}
			if d.Recv == nil && d.Body != nil && d.Name.Name == "TestMain" && helperFns == nil {
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
	return out, calls
}

// goRootIdent is the name an expression's selector or call chain starts
// from (`v` of `v.Elem()`, `p` of `(*p)`).
func goRootIdent(e ast.Expr) (string, bool) {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name, true
		case *ast.SelectorExpr:
			e = x.X
		case *ast.CallExpr:
			e = x.Fun
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return "", false
		}
	}
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
			if b, err := boundedread.File(filepath.Join(root, filepath.FromSlash(dir), n), 1<<20-1); err == nil {
				out[path.Join(dir, n)] = b
			}
		}
	}
	return out
}
