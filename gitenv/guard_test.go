package gitenv_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// outsideGitenv are the module's folders whose git may run its own way,
// and why: none of them is a gate.
var outsideGitenv = map[string]string{
	"gitenv":           "builds the environment",
	"internal/gittest": "tests build their repositories with plain git, replace refs included",
	"internal/release": "the release tool reads the maintainer's own checkout",
	"internal/testbin": "tests ask the maintainer's own checkout which commit a prebuilt test binary must show",
	"bench":            "the benchmark harness times plain git",
}

// goGitOpeners are go-git packages that open a repository. go-git reads
// no GIT_* variable, replace ref or graft, so only gitrepo's storage
// (opened on the git dirs rev-parse named) may use them: a second opener
// would be a second idea of which repository the gates read.
var goGitOpeners = map[string]bool{
	"github.com/go-git/go-git/v5":                           true, // PlainOpen, PlainOpenWithOptions
	"github.com/go-git/go-git/v5/storage/filesystem":        true,
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit": true,
}

// TestNoGitOutsideGitenv is a lint: every git process sessiongate starts
// goes through gitenv (replace refs, grafts and the caller's
// GIT_DIR-style redirections off), so a new exec.Command("git", ...) in a
// gate, a command or a package fails here instead of reading a forged
// history. Before this test gitalias, teamindex, init, accept and demo ran
// git their own way.
func TestNoGitOutsideGitenv(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	scanned := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if _, ok := outsideGitenv[rel]; ok || strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		scanned++
		for _, problem := range directGit(f) {
			t.Errorf("%s:%d: %s: start git with gitenv.Command (or gitenv.Env), or add the folder to outsideGitenv with the reason", rel, fset.Position(problem.pos).Line, problem.what)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if goGitOpeners[p] && !strings.HasPrefix(rel, "gitrepo/") {
				t.Errorf("%s: imports %s: open the repository through gitrepo", rel, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 100 {
		t.Fatalf("scanned %d Go files under %s: the walk missed the module", scanned, root)
	}
}

type finding struct {
	pos  token.Pos
	what string
}

// directGit finds exec.Command/CommandContext calls whose program is git
// (a literal, or a name that says git) and exec.Cmd literals, which set
// their program without either.
func directGit(f *ast.File) []finding {
	execName := ""
	for _, imp := range f.Imports {
		if imp.Path.Value == `"os/exec"` {
			execName = "exec"
			if imp.Name != nil {
				execName = imp.Name.Name
			}
		}
	}
	if execName == "" {
		return nil
	}
	var out []finding
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != execName {
				return true
			}
			prog := -1
			switch sel.Sel.Name {
			case "Command":
				prog = 0
			case "CommandContext":
				prog = 1
			}
			if prog >= 0 && len(n.Args) > prog && isGit(n.Args[prog]) {
				out = append(out, finding{n.Pos(), "exec." + sel.Sel.Name + " of git"})
			}
		case *ast.CompositeLit:
			if sel, ok := n.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Cmd" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == execName {
					out = append(out, finding{n.Pos(), "an exec.Cmd literal"})
				}
			}
		}
		return true
	})
	return out
}

// isGit: "git", "git.exe", a path ending in git, or a name holding "git"
// (gitBin, gitPath).
func isGit(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		return err == nil && strings.TrimSuffix(filepath.Base(filepath.ToSlash(s)), ".exe") == "git"
	case *ast.Ident:
		return strings.Contains(strings.ToLower(e.Name), "git")
	case *ast.SelectorExpr:
		return strings.Contains(strings.ToLower(e.Sel.Name), "git")
	}
	return false
}
