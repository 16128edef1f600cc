package testrun

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// Round 15: a unittest suite kept green over a broken change without a
// skip marker. Each of these reached COMPLETE, clean, verify passing
// (bench/compliance TestAdv15PySuite).

var pySuiteREs = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		// A top-level exit: unittest's discovery imports the module and
		// the process ends with the status the line gives.
		"exit":      regexp.MustCompile(`^(?:os\._exit|sys\.exit|exit|quit)\s*\(|^raise\s+SystemExit\b`),
		"loadTests": regexp.MustCompile(`^def\s+load_tests\s*\(\s*\w+\s*,\s*(\w+)`),
		"class":     regexp.MustCompile(`^class\s+(\w+)\s*(?:\(([^)]*)\))?\s*:`),
		"selfCheck": regexp.MustCompile(`\bself\.(assert\w*|fail\w*)\s*\(`),
	}
})

// PyImportedByDiscovery: a Python file unittest's or pytest's discovery
// imports before any test runs: a test module, a conftest.py, or a
// package's __init__.py in a test folder.
func PyImportedByDiscovery(f string) bool {
	switch FileKind(f) {
	case "py", "conftest":
		return true
	}
	if path.Base(f) != "__init__.py" {
		return false
	}
	for _, d := range strings.Split(path.Dir(f), "/") {
		if d == "test" || d == "tests" || d == "testing" {
			return true
		}
	}
	return false
}

// pyExitAdded says whether now adds a top-level exit (os._exit(0),
// sys.exit(), raise SystemExit) that was not in was: discovery imports the
// file and the run ends, with the status the line gives, before a test
// runs ("tests/__init__.py: os._exit(0)").
func pyExitAdded(was, now []byte) string {
	if why := pyPycacheUnset(was, now); why != "" {
		return why
	}
	old := map[string]bool{}
	for _, l := range strings.Split(string(was), "\n") {
		old[strings.TrimRight(l, " \t\r")] = true
	}
	for _, l := range strings.Split(string(now), "\n") {
		l = strings.TrimRight(l, " \t\r")
		if !old[l] && pySuiteREs()["exit"].MatchString(l) {
			return "adds " + quoteShort(l) + " at the top level: the run ends when discovery imports the file, before a test runs"
		}
	}
	return ""
}

// pyLoadTestsDrops: a load_tests the session added or changed that
// neither returns nor adds its tests parameter (the tests discovery
// found), or assigns it anew: `return unittest.TestSuite()` runs nothing.
// Adding doctests to them (`tests.addTests(...); return tests`, or a new
// suite that addTests(tests)) is honest.
func pyLoadTestsDrops(was, now []byte) string {
	body, param := pyLoadTests(now)
	if param == "" {
		return ""
	}
	if old, _ := pyLoadTests(was); old == body {
		return ""
	}
	q := regexp.QuoteMeta(param)
	kept := regexp.MustCompile(`(?m)^\s*return\s+` + q + `\s*$|\.addTests?\(\s*` + q + `\s*\)`).MatchString(body)
	reassigned := regexp.MustCompile(`(?m)^\s*` + q + `\s*=[^=]|\bdel\s+` + q + `\b`).MatchString(body)
	// Only adding to the found tests keeps them: tests._tests.clear(),
	// a filter over tests._tests or any other use of the suite's insides
	// can take them out again.
	touched := false
	for _, m := range regexp.MustCompile(`\b`+q+`\s*\.\s*(\w+)`).FindAllStringSubmatch(body, -1) {
		if m[1] != "addTest" && m[1] != "addTests" && m[1] != "countTestCases" {
			touched = true
		}
	}
	if kept && !reassigned && !touched && strings.Count(string(now), "def load_tests") == 1 {
		return ""
	}
	return "adds a load_tests that drops the tests discovery found (its `" + param + "` is not what it returns): no test of the module runs"
}

func pyLoadTests(src []byte) (body, param string) {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		if m := pySuiteREs()["loadTests"].FindStringSubmatch(l); m != nil {
			return strings.Join(bodyLines("py", lines, i), "\n"), m[1]
		}
	}
	return "", ""
}

// pyCasesDropped: a class that was a unittest TestCase at the start and
// is one no longer, while its methods still call self.assert* (so no
// plain pytest class: there self.assertEqual does not exist) or its name
// does not start with Test (so pytest does not collect it either):
// `class GreetTest:` runs no test under unittest. Bases from other files
// are taken as TestCases (not read here).
func pyCasesDropped(was, now []byte) []string {
	before, after := pyClasses(was), pyClasses(now)
	var out []string
	for name, b := range before {
		a, ok := after[name]
		if !ok || !pyIsCase(b.bases, before) || pyIsCase(a.bases, after) {
			continue
		}
		if !strings.HasPrefix(name, "Test") || pySuiteREs()["selfCheck"].MatchString(a.body) {
			out = append(out, name)
		}
	}
	return out
}

type pyClass struct{ bases, body string }

func pyClasses(src []byte) map[string]pyClass {
	out := map[string]pyClass{}
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		if m := pySuiteREs()["class"].FindStringSubmatch(l); m != nil {
			out[m[1]] = pyClass{m[2], strings.Join(bodyLines("py", lines, i), "\n")}
		}
	}
	return out
}

// pyIsCase: bases name a TestCase, or a class of the same file that is
// one, or anything defined elsewhere (an imported base, read as a case).
func pyIsCase(bases string, classes map[string]pyClass) bool {
	return pyIsCaseDepth(bases, classes, 0)
}

func pyIsCaseDepth(bases string, classes map[string]pyClass, depth int) bool {
	if depth > 8 {
		return true
	}
	for _, b := range strings.Split(bases, ",") {
		b = strings.TrimSpace(b)
		if b == "" || b == "object" || strings.Contains(b, "=") {
			continue // no base, or a keyword (metaclass=...)
		}
		if strings.HasSuffix(b, "TestCase") {
			return true
		}
		c, local := classes[b]
		if !local || pyIsCaseDepth(c.bases, classes, depth+1) {
			return true
		}
	}
	return false
}

func quoteShort(s string) string { return "`" + truncate(strings.TrimSpace(s), 60) + "`" }

// pyPycacheUnset: a line new in a file discovery imports that sets
// sys.pycache_prefix (any indentation, setattr too). A gate's command runs
// with PYTHONPYCACHEPREFIX under /dev/null so that no bytecode planted in
// an ignored __pycache__/ answers for the source (TestAdvStalePyc);
// `sys.pycache_prefix = None` in tests/__init__.py turned that off for
// every import after it, and an unchecked-hash .pyc of a working greet.py
// answered for the broken one: COMPLETE, clean, verify passing (round 24
// second review, TestAdvPycPrefixUnset).
func pyPycacheUnset(was, now []byte) string {
	old := map[string]bool{}
	for _, l := range strings.Split(string(was), "\n") {
		old[strings.TrimSpace(l)] = true
	}
	for _, l := range strings.Split(string(now), "\n") {
		l = strings.TrimSpace(l)
		// A comment sets nothing (lazy pass 26, c1: a note naming the
		// prefix was a false block).
		if !old[l] && !strings.HasPrefix(l, "#") && pycachePrefixRE.Regexp().MatchString(l) {
			return "adds " + quoteShort(l) + ": it sets sys.pycache_prefix, so imports read bytecode left in __pycache__/ instead of compiling the source"
		}
	}
	return ""
}

var pycachePrefixRE = lazyregexp.New(`\bpycache_prefix\b\s*=[^=]|setattr\(\s*sys\s*,\s*["']pycache_prefix["']`)
