package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// module is this module's import path: its packages' package-level
// initialisers are the ones this repository controls.
const module = "github.com/sessiongate/sessiongate"

// TestNoRegexpCompiledAtInit: every process of the binary, each git and
// agent hook included, runs the package init of everything linked into
// it, so a package-level regexp.MustCompile is compiled by every hook
// whether it matches anything or not (round 17: 101 of them, 1.1 MB of a
// hook's 1.9 MB of init). Package-level regexps use internal/lazyregexp
// (or sync.OnceValue): compiled on first use.
func TestNoRegexpCompiledAtInit(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("go not found: the init check needs the go command")
		}
		t.Skip("go not found: the init check needs the go command")
	}
	out, err := exec.Command(goBin, "list", "-deps", "-f", `{{if not .Standard}}{{.ImportPath}}|{{.Dir}}|{{join .GoFiles ","}}{{end}}`, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	var found []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.Split(line, "|")
		if len(parts) != 3 || (parts[0] != module && !strings.HasPrefix(parts[0], module+"/")) {
			continue
		}
		for _, name := range strings.Split(parts[2], ",") {
			if name == "" {
				continue
			}
			hits, err := regexpsAtInit(filepath.Join(parts[1], name))
			if err != nil {
				t.Fatal(err)
			}
			found = append(found, hits...)
		}
	}
	if len(found) > 0 {
		t.Errorf("%d package-level regexps are compiled at init, in every hook process; use lazyregexp.New (internal/lazyregexp) or sync.OnceValue:\n%s",
			len(found), strings.Join(found, "\n"))
	}
}

// regexpsAtInit lists, as file:line: call, the regexp compilations a
// file's package-level var initialisers run at init: calls outside a
// function literal, or inside one called right there (var x = func()
// T {...}()); a literal handed to sync.OnceValue runs later.
func regexpsAtInit(file string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", file, err)
	}
	name := ""
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == "regexp" {
			name = "regexp"
			if im.Name != nil {
				name = im.Name.Name
			}
		}
	}
	if name == "" || name == "_" {
		return nil, nil
	}
	var hits []string
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if fl, ok := x.Fun.(*ast.FuncLit); ok {
				ast.Inspect(fl.Body, visit)
				for _, a := range x.Args {
					ast.Inspect(a, visit)
				}
				return false
			}
			if s, ok := x.Fun.(*ast.SelectorExpr); ok {
				if id, ok := s.X.(*ast.Ident); ok && id.Name == name && strings.Contains(s.Sel.Name, "Compile") {
					pos := fset.Position(x.Pos())
					hits = append(hits, fmt.Sprintf("%s:%d: %s.%s", pos.Filename, pos.Line, name, s.Sel.Name))
				}
			}
		}
		return true
	}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			ast.Inspect(g, visit)
		}
	}
	return hits, nil
}

// initBudget is what this module's packages may allocate at init in every
// process of the binary. Round 17 measured 1,239,560 bytes before the
// regexps went lazy and 126,608 after; the rest are word tables and maps.
const initBudget = 192 << 10

// TestHookInitWeight runs the real binary's git hook with
// GODEBUG=inittrace=1 and holds this module's package init to
// initBudget bytes: a hook runs on every commit and every agent tool
// call, and what init allocates it pays every time.
func TestHookInitWeight(t *testing.T) {
	bin := realBinary(t)
	if coverDir != "" {
		// A -cover build registers each package's counters at init.
		t.Skip("the binary is built with -cover, which adds to every package's init: the budget is for the release build")
	}
	cmd := exec.Command(bin, "hook", "pre-commit")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run() // outside a repository the hook fails; init has run by then
	type pkgInit struct {
		name  string
		bytes int
	}
	var ours []pkgInit
	total, all := 0, 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		b, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q: bytes: %v", sc.Text(), err)
		}
		all += b
		if f[1] == "main" || f[1] == module || strings.HasPrefix(f[1], module+"/") {
			ours = append(ours, pkgInit{f[1], b})
			total += b
		}
	}
	if all == 0 {
		t.Fatalf("no inittrace lines from %s hook pre-commit; stderr:\n%s", bin, stderr.String())
	}
	t.Logf("init: this module's packages %d bytes, all packages %d bytes", total, all)
	if total > initBudget {
		sort.Slice(ours, func(i, j int) bool { return ours[i].bytes > ours[j].bytes })
		var top []string
		for i := 0; i < len(ours) && i < 8; i++ {
			top = append(top, fmt.Sprintf("  %s: %d bytes", ours[i].name, ours[i].bytes))
		}
		t.Errorf("this module's package init allocates %d bytes in every hook process, over the budget of %d; largest:\n%s\nbuild package-level regexps, tables and parsers on first use (internal/lazyregexp, sync.OnceValue)",
			total, initBudget, strings.Join(top, "\n"))
	}
}
