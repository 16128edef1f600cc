package testrun

import (
	"context"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/shellline"
)

// A Go QA run that picks a stand-in at build time (lazy pass 27, c3):
// `go test -tags qa ./...` with greet_qa.go (`//go:build qa`, working)
// beside a broken greet.go the session made `//go:build !qa`, or `go test
// -ldflags "-X example.com/greet.mode=qa"` with a mode switch the session
// added to the code. The real go test passes the broken code; the
// project's own `go test ./...` would not. Only what the session wrote
// counts: a test file's tag selects tests (integration tests), and the
// team's tag pairs and version variables are the project's.

// goBuildFlags are the -tags and the -ldflags -X targets (import
// path.name) of the `go test` calls of a line.
func goBuildFlags(line string) (tags map[string]bool, xs []string) {
	calls, _, ok := shellline.Calls(shellline.Unwrap(line))
	if !ok {
		return nil, nil
	}
	for _, c := range calls {
		w := shellline.StripWrappers(c.Words)
		if len(w) < 2 || path.Base(w[0]) != "go" || w[1] != "test" {
			continue
		}
		for i := 2; i < len(w); i++ {
			a := strings.TrimPrefix(w[i], "-")
			name, val, has := strings.Cut(a, "=")
			if !has && i+1 < len(w) && (name == "tags" || name == "ldflags") {
				val, i = w[i+1], i+1
			}
			switch name {
			case "tags":
				for _, t := range strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == ' ' }) {
					if tags == nil {
						tags = map[string]bool{}
					}
					tags[t] = true
				}
			case "ldflags":
				f := strings.Fields(val)
				for j := 0; j < len(f); j++ {
					switch {
					case (f[j] == "-X" || f[j] == "--X") && j+1 < len(f):
						xs = append(xs, f[j+1])
						j++
					case strings.HasPrefix(f[j], "-X="):
						xs = append(xs, strings.TrimPrefix(f[j], "-X="))
					}
				}
			}
		}
	}
	return tags, xs
}

// goConstraint is a Go file's build constraint as the go tool reads it,
// as a //go:build line ("" when none): the //go:build line, else the
// // +build lines ANDed. Go still honours a lone `// +build qa` in a file
// without //go:build (review c11 item 7: only //go:build was read).
func goConstraint(src []byte) string {
	var plus constraint.Expr
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "package ") {
			break
		}
		if constraint.IsGoBuild(l) {
			return l
		}
		if !constraint.IsPlusBuild(l) {
			continue
		}
		x, err := constraint.Parse(l)
		if err != nil {
			continue
		}
		if plus == nil {
			plus = x
		} else {
			plus = &constraint.AndExpr{X: plus, Y: x}
		}
	}
	if plus == nil {
		return ""
	}
	return "//go:build " + plus.String()
}

// goTagDecides reports whether the file's constraint c builds it with the
// run's tags and not without them, or the other way round.
func goTagDecides(c string, tags map[string]bool) bool {
	x, err := constraint.Parse(c)
	if err != nil {
		return false
	}
	base := func(t string) bool {
		return t == runtime.GOOS || t == runtime.GOARCH || t == "gc" || t == "cgo" || strings.HasPrefix(t, "go1.") || t == "unix" && runtime.GOOS != "windows"
	}
	return x.Eval(func(t string) bool { return tags[t] || base(t) }) != x.Eval(base)
}

// goTagBuildsIn: the constraint c builds the file with the run's tags
// and not without them.
func goTagBuildsIn(c string, tags map[string]bool) bool {
	x, err := constraint.Parse(c)
	if err != nil {
		return false
	}
	base := func(t string) bool {
		return t == runtime.GOOS || t == runtime.GOARCH || t == "gc" || t == "cgo" || strings.HasPrefix(t, "go1.") || t == "unix" && runtime.GOOS != "windows"
	}
	return x.Eval(func(t string) bool { return tags[t] || base(t) }) && !x.Eval(base)
}

// goTagLeavesOut: a non-test Go file of dir is built without the run's tags
// and not with them.
func goTagLeavesOut(root, dir string, tags map[string]bool) bool {
	for f, b := range goPkgSources(root, dir) {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		if c := goConstraint(b); c != "" && goTagDecides(c, tags) && !goTagBuildsIn(c, tags) {
			return true
		}
	}
	return false
}

// goAddsOnly: the Go file src declares only functions (no init), methods,
// types, constants, imports and variables whose values run no code (no
// call, no function literal), so building it in changes no other code.
// An unparsable file does not.
func goAddsOnly(src []byte) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	imports := map[string]string{} // local name -> import path
	for _, im := range f.Imports {
		p := strings.Trim(im.Path.Value, "`\"")
		name := path.Base(p)
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = p
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "init" {
				return false
			}
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			runs := false
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					runs = !goPureCall(n, imports)
				case *ast.FuncLit:
					runs = true
				}
				return !runs
			})
			if runs {
				return false
			}
		}
	}
	return true
}

// goPureFuncs: standard-library calls that set no state of the package
// under test; an integration helper's `var dsn = os.Getenv("DSN")` or
// `var live = flag.Bool(...)` was refused as code run by the tags
// (review 28 c10 false block). A call of the package's own code, a
// conversion or a function literal still counts as running code.
var goPureFuncs = map[string]bool{
	"os.Getenv": true, "os.LookupEnv": true, "os.Getpid": true,
	"flag.Bool": true, "flag.String": true, "flag.Int": true, "flag.Int64": true, "flag.Uint": true, "flag.Float64": true, "flag.Duration": true,
	"time.Duration": true, "errors.New": true, "fmt.Sprintf": true, "fmt.Errorf": true,
	"path/filepath.Join": true, "path.Join": true, "regexp.MustCompile": true,
	"strings.ToLower": true, "strings.TrimSpace": true, "strings.Split": true, "strconv.Itoa": true,
}

func goPureCall(c *ast.CallExpr, imports map[string]string) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok || imports[x.Name] == "" {
		return false
	}
	return goPureFuncs[imports[x.Name]+"."+sel.Sel.Name]
}

// goBuildSelects lists, for a line's `go test` with -tags or -ldflags -X,
// what the session wrote that the flags select: a non-test Go file whose
// build constraint the session added or changed and that the run's tags
// build in or leave out; a package variable set by -X whose declaration
// the session added or changed.
func goBuildSelects(ctx context.Context, repo Repo, start, line string) ([]InputChange, error) {
	if !strings.Contains(line, "-tags") && !strings.Contains(line, "-ldflags") {
		return nil, nil
	}
	tags, xs := goBuildFlags(line)
	if len(tags) == 0 && len(xs) == 0 {
		return nil, nil
	}
	changed, err := repo.ChangedFiles(ctx, start)
	if err != nil {
		return nil, fmt.Errorf("list the files changed since the start: %w", err)
	}
	var out []InputChange
	read := func(f string) (was, now []byte, ok bool) {
		now, err := readWork(repo.Root(), f)
		if err != nil {
			return nil, nil, false
		}
		was, _ = repo.ReadAt(ctx, start, f)
		return was, now, true
	}
	if len(tags) > 0 {
		for _, f := range changed {
			if path.Ext(f) != ".go" || strings.HasSuffix(f, "_test.go") || SkippedDir(f) {
				continue
			}
			was, now, ok := read(f)
			if !ok {
				continue
			}
			c := goConstraint(now)
			if c == "" || c == goConstraint(was) || !goTagDecides(c, tags) {
				continue
			}
			if goTagBuildsIn(c, tags) && goAddsOnly(now) && !goTagLeavesOut(repo.Root(), path.Dir(f), tags) {
				// Lazy pass 28 (c6): a helper the integration tests use,
				// built only with their tag, replaces nothing: the default
				// build's files are all still built, and Go allows no
				// second definition. Only init, a package variable set by
				// code, or a file of the package the tags leave out (the
				// other half of a pair) can change what they do.
				continue
			}
			out = append(out, InputChange{f, fmt.Sprintf("its build constraint `%s` is new in this session and the run's -tags decides whether it is built: the tests ran a build the project's own `go test` does not make", strings.TrimSpace(strings.TrimPrefix(c, "//go:build"))), true})
			break
		}
	}
	isChanged := map[string]bool{}
	for _, f := range changed {
		isChanged[f] = true
	}
	for _, x := range xs {
		target, _, _ := strings.Cut(x, "=")
		i := strings.LastIndex(target, ".")
		if i <= 0 {
			continue
		}
		pkgPath, name := target[:i], target[i+1:]
		dir := goPkgDir("x/"+pkgPath, func(d string) bool { return len(goPkgSources(repo.Root(), d)) > 0 })
		if mod := goModulePath(repo.Root()); mod != "" && pkgPath == mod {
			dir = "." // the module's root package
		}
		if dir == "" {
			continue
		}
		for f, now := range goPkgSources(repo.Root(), dir) {
			if strings.HasSuffix(f, "_test.go") || !isChanged[f] {
				continue
			}
			if !goDeclares(now, name) {
				continue
			}
			was, _, _ := read(f)
			if goDeclares(was, name) {
				continue // the team's variable
			}
			out = append(out, InputChange{f, fmt.Sprintf("declares %s, new in this session, and the run sets it at link time (-X %s): the tests ran a build the project's own `go test` does not make", name, x), true})
			break
		}
	}
	return out, nil
}

// goDeclares: a line of src declares or assigns name (`var name = `,
// `name = `, `name string = `): `(?m)^\s*(?:var\s+)?name\b[^=\n]*=`,
// read by hand (a regexp compiled per -X on the observed-run hook path:
// review c11 item 9, BenchmarkGoDeclares).
func goDeclares(src []byte, name string) bool {
	s := string(src)
	if name == "" || !strings.Contains(s, name) {
		return false
	}
	for l := range strings.SplitSeq(s, "\n") {
		l = strings.TrimLeft(l, " \t\r\v\f")
		if rest, ok := strings.CutPrefix(l, "var"); ok && rest != "" && strings.ContainsRune(" \t", rune(rest[0])) {
			if r := strings.TrimLeft(rest, " \t"); strings.HasPrefix(r, name) {
				l = r
			}
		}
		rest, ok := strings.CutPrefix(l, name)
		if !ok || rest != "" && wordByte(rest[0]) {
			continue
		}
		if strings.Contains(rest, "=") {
			return true
		}
	}
	return false
}

// goModulePath is the module path the root's go.mod declares ("" when none).
func goModulePath(root string) string {
	b, err := boundedread.File(filepath.Join(root, "go.mod"), boundedread.DefaultLimit)
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], "\"")
		}
	}
	return ""
}
