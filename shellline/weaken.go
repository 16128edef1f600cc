package shellline

import (
	"regexp"
	"strings"
	"sync"
)

// What a line added to a test script or a runner's config can do to the
// run: most added lines are new checks (the work), but a few make the
// same command prove less (issue 25): an early `exit 0`, `|| true`, `set
// +e`, a function that replaces one the script already had (`check() {
// [ -n "$1" ]; }`), a test filter (-k, -run, --testPathIgnorePatterns) or
// a selection key (testpaths, exclude, skip) in a config, a skip marker.

type weakenREs struct {
	exit, orTrue, setE, filter, key, runner, global, skip, fn *regexp.Regexp
}

var weakenRE = sync.OnceValue(func() weakenREs {
	return weakenREs{
		exit:   regexp.MustCompile(`(^|[;&|{(]\s*)(exit|return)(\s+0)?\s*($|[;})#&|])`),
		orTrue: regexp.MustCompile(`\|\|\s*(true|:)\s*($|[;)}#])`),
		setE:   regexp.MustCompile(`^\s*set\s+\+[a-z]*e`),
		filter: regexp.MustCompile(`(^|[\s"'=\[,(])(-k|-m|--deselect|--ignore|--ignore-glob|-run|--run|-skip|--skip|-t|--testNamePattern|--testPathPattern|--testPathIgnorePatterns|--grep|--fgrep|--invert|--lf|--last-failed|--sw-skip|--stepwise-skip|--sw|--stepwise|--onlyChanged|--changedSince|--exclude)($|[\s"'=,)\]])`),
		key:    regexp.MustCompile(`(?i)(^|[\s"'{,])(testpaths|norecursedirs|collect_ignore(_glob)?|python_files|python_classes|python_functions|testPathIgnorePatterns|testMatch|testRegex|testPathPattern|modulePathIgnorePatterns|roots|exclude|include|ignore|spec|grep|fgrep|invert|passWithNoTests|skip|only|deselect|projects|workspace|rootDir|selectProjects)["']?\s*[:=]`),
		// A custom runner decides what passes: jest's runner/testRunner,
		// vitest's runner (`runner: './pass.js'` passed a failing suite).
		runner: regexp.MustCompile(`(^|[\s"'{,])(runner|testRunner)["']?\s*:`),
		// A setup file that replaces the framework's test or expect
		// (`globalThis.expect = () => ({ toBe() {} })`) makes every check pass.
		global: regexp.MustCompile(`\b(?:global|globalThis|window|self)\s*(?:\.\s*|\[\s*["'\x60])(?:test|it|expect|describe|assert)\b["'\x60\]\s]*=[^=]|^\s*(?:test|it|expect|describe)\s*=[^=]`),
		skip:   regexp.MustCompile(`\.skip\(|\bx(it|describe|test)\(|\bt\.Skip(Now|f)?\(|pytest\.mark\.(skip|skipif|xfail)\b|\bpytest\.skip\(|@unittest\.skip|\bSkipTest\b`),
		fn:     regexp.MustCompile(`^\s*(?:function\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*\)`),
	}
})

// AddedLineWeakens says how a line added to a test script or runner
// config can make the run prove less, "" when it looks like a new check.
// base is the file as it was: a function the line defines that base
// already defines or calls is a replacement.
func AddedLineWeakens(line, base string) string {
	re := weakenRE()
	s := strings.TrimSpace(line)
	if s == "" || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "//") {
		return ""
	}
	switch {
	case re.fn.MatchString(s):
		name := re.fn.FindStringSubmatch(s)[1]
		if regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(base) {
			return "it redefines " + name + ", which the file already has or calls"
		}
	case re.exit.MatchString(s):
		return "it ends the script early with success"
	case re.orTrue.MatchString(s):
		return "it turns a failure into success (|| true)"
	case re.setE.MatchString(s):
		return "it stops failures ending the script (set +e)"
	}
	switch {
	case re.filter.MatchString(s):
		return "it adds a test filter"
	case re.key.MatchString(s):
		return "it sets which tests run"
	case re.runner.MatchString(s):
		return "it sets what runs the tests (a custom runner decides what passes)"
	case re.global.MatchString(s):
		return "it replaces the test framework's test or expect"
	case re.skip.MatchString(s):
		return "it skips tests"
	}
	return ""
}
