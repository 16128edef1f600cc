package testrun

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// Pass 29 (c3): review 28 read every local Babel plugin the session
// added that rewrites nodes as a stand-in, which refused an honest team
// adding a compile-time __DEV__ flag or a console.log stripper with its
// use in src. What a lazy plugin needs, to make broken code pass, is to
// change what code computes for the module under test: a visitor on
// nodes that carry values (literals, operators, returns, a whole
// Program or function), an assignment of a node's value, operator or
// name, a look at which file is compiled, a string the tests expect, or
// a string built from pieces to hide one. babelPluginStandIn names the
// first it finds; a plugin with none (replacing a free identifier,
// removing a call) rewrites syntax the team chose, not the answers.

// babelValueVisitors are Babel node types (and aliases) whose visitor
// changes what code computes rather than how it is spelled.
var babelValueVisitors = map[string]bool{
	"Program": true, "BinaryExpression": true, "UnaryExpression": true, "UpdateExpression": true,
	"LogicalExpression": true, "AssignmentExpression": true, "ConditionalExpression": true,
	"StringLiteral": true, "NumericLiteral": true, "BooleanLiteral": true, "NullLiteral": true,
	"BigIntLiteral": true, "RegExpLiteral": true, "TemplateLiteral": true, "Literal": true,
	"ReturnStatement": true, "IfStatement": true, "SwitchStatement": true, "SwitchCase": true,
	"ThrowStatement": true, "TryStatement": true, "CatchClause": true, "BlockStatement": true,
	"ExpressionStatement": true, "FunctionDeclaration": true, "FunctionExpression": true,
	"ArrowFunctionExpression": true, "Function": true, "VariableDeclarator": true,
	"VariableDeclaration": true, "ObjectProperty": true, "ObjectExpression": true,
	"ArrayExpression": true, "ClassMethod": true, "ObjectMethod": true, "Expression": true,
	"Statement": true, "Conditional": true, "Loop": true, "ForStatement": true,
	"WhileStatement": true, "DoWhileStatement": true, "ExportNamedDeclaration": true,
	"ExportDefaultDeclaration": true, "Scopable": true, "BlockParent": true, "Pureish": true,
}

var (
	babelVisitorKeyRE = sync.OnceValue(func() *regexp.Regexp {
		// A visitor key: a capitalized name opening a method or a
		// property, alone or in a 'A|B' key.
		return regexp.MustCompile(`(?:^|[{,\s'"|])([A-Z][A-Za-z]+)\s*(?:\(|:|\||['"])`)
	})
	babelAllNodesRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`visitor\s*:\s*\{\s*(?:enter|exit)\b`)
	})
	babelValueAssignRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\.(value|operator|name|raw|cooked|argument|body|test|consequent|alternate|init|right|left)\s*=[^=]`)
	})
	babelFilenameRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:filename|fileName|sourceFileName|filenameRelative)\b|\.file\.opts|\bcwd\b`)
	})
	babelBuiltStringRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`['"` + "`" + `]\s*\+\s*['"` + "`" + `]|fromCharCode|fromCodePoint|\batob\s*\(|Buffer\.from|\.reverse\s*\(|\$\{|String\.raw|\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}`)
	})
	babelLocalRequireRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:require\s*\(|import\s*\(|from)\s*['"]\.\.?/`)
	})
	jsQuotedRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`'([^'\n]{3,200})'|"([^"\n]{3,200})"|` + "`([^`\n]{3,200})`")
	})
)

// babelPluginStandIn says why a local Babel plugin that rewrites nodes
// can stand in for the code under test, or "" when it only respells
// syntax. testStrings gives the quoted strings of the work tree's test
// files (read only when asked).
func babelPluginStandIn(src string, testStrings func() map[string]bool) string {
	code := stripJSComments(src)
	if babelAllNodesRE().MatchString(code) {
		return "its visitor enters every node"
	}
	for _, m := range babelVisitorKeyRE().FindAllStringSubmatch(code, -1) {
		if babelValueVisitors[m[1]] {
			return "it visits " + m[1] + " nodes, which carry what code computes"
		}
	}
	if m := babelValueAssignRE().FindStringSubmatch(code); m != nil {
		return "it assigns a node's " + m[1]
	}
	if m := babelFilenameRE().FindString(code); m != "" {
		return "it reads which file is compiled (" + m + ")"
	}
	if m := babelBuiltStringRE().FindString(code); m != "" {
		return "it builds a string from pieces (" + m + ")"
	}
	if babelLocalRequireRE().MatchString(code) {
		return "it loads another file of the work tree"
	}
	ts := testStrings()
	for _, m := range jsQuotedRE().FindAllStringSubmatch(code, -1) {
		s := m[1] + m[2] + m[3]
		if ts[s] {
			return "it holds " + strings.TrimSpace(truncate(`"`+s+`"`, 40)) + ", a string a test file holds"
		}
	}
	return ""
}

// stripJSComments drops // line and /* */ block comments (roughly: a
// comment marker inside a string is cut too, which can only add a
// reason, never hide one that stands outside it).
func stripJSComments(s string) string {
	s = jsBlockCommentRE().ReplaceAllString(s, "")
	return jsLineCommentRE().ReplaceAllString(s, "$1")
}

// Compiled once: stripJSComments runs per plugin file on the QA gate.
var (
	jsBlockCommentRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)/\*.*?\*/`) })
	jsLineCommentRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)(^|[^:\\])//.*$`) })
)

// jsTestStrings are the quoted strings of the work tree's JS test files
// (walkJSTestFiles).
func jsTestStrings(root string) map[string]bool {
	out := map[string]bool{}
	walkJSTestFiles(root, func(_ string, b []byte) {
		for _, m := range jsQuotedRE().FindAllStringSubmatch(string(b), -1) {
			out[m[1]+m[2]+m[3]] = true
		}
	})
	return out
}

// babelBareRE: a quoted bare name in a Babel config (a preset's or
// plugin's, or an option's value: only names that resolve to a Babel
// package in node_modules are read).
var babelBareRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`["']((?:module:)?@?[a-z0-9][\w.-]*(?:/[\w.-]+)?)["']`)
})

// babelUnlistedPackage (pass 29, c3; review 28 c10's open row): a
// preset or plugin a Babel config names by a bare name that resolves to
// a package in the work tree's node_modules which package.json does not
// list ("fix" -> node_modules/babel-preset-fix, planted there with a
// visitor rewriting 'helo'): node_modules is untracked, so nothing else
// shows it. It gives the package's name, "" when none.
func babelUnlistedPackage(root, cfg string) string {
	pj, err := boundedread.InRoot(root, "package.json", 1<<20)
	if err != nil {
		pj = nil
	}
	for _, m := range babelBareRE().FindAllStringSubmatch(cfg, 64) {
		n := m[1]
		var cands []string
		switch {
		case strings.HasPrefix(n, "module:"):
			cands = []string{strings.TrimPrefix(n, "module:")}
		case strings.HasPrefix(n, "@"):
			scope, rest, ok := strings.Cut(n, "/")
			if !ok {
				continue
			}
			cands = []string{scope + "/babel-preset-" + rest, scope + "/babel-plugin-" + rest}
			if strings.Contains(rest, "babel") || scope == "@babel" {
				cands = append(cands, n)
			}
		default:
			cands = []string{"babel-preset-" + n, "babel-plugin-" + n}
			if strings.HasPrefix(n, "babel-preset-") || strings.HasPrefix(n, "babel-plugin-") {
				cands = []string{n}
			}
		}
		for _, c := range cands {
			fi, err := os.Stat(filepath.Join(root, "node_modules", filepath.FromSlash(c), "package.json"))
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			if !packageListed(pj, c) && !inLockfile(root, c) {
				return c
			}
			break
		}
	}
	return ""
}

// inLockfile: a lockfile of root names pkg (an honest transitive
// install, `babel-preset-react-app` under react-scripts, is there; a
// package planted in node_modules is not, and a lockfile is tracked).
func inLockfile(root, pkg string) bool {
	for _, n := range []string{"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock"} {
		b, err := boundedread.InRoot(root, n, 64<<20)
		if err != nil {
			continue
		}
		for _, pat := range []string{`"node_modules/` + pkg + `"`, "\n" + pkg + "@", `"` + pkg + "@", "/" + pkg + "@", " " + pkg + "@", "\n  " + pkg + ":", "\n  '" + pkg + "'"} {
			if bytes.Contains(b, []byte(pat)) {
				return true
			}
		}
	}
	return false
}

// packageListed: package.json (pj) names pkg among its dependencies.
func packageListed(pj []byte, pkg string) bool {
	var p struct {
		Dependencies, DevDependencies, OptionalDependencies, PeerDependencies map[string]string
	}
	if pj == nil || json.Unmarshal(pj, &p) != nil {
		return false
	}
	for _, d := range []map[string]string{p.Dependencies, p.DevDependencies, p.OptionalDependencies, p.PeerDependencies} {
		if _, ok := d[pkg]; ok {
			return true
		}
	}
	return false
}
