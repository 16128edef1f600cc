package shellline

import (
	"maps"
	"strconv"
	"strings"
	"sync"
)

// TestsNotRun says why a command line runs a test runner in a mode that
// runs no test and still exits 0, or "" when it does not: go test that
// only compiles (-c), prints (-n) or lists (-list) the tests, or hands each
// test binary to another program (-exec, -toolexec: `-exec=true` reports
// every package ok); pytest that only collects or plans (--collect-only,
// --setup-plan, --fixtures, ...); jest's --listTests; cargo test --no-run.
// The flags count on the command line and in the variable the runner reads
// its default flags from when the line sets it (GOFLAGS, PYTEST_ADDOPTS).
// Also (issue 25, third round): jest/vitest runs that pick their tests from
// git (--onlyChanged, -o, --changedSince, --lastCommit, vitest --changed:
// none when the change is committed), one shard of several (--shard 1/2),
// --passWithNoTests beside a filter (a filter that matches nothing then
// exits 0), help and version (`npm test -- --help`); cargo test -- --list;
// make -n/-q/-t (prints or touches, runs no recipe); tox -l/--notest and
// nox -l.
// An export earlier on the line counts (`export PYTEST_ADDOPTS=--co;
// pytest`, Exported); what an earlier call set does not reach this one
// (`go env -w` is the defaults rule's, defaults.go).
func TestsNotRun(line string) string {
	// `bash -c 'cd api && make -i test'` is its script (helper 338: the
	// sh -c wrapper hid make -i, and go test -c, from this check)
	calls, f, ok := Calls(Unwrap(line))
	if !ok {
		return ""
	}
	exported := Exported(f)
	for _, c := range calls {
		env := maps.Clone(exported[c.Node])
		if env == nil {
			env = map[string]string{}
		}
		for _, a := range c.Node.Assigns {
			if a.Name != nil {
				v, _ := Literal(a.Value)
				env[a.Name.Value] = v
			}
		}
		w := c.Words
		// env VAR=value ... and the other wrappers: their assignments count too.
		for _, x := range w {
			if k, v, ok := strings.Cut(x, "="); ok && k != "" && !strings.HasPrefix(k, "-") {
				env[k] = v
			}
		}
		w = StripWrappers(w)
		if len(w) == 0 {
			continue
		}
		prog := w[0][strings.LastIndexByte(w[0], '/')+1:]
		args := w[1:]
		if prog == "npx" || prog == "pnpx" || prog == "bunx" {
			if len(args) == 0 {
				continue
			}
			prog, args = args[0], args[1:]
		}
		if (strings.HasPrefix(prog, "python") || prog == "py") && len(args) >= 2 && args[0] == "-m" {
			prog, args = args[1], args[2:]
		}
		switch {
		case prog == "go" && len(args) > 0 && args[0] == "test":
			if f := goTestSkipFlag(args[1:]); f != "" {
				return "go test " + f + " runs no test"
			}
			if f := goTestSkipFlag(strings.Fields(env["GOFLAGS"])); f != "" {
				return "go test with GOFLAGS " + f + " runs no test"
			}
		case prog == "pytest" || prog == "py.test":
			if f := pytestSkipFlag(args); f != "" {
				return "pytest " + f + " runs no test"
			}
			if f := pytestSkipFlag(strings.Fields(env["PYTEST_ADDOPTS"])); f != "" {
				return "pytest with PYTEST_ADDOPTS " + f + " runs no test"
			}
		case prog == "jest" || prog == "vitest" || (prog == "npm" || prog == "yarn" || prog == "pnpm" || prog == "bun") && len(args) > 0 && (args[0] == "test" || args[0] == "t"):
			if f := jsSkipFlag(prog, args); f != "" {
				return prog + " " + f
			}
		case prog == "cargo" && len(args) > 0 && args[0] == "test":
			harness := false
			for _, a := range args[1:] {
				switch {
				case a == "--":
					harness = true
				case !harness && a == "--no-run":
					return "cargo test --no-run runs no test"
				case !harness && (a == "--help" || a == "-h"):
					return "cargo test " + a + " runs no test"
				case harness && (a == "--list" || a == "--help" || a == "-h"):
					// the test binary lists its tests (or its flags) and exits 0
					return "cargo test -- " + a + " runs no test"
				}
			}
		case prog == "make" || prog == "gmake":
			if f := makeSkipFlag(args); f != "" {
				return prog + " " + f + " prints the recipes without running them"
			}
			// -i (--ignore-errors) runs the recipes and exits 0 over a
			// failing one: the run's exit is not its tests' (helper 336's
			// F11); MAKEFLAGS=i on the line does the same.
			if f := makeIgnoreFlag(args); f != "" {
				return prog + " " + f + " ignores the recipes' failures: it exits 0 over failing tests"
			}
			if mf := makeFlagsWords(env["MAKEFLAGS"]); mf != nil {
				if f := makeSkipFlag(mf); f != "" {
					return prog + " with MAKEFLAGS " + f + " prints the recipes without running them"
				}
				if f := makeIgnoreFlag(mf); f != "" {
					return prog + " with MAKEFLAGS " + f + " ignores the recipes' failures: it exits 0 over failing tests"
				}
			}
		case prog == "just" || prog == "task":
			// dry runs, listings and summaries run no recipe (helper 336's
			// F12), as make -n.
			if f := recipeSkipFlag(prog, args); f != "" {
				return prog + " " + f + " runs no recipe"
			}
		case prog == "tox" || prog == "nox":
			if f := toxSkipFlag(prog, args); f != "" {
				return prog + " " + f + " runs no test"
			}
		}
	}
	return ""
}

// goTestSkipFlag returns the first of go test's flags in args that keep it
// from running the tests, or "". Flags after -args are the test binary's:
// only its own -test.list counts there. go test takes its test flags with
// a test. prefix too (-test.list=.: listed, exit 0).
func goTestSkipFlag(args []string) string {
	binary := false
	for i, a := range args {
		if a == "-args" || a == "--args" {
			binary = true
			continue
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "count" || name == "test.count" {
			// -count=0 runs each test zero times: `ok [no tests to
			// run]`, exit 0, whatever fails (helper 361; -json hides
			// the words RanNoTests reads). go takes the value after a
			// space too; the test binary its -test.count after -args.
			if !hasVal && !binary && i+1 < len(args) {
				val = args[i+1]
			}
			// go reads the value as Go's flag package does, in any base
			// with underscores (helper 365: -count=0x0, 0_0, 0b0 ran no
			// test and `>/dev/null` hid the "[no tests to run]").
			if n, err := strconv.ParseInt(strings.TrimSpace(val), 0, 64); err == nil && n <= 0 {
				if binary {
					return "-args -test.count=" + val
				}
				return "-count=" + val
			}
			continue
		}
		if binary {
			if name == "test.list" {
				return "-args -test.list"
			}
			continue
		}
		if name == "test.list" {
			name = "list"
		}
		switch name {
		case "c", "n":
			if !hasVal || val != "false" {
				return "-" + name
			}
		case "list", "exec", "toolexec":
			return "-" + name
		}
	}
	return ""
}

// pytestSkipFlag returns the first of pytest's options in args that make it
// collect, plan or describe the tests instead of running them, or "".
func pytestSkipFlag(args []string) string {
	for _, a := range args {
		name, _, _ := strings.Cut(a, "=")
		switch name {
		case "--collect-only", "--co", "--setup-plan", "--setup-only", "--fixtures", "--fixtures-per-test",
			"--markers", "--version", "-V", "--help", "-h",
			// pytest's other spellings of the same (helper 361):
			// --collectonly, --setuponly and --setupplan are the
			// options' older names, --funcargs --fixtures';
			// --cache-show prints the cache and exits 0.
			"--collectonly", "--setuponly", "--setupplan", "--funcargs", "--cache-show":
			return name
		}
	}
	return ""
}

// jsSkipFlag returns what keeps a jest or vitest run (or `npm test -- ...`,
// whose arguments reach the runner) from running the project's tests, or "".
// --passWithNoTests alone is an honest project's setting (a package with no
// tests yet); beside a filter it turns "the filter matched nothing" into exit
// 0. A shard is part of the suite: a session's QA run is the whole of it
// (--shard 1/1, or no shard).
func jsSkipFlag(prog string, args []string) string {
	passEmpty, filter := false, ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		next := func() string {
			if hasVal {
				return val
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch name {
		case "--listTests", "--showConfig", "--help", "-h", "--version", "-v":
			return a + " runs no test"
		case "--onlyChanged", "-o", "--changedSince", "--lastCommit", "--changed", "--findRelatedTests", "--related":
			return a + " runs only the tests git's changes pick (none once they are committed)"
		case "--shard":
			v := next()
			if k, n, ok := strings.Cut(v, "/"); ok && n != "1" && k != "" {
				return "--shard " + v + " runs one part of the suite"
			}
		case "--passWithNoTests", "--pass-with-no-tests":
			if !hasVal || val != "false" {
				passEmpty = true
			}
		case "-t", "--testNamePattern", "--testPathPattern", "--testPathPatterns", "--testPathIgnorePatterns", "--selectProjects", "--ignoreProjects", "--project", "--exclude", "--filter":
			if filter == "" {
				filter = name
			}
			if !hasVal {
				next()
			}
		case "list", "related":
			if prog == "vitest" && i == 0 {
				return a + " runs no test"
			}
		default:
			if !strings.HasPrefix(a, "-") && a != "--" && a != "test" && a != "t" && a != "run" && filter == "" {
				filter = a // a path pattern
			}
		}
	}
	if passEmpty && filter != "" {
		return "--passWithNoTests with " + filter + " exits 0 when the filter matches no test"
	}
	return ""
}

// makeSkipFlag returns make's option in args that prints, checks or touches
// the targets instead of running their recipes (-n, --dry-run, -q, -t), or "".
// Short options may be grouped (-sn); -C, -f, -I, -o, -W, -E take a value.
func makeSkipFlag(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return ""
		}
		switch a {
		case "--dry-run", "--just-print", "--recon", "--question", "--touch":
			return a
		case "-C", "-f", "-I", "-o", "-W", "-E", "--directory", "--file", "--makefile", "--include-dir", "--old-file", "--what-if", "--eval":
			i++
			continue
		}
		if strings.HasPrefix(a, "--") || !strings.HasPrefix(a, "-") || len(a) < 2 {
			continue
		}
		for _, r := range a[1:] {
			if strings.ContainsRune("CfIoWEjlO", r) {
				break // the rest is the option's value
			}
			if r == 'n' || r == 'q' || r == 't' {
				return "-" + string(r)
			}
		}
	}
	return ""
}

// toxSkipFlag returns tox's or nox's option that lists or configures the
// environments instead of running their tests, or "".
func toxSkipFlag(prog string, args []string) string {
	for i, a := range args {
		if a == "--" {
			return ""
		}
		name, _, _ := strings.Cut(a, "=")
		switch name {
		case "-l", "--list", "--listenvs", "-a", "--listenvs-all", "--showconfig", "--notest", "--help", "-h", "--version", "--list-sessions":
			return a
		case "list", "config", "l", "c":
			if prog == "tox" && i == 0 {
				return a
			}
		}
	}
	return ""
}

// makeIgnoreFlag returns make's -i (--ignore-errors) in args, grouped
// short options too (-ik), or "".
func makeIgnoreFlag(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "--":
			return ""
		case "--ignore-errors":
			return a
		case "-C", "-f", "-I", "-o", "-W", "-E", "--directory", "--file", "--makefile", "--include-dir", "--old-file", "--what-if", "--eval":
			i++
			continue
		}
		if strings.HasPrefix(a, "--") || !strings.HasPrefix(a, "-") || len(a) < 2 {
			continue
		}
		for _, r := range a[1:] {
			if strings.ContainsRune("CfIoWEjlO", r) {
				break
			}
			if r == 'i' {
				return "-i"
			}
		}
	}
	return ""
}

// makeFlagsWords reads MAKEFLAGS as make does: a first word without a
// dash is a group of single-letter options ("ik" is -i -k).
func makeFlagsWords(v string) []string {
	f := strings.Fields(v)
	if len(f) > 0 && !strings.HasPrefix(f[0], "-") && !strings.Contains(f[0], "=") {
		f[0] = "-" + f[0]
	}
	return f
}

// recipeSkip: just's and task's options that print, list or summarize
// recipes instead of running them; recipeValue: their options that take a
// value. Built on first use, as runnerFlags are.
var recipeFlags = sync.OnceValue(func() (t struct{ skip, value map[string]map[string]bool }) {
	t.skip = map[string]map[string]bool{
		"just": flagSet("n dry-run s show l list summary evaluate dump variables groups choose fmt init edit h help V version changelog completions command man"),
		"task": flagSet("n dry summary l list a list-all status h help version i init json"),
	}
	t.value = map[string]map[string]bool{
		"just": flagSet("f justfile d working-directory shell shell-arg color dotenv-filename dotenv-path list-heading list-prefix chooser dump-format command-color"),
		"task": flagSet("d dir t taskfile C concurrency o output output-group-begin output-group-end interval sort"),
	}
	return t
})

// recipeSkipFlag returns just's or task's option in args that runs no
// recipe (just -n, just --show test, task --dry, task --summary), or "".
// just reads its options before the first recipe; task anywhere before
// --.
func recipeSkipFlag(prog string, args []string) string {
	recipeSkip, recipeSkipValue := recipeFlags().skip, recipeFlags().value
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return ""
		}
		if !strings.HasPrefix(a, "-") || len(a) < 2 {
			if prog == "just" && !strings.Contains(a, "=") {
				return "" // the recipe: what follows is its arguments
			}
			continue
		}
		name, _, hasVal := flagName(a)
		if recipeSkip[prog][name] && (len(a) == 2 || strings.HasPrefix(a, "--")) {
			return a
		}
		if !strings.HasPrefix(a, "--") && len(a) > 2 {
			// grouped short options (-vn)
			for _, r := range a[1:] {
				if recipeSkipValue[prog][string(r)] {
					break
				}
				if recipeSkip[prog][string(r)] {
					return "-" + string(r)
				}
			}
			continue
		}
		if prog == "just" && name == "set" {
			i += 2 // just --set NAME VALUE
			continue
		}
		if recipeSkipValue[prog][name] && !hasVal {
			i++
		}
	}
	return ""
}
