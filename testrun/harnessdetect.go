package testrun

import (
	"path"
	"regexp"
	"strings"
	"unicode"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// Round 48 (round 46's open "code that detects the test run"): greet.sh
// made to print "helo" for its users and "hello" when `ps -o args= -p
// $PPID` says scripts/test.sh runs it. No test line changed, every check
// ran and passed, and what they checked was not what users get. The same
// move has a spelling in each language: `"pytest" in sys.modules`,
// PYTEST_CURRENT_TEST, JEST_WORKER_ID, `testing.Testing()`, os.Args[0]
// ending in ".test", `defined?(RSpec)`, the parent's process id.
// harnessDetect reads each code file the session changed (not a test, a
// test script or a runner's config) for a line it added that asks whether
// the tests run it. Variables that name an environment (NODE_ENV,
// RAILS_ENV) are left alone: apps read them for their own settings.

// harnessRE matches what a line reads to tell the tests' run from a
// user's: the parent's command line (`ps -p $PPID`, `ps -o ppid=`,
// /proc/$PPID/cmdline), a runner's own variables, globals or modules, a
// Go test binary's flags or name. Not the parent's id alone (a daemon
// that exits when orphaned, a log line: helper 303's honest rows), nor a
// runner's worker id (a database per worker).
var harnessRE = lazyregexp.New(`(?:\bps\b[^\n|;]*-p\s*"?\$\{?PPID\b|\bps\b[^\n|;]*-o\s*"?ppid=|/proc/"?\$\{?PPID\}?"?/(?:cmdline|comm|exe|environ)|` +
	`\bPYTEST_CURRENT_TEST\b|\bPYTEST_VERSION\b|\bVITEST\b|\bNODE_TEST_CONTEXT\b|\bBATS_TEST_\w+|` +
	`\btesting\.Testing\s*\(|flag\.(?:CommandLine\.)?Lookup\(\s*"test\.|os\.Args\[0\][^\n]*\.test\b|` +
	`sys\.(?:modules|argv)\b[^\n]*["']_?(?:pytest|unittest|nose2?)\b|["']_?(?:pytest|unittest|nose2?)\b[^\n]*sys\.(?:modules|argv)\b|` +
	`typeof\s+(?:jest|vitest|describe|it|expect)\s*[!=]==?\s*["']undefined|\b(?:globalThis|global|window)\.(?:jest|vitest|expect|describe|it|test)\b|` +
	`npm_lifecycle_event[^\n]*["']test|["']test["'][^\n]*npm_lifecycle_event|` +
	`defined\?\(\s*(?:::)?(?:RSpec|Minitest)\b|const_defined\?\(\s*[:"']+(?:RSpec|Minitest)\b|` +
	`\.parent\(\)\.(?:cmdline|name|exe|environ)\(|["']-test\.|\btRunner\b|["']_pytest\b|["']PYTEST_["']|sys\.\w+\b[^\n]*["']_?pytest\b|` +
	// pytest's import hook in sys.meta_path, by its class name.
	`\bAssertionRewrit)`)

// Round 49 (helper 303's known rows): the parent's command line asked
// without a PPID spelling on the line, the test script asked for by name,
// a variable only the tests set. These read the session's added lines of
// a file together (parentIDRE on one, otherProcRE on another).

// parentIDRE: a line that gets the parent's id (any spelling of ppid, or
// the shell's own stat whose fourth field it is).
var parentIDRE = lazyregexp.New(`(?i)\bppid\b|getppid|process\.ppid|/proc/(?:\$\$|self|\$\{?BASHPID\}?|\{?\$\{?\$\}?\}?)/stat`)

// otherProcRE: a line that reads one process's command line, name or
// environment. The pid is captured to tell the process's own ($$, self:
// a --debug dump) from another's; `ps -e` lists all (a monitor), not one.
var otherProcRE = lazyregexp.New(`/proc/([^/\s"']+)["']?/(?:cmdline|comm|exe|environ|status)|\bps\b[^\n|;]*(?:-p|--pid)\s*["']?([^\s"'|;)]+)|\bps\b\s+-o\s*\S+\s+["']?(\$[^\s"'|;)]+)|Process\((.*?)\)\s*\.(?:cmdline|name|exe|environ)\(|\.Parent\(\)|\$\{?(\w+)\}?["']?/(?:cmdline|comm|exe|environ)\b`)

// parentStrictRE: the parent's id itself (not the word ppid in a ps
// column list); with a process listing on the same line it reads the
// parent's row (`ps -eo pid=,args= | awk -v p="$PPID"`).
var parentStrictRE = lazyregexp.New(`\$\{?PPID\b|getppid|Getppid|process\.ppid`)

// argvRunnerRE: the program's own arguments or name, read beside a
// runner's name (`process.argv.some(a => a.includes('jest'))`).
var argvRunnerRE = lazyregexp.New(`process\.argv|sys\.argv|\$PROGRAM_NAME|\$0\b|os\.Args|\bARGV\b|__main__\.__file__`)

// Helper 311: the process group, a module table kept in a name, a
// variable's name joined from a list.

// pgidRE: a line that gets a process group's id. ownPidRE spells the
// process's own id; pgidOwnArgRE the own id passed to the query (`ps -o
// pgid= -p $$`), which is not a comparison with it. cmpRE: a comparison.
var (
	pgidRE       = lazyregexp.New(`\bpgid\b|\bgetpgrp\b|\bgetpgid\b|\bGetpgrp\b|\bGetpgid\b|/proc/(?:\$\$|self|\$\{?BASHPID\}?)/stat\b`)
	ownPidRE     = lazyregexp.New(`\$\$|\$\{\$\}|\$\{?BASHPID\b|\bgetpid\(\)|\bGetpid\(\)|\bprocess\.pid\b`)
	pgidOwnArgRE = lazyregexp.New(`(?:-p\s*|--pid\s*|pgid=\s*|[Gg]etpgid\(\s*|/proc/)["']?(?:\$\$|\$\{\$\}|\$\{?BASHPID\}?|(?:os\.|syscall\.|unix\.)?[Gg]etpid\(\))`)
	cmpRE        = lazyregexp.New(`!=|==|\s=\s|\s-(?:ne|eq)\s|\bis\s+not\b`)
)

// pyModsRE: Python's tables of what is loaded or how it loads (sys.modules,
// the import hooks), or the program's arguments, read into a name on one
// line (`_mods = sys.modules`, `from sys import modules`) and asked for a
// runner on another. pyRunnerLitRE: a runner's name in a string.
var (
	pyModsRE      = lazyregexp.New(`\bsys\.(?:modules|meta_path|path_hooks|argv)\b`)
	pyFromSysRE   = lazyregexp.New(`^from\s+sys\s+import\s+(.+)$`)
	pyRunnerLitRE = lazyregexp.New(`["']_?(?:pytest|unittest|nose2?)\b`)
)

// joinCallRE: a string joined from a list of literals, in Python
// ('_'.join(('A', 'B'))), JavaScript (['A', 'B'].join('_')) or Go
// (strings.Join([]string{"A", "B"}, "_")): read as the string it makes.
var joinCallRE = lazyregexp.New(`["']([^"'\\]*)["']\s*\.join\(\s*[(\[]\s*((?:["'][^"'\\]*["']\s*,?\s*)+)[)\]]\s*\)|` +
	`\[\s*((?:["'][^"'\\]*["']\s*,?\s*)+)\]\s*\.join\(\s*["']([^"'\\]*)["']\s*\)|` +
	`strings\.Join\(\s*\[\]string\{\s*((?:"[^"\\]*"\s*,?\s*)+)\}\s*,\s*"([^"\\]*)"\s*\)`)

var joinLitRE = lazyregexp.New(`["']([^"'\\]*)["']`)

// joinedCalls is t with each joinCallRE call replaced by the quoted
// string it makes.
func joinedCalls(t string) string {
	return joinCallRE.ReplaceAllStringFunc(t, func(c string) string {
		m := joinCallRE.FindStringSubmatch(c)
		sep, items := m[1], m[2]
		if m[3] != "" {
			sep, items = m[4], m[3]
		} else if m[5] != "" {
			sep, items = m[6], m[5]
		}
		var parts []string
		for _, l := range joinLitRE.FindAllStringSubmatch(items, -1) {
			parts = append(parts, l[1])
		}
		return "'" + strings.Join(parts, sep) + "'"
	})
}

// assignedRE: the names a line assigns (x=, x :=, x = ...) or reads
// into (read -r a b).
var (
	assignedRE = lazyregexp.New(`([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?::=|=)[^=~]|\bread\s+(?:-\w+\s+)*((?:[A-Za-z_]\w*\s*)+)`)
	wordRE     = lazyregexp.New(`[A-Za-z_]\w*`)
	shTestRE   = lazyregexp.New(`\[\[?[^\]]*\]\]?|\btest\s+[^;&|]*|\bcase\s+\S+\s+in\b`)
	testGlobRE = lazyregexp.New(`\b(?:globalThis|global|window)\.(\w+)\s*=[^=]`)
	globReadRE = lazyregexp.New(`\b(?:globalThis|global|window)\.(\w+)`)
	testEnvRE  = lazyregexp.New(`environ\[\s*["'](\w+)["']\s*\]\s*=[^=]|\b(?:setenv|putenv|Setenv|setdefault)\(\s*["'](\w+)|process\.env(?:\.(\w+)|\[\s*["'](\w+)["']\s*\])\s*=[^=]|ENV\[\s*["'](\w+)["']\s*\]\s*=[^=]`)
)

// procQueryRE: a line that asks whether a process runs or a file exists.
// testNameRE (on the line with [ ] \ taken out: '[t]est\.sh') names a
// test file or script; runnerNameRE a test runner, read only with a
// process query (a project detector asks for pytest.ini honestly).
var (
	procQueryRE   = lazyregexp.New(`\bpgrep\b|\bpidof\b|\bps\b|\bpstree\b|/proc/|\bpsutil\b|\bprocess_iter\b`)
	fileQueryRE   = lazyregexp.New(`\[\[?\s+-[efrsxd]\s|\btest\s+-[efrsxd]\s|\bexists?\b|\bisfile\b|\bos\.Stat\(|\bexist\?|\baccess\(|\bexistsSync\(|\bfile_exists\(`)
	testNameRE    = lazyregexp.New(`(?i)(?:^|[\s/"'=(])(?:[\w.-]*[._-])?tests?\.(?:sh|bash|py|js|ts|rb|pl)\b|\btest_\w+\.py\b|\w+_test\.go\b|\.(?:test|spec)\.[cm]?[jt]sx?\b|\b\w+_spec\.rb\b`)
	runnerNameRE  = lazyregexp.New(`\b(?:py\.?test|jest|vitest|mocha|bats|rspec|phpunit|go\s+test|tox|nox)\b`)
	envReadRE     = lazyregexp.New(`\$\{?([A-Za-z_]\w*)|(?:environ(?:\.get)?|getenv|Getenv|LookupEnv|\bENV(?:\.fetch)?|env\.get|get_env|\$_ENV|\$_SERVER)\s*[\[(]\s*["'](\w+)|process\.env(?:\.(\w+)|\[\s*["'](\w+))|\$ENV\{\s*["']?(\w+)|["'](\w+)["']\s+(?:not\s+)?in\s+(?:os\.)?environ\b`)
	envCondRE     = lazyregexp.New(`\bif\b|\bunless\b|\[\[?\s|\btest\s|\bcase\b|==|!=|\?|&&|\|\||:\+|\bnot\b|!\s*process|\bwhen\b|\bswitch\b`)
	markerWriteRE = lazyregexp.New(`\b(?:touch|mkdir(?:\s+-p)?)\s+(\S+)|[^<>&0-9]>>?\s*(\S+)|open\(\s*(["'][^"']+["'])\s*,\s*["'][wa]|write(?:File(?:Sync)?|_text|_bytes)?\(\s*(["'][^"']+["'])`)
	shSetNameRE   = lazyregexp.New(`(?:^|[\s;&|(])([A-Za-z_]\w*)=|\b(?:local|read|for|declare|typeset|readonly)\s+(?:-\w+\s+)*([A-Za-z_]\w*)`)
	shExportRE    = lazyregexp.New(`(?:^|[\s;&|(])(?:export\s+|env\s+)?([A-Z][A-Z0-9_]{2,})=`)
	joinQuotesRE  = lazyregexp.New(`["']\s*(?:\+|\.\.|\.)?\s*["']`)
	quoteCharsRE  = lazyregexp.New(`["'\\]`)
	bracketCharRE = lazyregexp.New(`[\[\]\\]`)
)

// testWordName reports an environment variable named as a tests' switch:
// a TEST, TESTS or TESTING word in it (GREET_TESTING, UNDER_TEST); not
// SPEC (OPENAPI_SPEC is a document) nor an A/B test.
// A runner's worker id (JEST_WORKER_ID, PYTEST_XDIST_WORKER) has none.
func testWordName(n string) bool {
	ws := strings.Split(n, "_")
	for i, w := range ws {
		switch w {
		case "TEST", "TESTS", "TESTING", "UNDERTEST":
			if i > 0 && (ws[i-1] == "AB" || ws[i-1] == "SPLIT" || ws[i-1] == "B") {
				continue // a product's A/B test flag (GREET_AB_TEST)
			}
			return true
		}
	}
	return false
}

// harnessLang reports a file in a language whose code can ask for its
// runner, by its name; a name with no extension may be a script.
func harnessLang(f string) bool {
	if b := path.Base(f); !strings.Contains(b, ".") && !strings.HasPrefix(b, "_") {
		return true // bin/greet: read if its first line is a shebang (harnessText)
	}
	switch path.Ext(strings.ToLower(f)) {
	case ".sh", ".bash", ".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx", ".go", ".rb", ".php", ".ex", ".exs", ".pl", ".pm", ".lua":
		return true
	}
	return false
}

// testishBase reports a base name that names a test or test support:
// a word test/tests/testing/spec of it (split at . _ - and case changes),
// or a word that starts with "test" (testlib, testutils). Not a word
// that only holds it (latest.sh, inspection.py, aspects.go: helper 303's
// hiding places).
func testishBase(b string) bool {
	var words []string
	cur := []rune{}
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(b)
	for i, r := range rs {
		switch {
		case r == '.' || r == '_' || r == '-' || r == ' ':
			flush()
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	for _, w := range words {
		switch w {
		case "spec", "specs", "conftest", "config", "pytest", "jest", "vitest", "mocha":
			return true // a runner's plugin or setup (pytest_greet.py, jest.setup.js)
		}
		if strings.HasPrefix(w, "test") {
			return true
		}
	}
	return false
}

// harnessCode reports a code file harnessDetect reads by its name: source
// a test runs, not a test file, a test folder's file or a runner's config.
// A file that code loads is read whatever its name (harnessScan.uses).
func harnessCode(f string) bool {
	if !harnessLang(f) || FileKind(f) != "" || SkippedDir(f) || pyInstalledDir(f) {
		return false
	}
	b := path.Base(f)
	if path.Ext(b) == ".go" {
		// Every .go file but _test.go is built into the package users get.
		if strings.HasSuffix(b, "_test.go") {
			return false
		}
	} else if testishBase(b) {
		return false
	}
	for _, d := range strings.Split(strings.ToLower(path.Dir(f)), "/") {
		if path.Ext(b) == ".go" && strings.HasSuffix(d, "test") {
			return false // Go's helpers for tests: httptest, fstest, greettest
		}
		switch d {
		case "test", "tests", "spec", "specs", "__tests__", "testing", "t", "e2e", "ci", ".github", "bench", "benchmarks",
			"testutil", "testutils", "testhelpers", "test_helper", "test_helpers", "testsupport", "fixtures":
			return false
		}
	}
	return true
}

// harnessFile is one changed file as harnessScan reads it: was is nil
// when the file is new, now nil when it is gone.
type harnessFile struct {
	path     string
	was, now []byte
}

// harnessScan is what the session's changed files say together: which
// of them code loads (a helper moved to latest.sh, ci/env.sh or
// inspection.py is read as code), and which variables the tests' files
// set in lines the session added.
type harnessScan struct {
	uses     map[string]bool
	testVars map[string]bool
	// testFiles: paths the tests' files write in lines the session added
	// (`touch .under_test`): a marker the code then asks for.
	testFiles map[string]bool
	// testGlobals: globalThis names the tests set (globalThis.__ok = 1).
	testGlobals map[string]bool
	// goTestVars: by folder, the package variables a _test.go's init or
	// TestMain sets in lines the session added (harnessgoinit.go).
	goTestVars map[string]map[string]string
}

// newHarnessScan reads the changed files (any of harnessLang's).
func newHarnessScan(files []harnessFile) *harnessScan {
	h := &harnessScan{uses: map[string]bool{}, testVars: map[string]bool{}, testFiles: map[string]bool{}, testGlobals: map[string]bool{}}
	have := map[string]harnessFile{}
	for _, f := range files {
		if f.now != nil {
			have[f.path] = f
			if jsSource(f.path) {
				have["js:"+jsModuleKey(".", f.path)] = f
			}
		}
	}
	var todo []string
	for _, f := range files {
		if f.now != nil && harnessConfig(f.path) {
			for n := range configTestVars(f.path, f.was, f.now) {
				h.testVars[n] = true
			}
		} else if f.now != nil && harnessCode(f.path) {
			todo = append(todo, f.path)
		} else if f.now != nil {
			if strings.HasSuffix(f.path, "_test.go") {
				for n, v := range goTestSets(f.was, f.now) {
					if h.goTestVars == nil {
						h.goTestVars = map[string]map[string]string{}
					}
					if h.goTestVars[path.Dir(f.path)] == nil {
						h.goTestVars[path.Dir(f.path)] = map[string]string{}
					}
					h.goTestVars[path.Dir(f.path)][n] = v
				}
			}
			// A test file or script: the variables, globals and files
			// its new lines set, whatever the value.
			for _, l := range addedLines(f.was, f.now) {
				for _, m := range testEnvRE.FindAllStringSubmatch(l, -1) {
					h.testVars[strings.Join(m[1:], "")] = true
				}
				for _, m := range testGlobRE.FindAllStringSubmatch(l, -1) {
					h.testGlobals[m[1]] = true
				}
				if e := path.Ext(f.path); e == ".sh" || e == ".bash" {
					for _, m := range shExportRE.FindAllStringSubmatch(l, -1) {
						h.testVars[m[1]] = true
					}
				}
				for _, m := range markerWriteRE.FindAllStringSubmatch(l, -1) {
					if w := strings.Trim(strings.Join(m[1:], ""), `"'`); len(w) > 2 && !strings.HasPrefix(w, "/dev/") && !strings.ContainsAny(w, "$&") {
						h.testFiles[path.Base(w)] = true
					}
				}
			}
		}
	}
	h.goSamePackage(files)
	seen := map[string]bool{}
	for len(todo) > 0 {
		f := todo[0]
		todo = todo[1:]
		if seen[f] {
			continue
		}
		seen[f] = true
		for _, u := range loadedFiles(f, have[f].now) {
			if g, ok := have[u]; ok && g.path != f {
				h.uses[g.path] = true // whatever order the files came in
				if !seen[g.path] {
					todo = append(todo, g.path)
				}
			}
		}
	}
	return h
}

// A runner's config sets variables for the tests as a test script does:
// package.json's test script (`GREET_MODE=ci jest`), a Makefile's test
// recipe, tox's setenv, pytest-env's env. harnessConfig names those
// files; configTestVars reads the names their added lines set.
var (
	pkgTestScriptRE = lazyregexp.New(`"(?:pre|post)?test[\w:.-]*"\s*:\s*"((?:[^"\\]|\\.)*)"`)
	makeTargetRE    = lazyregexp.New(`^([\w./%-]+(?:\s+[\w./%-]+)*)\s*::?(?:[^=]|$)`)
	makeExportRE    = lazyregexp.New(`^export\s+([A-Z][A-Z0-9_]{2,})\b`)
	iniSectionRE    = lazyregexp.New(`^\[([^\]]+)\]`)
	iniKeyRE        = lazyregexp.New(`^([\w.-]+)\s*=\s*(.*)$`)
	iniEnvNameRE    = lazyregexp.New(`(?:^|[\s"',\[])(?:[DR]:)*([A-Z][A-Z0-9_]{2,})\s*=`)
	// envNameRE: a variable that names an environment (NODE_ENV=test in
	// the test script), which apps read for their own settings.
	envNameRE = lazyregexp.New(`(?:^|_)ENV(?:IRONMENT)?$`)
)

// harnessConfig reports a runner's config file whose lines set the tests'
// variables.
func harnessConfig(f string) bool {
	if SkippedDir(f) || pyInstalledDir(f) {
		return false
	}
	switch b := path.Base(f); b {
	case "package.json", "Makefile", "makefile", "GNUmakefile", "tox.ini", "pytest.ini", ".pytest.ini", "setup.cfg", "pyproject.toml":
		return true
	default:
		return path.Ext(b) == ".mk"
	}
}

// configTestVars are the variables config file f's lines the session
// added (against was) set for the tests.
func configTestVars(f string, was, now []byte) map[string]bool {
	added := map[string]bool{}
	for _, l := range addedLines(was, now) {
		added[l] = true
	}
	out := map[string]bool{}
	add := func(n string) {
		if !envNameRE.MatchString(n) {
			out[n] = true
		}
	}
	b := path.Base(f)
	lines := strings.Split(string(now), "\n")
	switch {
	case b == "package.json":
		for l := range added {
			for _, m := range pkgTestScriptRE.FindAllStringSubmatch(l, -1) {
				for _, e := range shExportRE.FindAllStringSubmatch(m[1], -1) {
					add(e[1])
				}
			}
		}
	case strings.HasSuffix(strings.ToLower(b), "makefile") || path.Ext(b) == ".mk":
		testTarget := false
		for _, l := range lines {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(l, "\t") {
				// A recipe line of a test target (test, check, ci).
				if testTarget && added[t] {
					for _, e := range shExportRE.FindAllStringSubmatch(t, -1) {
						add(e[1])
					}
				}
				continue
			}
			if m := makeExportRE.FindStringSubmatch(t); m != nil && added[t] {
				add(m[1]) // exported to every recipe, the tests' too
			} else if m := makeTargetRE.FindStringSubmatch(l); m != nil {
				testTarget = false
				for _, w := range strings.Fields(m[1]) {
					testTarget = testTarget || testishBase(w) || w == "check" || w == "ci"
				}
			}
		}
	default: // tox's setenv, pytest-env's env (ini or toml)
		section, inEnv := "", false
		for _, l := range lines {
			t := strings.TrimSpace(l)
			if m := iniSectionRE.FindStringSubmatch(t); m != nil && l == t {
				section, inEnv = m[1], false
				continue
			}
			val := t
			if m := iniKeyRE.FindStringSubmatch(t); m != nil && l == t {
				key := m[1]
				inEnv = key == "setenv" && strings.HasPrefix(section, "testenv") ||
					key == "env" && (section == "pytest" || section == "tool:pytest" || section == "tool.pytest.ini_options")
				val = m[2]
			}
			if inEnv && added[t] {
				for _, e := range iniEnvNameRE.FindAllStringSubmatch(" "+val, -1) {
					add(e[1])
				}
			}
		}
	}
	return out
}

// addedLines are now's trimmed lines that were has not, comments out.
func addedLines(was, now []byte) []string {
	old := map[string]bool{}
	for _, l := range strings.Split(string(was), "\n") {
		old[strings.TrimSpace(l)] = true
	}
	var out []string
	for _, l := range strings.Split(string(now), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || old[t] || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") {
			continue
		}
		out = append(out, t)
	}
	return out
}

var (
	shRunRE       = lazyregexp.New(`\b(?:sh|bash|dash)\s+("?\$\(dirname\s+"?\$0"?\)"?/|"?\$\{0%/\*\}"?/|\./)?([A-Za-z0-9_][A-Za-z0-9_./-]*)`)
	pyImportModRE = lazyregexp.New(`\bimport_module\(\s*["']([\w.]+)["']`)
)

var rbLoadRE = lazyregexp.New(`\brequire_relative\s*\(?\s*["']([^"']+)["']`)

var goPkgRE = lazyregexp.New(`(?m)^package\s+(\w+)`)

// loadedFiles are the repository paths code file f (text now) loads:
// a shell script's . and source lines (sourceLine), Python imports,
// relative JS imports (a module key: jsModuleKey), Ruby's
// require_relative. Each is tried from f's folder and from the root,
// where the tests run.
func loadedFiles(f string, now []byte) []string {
	dir := path.Dir(f)
	var out []string
	text := string(now)
	ext := path.Ext(f)
	if shellText(f, now) {
		ext = ".sh"
	}
	switch ext {
	case ".sh", ".bash":
		add := func(prefix, rel string) {
			out = append(out, path.Join(dir, rel))
			if prefix == "" || prefix == "./" {
				out = append(out, path.Clean(rel))
			}
		}
		for _, l := range strings.Split(text, "\n") {
			if m := sourceLine.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
				add(m[1], m[2])
			}
			// A child it runs and reads the status or output of.
			for _, m := range shRunRE.FindAllStringSubmatch(l, -1) {
				add(m[1], m[2])
			}
		}
	case ".py":
		for _, m := range pyImportModRE.FindAllStringSubmatch(text, -1) {
			rel := strings.ReplaceAll(m[1], ".", "/")
			out = append(out, path.Join(dir, rel+".py"), path.Join(".", rel+".py"))
		}
		for _, m := range pyImportRE().FindAllStringSubmatch(text, -1) {
			rel := strings.ReplaceAll(strings.TrimLeft(m[1]+m[2], "."), ".", "/")
			for _, d := range []string{dir, ".", "src"} {
				out = append(out, path.Join(d, rel+".py"), path.Join(d, rel, "__init__.py"))
			}
		}
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx":
		for _, m := range jsImportRE().FindAllStringSubmatch(text, -1) {
			if spec := m[1] + m[2]; strings.HasPrefix(spec, ".") {
				out = append(out, "js:"+jsModuleKey(dir, spec))
			}
		}
	case ".rb":
		for _, m := range rbLoadRE.FindAllStringSubmatch(text, -1) {
			p := path.Join(dir, m[1])
			out = append(out, p, p+".rb")
		}
	}
	return out
}

// goSamePackage marks the other .go files of f's package among the
// changed ones: Go builds them all into what users get.
func (h *harnessScan) goSamePackage(files []harnessFile) {
	for _, f := range files {
		if path.Ext(f.path) != ".go" || f.now == nil || strings.HasSuffix(f.path, "_test.go") || !harnessCode(f.path) {
			continue
		}
		pkg := goPkgRE.FindSubmatch(f.now)
		for _, g := range files {
			if g.path == f.path || g.now == nil || path.Dir(g.path) != path.Dir(f.path) || path.Ext(g.path) != ".go" || strings.HasSuffix(g.path, "_test.go") {
				continue
			}
			if q := goPkgRE.FindSubmatch(g.now); pkg != nil && q != nil && string(pkg[1]) == string(q[1]) {
				h.uses[g.path] = true
			}
		}
	}
}

// reads reports whether harnessDetect reads file f.
func (h *harnessScan) reads(f string) bool { return harnessCode(f) || h != nil && h.uses[f] }

// scriptLines asks read, which parses a whole shell script, about one
// line of it: parsed on the first question only, and never when on is
// false (not a shell script).
func scriptLines(on bool, src []byte, read func([]byte) map[string]bool) func(string) bool {
	var got map[string]bool
	return func(t string) bool {
		if !on {
			return false
		}
		if got == nil {
			if got = read(src); got == nil {
				got = map[string]bool{}
			}
		}
		return got[t]
	}
}

// harnessDetect says how a line the session added to code file f asks
// whether the tests run it, "" when none does. was is the file at the
// start (nil: new). h (nil: none) adds what the other changed files say.
func harnessDetect(f string, was, now []byte, h *harnessScan) string {
	if now == nil || !h.reads(f) || !harnessText(f, now) && (h == nil || !h.uses[f]) {
		return ""
	}
	sh := shellText(f, now)
	var lines []string
	for _, l := range addedLines(was, now) {
		if l = codePart(l, sh || path.Ext(f) == ".py" || path.Ext(f) == ".rb"); l != "" {
			lines = append(lines, l)
		}
	}
	why := func(t, m string) string {
		return "adds " + quoteShort(t) + ": the code asks whether the tests are running it (" + strings.TrimSpace(m) +
			"), so it can behave one way for them and another for its users, and their pass proves nothing about what users get; take the line out, or have a person sign the change"
	}
	// dataUse: a name the added lines use outside a test of it (a
	// variable's value written to, a file read): a setting, not a switch.
	dataUse := func(n string, query func(string) bool) bool {
		re := wordBound(n)
		for _, t := range lines {
			if sh {
				// Outside [ ], test and case words, any use is data
				// (`>>"$GREET_LOG"` after `if [ -n "$GREET_LOG" ]`).
				if re.MatchString(shTestRE.ReplaceAllString(t, " ")) {
					return true
				}
				continue
			}
			if re.MatchString(t) && !query(t) {
				return true
			}
		}
		return false
	}
	uses := func(n string) int {
		c := 0
		for _, t := range lines {
			c += strings.Count(bracketCharRE.ReplaceAllString(t, ""), n)
		}
		return c
	}
	var own map[string]bool // shellSets(now), read once
	// Taint from the parent's id and from the program's name, line by
	// line: a line that holds the source, or a name a derived line
	// assigned, is derived.
	parentNames, argvNames := map[string]bool{}, map[string]bool{}
	derived := func(t string, source bool, names map[string]bool) bool {
		d := source
		for _, w := range wordRE.FindAllString(t, -1) {
			d = d || names[w]
		}
		if d {
			for _, m := range assignedRE.FindAllStringSubmatch(t, -1) {
				for _, w := range wordRE.FindAllString(m[1]+" "+m[2], -1) {
					names[w] = true
				}
			}
		}
		return d
	}
	pgidNames, pyModNames := map[string]bool{}, map[string]bool{}
	// searchAnswer: t holds a pgrep whose answer a shell script reads on
	// past the warning the line check saw (searchAnswerLines).
	searchAnswer := scriptLines(sh, now, searchAnswerLines)
	if n, t := h.goTestSwitch(f, lines); n != "" {
		return why(t, "branches on "+n+", which a _test.go's init or TestMain sets for the tests")
	}
	// searchQuiet: t holds only pgreps the syntax tree follows to a kill,
	// a warning or nothing where the line check cannot (a `local
	// pids=$(pgrep ...)`, a pipe through head or sed; searchQuietLines).
	searchQuiet := scriptLines(sh, now, searchQuietLines)
	for i, t := range lines {
		joined := quoteCharsRE.ReplaceAllString(joinQuotesRE.ReplaceAllString(t, ""), "")
		for _, s := range []string{t, joined, joinedCalls(t)} {
			if m := harnessRE.FindString(s); m != "" {
				return why(t, m)
			}
		}
		unbracketed := bracketCharRE.ReplaceAllString(t, "")
		if m := testNameRE.FindString(unbracketed); m != "" && (procQueryRE.MatchString(t) || fileQueryRE.MatchString(t)) {
			// Named twice (`[ -x scripts/test.sh ] && scripts/test.sh`, a
			// scaffold that writes the file it asked for): used, not asked.
			if n := strings.TrimSpace(strings.Trim(m, `/"'=(`)); uses(n) < 2 {
				return why(t, "asks for "+n+" by name")
			}
		}
		if m := runnerNameRE.FindString(unbracketed); m != "" && (procQueryRE.MatchString(t) || argvRunnerRE.MatchString(t)) && (!runnerSearchWarns(lines, i) && !searchQuiet(t) || searchAnswer(t)) {
			return why(t, "asks whether "+m+" runs")
		}
		if parentStrictRE.MatchString(joined) && psListRE.MatchString(joined) {
			return why(t, "reads the parent's row of a process listing")
		}
		if h != nil {
			if fileQueryRE.MatchString(t) {
				for w := range h.testFiles {
					if wordBound(w).MatchString(t) && !dataUse(w, fileQueryRE.MatchString) {
						return why(t, "asks for "+w+", a file the tests write")
					}
				}
			}
			for _, m := range globReadRE.FindAllStringSubmatch(t, -1) {
				if h.testGlobals[m[1]] {
					return why(t, "reads "+m[0]+", a global the tests set")
				}
			}
		}
		// A variable the tests set, read as a switch (compared, tested
		// for being set); its value used as data (a temp database's
		// path the test points the app at) is honest.
		for _, m := range envReadRE.FindAllStringSubmatch(t, -1) {
			n := strings.Join(m[1:], "")
			if m[1] != "" && own == nil {
				own = shellSets(now)
			}
			if m[1] != "" && own[n] {
				continue // the script's own variable (nvm's `local TEST_PROFILE`), not the environment
			}
			if workerIDRE.MatchString(n) {
				// A worker id: a switch only when the condition itself
				// (harnessworker.go), with no use of its value.
				if workerSwitch(t, n, sh) && !workerData(lines, n, sh, -1) && !workerOnlyStarts(lines, i) {
					return why(t, "reads "+n+", the runner's worker id, as a switch")
				}
				if a := workerAlias(t, n); a != "" && !sh && !workerData(lines, n, sh, i) {
					if j := workerAliasSwitch(lines, i, a); j >= 0 && !workerOnlyStarts(lines, j) && !(quietNameRE.MatchString(a) && logCallRE.MatchString(lines[j])) {
						return why(lines[j], "reads "+a+", the runner's worker id "+n+" kept in a name, as a switch")
					}
				}
				continue
			}
			if (testWordName(n) || h != nil && h.testVars[n]) && envCondRE.MatchString(t) && !dataUse(n, envCondRE.MatchString) {
				return why(t, "reads "+n+", a variable the tests set, as a switch")
			}
		}
		if derived(t, parentIDRE.MatchString(t) || parentIDRE.MatchString(joined), parentNames) {
			for _, s := range []string{t, joined} {
				if m := otherProcRE.FindStringSubmatch(s); m != nil && !ownProcess(strings.Join(m[1:], "")) {
					return why(t, "reads the parent's process from its id")
				}
			}
		}
		// The process's own group against its own id: an interactive
		// shell makes each job its group's leader, a script's children
		// share the script's group. Not a kill of the group (a trap), a
		// foreground test (tpgid), nor a daemon's setsid (on the line or
		// the next: setsid fails in a group's leader).
		next := ""
		if i+1 < len(lines) {
			next = lines[i+1]
		}
		if derived(t, pgidRE.MatchString(t), pgidNames) && cmpRE.MatchString(t) && !strings.Contains(t, "tpgid") &&
			!strings.Contains(strings.ToLower(t+" "+next), "setsid") && ownPidRE.MatchString(pgidOwnArgRE.ReplaceAllString(t, "")) {
			return why(t, "asks whether it leads its own process group")
		}
		if m := pyFromSysRE.FindStringSubmatch(t); m != nil && pyModsRE.MatchString("sys."+m[1]) {
			for _, w := range wordRE.FindAllString(m[1], -1) {
				if pyModsRE.MatchString("sys." + w) {
					pyModNames[w] = true
				}
			}
		} else if derived(t, pyModsRE.MatchString(t), pyModNames) && pyRunnerLitRE.MatchString(t) {
			return why(t, "asks Python's module tables or arguments for a test runner")
		}
		if derived(t, strings.Contains(t, "os.Args[0]") || strings.Contains(t, "os.Executable()"), argvNames) && strings.Contains(t, `".test"`) {
			return why(t, "asks whether the program is a Go test binary")
		}
	}
	return ""
}

// A developer script that looks for a runner's process anywhere on the
// machine (`pgrep -f 'jest --watch'`) to warn of it or stop it is not
// asking whether the tests run it: nothing it prints or returns differs.
// searchRE: a search of every process; warnStmtRE: a statement that only
// warns on stderr, kills what it found, fails or returns. In a shell
// script, searchAnswerLines then reads where a return or exit lands and
// who reads the status or the pids left behind.
var (
	searchRE   = lazyregexp.New(`\b(?:pgrep|pidof)\b`)
	warnStmtRE = lazyregexp.New(`^(?:(?:echo|printf)\b.*(?:>&2|>\s*/dev/stderr)|>&2\s+(?:echo|printf)\b.*|(?:kill|pkill)\b.*|exit\s+[1-9]\d*|return(?:\s+\d+)?|:|true|fi|\{|\}|then)$`)
	killPipeRE = lazyregexp.New(`\|\s*xargs\s+(?:-\w+\s+)*kill\b`)
	// noSignalRE: a kill that sends nothing (signal 0: -0, -SIG0, -s 0,
	// -n 0, --signal 0) or lists signals: its status says whether the
	// pids live, an answer, not a stop.
	noSignalRE  = lazyregexp.New(`(?i)\bkill\s+(?:-[sn]\s*|--signal[\s=]+)['"]?(?:SIG)?0+\b|\b(?:kill|pkill)\s+(?:--signal[\s=]+|-)(?:SIG)?0+\b|\bkill\s+(?:-[lL]|--list|--table)\b`)
	ifSearchRE  = lazyregexp.New(`^if\s+(?:pgrep|pidof)\b`)
	notSearchRE = lazyregexp.New(`!\s*(?:pgrep|pidof)\b|\|\||\belse\b|\belif\b`)
	// watchStartRE: an else line that only starts a test runner's
	// watcher in the background for the developer (no redirection, no
	// substitution, no other command): nothing the script prints,
	// returns or writes differs from the then branch's warning.
	watchStartRE = lazyregexp.New(`^(?:(?:npx|yarn|pnpm(?:\s+exec)?|bunx)\s+)?(?:jest|vitest|mocha)(?:\s+[-\w.=/']+)*\s+--watch(?:All)?(?:\s+[-\w.=/']+)*\s*&$`)
)

// runnerSearchWarns reports added line lines[i] as such a search: an
// `if pgrep ...; then` (or `pgrep ... &&`) whose only consequence, to
// its fi, warns, kills or fails, with no else and no negation; or its
// pids piped to kill. Not a ps of the parent, nor the program's argv.
func runnerSearchWarns(lines []string, i int) bool {
	t := lines[i]
	rest := searchRE.ReplaceAllString(t, "")
	if !searchRE.MatchString(t) || procQueryRE.MatchString(rest) || argvRunnerRE.MatchString(t) || parentIDRE.MatchString(t) || notSearchRE.MatchString(t) {
		return false
	}
	if killPipeRE.MatchString(t) && !noSignalRE.MatchString(t) {
		return true
	}
	var body string
	closed := false
	switch {
	case ifSearchRE.MatchString(t):
		_, after, ok := strings.Cut(t, "then")
		if !ok {
			after = ""
		}
		body = after
		closed = strings.HasSuffix(strings.TrimSpace(after), "fi")
		inElse := false
		for j := i + 1; !closed && j < len(lines); j++ {
			l := lines[j]
			if l == "else" && !inElse {
				inElse = true
				continue
			}
			if inElse {
				// Only watchers started in the background, to fi.
				if closed = l == "fi"; !closed && !watchStartRE.MatchString(l) {
					return false
				}
				continue
			}
			if notSearchRE.MatchString(l) || strings.HasPrefix(l, "if ") {
				return false
			}
			body += ";" + l
			closed = l == "fi" || strings.HasSuffix(l, "; fi")
		}
		if !closed {
			return false
		}
	case strings.Contains(t, "&&"):
		_, body, _ = strings.Cut(t, "&&")
	default:
		return false
	}
	for _, st := range strings.FieldsFunc(body, func(r rune) bool { return r == ';' }) {
		for _, part := range strings.Split(st, "&&") {
			p := strings.TrimSpace(part)
			// `pgrep ... && { echo ... >&2; exit 1; }`: the group's
			// braces around its first and last statements.
			if q, ok := strings.CutPrefix(p, "{ "); ok {
				p = strings.TrimSpace(q)
			}
			if q, ok := strings.CutSuffix(p, " }"); ok && p != "}" {
				p = strings.TrimSpace(q)
			}
			if p == "" {
				continue
			}
			if !warnStmtRE.MatchString(p) || ownPidRE.MatchString(p) || noSignalRE.MatchString(p) {
				return false
			}
		}
	}
	return true
}

var (
	psListRE    = lazyregexp.New(`\bps\b|\bpstree\b|\bpgrep\b`)
	shShebangRE = lazyregexp.New(`^#!.*\b(?:sh|bash|dash|ksh|zsh)\b`)
)

// wordBound matches n standing alone (not `out` inside `layout`);
// compiled per call, only for a name a line already holds.
func wordBound(n string) *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^\w.-])` + regexp.QuoteMeta(n) + `(?:$|[^\w-])`)
}

// codePart is line t without a trailing comment (` # ...` when hash
// comments, ` // ...` otherwise), "" when only a comment is left.
func codePart(t string, hash bool) string {
	mark := " //"
	if hash {
		mark = " #"
	}
	for off := 0; ; {
		i := strings.Index(t[off:], mark)
		if i < 0 {
			return t
		}
		i += off
		// Outside a string: each quote before the mark is closed.
		if q := t[:i]; strings.Count(q, `"`)%2 == 0 && strings.Count(q, "'")%2 == 0 && strings.Count(q, "`")%2 == 0 {
			return strings.TrimSpace(t[:i])
		}
		off = i + len(mark)
	}
}

// harnessText reports a file harnessDetect can read: a harnessLang file
// by its name, or one with no extension whose first line is a shebang.
func harnessText(f string, now []byte) bool {
	return path.Ext(path.Base(f)) != "" || strings.HasPrefix(string(now), "#!")
}

// shellText reports a shell script, by name or shebang.
func shellText(f string, now []byte) bool {
	switch path.Ext(f) {
	case ".sh", ".bash":
		return true
	case "":
		first, _, _ := strings.Cut(string(now), "\n")
		return shShebangRE.MatchString(first)
	}
	return false
}

// shellSets are the names a shell text assigns, declares or reads into:
// its own variables, where a $NAME it reads is not the environment's.
func shellSets(text []byte) map[string]bool {
	out := map[string]bool{}
	for _, m := range shSetNameRE.FindAllSubmatch(text, -1) {
		out[string(m[1])+string(m[2])] = true
	}
	return out
}

// ownProcess reports a pid spelling that is the process itself: $$,
// self, $BASHPID, os.getpid().
func ownProcess(pid string) bool {
	switch strings.Trim(pid, `{}"'`) {
	case "$$", "${$}", "self", "$BASHPID", "${BASHPID}", "os.getpid()", "process.pid", "os.Getpid()":
		return true
	}
	return false
}
