package testrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// handOff is a TestMain's call of a function of its package with its
// *testing.M (method "Run": the helper must call p.Run()) or m.Run
// (method "": the helper must call p()), at argument arg.
type handOff struct {
	m, callee, method string
	arg               int
	pkg               string // the file's package clause
}

// testMainHandOff finds the first call in src's TestMain of a plain
// function name (not one of another package) given m or m.Run; ok false
// when there is none, or the file does not parse.
func testMainHandOff(src []byte) (h handOff, ok bool) {
	f, err := parser.ParseFile(token.NewFileSet(), "x_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		return h, false
	}
	h.pkg = f.Name.Name
	for _, d := range f.Decls {
		tm, isFn := d.(*ast.FuncDecl)
		if !isFn || tm.Recv != nil || tm.Body == nil || tm.Name.Name != "TestMain" || len(tm.Type.Params.List) != 1 || len(tm.Type.Params.List[0].Names) != 1 {
			continue
		}
		h.m = tm.Type.Params.List[0].Names[0].Name
		ast.Inspect(tm.Body, func(n ast.Node) bool {
			c, isCall := n.(*ast.CallExpr)
			if ok || !isCall {
				return !ok
			}
			id, isID := c.Fun.(*ast.Ident)
			if !isID {
				return true
			}
			for i, a := range c.Args {
				switch a := a.(type) {
				case *ast.Ident:
					if a.Name == h.m {
						h.callee, h.method, h.arg, ok = id.Name, "Run", i, true
					}
				case *ast.SelectorExpr:
					if x, isX := a.X.(*ast.Ident); isX && x.Name == h.m && a.Sel.Name == "Run" {
						h.callee, h.method, h.arg, ok = id.Name, "", i, true
					}
				}
				if ok {
					return false
				}
			}
			return true
		})
	}
	return h, ok
}

// funcIn returns src's top-level function name when src's package is
// pkg, or nil.
func funcIn(src []byte, pkg, name string) *ast.FuncDecl {
	if !bytes.Contains(src, []byte("func "+name)) {
		return nil // most files: no parse
	}
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, parser.SkipObjectResolution)
	if err != nil || f.Name.Name != pkg {
		return nil
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil && fd.Name.Name == name {
			return fd
		}
	}
	return nil
}

// helperRuns: fd, given what h hands it, calls it and uses the result.
func helperRuns(fd *ast.FuncDecl, h handOff) bool {
	p := paramName(fd, h.arg)
	return p != "" && usesCall(fd.Body, p, h.method)
}

// testMainHelpersAdded (round 21 c1): a TestMain handing m or m.Run to a
// helper in another file of its package (`os.Exit(run(m.Run))` with run
// in helpers_test.go) is judged through that helper, as testmainhelper.go
// judges one in the same file: refused when the helper never calls what
// it was handed or drops its result, and was not so at the start (a
// helper the session emptied, with TestMain unchanged, or a new TestMain
// handing over to a lazy helper). Folders with a changed Go file only;
// one level, as in the same file. honest are the TestMain files whose
// helper there runs the tests: the file's own rule (testMainHides), which
// cannot see the helper, would call them "never calls m.Run()".
func testMainHelpersAdded(ctx context.Context, repo Repo, start string, changed []string) (out []string, honest map[string]string, err error) {
	dirs := map[string]bool{}
	isChanged := map[string]bool{}
	for _, f := range changed {
		if strings.HasSuffix(f, ".go") {
			dirs[path.Dir(f)] = true
			isChanged[f] = true
		}
	}
	sorted := make([]string, 0, len(dirs))
	for d := range dirs {
		sorted = append(sorted, d)
	}
	sort.Strings(sorted)
	honest = map[string]string{}
	for _, dir := range sorted {
		ents, err := os.ReadDir(filepath.Join(repo.Root(), filepath.FromSlash(dir)))
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			return nil, nil, fmt.Errorf("list the Go files of %s: %w", dir, err)
		}
		var files []string
		for _, e := range ents {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
				files = append(files, path.Join(dir, e.Name()))
			}
		}
		read := func(f string) []byte {
			b, _ := readWork(repo.Root(), f)
			return b
		}
		for _, tf := range files {
			if !strings.HasSuffix(tf, "_test.go") {
				continue
			}
			src := read(tf)
			if !bytes.Contains(src, []byte("TestMain")) {
				continue
			}
			h, ok := testMainHandOff(src)
			if !ok || funcIn(src, h.pkg, h.callee) != nil {
				continue // none, or in its own file (testmainhelper.go)
			}
			hf := ""
			var fd *ast.FuncDecl
			for _, f := range files {
				if fd = funcIn(read(f), h.pkg, h.callee); fd != nil {
					hf = f
					break
				}
			}
			if fd == nil {
				continue // not a function declaration: the file's own rule judges
			}
			if helperRuns(fd, h) {
				honest[tf] = "its TestMain never calls " + h.m + ".Run(): no test runs"
				continue
			}
			if !isChanged[tf] && !isChanged[hf] {
				continue
			}
			lazyBefore, err := lazyAtStart(ctx, repo, start, tf, hf)
			if err != nil {
				return nil, nil, err
			}
			if lazyBefore {
				continue // the team's code as it was
			}
			what := h.m + ".Run"
			if h.method != "" {
				what = h.m
			}
			out = append(out, fmt.Sprintf("%s: its TestMain hands %s to %s (in %s), which never calls it with its result used: no test runs, or failing tests exit 0", tf, what, h.callee, path.Base(hf)))
		}
	}
	slices.Sort(out)
	return out, honest, nil
}

// lazyAtStart: at the start commit, tf's TestMain already handed over
// to a helper in hf that did not run the tests.
func lazyAtStart(ctx context.Context, repo Repo, start, tf, hf string) (bool, error) {
	at := func(f string) ([]byte, error) {
		ok, err := repo.ExistsAt(ctx, start, f)
		if err != nil || !ok {
			return nil, err
		}
		return repo.ReadAt(ctx, start, f)
	}
	src, err := at(tf)
	if err != nil {
		return false, fmt.Errorf("read %s at the start commit: %w", tf, err)
	}
	h, ok := testMainHandOff(src)
	if !ok {
		return false, nil
	}
	hsrc, err := at(hf)
	if err != nil {
		return false, fmt.Errorf("read %s at the start commit: %w", hf, err)
	}
	fd := funcIn(hsrc, h.pkg, h.callee)
	return fd != nil && !helperRuns(fd, h), nil
}
