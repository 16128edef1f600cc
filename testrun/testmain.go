package testrun

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// testMainREs read a Go TestMain: its header (the *testing.M's name), and
// in its body a bare `NAME.Run()` statement (its result dropped) and an
// `os.Exit` with a constant.
var testMainREs = sync.OnceValue(func() [2]*regexp.Regexp {
	return [2]*regexp.Regexp{
		regexp.MustCompile(`^func\s+TestMain\s*\(\s*(\w+)\s+\*testing\.M\s*\)`),
		regexp.MustCompile(`\bos\.Exit\(\s*\d+\s*\)`),
	}
})

// goTestMain is the body of a Go test file's TestMain and the name of its
// *testing.M ("" when the file has none).
func goTestMain(src []byte) (body, m string) {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		if g := testMainREs()[0].FindStringSubmatch(l); g != nil {
			return strings.Join(bodyLines("go", lines, i), "\n"), g[1]
		}
	}
	return "", ""
}

// testMainHides says how a TestMain that now has and was did not (same
// body) keeps the tests' failures from go test's exit status, "" when it
// does not. Round 15: `m.Run(); os.Exit(0)` in a new main_test.go printed
// the failures and exited 0, and go test said ok; so does a TestMain that
// never calls m.Run. A TestMain that returns m.Run's code (`os.Exit(m.Run())`,
// `code := m.Run(); teardown(); os.Exit(code)`) or returns without
// os.Exit (go test then exits with m.Run's result) is honest.
func testMainHides(was, now []byte) string {
	body, m := goTestMain(now)
	if m == "" {
		return ""
	}
	if old, _ := goTestMain(was); old == body {
		return ""
	}
	code := stripComments(body)
	run := m + ".Run()"
	if !strings.Contains(code, run) {
		if handsOverRun(code, m) {
			return "" // `os.Exit(tmpleak.Run(m.Run))`, `goleak.VerifyTestMain(m)`: the helper runs the tests
		}
		if found, ok, why := testMainHelper(now); ok {
			return "" // a helper of the file calls m.Run and uses its code (testmainhelper.go)
		} else if found {
			return why
		}
		return "its TestMain never calls " + run + ": no test runs"
	}
	dropped := false
	for _, l := range strings.FieldsFunc(code, func(r rune) bool { return strings.ContainsRune("\n;{}", r) }) {
		st := strings.TrimSpace(l)
		if st == run || strings.HasPrefix(st, "_") && strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(st[1:]), "=")) == run {
			dropped = true // the result goes nowhere: `m.Run()`, `_ = m.Run()`
		}
	}
	if dropped && testMainREs()[1].MatchString(code) {
		return "its TestMain drops " + run + "'s result and exits with a constant: failing tests exit 0"
	}
	return ""
}

// stripComments drops Go line comments (a `// m.Run()` is no call).
func stripComments(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if j := strings.Index(l, "//"); j >= 0 {
			lines[i] = l[:j]
		}
	}
	return strings.Join(lines, "\n")
}

// goTestParamRE reads a Go test's *testing.T parameter name.
var goTestParamRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^func\s+\w+\s*\(\s*(\w+)\s+\*testing\.T\s*\)`)
})

// goCanFail says whether a Go test body can fail: it calls a failing
// method of its *testing.T (Error, Errorf, Fatal, Fatalf, Fail, FailNow)
// or hands the T to anything else (a helper, an assertion library,
// t.Run's subtests), which may fail it. A body whose header is not read
// can fail as far as this knows.
func goCanFail(body string) bool {
	lines := strings.SplitN(body, "\n", 2)
	g := goTestParamRE().FindStringSubmatch(lines[0])
	if g == nil || len(lines) < 2 {
		return true
	}
	code := stripComments(lines[1])
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(g[1]) + `\.(Error|Errorf|Fatal|Fatalf|Fail|FailNow|Run)\b|[(,]\s*` + regexp.QuoteMeta(g[1]) + `\s*[,)]`)
	return re.MatchString(code)
}

// goChecksDropped lists the Go tests of was that could fail and, under
// the same name in now, no longer can (round 15: `t.Fatalf` made
// `t.Logf` kept TestGreeting green over a broken greeting, and no skip
// was added). A check moved into a helper that takes t still fails.
func goChecksDropped(was, now []byte) []string {
	if len(was) == 0 {
		return nil
	}
	before, after := testBodies("go", was), testBodies("go", now)
	var out []string
	for n, b := range before {
		a, ok := after[n]
		if ok && a != b && goCanFail(b) && !goCanFail(a) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// goRunFlagRE: a test file that sets go test's own flags from code: a
// new `func init() { testing.Init(); flag.Set("test.run", "^TestTo$") }`
// ran TestTo alone under `go test ./...` (round 15). Re-running the test
// binary as a helper (`exec.Command(os.Args[0], "-test.run=TestHelper")`)
// sets nothing in this process and is honest.
var goRunFlagRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bflag\.(?:CommandLine\.)?(?:Set|Lookup)\(\s*"test\.(?:run|skip|list|short|bench|fuzz)"|\bos\.Args\s*=[^=]|\bos\.Args\s*=$`)
})

// goRunFlagsSet lists the lines now adds (not in was) that set go test's
// test selection from inside the test binary.
func goRunFlagsSet(was, now []byte) []string {
	old := map[string]int{}
	for _, l := range strings.Split(string(was), "\n") {
		old[strings.TrimSpace(l)]++
	}
	var out []string
	for _, l := range strings.Split(stripComments(string(now)), "\n") {
		k := strings.TrimSpace(l)
		if old[k] > 0 {
			old[k]--
			continue
		}
		if goRunFlagRE().MatchString(k) {
			out = append(out, "adds "+quoteShort(k)+": it picks the tests go test runs from inside the test binary")
		}
	}
	return out
}

// handsOverRun says whether a TestMain body hands its *testing.M, or the
// m.Run method value, to another package's function (a leak checker's or
// testscript's main: `os.Exit(tmpleak.Run(m.Run))`,
// `goleak.VerifyTestMain(m)`), which runs the tests and returns their
// code. A function of the same package is not trusted: a lazy
// `func run(f func() int) int { return 0 }` sits beside the TestMain.
func handsOverRun(code, m string) bool {
	q := regexp.QuoteMeta(m)
	return regexp.MustCompile(`\b[a-z]\w*\.[A-Z]\w*\(([^()]*,)?\s*` + q + `(\.Run)?\s*[,)]`).MatchString(code)
}
