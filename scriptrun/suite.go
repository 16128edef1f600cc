package scriptrun

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// Test runners run code the line never names (issue 25, routes left open):
// pytest imports every test module it collects, `go test` builds the
// packages' _test.go files (TestMain and init run first), jest, vitest and
// mocha load their config files, the setup files those name and every test
// file, and npm runs a script with its pre and post scripts. A lazy agent
// writes `os.remove('.git/sessiongate/...')` into a test file and runs the
// suite; the line shows only `pytest`.

// MaxSuiteFiles and MaxSuiteBytes bound what Suite lists for one run: a
// hook answers every tool call. A suite past them is Over: the caller
// cannot read all it runs and says so (it does not allow it unread).
const (
	MaxSuiteFiles = 2000
	MaxSuiteBytes = 32 << 20
)

// maxSuiteDirs bounds the folders walked for one run's test files.
const maxSuiteDirs = 4000

// suiteSkip are the folders each runner does not collect from by default.
// They differ: a folder go test skips (testdata, _x) pytest and jest
// collect from, and jest collects from dist/ and build/ (its only default
// ignore is node_modules): one list for all let a test file in _t/ or
// dist/ run unread.
func suiteSkip(runner, name string) bool {
	if strings.HasPrefix(name, ".") && name != "." || name == "node_modules" {
		return true
	}
	switch runner {
	case "go test", "go generate":
		return strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor"
	case "pytest", "unittest":
		// pytest's norecursedirs; unittest imports only packages, which
		// these are not meant to be
		return name == "__pycache__" || name == "venv" || name == "build" || name == "dist" || name == "CVS" || name == "_darcs" ||
			name == "site-packages" || strings.HasSuffix(name, ".egg") || name == "{arch}"
	case "vitest":
		return name == "dist" || name == "cypress"
	}
	return false
}

// SuiteFiles are the files a test runner's run loads besides what the line
// names: for "pytest" the test modules (test_*.py, *_test.py) under paths
// (relative to dir; none: dir); for "go test" every .go file of the named
// packages (./..., ./pkg, none: dir); for "jest", "vitest", "mocha" and
// "bun test" the config files in dir (jest.config.*, vitest.config.*,
// vite.config.*, .mocharc.*), the local files they name (setupFiles,
// require) and the test files (*.test.*, *.spec.*, __tests__/, mocha's
// test/). Only files inside the places. over is true when the suite is
// past MaxSuiteFiles, MaxSuiteBytes or the folder budget: the list is then
// a prefix.
func (pl Places) SuiteFiles(runner, dir string, paths []string) (files []string, over bool) {
	dir = filepath.Clean(dir)
	named := len(paths) > 0
	if !named {
		paths = []string{"."}
	}
	seen := map[string]bool{}
	var bytes int64
	budget := maxSuiteDirs
	add := func(abs string) bool {
		if seen[abs] || !pl.Has(abs) {
			return true
		}
		st, err := os.Stat(abs)
		if err != nil {
			return true
		}
		if len(files) >= MaxSuiteFiles || bytes+st.Size() > MaxSuiteBytes {
			over = true
			return false
		}
		seen[abs] = true
		bytes += st.Size()
		files = append(files, abs)
		return true
	}
	var isTest func(rel, name string) bool
	recursive := true
	custom := false // a JS config's own test patterns
	switch runner {
	case "pytest", "pytest " + anyPython:
		// python_files in the ini file names other test modules
		// (check_*.py), and testpaths where a bare `pytest` collects
		// (.qa/, which the walk from "." skips): both read, besides the
		// defaults, and conftest.py files met on the way.
		pats, tps := pl.pytestConfig(dir)
		if runner != "pytest" {
			pats, runner = []string{"*.py"}, "pytest"
		}
		if !named && len(tps) > 0 {
			paths = tps
		}
		isTest = func(rel, n string) bool {
			if !strings.HasSuffix(n, ".py") {
				return false
			}
			if strings.HasPrefix(n, "test_") || strings.HasSuffix(n, "_test.py") || n == "conftest.py" {
				return true
			}
			for _, p := range pats {
				if ok, _ := path.Match(p, n); ok {
					return true
				}
				if ok, _ := path.Match(p, path.Join(rel, n)); ok {
					return true
				}
			}
			return false
		}
	case "unittest":
		// discover's default pattern, test*.py
		isTest = func(_, n string) bool { return strings.HasSuffix(n, ".py") && strings.HasPrefix(n, "test") }
	case "go test", "go generate":
		isTest = func(_, n string) bool { return strings.HasSuffix(n, ".go") }
		if runner == "go generate" {
			// only the files with directives: go generate runs nothing else
			isTest = func(rel, n string) bool {
				if !strings.HasSuffix(n, ".go") {
					return false
				}
				b, err := boundedread.File(filepath.Join(dir, filepath.FromSlash(rel), n), boundedread.DefaultLimit)
				return err == nil && goGenerate.Match(b)
			}
		}
		mod := goModule(dir)
		var pkgs []string
		for _, p := range paths {
			// example.com/m/pkg/...: the module's own packages, by the
			// module path go.mod gives (another module's is installed code).
			if mod != "" && (p == mod || strings.HasPrefix(p, mod+"/")) {
				p = "." + strings.TrimPrefix(p, mod)
			}
			all := strings.HasSuffix(p, "/...") || p == "..."
			p = strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
			if p == "" {
				p = "."
			}
			if all {
				pkgs = append(pkgs, p+"/...")
			} else {
				pkgs = append(pkgs, p)
			}
		}
		paths = pkgs
	default: // jest, vitest, mocha, bun test
		wide := strings.HasSuffix(runner, " "+anyJS)
		runner = strings.TrimSuffix(runner, " "+anyJS)
		var roots []string
		var match []*regexp.Regexp
		// cfgDirs: the folder the run starts in, then each folder its
		// config's projects (jest) or workspace (vitest) names, whose own
		// config, setup files and tests run too (a stub project beside a
		// real one, or a project in ../other, ran unread).
		cfgDirs := []string{dir}
		for ci := 0; ci < len(cfgDirs) && ci < maxJSProjects; ci++ {
			cdir := cfgDirs[ci]
			for _, c := range jsConfigFiles {
				abs := filepath.Join(cdir, c)
				if !pl.Has(abs) {
					continue
				}
				b, err := boundedread.File(abs, boundedread.DefaultLimit)
				if err != nil || len(b) > MaxRead {
					add(abs) // judged (and found too big) by the caller's read
					continue
				}
				text := string(b)
				if c == "package.json" {
					// Only its "jest" and "mocha" keys are the runners'
					// config; the rest is the package's, judged elsewhere.
					var pkg map[string]json.RawMessage
					if json.Unmarshal(b, &pkg) != nil {
						continue
					}
					text = string(pkg["jest"]) + "\n" + string(pkg["mocha"])
				} else {
					add(abs)
				}
				// The local files a config names (setupFiles, require,
				// globalSetup): run before any test. Also when named
				// through path.join(__dirname, 'setup', 'env.js') or as a
				// bare 'setup.js': the pieces, joined, name the file.
				for _, p := range jsConfigPaths(text) {
					for _, cand := range NodeFiles(p) {
						if f := filepath.Join(cdir, filepath.FromSlash(cand)); pl.Has(f) && regular(f) {
							add(f)
							break
						}
					}
				}
				// A setup file, runner or environment named by a computed
				// value (a template, a variable): its file is unknown, so
				// every JS file is read as one the run loads.
				if e := path.Ext(c); e != ".yml" && e != ".yaml" && JSComputedRun(text) {
					wide = true
				}
				// testMatch, testRegex, include, spec: test files by the
				// config's own patterns, which are not matched here: every
				// JS file is read as a test. roots: where jest looks. A
				// project's patterns are its folder's: every JS file then.
				ms, w := jsTestPatterns(text)
				if ci > 0 && len(ms) > 0 {
					w = true
				}
				match = append(match, ms...)
				wide = wide || w
				for _, r := range jsRoots(text) {
					roots = append(roots, relTo(dir, filepath.Join(cdir, filepath.FromSlash(r))))
				}
				pdirs, computed := JSProjects(text, strings.HasPrefix(c, "vitest.workspace"))
				if computed {
					// Projects the text does not name: every JS file of
					// the run's folder is read.
					wide = true
					roots = append(roots, relTo(dir, cdir))
				}
				for _, pd := range pdirs {
					for _, d := range pl.projectDirs(cdir, pd) {
						if !slices.Contains(cfgDirs, d) {
							cfgDirs = append(cfgDirs, d)
						}
						if r := relTo(dir, d); !slices.Contains(roots, r) {
							roots = append(roots, r)
						}
					}
				}
			}
		}
		if !named && len(roots) > 0 {
			paths = roots
		}
		isTest = func(rel, n string) bool {
			if !jsExt(n) {
				return false
			}
			if wide {
				return true
			}
			for _, re := range match {
				if re.MatchString(path.Join(rel, n)) || re.MatchString("/"+path.Join(rel, n)) {
					return true
				}
			}
			base := strings.TrimSuffix(n, path.Ext(n))
			return strings.HasSuffix(base, ".test") || strings.HasSuffix(base, ".spec") ||
				strings.Contains("/"+rel+"/", "/__tests__/") || strings.HasPrefix(runner, "mocha") && (rel == "test" || strings.HasPrefix(rel, "test/"))
		}
		custom = wide || len(match) > 0
		recursive = runner != "mocha" || custom // mocha reads ./test (not below) unless --recursive or a spec
	}
	for _, a := range paths {
		all := strings.HasSuffix(a, "/...")
		a = strings.TrimSuffix(a, "/...")
		p := filepath.Join(dir, filepath.FromSlash(a))
		if filepath.IsAbs(a) {
			p = filepath.Clean(a)
		}
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			if !add(p) {
				return files, over
			}
			continue
		}
		rec := recursive
		if runner == "go test" || runner == "go generate" {
			rec = all // a Go package is not its sub-packages
		}
		if strings.HasPrefix(runner, "mocha") && a == "." && !custom {
			p = filepath.Join(dir, "test")
		}
		if !pl.walkSuite(runner, dir, p, rec, &budget, func(abs, rel, name string) bool {
			if isTest(rel, name) {
				return add(abs)
			}
			return true
		}) {
			over = true
		}
		if over {
			return files, over
		}
	}
	return files, over
}

// walkSuite calls fn for each file under top (only top's own files when
// not rec), the runner's suiteSkip folders left out; rel is the file's
// folder relative to base. false: the folder budget ran out.
func (pl Places) walkSuite(runner, base, top string, rec bool, budget *int, fn func(abs, rel, name string) bool) bool {
	if _, _, ok := pl.where(top); !ok {
		return true
	}
	queue := []string{top}
	for len(queue) > 0 {
		if *budget <= 0 {
			return false
		}
		*budget--
		d := queue[0]
		queue = queue[1:]
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(base, d)
		rel = filepath.ToSlash(rel)
		for _, e := range ents {
			name := e.Name()
			switch {
			case e.IsDir():
				if rec && !suiteSkip(runner, name) {
					queue = append(queue, filepath.Join(d, name))
				}
			case e.Type().IsRegular():
				if !fn(filepath.Join(d, name), rel, name) {
					return true
				}
			}
		}
	}
	return true
}

// anyJS ends a JS runner's Suite when the line sets its own test patterns
// (--testMatch, --testRegex, --roots, --spec, a --config of JSON text):
// every JS file is then read as a test.
const anyJS = "(any JS file)"

// anyPython ends pytest's Suite when the line sets its own test files or
// ini file (-o python_files=..., -c other.ini): every .py file is read.
const anyPython = "(any .py file)"

// jsConfigFiles are the config files jest, vitest and mocha load from the
// folder they start in (package.json's "jest"/"mocha" keys are read as
// the config's text too).
var jsConfigFiles = func() []string {
	var out []string
	for _, b := range []string{"jest.config", "vitest.config", "vite.config", "vitest.workspace", "vitest.setup", "jest.setup", ".mocharc"} {
		for _, e := range []string{".js", ".cjs", ".mjs", ".ts", ".mts", ".cts", ".json", ".yml", ".yaml", ".jsonc"} {
			out = append(out, b+e)
		}
	}
	return append(out, "package.json")
}()

// jsLocalPath is a string literal that names a local file: './x',
// '../x', '<rootDir>/x'.
var jsLocalPath = lazyregexp.New(`["'\x60]((?:\./|\.\./|<rootDir>/)[^"'\x60\s]+)["'\x60]`)

var (
	// jsPathCall is path.join/path.resolve of a base (__dirname,
	// process.cwd(), import.meta.dirname, a literal) and literal pieces.
	jsPathCall = lazyregexp.New(`\b(?:join|resolve)\(\s*(?:__dirname|process\.cwd\(\)|import\.meta\.dirname|["'\x60][^"'\x60\n]*["'\x60])((?:\s*,\s*["'\x60][^"'\x60\n]*["'\x60])+)\s*\)`)
	jsPiece    = lazyregexp.New(`["'\x60]([^"'\x60\n]*)["'\x60]`)
	// jsBarePath is any literal with a JS extension: 'setup.js'.
	jsBarePath = lazyregexp.New(`["'\x60]([\w@][\w./@-]*\.(?:js|cjs|mjs|ts|mts|cts|jsx|tsx))["'\x60]`)
	// jsTestKey is a config key that puts tests where the default
	// patterns do not look, with its value: a list or a literal.
	jsTestKey  = lazyregexp.New(`(?:^|[\s{,"'])(testMatch|testRegex|include|spec)["']?\s*:\s*(\[(?:[^\]"'\x60]|"[^"\n]*"|'[^'\n]*'|\x60[^\x60\n]*\x60)*\]|["'\x60/][^\n,}]*)?`)
	jsRootsKey = lazyregexp.New(`(?:^|[\s{,"'])(?:roots|root)["']?\s*:\s*(\[[^\]]*\]|["'\x60][^"'\x60\n]*["'\x60])`)
)

// JSConfigPaths are the local files a JS runner's config names (setup
// files, globalSetup, require), relative to its folder: jsConfigPaths.
func JSConfigPaths(text string) []string { return jsConfigPaths(text) }

// jsConfigPaths are the local paths a JS runner's config names: './x',
// '<rootDir>/x', path.join(__dirname, 'a', 'b.js') as 'a/b.js', and a
// bare 'x.js'.
func jsConfigPaths(text string) []string {
	var out []string
	for _, m := range jsLocalPath.FindAllStringSubmatch(text, -1) {
		out = append(out, strings.TrimPrefix(m[1], "<rootDir>/"))
	}
	for _, m := range jsPathCall.FindAllStringSubmatch(text, -1) {
		var parts []string
		for _, p := range jsPiece.FindAllStringSubmatch(m[1], -1) {
			parts = append(parts, p[1])
		}
		out = append(out, path.Join(parts...))
	}
	for _, m := range jsBarePath.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// jsTestPatterns are the test-file patterns a config sets (jest's
// testMatch globs and testRegex, vitest's include, mocha's spec), as
// regular expressions over the path from the config's folder; wide is
// true when a value is no literal (a variable, a call) or no pattern
// this reads: every JS file is then a test.
func jsTestPatterns(text string) (out []*regexp.Regexp, wide bool) {
	for _, m := range jsTestKey.FindAllStringSubmatch(text, -1) {
		v := strings.TrimSpace(m[2])
		if v == "" {
			return nil, true
		}
		if m[1] == "testRegex" && strings.HasPrefix(v, "/") {
			// a JS regex literal: /x/flags
			if j := strings.LastIndexByte(v, '/'); j > 0 {
				if re, err := regexp.Compile(v[1:j]); err == nil {
					out = append(out, re)
					continue
				}
			}
			return nil, true
		}
		pieces := jsPiece.FindAllStringSubmatch(v, -1)
		if len(pieces) == 0 {
			return nil, true
		}
		for _, p := range pieces {
			var re *regexp.Regexp
			var err error
			if m[1] == "testRegex" {
				re, err = regexp.Compile(strings.ReplaceAll(p[1], `\\`, `\`))
			} else {
				re, err = globRegexp(strings.TrimPrefix(strings.TrimPrefix(p[1], "<rootDir>/"), "./"))
			}
			if err != nil {
				return nil, true
			}
			out = append(out, re)
		}
	}
	return out, false
}

// globRegexp turns a micromatch glob (**, *, ?, [..], {a,b}, ?(x),
// +(a|b), *(x), @(x), !(x)) into a regular expression over a slash path;
// a glob without a slash matches the base name anywhere, as jest's do.
func globRegexp(g string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	if !strings.Contains(g, "/") {
		b.WriteString("(?:.*/)?")
	}
	var stack []byte // the closer and quantifier of open extglobs
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case strings.HasPrefix(g[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(".*")
			i++
		case strings.ContainsRune("?+*@!", rune(c)) && i+1 < len(g) && g[i+1] == '(':
			b.WriteString("(?:")
			q := map[byte]byte{'?': '?', '+': '+', '*': '*', '@': ' ', '!': '*'}[c]
			stack = append(stack, q)
			i++
		case c == ')' && len(stack) > 0:
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			b.WriteString(")")
			if q != ' ' {
				b.WriteByte(q)
			}
		case c == '|' && len(stack) > 0:
			b.WriteString("|")
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '{':
			b.WriteString("(?:")
			stack = append(stack, '}')
		case c == '}' && len(stack) > 0 && stack[len(stack)-1] == '}':
			stack = stack[:len(stack)-1]
			b.WriteString(")")
		case c == ',' && len(stack) > 0 && stack[len(stack)-1] == '}':
			b.WriteString("|")
		case c == '[':
			j := strings.IndexByte(g[i:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			b.WriteString(strings.Replace(g[i:i+j+1], "[!", "[^", 1))
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// jsRoots are the folders a jest roots (vitest root) entry names,
// relative to the config's folder.
func jsRoots(text string) []string {
	var out []string
	for _, m := range jsRootsKey.FindAllStringSubmatch(text, -1) {
		for _, p := range jsPiece.FindAllStringSubmatch(m[1], -1) {
			r := strings.TrimPrefix(strings.TrimPrefix(p[1], "<rootDir>"), "/")
			if r == "" {
				r = "."
			}
			out = append(out, r)
		}
	}
	return out
}

// regular reports whether abs is a regular file (not a folder).
func regular(abs string) bool {
	st, err := os.Stat(abs)
	return err == nil && st.Mode().IsRegular()
}

func jsExt(n string) bool {
	switch path.Ext(n) {
	case ".js", ".cjs", ".mjs", ".ts", ".mts", ".cts", ".jsx", ".tsx":
		return true
	}
	return false
}

// NodeFiles are the files a local require or import specifier can load,
// in node's (and the bundlers') order: the name itself, with an
// extension, or a folder's index file.
func NodeFiles(spec string) []string {
	out := []string{spec}
	if jsExt(spec) || path.Ext(spec) == ".json" {
		return out
	}
	for _, e := range []string{".js", ".cjs", ".mjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"} {
		out = append(out, spec+e)
	}
	for _, e := range []string{".js", ".cjs", ".mjs", ".ts"} {
		out = append(out, spec+"/index"+e)
	}
	return out
}

var (
	jsRequire = lazyregexp.New(`(?:\brequire|\bimport)\s*\(\s*["'\x60]((?:\./|\.\./)[^"'\x60\s]*)["'\x60]\s*\)`)
	jsImport  = lazyregexp.New(`(?m)^[ \t]*(?:import|export)\b[^"'\x60;]*?["'\x60]((?:\./|\.\./)[^"'\x60\s]*)["'\x60]`)
)

// NodeRequires are the local modules JS code loads by a literal
// specifier: require('./x'), import x from '../y', import('./z'),
// export * from './w'. Installed packages ('fs', 'lodash') are not local.
func NodeRequires(code string) []string {
	var out []string
	for _, re := range []*lazyregexp.Regexp{jsRequire, jsImport} {
		for _, m := range re.FindAllStringSubmatch(code, -1) {
			if !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// SuiteLang is the language a suite file is judged in: its extension's,
// and a JSON or YAML config is scanned like an unknown script.
func SuiteLang(name string) Lang {
	switch {
	case jsExt(name):
		return Node
	case strings.HasSuffix(name, ".py"):
		return Python
	case strings.HasSuffix(name, ".go"):
		return Go
	}
	return Unknown
}

// npmScriptRuns are the package.json scripts `npm test`, `npm run X`,
// `yarn X`, `pnpm X` and `bun run X` run (with their pre and post
// scripts, which npm runs around them), and the install scripts a plain
// `npm install` runs. dir is the --prefix/--cwd folder.
func npmScriptRuns(name string, args []string) (out []Run) {
	dir := "."
	var ops []string
	// Workspaces: npm's -w NAME/--workspace, -ws/--workspaces, pnpm's
	// -r/--recursive and --filter NAME: the script of each workspace's
	// package.json runs (Places.Workspaces), which the root's may not name.
	var ws []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-w" || a == "--workspace" || a == "--filter" || a == "-F") && i+1 < len(args):
			i++
			ws = append(ws, args[i])
		case strings.HasPrefix(a, "--workspace=") || strings.HasPrefix(a, "--filter="):
			ws = append(ws, a[strings.IndexByte(a, '=')+1:])
		case a == "-ws" || a == "--workspaces" || a == "--workspaces=true" || name == "pnpm" && (a == "-r" || a == "--recursive"):
			ws = append(ws, "*")
		case (a == "--prefix" || a == "--cwd" || a == "-C" || a == "--dir") && i+1 < len(args):
			i++
			dir = path.Join(dir, args[i])
		case strings.HasPrefix(a, "--prefix=") || strings.HasPrefix(a, "--cwd=") || strings.HasPrefix(a, "--dir="):
			dir = path.Join(dir, a[strings.IndexByte(a, '=')+1:])
		case a == "--":
			i = len(args)
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, a)
		}
	}
	if name == "yarn" && len(ops) > 2 && ops[0] == "workspace" {
		ws, ops = append(ws, ops[1]), ops[2:] // yarn workspace NAME SCRIPT
	}
	if name == "yarn" && len(ops) > 2 && ops[0] == "workspaces" && (ops[1] == "foreach" || ops[1] == "run") {
		ws, ops = append(ws, "*"), ops[1:] // yarn workspaces foreach run X, yarn workspaces run X
		if ops[0] == "foreach" {
			ops = ops[1:]
		} else {
			ops = append([]string{"run"}, ops[1:]...)
		}
	}
	pj := path.Join(dir, "package.json")
	script := func(names ...string) []Run {
		var rs []Run
		for _, n := range names {
			rs = append(rs, Run{Lang: Shell, Path: pj, NpmScript: n, Optional: true, Via: name + " " + strings.Join(ops, " ")})
			if len(ws) > 0 {
				rs[len(rs)-1].Workspaces = strings.Join(ws, "\n")
			}
		}
		return rs
	}
	if len(ops) == 0 {
		if name == "yarn" {
			// plain yarn (pnpm i, bun i) installs: the package's install scripts
			return script("preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare")
		}
		return nil
	}
	op := ops[0]
	switch op {
	case "test", "t", "tst", "start", "stop", "restart":
		if name == "bun" && (op == "test" || op == "t") {
			return nil // bun's own test runner (jsRunner)
		}
		n := map[string]string{"t": "test", "tst": "test"}[op]
		if n == "" {
			n = op
		}
		return script("pre"+n, n, "post"+n)
	case "run", "run-script", "rum", "urn":
		if len(ops) > 1 && ops[1] != "" {
			n := ops[1]
			if name == "bun" && (strings.ContainsAny(n, "/") || path.Ext(n) != "") {
				return nil // bun run x.ts: a file, which the interpreter rules read
			}
			return script("pre"+n, n, "post"+n)
		}
		return nil
	case "install", "i", "ci", "add", "in", "ins", "inst", "insta", "instal", "isnt", "isntall", "install-test", "it":
		if len(ops) == 1 || op == "install-test" || op == "it" {
			// The package's own install scripts (a plain install of it).
			rs := script("preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare")
			if op == "install-test" || op == "it" {
				rs = append(rs, script("pretest", "test", "posttest")...)
			}
			return rs
		}
		return nil
	case "exec", "x", "dlx":
		return nil
	}
	if name == "yarn" || name == "pnpm" {
		// yarn NAME, pnpm NAME: the script of that name (or a bin).
		return script("pre"+op, op, "post"+op)
	}
	return nil
}

// jsRunner is a JS test runner's run: where it starts, the path
// operands it collects (mocha's; jest's and vitest's are patterns, so
// the whole folder is read), and the files --require/--setupFiles name.
func jsRunner(runner string, args []string) []Run {
	var out []Run
	var paths []string
	valued := map[string]bool{"-c": true, "--config": true, "-t": true, "--testNamePattern": true, "-g": true, "--grep": true,
		"--reporter": true, "-R": true, "--timeout": true, "--ui": true, "-u": false, "--project": true, "--environment": true,
		"--testTimeout": true, "--maxWorkers": true, "-w": true, "--shard": true, "--dir": true, "--root": true, "--spec": true}
	recursive, all := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-r" || a == "--require" || a == "--file" || a == "--setupFiles" || a == "--setupFilesAfterEnv" || a == "--globalSetup" || a == "--preload") && i+1 < len(args):
			i++
			if args[i] != "" {
				out = append(out, Run{Lang: Node, Path: args[i], Optional: true, Via: runner + " " + a})
			}
		case strings.HasPrefix(a, "--require=") || strings.HasPrefix(a, "--setupFiles=") || strings.HasPrefix(a, "--file="):
			out = append(out, Run{Lang: Node, Path: a[strings.IndexByte(a, '=')+1:], Optional: true, Via: runner + " " + a[:strings.IndexByte(a, '=')]})
		case (a == "--config" || a == "-c") && i+1 < len(args) && strings.HasPrefix(strings.TrimSpace(args[i+1]), "{"):
			// jest --config '{"setupFiles": [...]}': the config is on the line
			i++
			for _, p := range jsConfigPaths(args[i]) {
				out = append(out, Run{Lang: Node, Path: p, Optional: true, Via: runner + " " + a})
			}
			if ms, w := jsTestPatterns(args[i]); w || len(ms) > 0 {
				all = true
			}
		case (a == "--config" || a == "-c") && i+1 < len(args):
			i++
			if args[i] != "" {
				out = append(out, Run{Lang: SuiteLang(args[i]), Path: args[i], Optional: true, Via: runner + " " + a})
			}
		case (a == "--testMatch" || a == "--testRegex" || a == "--roots" || a == "--include" || a == "--spec") && i+1 < len(args):
			// test files by the line's own patterns: every JS file read
			i++
			all = true
			if a == "--roots" || a == "--spec" && !strings.ContainsAny(args[i], "*?[{") {
				paths = append(paths, strings.TrimPrefix(args[i], "<rootDir>/"))
			}
		case strings.HasPrefix(a, "--testMatch=") || strings.HasPrefix(a, "--testRegex=") || strings.HasPrefix(a, "--roots=") || strings.HasPrefix(a, "--spec="):
			all = true
		case a == "--recursive":
			recursive = true
		case valued[a]:
			i++
		case strings.HasPrefix(a, "-") || a == "":
		case runner == "mocha" || runner == "bun test":
			paths = append(paths, a)
		}
	}
	if runner == "mocha" && recursive && len(paths) == 0 && !all {
		paths = []string{"test"}
	}
	suite := Run{Lang: Node, Path: ".", Suite: runner, Via: runner, Paths: strings.Join(paths, " ")}
	if recursive {
		suite.Suite = "mocha --recursive"
	}
	if all {
		suite.Suite = runner + " " + anyJS
	}
	return append([]Run{suite}, out...)
}

// goTestRuns is what `go test` builds: the packages its path operands
// name (none: the line's folder), test files included.
func goTestRuns(args []string) []Run {
	valued := map[string]bool{"-C": true, "-tags": true, "-exec": true, "-ldflags": true, "-gcflags": true, "-mod": true, "-modfile": true,
		"-o": true, "-p": true, "-overlay": true, "-toolexec": true, "-covermode": true, "-coverpkg": true, "-run": true, "-skip": true,
		"-bench": true, "-benchtime": true, "-count": true, "-timeout": true, "-cpu": true, "-parallel": true, "-coverprofile": true,
		"-cpuprofile": true, "-memprofile": true, "-blockprofile": true, "-mutexprofile": true, "-outputdir": true, "-trace": true,
		"-fuzz": true, "-fuzztime": true, "-fuzzminimizetime": true, "-list": true, "-vet": true, "-shuffle": true, "-json": false}
	var paths []string
	dir := "."
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-args":
			i = len(args)
		case a == "-C" && i+1 < len(args):
			i++
			dir = path.Join(dir, args[i])
		case valued[a]:
			i++
		case strings.HasPrefix(a, "-") || a == "":
		default:
			paths = append(paths, a) // a module path is matched to go.mod's (SuiteFiles)
		}
	}
	return []Run{{Lang: Go, Path: dir, Suite: "go test", Via: "go test", Paths: strings.Join(paths, " ")}}
}

// NpmScript is the body of package.json's script name; "" when it has none.
func NpmScript(pkgJSON, name string) string {
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if json.Unmarshal([]byte(pkgJSON), &pkg) != nil {
		return ""
	}
	return pkg.Scripts[name]
}

// Mentions is the cheap check of a suite's files past the ones judged in
// full: the plain names of the targets not marked Read, case folded (no
// pieces, encodings or command lines followed).
func Mentions(text string, targets []Target) (Finding, bool) {
	low := strings.ToLower(text)
	for _, t := range targets {
		if t.Read || t.Needle == "" {
			continue
		}
		if i := strings.Index(low, strings.ToLower(t.Needle)); i >= 0 {
			return Finding{Line: 1 + strings.Count(low[:i], "\n"), What: t.What}, true
		}
	}
	return Finding{}, false
}

var goModLine = lazyregexp.New(`(?m)^module\s+"?([^\s"]+)"?`)

// goModule is the module path of dir's go.mod (or a folder above it, up
// to five), "" when none is found.
func goModule(dir string) string {
	for range 5 {
		if b, err := boundedread.File(filepath.Join(dir, "go.mod"), boundedread.DefaultLimit); err == nil {
			if m := goModLine.FindSubmatch(b); m != nil {
				return string(m[1])
			}
			return ""
		}
		dir = filepath.Dir(dir)
	}
	return ""
}

// unittestRuns is `python3 -m unittest`: discover (also with no
// arguments, or only options) imports every test*.py under -s (default
// the folder it starts in); dotted names are modules it imports.
func unittestRuns(via string, args []string) []Run {
	start := "."
	var mods []string
	discover := len(args) == 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "discover":
			discover = true
		case (a == "-s" || a == "--start-directory") && i+1 < len(args):
			i++
			start = args[i]
		case (a == "-p" || a == "--pattern" || a == "-t" || a == "--top-level-directory" || a == "-k") && i+1 < len(args):
			i++
		case strings.HasPrefix(a, "-") || a == "":
		case discover && start == "." && !strings.Contains(a, "*"):
			start = a // discover's first operand is the start folder
		case strings.HasSuffix(a, ".py"):
			mods = append(mods, strings.ReplaceAll(strings.TrimSuffix(a, ".py"), "/", "."))
		default:
			mods = append(mods, a) // tests.test_x.Class.method: its module's files are among ModuleFiles
		}
	}
	if !discover && len(mods) == 0 {
		discover = true // options only: unittest discovers
	}
	var out []Run
	if discover {
		out = append(out, Run{Lang: Python, Path: ".", Suite: "unittest", Via: via, Paths: start})
	}
	for _, m := range mods {
		out = append(out, Run{Lang: Python, Code: "import " + m, Imports: true, Via: via})
	}
	return out
}

// pytestConfig is python_files and testpaths from the ini file pytest
// uses for dir: the first of pytest.ini, .pytest.ini, pyproject.toml
// ([tool.pytest.ini_options]), tox.ini ([pytest]) and setup.cfg
// ([tool:pytest]) that has pytest's section, in dir or a folder above it
// inside the places. testpaths are made relative to dir.
func (pl Places) pytestConfig(dir string) (pats, testpaths []string) {
	vals, d := pl.pytestIni(dir)
	for _, tp := range vals["testpaths"] {
		rel, err := filepath.Rel(dir, filepath.Join(d, filepath.FromSlash(tp)))
		if err != nil {
			continue
		}
		if strings.ContainsAny(tp, "*?[") {
			ms, _ := filepath.Glob(filepath.Join(d, filepath.FromSlash(tp)))
			for _, m := range ms {
				if r, err := filepath.Rel(dir, m); err == nil {
					testpaths = append(testpaths, filepath.ToSlash(r))
				}
			}
			continue
		}
		testpaths = append(testpaths, filepath.ToSlash(rel))
	}
	return vals["python_files"], testpaths
}

// pytestIni is the pytest section of the first ini file pytest reads from
// dir up (pytest.ini, .pytest.ini, pyproject.toml, tox.ini, setup.cfg) and
// its folder; nil when there is none inside the places.
func (pl Places) pytestIni(dir string) (map[string][]string, string) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, _, ok := pl.where(d); !ok {
			return nil, ""
		}
		for _, c := range []struct{ name, section string }{{"pytest.ini", "pytest"}, {".pytest.ini", "pytest"}, {"pyproject.toml", "tool.pytest.ini_options"}, {"tox.ini", "pytest"}, {"setup.cfg", "tool:pytest"}} {
			b, err := boundedread.File(filepath.Join(d, c.name), boundedread.DefaultLimit)
			if err != nil || len(b) > MaxRead {
				continue
			}
			vals, ok := iniSection(string(b), c.section)
			if !ok && !strings.HasPrefix(c.name, "pytest") && !strings.HasPrefix(c.name, ".pytest") {
				continue
			}
			return vals, d
		}
		if d == filepath.Dir(d) {
			return nil, ""
		}
	}
}

var iniHeader = lazyregexp.New(`^\s*\[([^\]]+)\]\s*$`)

// iniSection reads the keys of one section of an ini or TOML file as
// word lists: `k = a b`, `k = ["a", "b"]`, and continuation lines.
func iniSection(text, section string) (map[string][]string, bool) {
	vals := map[string][]string{}
	in, found := false, false
	key := ""
	for _, l := range strings.Split(text, "\n") {
		if m := iniHeader.FindStringSubmatch(l); m != nil {
			in = strings.TrimSpace(m[1]) == section
			found = found || in
			key = ""
			continue
		}
		if !in || strings.HasPrefix(strings.TrimSpace(l), "#") || strings.HasPrefix(strings.TrimSpace(l), ";") {
			continue
		}
		v := l
		if k, rest, ok := strings.Cut(l, "="); ok && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "\t") {
			key, v = strings.TrimSpace(k), rest
		} else if key == "" || strings.TrimSpace(l) == "" {
			continue
		}
		for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '[' || r == ']' }) {
			if w = strings.Trim(w, `"'`); w != "" {
				vals[key] = append(vals[key], w)
			}
		}
	}
	return vals, found
}

// goGenerate is a //go:generate directive: its words are a command go
// generate runs in the file's folder (not through a shell).
var goGenerate = lazyregexp.New(`(?m)^//go:generate[ \t]+(.+)$`)

// GoGenerateLines are the commands a Go file's directives run, as shell
// lines: `-command NAME CMD...` aliases expanded (a later `//go:generate
// NAME x` runs CMD... x), $GOFILE and $GOPACKAGE left for the line rules.
func GoGenerateLines(text string) []Stmt {
	var out []Stmt
	alias := map[string]string{}
	for _, m := range goGenerate.FindAllStringSubmatchIndex(text, -1) {
		line := strings.TrimSpace(text[m[2]:m[3]])
		n := 1 + strings.Count(text[:m[0]], "\n")
		if rest, ok := strings.CutPrefix(line, "-command "); ok {
			if name, cmd, ok := strings.Cut(strings.TrimSpace(rest), " "); ok {
				alias[name] = strings.TrimSpace(cmd)
			}
			continue
		}
		if first, rest, _ := strings.Cut(line, " "); alias[first] != "" {
			line = alias[first] + " " + rest
		}
		out = append(out, Stmt{Line: n, Text: line})
	}
	return out
}

// Workspaces are the package.json files of the workspaces of the package
// whose package.json is pj that want names ("*": all): the globs of its
// "workspaces" (a list, or {"packages": [...]}) and pnpm-workspace.yaml's
// packages, a workspace named by its folder or its package name. The root
// package.json itself is not among them.
func (pl Places) Workspaces(pj string, want []string) []string {
	dir := filepath.Dir(pj)
	var globs []string
	if b, err := boundedread.File(pj, boundedread.DefaultLimit); err == nil {
		var pkg struct {
			Workspaces json.RawMessage `json:"workspaces"`
		}
		if json.Unmarshal(b, &pkg) == nil && len(pkg.Workspaces) > 0 {
			var list []string
			var obj struct {
				Packages []string `json:"packages"`
			}
			if json.Unmarshal(pkg.Workspaces, &list) == nil {
				globs = list
			} else if json.Unmarshal(pkg.Workspaces, &obj) == nil {
				globs = obj.Packages
			}
		}
	}
	if b, err := boundedread.File(filepath.Join(dir, "pnpm-workspace.yaml"), boundedread.DefaultLimit); err == nil {
		for _, m := range yamlItem.FindAllStringSubmatch(string(b), -1) {
			globs = append(globs, m[1])
		}
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] && pl.Has(p) && regular(p) && p != pj {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, g := range globs {
		if strings.HasPrefix(g, "!") {
			continue
		}
		g = strings.TrimSuffix(strings.ReplaceAll(g, "**", "*"), "/")
		ms, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(g), "package.json"))
		for _, m := range ms {
			if slices.Contains(want, "*") {
				add(m)
				continue
			}
			rel, _ := filepath.Rel(dir, filepath.Dir(m))
			name := ""
			if b, err := boundedread.File(m, boundedread.DefaultLimit); err == nil {
				var pkg struct {
					Name string `json:"name"`
				}
				_ = json.Unmarshal(b, &pkg)
				name = pkg.Name
			}
			for _, w := range want {
				if ok, _ := path.Match(w, name); ok || w == name || path.Clean(w) == filepath.ToSlash(rel) {
					add(m)
				}
			}
		}
	}
	// -w DIR names a folder even when no glob lists it
	for _, w := range want {
		if w != "*" && !strings.ContainsAny(w, "*?[{") {
			add(filepath.Join(dir, filepath.FromSlash(w), "package.json"))
		}
	}
	return out
}

var yamlItem = lazyregexp.New(`(?m)^\s*-\s*["']?([^"'\n#]+?)["']?\s*$`)
