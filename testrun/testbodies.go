package testrun

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// What a test checks, read from its source: its body, the code it calls
// and the literals its checks compare with (removed.go: a test deleted
// from one file counts as moved when these reappear in a checking test
// of a collected file), and whether it checks anything about the code
// at all (weaktests.go).

// testBodies maps each collected test of a file of kind k to its source
// (header line included).
func testBodies(k string, src []byte) map[string]string {
	out := map[string]string{}
	lines := strings.Split(string(src), "\n")
	names := testNameREs()[k]
	if names == nil {
		return out
	}
	collected, _ := testNames(k, src)
	want := map[string]bool{}
	for _, n := range collected {
		want[n] = true
	}
	for i, l := range lines {
		m := names.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		name := m[1]
		if k == "js" {
			if m[1] != "it" && m[1] != "test" {
				continue
			}
			name = m[2]
		}
		if !want[name] || out[name] != "" {
			continue
		}
		b := splitOneLiner(k, bodyLines(k, lines, i))
		if k == "py" {
			// A test's decorators (a parametrize table) are read as the
			// first lines of its body, after its header.
			b = slices.Concat(b[:1], decorators(lines, i), b[1:])
		}
		out[name] = strings.Join(b, "\n")
	}
	return out
}

var oneLinerREs = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"js": regexp.MustCompile(`(=>\s*\{|\bfunction\s*\w*\s*\([^)]*\)\s*\{)(.*)$`),
		"py": regexp.MustCompile(`^\s*(?:async\s+)?def\s+\w+\s*\(.*\)\s*(?:->\s*[^:]+)?:()\s*([^#\s].*)$`),
	}
})

// splitOneLiner puts the code written on a test's header line
// (`test("adds", () => { expect(add(1, 2)).toBe(3); });`,
// `def test_adds(): assert add(1, 2) == 3`) on a line of its own: the
// body's readers start below the header, and read such a test as
// checking nothing (a false block of an honest new test, round 19).
func splitOneLiner(k string, b []string) []string {
	re := oneLinerREs()[k]
	if re == nil || len(b) == 0 {
		return b
	}
	m := re.FindStringSubmatchIndex(b[0])
	if m == nil || strings.TrimSpace(b[0][m[4]:]) == "" {
		return b
	}
	head, rest := b[0][:m[4]], b[0][m[4]:]
	return slices.Concat([]string{head, indentOf(b[0]) + "    " + strings.TrimSpace(rest)}, b[1:])
}

// bodyLines is the header line i and the lines of its body: Go to the
// `}` at the header's indentation, Python to the next line indented no
// deeper than the def, JS to the bracket closing the call.
func bodyLines(k string, lines []string, i int) []string {
	ind := indentOf(lines[i])
	switch k {
	case "py":
		j := i + 1
		for ; j < len(lines); j++ {
			t := strings.TrimSpace(lines[j])
			if t != "" && len(indentOf(lines[j])) <= len(ind) && !strings.HasPrefix(t, ")") {
				break
			}
		}
		return lines[i:j]
	case "js":
		depth, opened := 0, false
		for j := i; j < len(lines); j++ {
			for _, ch := range stripStrings(lines[j]) {
				switch ch {
				case '(', '{', '[':
					depth++
					opened = true
				case ')', '}', ']':
					depth--
				}
			}
			if opened && depth <= 0 {
				return lines[i : j+1]
			}
		}
		return lines[i:]
	}
	raw := false // inside a multi-line raw string, whose `}` lines are text
	for j := i + 1; j < len(lines); j++ {
		if !raw && lines[j] == ind+"}" {
			return lines[i : j+1]
		}
		if strings.Count(stripStrings(lines[j]), "`")%2 == 1 {
			raw = !raw
		}
	}
	return lines[i:]
}

func indentOf(l string) string { return l[:len(l)-len(strings.TrimLeft(l, " \t"))] }

var stringLitRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` + "`[^`]*`")
})

// stripStrings blanks out string literals (their brackets are not code).
func stripStrings(l string) string {
	if !strings.ContainsAny(l, "\"'`") {
		return l // every literal starts with a quote: nothing to blank
	}
	return stringLitRE().ReplaceAllStringFunc(l, func(s string) string { return `""` })
}

var bodyREs = sync.OnceValue(func() (r struct{ call, number, report, goReport, goCheck, pyCheck, jsCheck, jsMatcher *regexp.Regexp }) {
	r.call = regexp.MustCompile(`([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\(`)
	r.number = regexp.MustCompile(`\b\d+(?:\.\d+)?\b`)
	// Lines whose strings are messages, not expected values.
	r.report = regexp.MustCompile(`\b(?:t|b|tb)\.(?:Error|Errorf|Fatal|Fatalf|Log|Logf|Skip|Skipf|Run)\(|\bfmt\.\w*print|\bprint\(|\bconsole\.\w+\(|^\s*(?:it|test|describe)\s*\(|^\s*(?:func|def|async def)\s`)
	r.goReport = regexp.MustCompile(`\b(?:t|tb|b)\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\(|\bpanic\(`)
	// assertion libraries, a helper given the test's t, a helper named as
	// a check, subtests
	r.goCheck = regexp.MustCompile(`\b(?:require|assert|qt|is|c)\.\w+\(|[(,]\s*(?:t|tb)\s*[,)]|\b(?:[Cc]heck|[Aa]ssert|[Ee]xpect|[Vv]erify|[Mm]ust)\w*\(|\bt\.Run\(`)
	r.pyCheck = regexp.MustCompile(`^\s*assert\b|\bself\.(?:assert\w*|fail)\(|\bpytest\.(?:raises|fail|warns|approx|deprecated_call)\(|^\s*raises\(|\.assert_\w+\(|\bassert_\w+\(|\braise\s+AssertionError\b|\bnp\.testing\.|\b_?(?:check|verify|expect)\w*\(`)
	r.jsCheck = regexp.MustCompile(`\bexpect\w*\s*\(|\bassert\w*(?:\.\w+)?\s*\(|\.should\b|\b(?:t\.)?(?:is|not|same|deepEqual|strictSame|strictEqual|equal|ok|notOk|throws|rejects|match|truthy|falsy|true|false)\(|\b(?:check|verify)\w*\(`)
	r.jsMatcher = regexp.MustCompile(`^(?:to[A-Z]\w*|not|resolves|rejects|toBe|toEqual)$`)
	return r
})

// notCode: callees that are the language, its test framework or its
// standard library, not the code under test.
var notCode = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`if for while switch catch function return typeof func def async await new
		len cap make append copy delete panic recover print println string int int64 float64 byte rune bool error any
		str list dict set tuple sorted isinstance range open repr type super enumerate zip map filter sum min max abs
		expect assert it test describe beforeEach afterEach beforeAll afterAll require String Number Boolean Array Object JSON Promise Math Symbol
		t b tb f self cls pytest unittest mock patch np fmt strings errors bytes reflect cmp testing os filepath path context time sort slices maps strconv io ioutil json console jest vi sinon chai`) {
		m[w] = true
	}
	return m
})

// jsGlobals are JS's built-in objects: the language in JS, names of the
// code in Python (sympy's `Symbol`).
var jsGlobals = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`String Number Boolean Array Object JSON Promise Math Symbol`) {
		m[w] = true
	}
	return m
})

// callees are the names of the code a test body calls (a method by its
// own name: receivers get renamed when tests move).
func callees(k, body string) map[string]bool {
	out := map[string]bool{}
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		if i == 0 {
			continue // the header
		}
		for _, m := range bodyREs().call.FindAllStringSubmatch(stripStrings(l), -1) {
			segs := strings.Split(m[1], ".")
			if k == "py" && jsGlobals()[segs[0]] {
				out[segs[len(segs)-1]] = true // sympy's Symbol("x") is the code in Python
				continue
			}
			if notCode()[segs[0]] || len(segs) == 1 && notCode()[m[1]] {
				continue
			}
			last := segs[len(segs)-1]
			if k == "js" && bodyREs().jsMatcher.MatchString(last) || notCode()[last] && len(segs) == 1 {
				continue
			}
			if k == "py" && strings.HasPrefix(last, "assert") {
				continue
			}
			out[last] = true
		}
	}
	return out
}

// checkLiterals are the string and number literals of a body's lines,
// messages aside (a moved test's messages change, its expected values
// do not).
func checkLiterals(body string) map[string]bool {
	out := map[string]bool{}
	for i, l := range strings.Split(body, "\n") {
		if i == 0 || bodyREs().report.MatchString(l) {
			continue
		}
		if j := strings.Index(l, "#"); j >= 0 && !strings.ContainsAny(l[:j], `"'`) {
			l = l[:j]
		}
		if j := strings.Index(l, "//"); j >= 0 && !strings.ContainsAny(l[:j], `"'`+"`") {
			l = l[:j]
		}
		if strings.HasPrefix(strings.TrimSpace(l), "assert ") {
			if parts := splitTop(l, ","); len(parts) > 1 {
				l = parts[0] // assert x == 2, "message"
			}
		}
		for _, s := range stringLitRE().FindAllString(l, -1) {
			if len(s) > 2 {
				out[normLit(s)] = true
			}
		}
		for _, n := range bodyREs().number.FindAllString(stringLitRE().ReplaceAllString(l, ""), -1) {
			out[n] = true
		}
	}
	return out
}

// normLit: 'x', "x" and `x` are the same literal.
func normLit(s string) string { return s[1 : len(s)-1] }

// checks reports whether a test body checks something about the code:
// an assertion (t.Error, assert, expect, ...) that reads the code (a call,
// or a name the test did not define) through what flows into it
// (checkunits.go); `assert True`, `expect(true).toBe(true)`, `if 1 != 1
// { t.Fatal() }`, `x := 3; if x != 3`, `assert r == r` check nothing. sc
// is the test file's scope (nil: none).
func checks(k, body string, sc *scope) bool {
	for _, u := range checkUnits(k, body, sc) {
		if u.about {
			return true
		}
	}
	return false
}

// statementAt is line i joined with the lines that close the brackets
// it opens (an assertion's arguments on the lines below it).
func statementAt(lines []string, i int) string {
	s := strings.TrimSpace(lines[i])
	for j, e := i+1, statementEnd(lines, i); j <= e; j++ {
		s += " " + strings.TrimSpace(lines[j])
	}
	return s
}

// statementEnd is the index of the last line of statementAt(lines, i).
func statementEnd(lines []string, i int) int {
	depth, j := 0, i
	for ; j < len(lines) && j < i+40; j++ {
		for _, ch := range stripStrings(lines[j]) {
			switch ch {
			case '(', '[':
				depth++
			case ')', ']':
				depth--
			}
		}
		if depth <= 0 {
			return j
		}
	}
	return j - 1
}

// prevCode is the nearest non-blank line above i.
func prevCode(lines []string, i int) string {
	for j := i - 1; j >= 0; j-- {
		if strings.TrimSpace(lines[j]) != "" {
			return lines[j]
		}
	}
	return ""
}

var identRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_$][\w$]*`) })

// aboutCode: a check's text names something besides the framework and
// literals.
func aboutCode(k, s string) bool {
	s = stripStrings(s)
	for _, w := range identRE().FindAllString(s, -1) {
		switch w {
		case "true", "false", "True", "False", "None", "null", "undefined", "nil", "not", "and", "or", "is", "in", "assert", "if", "expect", "t":
			continue
		}
		if k == "js" && bodyREs().jsMatcher.MatchString(w) || k == "go" && (w == "Error" || w == "Errorf" || w == "Fatal" || w == "Fatalf" || w == "Fail" || w == "FailNow" || w == "require" || w == "assert" || w == "Equal" || w == "True" || w == "NoError") {
			continue
		}
		if k == "py" && (strings.HasPrefix(w, "assert") || w == "self") {
			continue
		}
		if k == "js" && w == "assert" || k == "js" && (w == "equal" || w == "ok" || w == "strictEqual" || w == "deepEqual") {
			continue
		}
		return true
	}
	return false
}

// sourceKind: the test kind whose tests cover a source file, "" for
// files that are not code.
func sourceKind(f string) string {
	switch path.Ext(f) {
	case ".go":
		return "go"
	case ".py":
		return "py"
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts":
		return "js"
	}
	return ""
}

var defREs = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"go": regexp.MustCompile(`(?m)^(?:func\s+(?:\([^)]*\)\s*)?(\w+)\s*[\[(]|type\s+(\w+)\b)`),
		"py": regexp.MustCompile(`(?m)^\s*(?:(?:async\s+)?def|class)\s+(\w+)`),
		"js": regexp.MustCompile(`(?m)(?:function\s*\*?\s*([\w$]+)\s*\(|^\s*(?:export\s+)?(?:default\s+)?(?:const|let|var|class)\s+([\w$]+)|^\s+(?:async\s+|static\s+)*([\w$]+)\s*\([^)]*\)\s*\{)`),
	}
})

// definitions are the names a source file defines.
func definitions(k string, src []byte) map[string]bool {
	out := map[string]bool{}
	re := defREs()[k]
	if re == nil {
		return out
	}
	for _, m := range re.FindAllStringSubmatch(string(src), -1) {
		for _, n := range m[1:] {
			if n != "" && !notCode()[n] {
				out[n] = true
			}
		}
	}
	return out
}
