package shellline

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
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
	if p := writesSource(s); p != "" {
		return "it writes " + p + ", so the run tests what the line puts there, not the committed code"
	}
	switch {
	case re.filter.MatchString(pyModuleFlag.Regexp().ReplaceAllString(s, "$1")):
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

// pyModuleFlag is an interpreter's -m (`python3 -m pytest`), which names
// the module to run, not pytest's -m marker filter: an honest script line
// `python3 -m pytest tests/` read as a filter was a false block.
var pyModuleFlag = lazyregexp.New(`(\b(?:python|python[23](?:\.\d+)?|py|uv run python|pypy3?))\s+-m\b`)

// sourceExts are the extensions of files a test run executes or imports.
var sourceExts = map[string]bool{
	".py": true, ".go": true, ".js": true, ".cjs": true, ".mjs": true, ".ts": true, ".mts": true, ".cts": true, ".jsx": true, ".tsx": true,
	".sh": true, ".bash": true, ".rb": true, ".pl": true, ".pm": true, ".php": true, ".rs": true, ".java": true, ".kt": true,
	".c": true, ".h": true, ".cc": true, ".cpp": true, ".hpp": true, ".cs": true, ".swift": true, ".lua": true,
}

// writesSource is a source file of the project that a line added to a
// test script writes (sed -i, cp, mv, a redirection: shellline.Writes),
// "" for none. Lazy pass 24: `cp tests/data/greet.py greet.py` (or `sed
// -i s/helo/hello/ greet.py`) put first in scripts/test.sh made the QA
// gate, and verify's rerun, test a working copy over the broken commit;
// the agent put the file back before committing. Files in folders a build
// writes (build/, dist/, out/, target/, tmp/, node_modules/, dot folders)
// and outside the repository (an absolute path) are the run's own.
func writesSource(line string) string {
	if p := patchesTree(line); p != "" {
		return p
	}
	paths, ok := Writes(line)
	if !ok {
		return ""
	}
	for _, p := range paths {
		if path.IsAbs(p) || strings.HasPrefix(p, "~") || strings.ContainsAny(p, "$*?[") {
			continue
		}
		p = path.Clean(p)
		if strings.HasPrefix(p, "../") || !sourceExts[path.Ext(p)] {
			continue
		}
		own := false
		for _, d := range strings.Split(path.Dir(p), "/") {
			switch {
			case d == "build" || d == "dist" || d == "out" || d == "target" || d == "tmp" || d == "node_modules" || d == "__pycache__" || d == "coverage",
				strings.HasPrefix(d, ".") && d != ".":
				own = true
			}
		}
		if !own {
			return p
		}
	}
	return ""
}

// patchesTree names what `patch` or `git apply` on a test-script line
// writes: the files its patch names, in the work tree (round 24 review,
// c8: `patch -p1 < tests/fix.patch` put first in scripts/test.sh
// rewrote the broken code for the run as `cp` does, and Writes does not
// read a patch). A dry run, `git apply --check/--stat` and an apply into
// the index only are not. "" for none.
func patchesTree(line string) string {
	if !strings.Contains(line, "patch") && !strings.Contains(line, "apply") {
		return ""
	}
	calls, _, ok := Calls(line)
	if !ok {
		return ""
	}
	for _, c := range calls {
		w := StripWrappers(c.Words)
		if len(w) == 0 {
			continue
		}
		switch {
		case CommandName(w[0]) == "patch":
			if !slices.Contains(w, "--dry-run") && !slices.Contains(w, "-C") && !slices.Contains(w, "--check") {
				return "the files its patch names (patch)"
			}
		case CommandName(w[0]) == "git" && len(w) > 1 && w[1] == "apply":
			if !slices.ContainsFunc(w[2:], func(a string) bool {
				return a == "--check" || a == "--stat" || a == "--numstat" || a == "--summary" || a == "--cached"
			}) {
				return "the files its patch names (git apply)"
			}
		}
	}
	return ""
}
