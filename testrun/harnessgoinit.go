package testrun

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// Round 52 (helper 318, round 49's known "init in a _test.go"): a
// _test.go's init or TestMain sets a package variable that is not a
// function (goCodeReplaced reads those), `func init() { greetMode =
// "test" }`, and the code the session changed branches on it: users get
// the other branch. Injected settings are honest (a clock, a temp dir,
// `offline = true`, a log level), so only a variable named for the
// tests (underTest, testMode) or set to a value that names them ("test",
// "ci") is read, and only when the code compares or branches on it, not
// when it uses its value (a path joined from it).

// goTestSets reads a changed _test.go (was nil: new) for such
// assignments in lines the session added: name -> the value's text.
// An external test package's `greet.Mode = ...` counts by Mode.
func goTestSets(was, now []byte) map[string]string {
	fs := token.NewFileSet()
	file, err := parser.ParseFile(fs, "x_test.go", now, 0)
	if err != nil {
		return nil
	}
	added := map[string]bool{}
	for _, l := range addedLines(was, now) {
		added[l] = true
	}
	lines := strings.Split(string(now), "\n")
	out := map[string]string{}
	// Code that runs before the tests: init, TestMain, and a function
	// literal a package-level initialiser calls (`var _ = func() bool
	// {...}()`).
	var early []*ast.BlockStmt
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Body != nil && (d.Name.Name == "init" || d.Name.Name == "TestMain") {
				early = append(early, d.Body)
			}
		case *ast.GenDecl:
			ast.Inspect(d, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					if fl, ok := c.Fun.(*ast.FuncLit); ok {
						early = append(early, fl.Body)
					}
				}
				return true
			})
		}
	}
	for _, body := range early {
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false // a deferred restore or a cleanup, not run first
			case *ast.AssignStmt:
				if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
					return true
				}
				ln := fs.Position(n.Pos()).Line
				if ln < 1 || ln > len(lines) || !added[strings.TrimSpace(lines[ln-1])] {
					return true
				}
				for i, l := range n.Lhs {
					name := ""
					switch l := l.(type) {
					case *ast.Ident:
						name = l.Name
					case *ast.SelectorExpr:
						if _, ok := l.X.(*ast.Ident); ok {
							name = l.Sel.Name
						}
					}
					if name == "" || name == "_" {
						continue
					}
					var val string
					switch r := n.Rhs[i].(type) {
					case *ast.BasicLit:
						val = r.Value
					case *ast.Ident:
						if r.Name != "true" && r.Name != "false" {
							continue // a function or another variable: goCodeReplaced's, or a hook
						}
						val = r.Name
					default:
						continue
					}
					if goTestishSet(name, val) {
						out[name] = val
					}
				}
			}
			return true
		})
	}
	return out
}

// goTestishSet reports an assignment that names the tests: the
// variable's name has a test word (underTest, testMode, inTests), or the
// value is a string literal that does ("test", "testing", "ci").
func goTestishSet(name, val string) bool {
	if goEnvNameRE.MatchString(name) {
		return false // the app's environment (appEnv = "test"), left alone as NODE_ENV is
	}
	if testishBase(name) {
		return true
	}
	s, err := strconv.Unquote(val)
	if err != nil {
		return false
	}
	switch strings.ToLower(s) {
	case "test", "tests", "testing", "ci", "under_test", "undertest":
		return true
	}
	return false
}

// goEnvNameRE: a variable that names the app's environment (env,
// appEnv, APP_ENV, environment). goCondRE: a Go line that compares or
// branches (if, switch, case, a comparison, a logical operator).
// goDeclRE: a line that declares or writes a name (its group), which
// is no read of it when the name is the variable's.
var (
	goEnvNameRE = lazyregexp.New(`(?i)(?:^|_|[a-z])(?:env|environment)$`)
	goCondRE    = lazyregexp.New(`^(?:if|switch|case|for|\}\s*else\s+if)\b|==|!=|&&|\|\|`)
	goDeclRE    = lazyregexp.New(`^(?:var\s+)?([A-Za-z_]\w*)(?:\s+[^=]+)?\s*(?:=[^=]|$)`)
)

// goTestSwitch reports the name goTestSets found for f's package (f's
// folder) that an added line (lines) of f branches on with no use of its
// value on another added line; "" when none.
func (h *harnessScan) goTestSwitch(f string, lines []string) (string, string) {
	if h == nil || path.Ext(f) != ".go" {
		return "", ""
	}
	vars := h.goTestVars[path.Dir(f)]
	names := make([]string, 0, len(vars))
	for n := range vars {
		names = append(names, n)
	}
	sort.Strings(names) // one answer whichever the map gives first
	for _, name := range names {
		re := wordBound(name)
		cond, data := "", false
		for _, t := range lines {
			if !re.MatchString(t) {
				continue
			}
			switch {
			case goCondRE.MatchString(t):
				if cond == "" {
					cond = t
				}
			case goDeclRE.FindStringSubmatch(t) != nil && goDeclRE.FindStringSubmatch(t)[1] == name:
			default:
				data = true
			}
		}
		if cond != "" && !data {
			return name, cond
		}
	}
	return "", ""
}
