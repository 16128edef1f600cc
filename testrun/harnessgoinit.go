package testrun

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
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
						if val == "true" && !goTestishSet(name, val) && !goEnvNameRE.MatchString(name) {
							out[name] = goNeutralTrue // round 53: judged in goTestSwitch
							continue
						}
					case *ast.FuncLit, *ast.CompositeLit:
						continue // a hook or a fake's value
					case *ast.UnaryExpr, *ast.BinaryExpr:
						if s, ok := goJoinedString(r); ok {
							val = strconv.Quote(s)
						} else if testishBase(name) {
							val = string(now[fs.Position(r.Pos()).Offset:fs.Position(r.End()).Offset])
						} else if goBoolExpr(r) && !goEnvNameRE.MatchString(name) {
							out[name] = goNeutralTrue // a computed true under a neutral name (`fastPath = 1 == 1`)
							continue
						} else {
							continue
						}
					default:
						// Round 53: a value the tests compute (`"t"+"est"
						// != ""`, `testing.Short() || true`): a name for
						// the tests is read whatever it is; a string
						// joined from literals by its text.
						if s, ok := goJoinedString(r); ok {
							val = strconv.Quote(s)
						} else if testishBase(name) {
							val = string(now[fs.Position(r.Pos()).Offset:fs.Position(r.End()).Offset])
						} else {
							continue
						}
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

// goNeutralTrue is goTestSets's value for a variable with a neutral
// name (fastPath, skipChecks) a _test.go's init or TestMain sets true.
const goNeutralTrue = "true (neutral)"

// goBoolExpr reports an expression of a bool's shape: a negation, a
// comparison or a logical operator.
func goBoolExpr(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.UnaryExpr:
		return e.Op == token.NOT
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.NEQ, token.LSS, token.GTR, token.LEQ, token.GEQ, token.LAND, token.LOR:
			return true
		}
	}
	return false
}

// goJoinedString is e's value when it is string literals joined by +.
func goJoinedString(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return goJoinedString(e.X)
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		x, ok := goJoinedString(e.X)
		if !ok {
			return "", false
		}
		y, ok := goJoinedString(e.Y)
		return x + y, ok
	}
	return "", false
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
//
// A neutral name set true (goNeutralTrue: fastPath, skipChecks) is a
// switch only when f's added lines declare it (the session made it, so
// no code users run had set it) and never set it nor take its address
// (a flag, a setting users can give), the branch does more than log
// (a verbose flag), and the name is no stand-in for a service the tests
// cannot reach (offline, dryRun: goStandInRE).
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
		neutral := vars[name] == goNeutralTrue
		if neutral && goStandInRE.MatchString(name) {
			continue
		}
		re := wordBound(name)
		// A use in an if's one-line consequence (a hook: `if testHooks
		// != nil { testHooks.onGreet() }`), or bound and called (`if h
		// := testHook; h != nil { h() }`), or called, uses its value.
		call := regexp.MustCompile(`\{.*(?:^|[^\w.])` + regexp.QuoteMeta(name) + `\b|:=\s*` + regexp.QuoteMeta(name) + `\s*;.*\b\w+\(\)|(?:^|[^\w.])` + regexp.QuoteMeta(name) + `\s*\(`)
		write := regexp.MustCompile(`(?:^|[^\w.])` + regexp.QuoteMeta(name) + `\s*(?:[-+*/|&]?=[^=]|:=)|&` + regexp.QuoteMeta(name) + `\b`)
		decl := regexp.MustCompile(`^(?:var\s+)?(?:\w+\s*,\s*)*` + regexp.QuoteMeta(name) + `(?:\s*,\s*\w+)*(?:\s+bool|\s*(?:bool\s*)?=\s*false)\s*$`)
		cond, condAt, data, declared, written := "", -1, false, false, false
		for i, t := range lines {
			if !re.MatchString(t) {
				continue
			}
			switch {
			case neutral && decl.MatchString(t):
				declared = true
			case neutral && write.MatchString(t):
				written = true
			case call.MatchString(t):
				data = true
			case goCondRE.MatchString(t):
				if cond == "" {
					cond, condAt = t, i
				}
			case goDeclRE.FindStringSubmatch(t) != nil && goDeclRE.FindStringSubmatch(t)[1] == name:
			default:
				data = true
			}
		}
		if cond == "" || data {
			continue
		}
		if neutral && (!declared || written || goLogsOnly(lines, condAt)) {
			continue
		}
		return name, cond
	}
	return "", ""
}

// goStandInRE: a neutral name for a setting that stands in for what the
// tests cannot reach (a network, a real run): honest as round 52's
// offline row is. goLogRE: a Go statement that only logs.
var (
	goStandInRE = lazyregexp.New(`(?i)^(?:is_?)?(?:offline|no_?net(?:work)?|disable_?net(?:work)?|airplane(?:_?mode)?|dry_?run|local_?only|no_?color)$`)
	goLogRE     = lazyregexp.New(`^(?:(?:log|slog)\.\w+\(|\w*[lL]ogger\.\w+\(|fmt\.Fprint\w*\(\s*os\.Stderr\b)`)
)

// goLogsOnly reports an if at lines[i] whose consequence only logs: a
// one-line `if v { log.Print(...) }` or a block of log lines to its `}`,
// with no else.
func goLogsOnly(lines []string, i int) bool {
	t := lines[i]
	if !strings.HasPrefix(t, "if ") {
		return false
	}
	if k := strings.Index(t, "{"); k >= 0 && strings.HasSuffix(t, "}") && k < len(t)-1 {
		body := strings.TrimSpace(t[k+1 : len(t)-1])
		return body != "" && goLogRE.MatchString(body)
	}
	if !strings.HasSuffix(t, "{") {
		return false
	}
	n := 0
	for _, l := range lines[i+1:] {
		if l == "}" {
			return n > 0
		}
		if strings.HasPrefix(l, "}") || !goLogRE.MatchString(l) {
			return false
		}
		n++
	}
	return false
}
