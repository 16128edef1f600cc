package testrun

import (
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// A skip's guard is judged by what it reads, not matched against a list
// of literals (issue 25 route: `if len(os.Args) > 0`, `if (process.env.PATH)`
// got past a list of `true`, `1 == 1` and HOME/PATH spellings). A
// condition is evaluated over three kinds of operand: literals, values
// every run of a suite has (present: the program's arguments, its
// environment object, HOME/PATH, its pid, the interpreter's version, the
// test's own *testing.T), and anything else (unknown, which is a guard).

// truth is +1 when a condition holds in every run, -1 when it never
// does, 0 when it depends on the machine or the run.
type truth int

var condEvalREs = sync.OnceValue(func() (r struct {
	present, intLit, strLit, length, typeOf, pyVersion *regexp.Regexp
}) {
	env := `(?:HOME|PATH|PWD)`
	r.present = regexp.MustCompile(`^(?:` + strings.Join([]string{
		// Go
		`os\.Args(?:\[0\])?`, `os\.Environ\(\)`, `os\.Getenv\("` + env + `"\)`, `os\.Getpid\(\)`, `os\.Getpagesize\(\)`,
		`os\.TempDir\(\)`, `os\.Std(?:in|out|err)`, `runtime\.(?:NumCPU|Version|NumGoroutine)\(\)`, `runtime\.GO(?:OS|ARCH)`,
		`time\.Now\(\)(?:\.Unix(?:Nano|Milli)?\(\))?`, `testing\.Testing\(\)`,
		// Python
		`sys\.(?:argv(?:\[0\])?|executable|version(?:_info)?|path|modules|platform|maxsize)`, `os\.(?:environ|name|sep|curdir)`,
		`os\.(?:getcwd|getpid|cpu_count)\(\)`, `__name__`, `__file__`, `time\.time\(\)`,
		`os\.(?:getenv|environ\.get)\(["']` + env + `["']\)`, `os\.environ\[["']` + env + `["']\]`,
		// JS
		`process`, `process\.(?:env|argv|argv\[0\]|pid|version|versions|versions\.node|platform|arch|execPath|release)`,
		`process\.cwd\(\)`, `process\.env\.` + env, `process\.env\[["']` + env + `["']\]`, `__dirname`, `__filename`,
		`require`, `globalThis`, `Date\.now\(\)`, `new Date\(\)`,
		// a read of a variable the run set to a value its line does not spell (envconds.go)
		envSetToken,
	}, "|") + `)$`)
	r.intLit = regexp.MustCompile(`^-?\d+$`)
	r.strLit = regexp.MustCompile(`^(?:"[^"]*"|'[^']*'|` + "`[^`]*`" + `)$`)
	// len(X), X.length, Object.keys(X).length, len(X.keys())
	r.length = regexp.MustCompile(`^(?:len\((.+)\)|Object\.keys\((.+)\)\.length|(.+)\.length)$`)
	r.typeOf = regexp.MustCompile(`^typeof\s+(.+)$`)
	r.pyVersion = regexp.MustCompile(`^sys\.version_info(?:\.major|\[0\])?$|^sys\.version_info\[:\d\]$`)
	return r
})

// evalCond judges a condition (Go, Python or JS syntax); platOK lets a
// platform test this machine meets count as always true (the test ran
// here before the change).
func evalCond(c string, platOK bool) truth { return evalCondIn(c, platOK, nil) }

// evalCondIn is evalCond with the environment the run had (nil: this
// process's, lookupEnv).
func evalCondIn(c string, platOK bool, env LookupEnv) truth {
	return evalCondWith(c, platOK, platOK, env)
}

// evalCondWith is evalCondIn where unset says whether a variable the run
// does not set reads as unset (a test that ran at the start without it,
// envunset.go) or stays unread (a guard).
func evalCondWith(c string, platOK, unset bool, env LookupEnv) truth {
	if platOK {
		c = envReads(c, env, unset) // a test that ran here before: this run's environment decides (envconds.go, envcalls.go)
	}
	c = trimParens(strings.TrimSpace(c))
	if c == "" {
		return 0
	}
	for _, sep := range []string{"||", " or "} {
		if parts := splitTop(c, sep); len(parts) > 1 {
			all := truth(-1)
			for _, p := range parts {
				switch evalCondWith(p, platOK, unset, env) {
				case 1:
					return 1
				case 0:
					all = 0
				}
			}
			return all
		}
	}
	for _, sep := range []string{"&&", " and "} {
		if parts := splitTop(c, sep); len(parts) > 1 {
			all := truth(1)
			for _, p := range parts {
				switch evalCondWith(p, platOK, unset, env) {
				case -1:
					return -1
				case 0:
					all = 0
				}
			}
			return all
		}
	}
	if r, ok := strings.CutPrefix(c, "not "); ok {
		return -evalCondWith(r, platOK, unset, env)
	}
	if strings.HasPrefix(c, "!") && !strings.HasPrefix(c, "!=") {
		return -evalCondWith(c[1:], platOK, unset, env)
	}
	if platOK {
		if t := platformCond(c); t != 0 {
			return t
		}
		if c == "testing.Short()" {
			// A run the QA rule takes for the suite has no -short on its
			// line (a partial run); only GOFLAGS can set it. A skip under
			// `!testing.Short()` fires in every plain go test run.
			lookup := env
			if lookup == nil {
				lookup = globalEnv
			}
			v, _ := lookup("GOFLAGS")
			return ofBool(strings.Contains(" "+v, " -short") || strings.Contains(" "+v, " --short"))
		}
	}
	if `"PATH" in os.environ` == strings.ReplaceAll(c, "'", `"`) || `"HOME" in os.environ` == strings.ReplaceAll(c, "'", `"`) {
		return 1
	}
	for _, op := range []string{"===", "!==", "==", "!=", ">=", "<=", " is not ", " is ", ">", "<"} {
		if l, rt, ok := cutTop(c, op); ok {
			return compare(strings.TrimSpace(l), strings.TrimSpace(op), strings.TrimSpace(rt))
		}
	}
	switch v := readOperand(c); v.kind {
	case opPresent:
		return 1
	case opInt:
		if v.n != 0 {
			return 1
		}
		return -1
	case opAbsent:
		return -1
	case opStr:
		return 1 // a non-empty literal is truthy
	}
	return 0
}

type opKind int

const (
	opUnknown      opKind = iota
	opInt                 // an integer literal
	opStr                 // a non-empty string literal
	opAbsent              // nil, None, null, undefined, false, "", 0's kin
	opPresent             // a value every run has: non-empty, non-nil, positive
	opUndefinedStr        // the string "undefined" (typeof's answer for a missing name)
	opType                // typeof of a present name
	opVersion             // sys.version_info: at least 3
)

type operand struct {
	kind opKind
	n    int
	text string
}

func readOperand(s string) operand {
	s = trimParens(strings.TrimSpace(s))
	r := condEvalREs()
	switch s {
	case "true", "True":
		return operand{kind: opInt, n: 1, text: s}
	case "false", "False", "nil", "None", "null", "undefined", `""`, "''", "``":
		return operand{kind: opAbsent, text: s}
	case `"undefined"`, `'undefined'`:
		return operand{kind: opUndefinedStr, text: s}
	}
	if r.intLit.MatchString(s) {
		n, err := strconv.Atoi(s)
		if err == nil {
			return operand{kind: opInt, n: n, text: s}
		}
	}
	if r.strLit.MatchString(s) {
		return operand{kind: opStr, text: s}
	}
	if n, ok := literalInt(s); ok {
		return operand{kind: opInt, n: n, text: s} // `1+1` (elseconds.go)
	}
	if r.pyVersion.MatchString(s) {
		return operand{kind: opVersion, text: s}
	}
	if r.present.MatchString(s) {
		return operand{kind: opPresent, text: s}
	}
	if m := r.length.FindStringSubmatch(s); m != nil {
		for _, in := range m[1:] {
			if in = strings.TrimSpace(in); r.strLit.MatchString(in) {
				return operand{kind: opInt, n: len(in) - 2, text: s} // a literal's length (an environment read made it)
			}
			if in != "" && r.present.MatchString(in) {
				return operand{kind: opPresent, text: s}
			}
		}
	}
	if m := r.typeOf.FindStringSubmatch(s); m != nil && r.present.MatchString(m[1]) {
		return operand{kind: opType, text: s}
	}
	return operand{kind: opUnknown, text: s}
}

// compare judges `l op r` where it can.
func compare(ls, op, rs string) truth {
	l, r := readOperand(ls), readOperand(rs)
	eq := op == "==" || op == "===" || op == "is"
	ne := op == "!=" || op == "!==" || op == "is not"
	if (ls == "t" || ls == "tb" || ls == "b") && rs == "nil" {
		l.kind = opPresent // a Go test's own *testing.T (B)
	}
	switch {
	case l.kind == opInt && r.kind == opInt:
		return ofBool(cmpInts(l.n, op, r.n))
	case ls == rs && l.kind != opUnknown || ls == rs && !strings.Contains(ls, "("):
		// x == x: the same expression on both sides (calls aside: they
		// may differ from one call to the next).
		switch op {
		case "==", "===", "is", ">=", "<=":
			return 1
		case "!=", "!==", "is not", ">", "<":
			return -1
		}
	case l.kind == opStr && r.kind == opStr:
		// two literals (an environment read made one, envconds.go)
		if eq || ne {
			return ofBool((l.text[1:len(l.text)-1] == r.text[1:len(r.text)-1]) == eq)
		}
	case l.kind == opPresent && r.kind == opAbsent || l.kind == opAbsent && r.kind == opPresent,
		l.kind == opStr && r.kind == opAbsent || l.kind == opAbsent && r.kind == opStr:
		if ne {
			return 1
		}
		if eq {
			return -1
		}
	case l.kind == opPresent && r.kind == opInt:
		return positiveCmp(op, r.n)
	case l.kind == opInt && r.kind == opPresent:
		return positiveCmp(flip(op), l.n)
	case l.kind == opType && r.kind == opUndefinedStr || l.kind == opUndefinedStr && r.kind == opType:
		if ne {
			return 1
		}
		if eq {
			return -1
		}
	case l.kind == opVersion:
		// sys.version_info >= (3,) or [0] >= 3: a Python 3 interpreter.
		n, err := strconv.Atoi(strings.Trim(strings.SplitN(strings.Trim(rs, "() "), ",", 2)[0], " "))
		if err != nil {
			return 0
		}
		switch op {
		case ">=":
			if n <= 3 {
				return 1
			}
		case ">":
			if n <= 2 {
				return 1
			}
		case "<":
			if n <= 3 {
				return -1
			}
		}
	}
	return 0
}

// positiveCmp judges `v op n` for a value known to be at least 1 (a
// length, a pid, a count of CPUs, a non-empty string's truth).
func positiveCmp(op string, n int) truth {
	switch op {
	case ">":
		if n <= 0 {
			return 1
		}
	case ">=":
		if n <= 1 {
			return 1
		}
	case "!=", "!==":
		if n <= 0 {
			return 1
		}
	case "==", "===":
		if n <= 0 {
			return -1
		}
	case "<":
		if n <= 1 {
			return -1
		}
	case "<=":
		if n <= 0 {
			return -1
		}
	}
	return 0
}

func flip(op string) string {
	return map[string]string{">": "<", "<": ">", ">=": "<=", "<=": ">="}[op] + map[bool]string{true: op}[!strings.ContainsAny(op, "<>")]
}

func cmpInts(a int, op string, b int) bool {
	switch op {
	case "==", "===", "is":
		return a == b
	case "!=", "!==", "is not":
		return a != b
	case ">":
		return a > b
	case "<":
		return a < b
	case ">=":
		return a >= b
	case "<=":
		return a <= b
	}
	return false
}

func ofBool(b bool) truth {
	if b {
		return 1
	}
	return -1
}

// pyOSNameRE reads Python's `os.name == "nt"` (os.name is "posix" or "nt").
var pyOSNameRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^os\.name\s*(==|!=)\s*["'](\w+)["']$`)
})

// platformCond judges a platform test against this machine.
func platformCond(c string) truth {
	r := condREs()
	if m := r.goos.FindStringSubmatch(c); m != nil {
		cur := runtime.GOOS
		if m[1] == "GOARCH" {
			cur = runtime.GOARCH
		}
		return ofBool((m[3] == cur) == (m[2] == "=="))
	}
	if m := r.pyplat.FindStringSubmatch(c); m != nil {
		return ofBool((m[2] == pyPlatform()) == (m[1] == "=="))
	}
	if m := pyOSNameRE().FindStringSubmatch(c); m != nil {
		cur := "posix"
		if runtime.GOOS == "windows" {
			cur = "nt"
		}
		return ofBool((m[2] == cur) == (m[1] == "=="))
	}
	if m := r.jsplat.FindStringSubmatch(c); m != nil {
		return ofBool((m[2] == runtime.GOOS || m[2] == "win32" && runtime.GOOS == "windows") == strings.HasPrefix(m[1], "=="))
	}
	return 0
}

// trimParens drops parentheses around the whole expression.
func trimParens(s string) string {
	for strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") && closing(s, 0) == len(s)-1 {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

// closing is the index of the bracket closing s[i], -1 if none.
func closing(s string, i int) int {
	depth := 0
	var quote byte
	for j := i; j < len(s); j++ {
		ch := s[j]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'' || ch == '`':
			quote = ch
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case ch == ')' || ch == ']' || ch == '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// splitTop splits s at sep outside brackets and quotes.
func splitTop(s, sep string) []string {
	var out []string
	depth, last := 0, 0
	var quote byte
	for j := 0; j < len(s); j++ {
		ch := s[j]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'' || ch == '`':
			quote = ch
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case ch == ')' || ch == ']' || ch == '}':
			depth--
		case depth == 0 && strings.HasPrefix(s[j:], sep):
			out = append(out, s[last:j])
			last = j + len(sep)
			j += len(sep) - 1
		}
	}
	return append(out, s[last:])
}

// cutTop cuts s around the first op outside brackets and quotes (`>=` is
// not read as `>`: the longer operators are tried first by the caller,
// and an `=` after `>`/`<`/`!` is never a cut point for `>`/`<`).
func cutTop(s, op string) (string, string, bool) {
	parts := splitTop(s, op)
	if len(parts) != 2 {
		return "", "", false
	}
	l, r := parts[0], parts[1]
	if op == ">" || op == "<" {
		if strings.HasPrefix(r, "=") || strings.HasSuffix(l, "=") || strings.HasSuffix(l, "-") {
			return "", "", false // >=, <=, ->, =>
		}
	}
	if op == "==" && (strings.HasSuffix(l, "!") || strings.HasSuffix(l, "=") || strings.HasPrefix(r, "=")) {
		return "", "", false
	}
	if op == "!=" && strings.HasPrefix(r, "=") {
		return "", "", false
	}
	return l, r, true
}
