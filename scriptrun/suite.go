package scriptrun

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
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

// suiteSkip are folders no runner collects from by default (or that hold
// installed code, vendored or built copies).
var suiteSkip = map[string]bool{"node_modules": true, "__pycache__": true, "venv": true, "build": true, "dist": true,
	"site-packages": true, "vendor": true, "testdata": true, "coverage": true, "CVS": true, "_darcs": true}

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
	if len(paths) == 0 {
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
	switch runner {
	case "pytest":
		isTest = func(_, n string) bool {
			return strings.HasSuffix(n, ".py") && (strings.HasPrefix(n, "test_") || strings.HasSuffix(n, "_test.py"))
		}
	case "unittest":
		// discover's default pattern, test*.py
		isTest = func(_, n string) bool { return strings.HasSuffix(n, ".py") && strings.HasPrefix(n, "test") }
	case "go test":
		isTest = func(_, n string) bool { return strings.HasSuffix(n, ".go") }
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
		for _, c := range jsConfigFiles {
			abs := filepath.Join(dir, c)
			if !pl.Has(abs) {
				continue
			}
			b, err := os.ReadFile(abs)
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
			// globalSetup): run before any test.
			{
				for _, m := range jsLocalPath.FindAllStringSubmatch(text, -1) {
					p := strings.TrimPrefix(m[1], "<rootDir>/")
					for _, cand := range NodeFiles(p) {
						if f := filepath.Join(dir, filepath.FromSlash(cand)); pl.Has(f) {
							add(f)
							break
						}
					}
				}
			}
		}
		isTest = func(rel, n string) bool {
			if !jsExt(n) {
				return false
			}
			base := strings.TrimSuffix(n, path.Ext(n))
			return strings.HasSuffix(base, ".test") || strings.HasSuffix(base, ".spec") ||
				strings.Contains("/"+rel+"/", "/__tests__/") || strings.HasPrefix(runner, "mocha") && (rel == "test" || strings.HasPrefix(rel, "test/"))
		}
		recursive = runner != "mocha" // mocha reads ./test (not below) unless --recursive
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
		if runner == "go test" {
			rec = all // a Go package is not its sub-packages
		}
		if strings.HasPrefix(runner, "mocha") && a == "." {
			p = filepath.Join(dir, "test")
		}
		if !pl.walkSuite(dir, p, rec, &budget, func(abs, rel, name string) bool {
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
// not rec), hidden folders and suiteSkip left out; rel is the file's
// folder relative to base. false: the folder budget ran out.
func (pl Places) walkSuite(base, top string, rec bool, budget *int, fn func(abs, rel, name string) bool) bool {
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
				if rec && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_") || rec && name == "__tests__" {
					if !suiteSkip[name] {
						queue = append(queue, filepath.Join(d, name))
					}
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
var jsLocalPath = regexp.MustCompile(`["'\x60]((?:\./|\.\./|<rootDir>/)[^"'\x60\s]+)["'\x60]`)

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
	jsRequire = regexp.MustCompile(`(?:\brequire|\bimport)\s*\(\s*["'\x60]((?:\./|\.\./)[^"'\x60\s]*)["'\x60]\s*\)`)
	jsImport  = regexp.MustCompile(`(?m)^[ \t]*(?:import|export)\b[^"'\x60;]*?["'\x60]((?:\./|\.\./)[^"'\x60\s]*)["'\x60]`)
)

// NodeRequires are the local modules JS code loads by a literal
// specifier: require('./x'), import x from '../y', import('./z'),
// export * from './w'. Installed packages ('fs', 'lodash') are not local.
func NodeRequires(code string) []string {
	var out []string
	for _, re := range []*regexp.Regexp{jsRequire, jsImport} {
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
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
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
	pj := path.Join(dir, "package.json")
	script := func(names ...string) []Run {
		var rs []Run
		for _, n := range names {
			rs = append(rs, Run{Lang: Shell, Path: pj, NpmScript: n, Optional: true, Via: name + " " + strings.Join(ops, " ")})
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
	recursive := false
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
		case (a == "--config" || a == "-c") && i+1 < len(args):
			i++
			if args[i] != "" {
				out = append(out, Run{Lang: SuiteLang(args[i]), Path: args[i], Optional: true, Via: runner + " " + a})
			}
		case a == "--recursive":
			recursive = true
		case valued[a]:
			i++
		case strings.HasPrefix(a, "-") || a == "":
		case runner == "mocha" || runner == "bun test":
			paths = append(paths, a)
		}
	}
	if runner == "mocha" && recursive && len(paths) == 0 {
		paths = []string{"test"}
	}
	suite := Run{Lang: Node, Path: ".", Suite: runner, Via: runner, Paths: strings.Join(paths, " ")}
	if recursive {
		suite.Suite = "mocha --recursive"
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

var goModLine = regexp.MustCompile(`(?m)^module\s+"?([^\s"]+)"?`)

// goModule is the module path of dir's go.mod (or a folder above it, up
// to five), "" when none is found.
func goModule(dir string) string {
	for range 5 {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
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
