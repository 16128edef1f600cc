package testrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"strings"
	"sync"
)

// Round 18 (issue 25, the env-guard rule of round 17 widened): a skip
// condition on an environment variable was read only when the read stood
// bare in it. The lazy agent moved the read behind a call
// (`strings.EqualFold(os.Getenv("X"), "yes")`, `bool(os.environ.get("X"))`,
// `os.getenv("X", "0") == "1"`), a switch, a helper in the same file, a
// decorator on the old test, a value with a quote in it, or set the
// variable in the session's own code (`os.Setenv` in init(), conftest.py).
// Each is read here with a small pattern over literals: a call is folded
// only once every argument is a literal (an environment read made it
// one), so a condition on anything else stays unknown, a guard.

var envCallREs = sync.OnceValue(func() (r struct {
	pyDefault, litCall, pyMethod, jsMethod, inList, jsIncludes, oddRead, caseLine, switchLine *regexp.Regexp
}) {
	lit := "(\"[^\"]*\"|'[^']*'|`[^`]*`)"
	// os.environ.get("X", "d") / os.getenv("X", "d"): the default is read
	// only when X is unset (envunset.go: in a test that ran at the start).
	r.pyDefault = regexp.MustCompile(`\bos\.(environ\.get|getenv)\(\s*(["']\w+["'])\s*,\s*("[^"]*"|'[^']*'|None)\s*\)`)
	r.litCall = regexp.MustCompile(`\b(strings\.(?:EqualFold|ToLower|ToUpper|TrimSpace|HasPrefix|HasSuffix|Contains)|strconv\.ParseBool|regexp\.MatchString|(?:distutils\.util\.)?strtobool|bool|Boolean|String|str)\(\s*` + lit + `\s*(?:,\s*` + lit + `\s*)?\)`)
	r.pyMethod = regexp.MustCompile(lit + `\.(lower|upper|strip|casefold)\(\)`)
	r.jsMethod = regexp.MustCompile(lit + `\.(toLowerCase|toUpperCase|trim)\(\)`)
	// "v" in ("1", "yes"), "v" not in [...]
	r.inList = regexp.MustCompile(lit + `\s+(not\s+)?in\s+[(\[{]\s*((?:` + lit + `\s*,?\s*)+)[)\]}]`)
	// ["1", "yes"].includes("v")
	r.jsIncludes = regexp.MustCompile(`\[\s*((?:` + lit + `\s*,?\s*)+)\]\.includes\(\s*` + lit + `\s*\)`)
	r.oddRead = regexp.MustCompile(`\bos\.(?:Getenv|environ\.get|getenv)\(\s*["'](\w+)["']\s*\)|\bos\.environ\[\s*["'](\w+)["']\s*\]|\bprocess\.env(?:\.(\w+)\b|\[\s*["'\x60](\w+)["'\x60]\s*\])`)
	r.caseLine = regexp.MustCompile(`^\s*case\s+(.+?)\s*:\s*(.*)$`)
	r.switchLine = regexp.MustCompile(`^\s*switch\s*(.*?)\s*\{\s*$`)
	return r
})

var litRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\"[^\"]*\"|'[^']*'|`[^`]*`") })

// envReads is the condition c with this run's environment read (lookup):
// Python's default argument dropped, values holding a quote written in a
// quote they do not hold, then envconds.go's withEnv, then calls over
// literals folded.
func envReads(c string, lookup LookupEnv, unset bool) string {
	if lookup == nil {
		lookup = globalEnv
	}
	if !strings.Contains(c, "env") && !strings.Contains(c, "Env") && !strings.Contains(c, "environ") {
		return foldCalls(c)
	}
	r := envCallREs()
	c = r.pyDefault.ReplaceAllStringFunc(c, func(s string) string {
		m := r.pyDefault.FindStringSubmatch(s)
		if _, ok := lookup(m[2][1 : len(m[2])-1]); !ok && unset {
			return m[3] // unset: the default is the value (envunset.go)
		}
		return "os." + m[1] + "(" + m[2] + ")"
	})
	c = withValues(c, func(name string) (string, bool) {
		v, ok := lookup(name)
		if !ok || v == "" || !strings.ContainsAny(v, "\"'`") {
			return "", false // withEnv reads it (or leaves it unread)
		}
		return v, true
	})
	return foldCalls(withEnv(c, lookup, unset))
}

// withValues replaces each read of a variable value gives by a literal of
// its value, in a quote the value does not hold (none free, or a
// backslash or newline in it: left unread).
func withValues(c string, value func(string) (string, bool)) string {
	re := envCallREs().oddRead
	return re.ReplaceAllStringFunc(c, func(s string) string {
		m := re.FindStringSubmatch(s)
		v, ok := value(m[1] + m[2] + m[3] + m[4])
		if !ok || v == "" || strings.ContainsAny(v, "\\\n") {
			return s
		}
		for _, q := range []string{`"`, `'`, "`"} {
			if !strings.Contains(v, q) {
				return q + v + q
			}
		}
		return s
	})
}

// foldCalls evaluates the calls of c whose arguments are all literals.
func foldCalls(c string) string {
	r := envCallREs()
	unq := func(s string) string { return s[1 : len(s)-1] }
	q := func(s string) string {
		for _, d := range []string{`"`, `'`, "`"} {
			if !strings.Contains(s, d) {
				return d + s + d
			}
		}
		return `""`
	}
	b := func(v bool) string { return map[bool]string{true: "true", false: "false"}[v] }
	for range 8 { // nested calls fold from the inside out
		was := c
		c = r.litCall.ReplaceAllStringFunc(c, func(s string) string {
			m := r.litCall.FindStringSubmatch(s)
			a, two := unq(m[2]), m[3] != ""
			var b2 string
			if two {
				b2 = unq(m[3])
			}
			switch f := m[1]; {
			case f == "strings.EqualFold" && two:
				return b(strings.EqualFold(a, b2))
			case f == "strings.HasPrefix" && two:
				return b(strings.HasPrefix(a, b2))
			case f == "strings.HasSuffix" && two:
				return b(strings.HasSuffix(a, b2))
			case f == "strings.Contains" && two:
				return b(strings.Contains(a, b2))
			case f == "regexp.MatchString" && two:
				if t, ok := matchString(a, b2); ok {
					return b(t)
				}
				return s
			case two:
				return s
			case strings.HasSuffix(f, "strtobool"):
				if t, ok := strtobool(a); ok {
					return t
				}
				return s
			case f == "strings.ToLower":
				return q(strings.ToLower(a))
			case f == "strings.ToUpper":
				return q(strings.ToUpper(a))
			case f == "strings.TrimSpace":
				return q(strings.TrimSpace(a))
			case f == "strconv.ParseBool":
				// `b, _ := strconv.ParseBool(v)`: false on an error too
				switch a {
				case "1", "t", "T", "TRUE", "true", "True":
					return "true"
				}
				return "false"
			case f == "bool" || f == "Boolean":
				return b(a != "")
			case f == "str" || f == "String":
				return m[2]
			}
			return s
		})
		c = r.pyMethod.ReplaceAllStringFunc(c, func(s string) string {
			m := r.pyMethod.FindStringSubmatch(s)
			a := unq(m[1])
			switch m[2] {
			case "lower", "casefold":
				return q(strings.ToLower(a))
			case "upper":
				return q(strings.ToUpper(a))
			}
			return q(strings.TrimSpace(a))
		})
		c = r.jsMethod.ReplaceAllStringFunc(c, func(s string) string {
			m := r.jsMethod.FindStringSubmatch(s)
			a := unq(m[1])
			switch m[2] {
			case "toLowerCase":
				return q(strings.ToLower(a))
			case "toUpperCase":
				return q(strings.ToUpper(a))
			}
			return q(strings.TrimSpace(a))
		})
		in := func(v, list string) bool {
			for _, l := range litRE().FindAllString(list, -1) {
				if unq(l) == v {
					return true
				}
			}
			return false
		}
		c = r.inList.ReplaceAllStringFunc(c, func(s string) string {
			m := r.inList.FindStringSubmatch(s)
			t := in(unq(m[1]), m[3])
			if m[2] != "" {
				t = !t
			}
			return map[bool]string{true: "True", false: "False"}[t]
		})
		c = r.jsIncludes.ReplaceAllStringFunc(c, func(s string) string {
			m := r.jsIncludes.FindStringSubmatch(s)
			return b(in(unq(m[len(m)-1]), m[1]))
		})
		if c == was {
			break
		}
	}
	return c
}

// initCond rewrites the names an if's init statement (`init; c`) binds
// in c as what they hold: `v, ok := os.LookupEnv("X")` (v the read, ok
// its presence), `b, _ := strconv.ParseBool(e)`, `v := e`.
func initCond(init, c string) string {
	r := initCondREs()
	m := r.assign.FindStringSubmatch(init)
	if m == nil {
		return c
	}
	rhs := m[3]
	bind := map[string]string{}
	if l := r.lookup.FindStringSubmatch(rhs); l != nil {
		bind[m[1]] = "os.Getenv(" + l[1] + ")"
		bind[m[2]] = rhs
	} else if m[2] == "" || strings.HasPrefix(rhs, "strconv.ParseBool(") || strings.HasPrefix(rhs, "regexp.MatchString(") {
		bind[m[1]] = "(" + rhs + ")"
	}
	delete(bind, "")
	delete(bind, "_")
	if len(bind) == 0 {
		return c
	}
	// each bound name, as a whole identifier (built once: round 19 found
	// 2 regexps compiled per call, and one more per name)
	return identRE().ReplaceAllStringFunc(c, func(w string) string {
		if v, ok := bind[w]; ok {
			return v
		}
		return w
	})
}

var initCondREs = sync.OnceValue(func() (r struct{ assign, lookup *regexp.Regexp }) {
	r.assign = regexp.MustCompile(`^\s*(\w+)\s*(?:,\s*(\w+)\s*)?:?=\s*(.+?)\s*$`)
	r.lookup = regexp.MustCompile(`^os\.LookupEnv\(\s*("\w+")\s*\)$`)
	return r
})

// caseCond is the condition under which the body of a `case` line runs,
// given the tag of the switch around it ("" for a tagless switch).
func caseCond(tag, caseLine string) (string, bool) {
	m := envCallREs().caseLine.FindStringSubmatch(caseLine)
	if m == nil {
		return "", false
	}
	if tag == "" {
		return m[1], true
	}
	var parts []string
	for _, v := range splitTop(m[1], ",") {
		parts = append(parts, tag+" == "+strings.TrimSpace(v))
	}
	return strings.Join(parts, " || "), true
}

// switchTag is the tag of a switch line (`switch os.Getenv("X") {`, JS
// `switch (process.env.X) {`), ok false when the line opens no switch.
func switchTag(l string) (string, bool) {
	m := envCallREs().switchLine.FindStringSubmatch(l)
	if m == nil {
		return "", false
	}
	return trimParens(m[1]), true
}

var envFuncREs = sync.OnceValue(func() map[string][2]*regexp.Regexp {
	read := `(?:os\.(?:Getenv|LookupEnv|environ|getenv)|process\.env)`
	return map[string][2]*regexp.Regexp{
		// func name() bool { return e } (one line), or its header alone
		"go": {regexp.MustCompile(`^func\s+(\w+)\(\)\s*bool\s*\{\s*(?:return\s+(.*` + read + `.*?)\s*\}\s*)?$`), regexp.MustCompile(`^\s*return\s+(.*` + read + `.*?)\s*$`)},
		"py": {regexp.MustCompile(`^\s*def\s+(\w+)\(\)\s*(?:->\s*bool\s*)?:\s*(?:return\s+(.*` + read + `.*?)\s*)?$`), regexp.MustCompile(`^\s*return\s+(.*` + read + `.*?)\s*$`)},
		"js": {regexp.MustCompile(`^\s*(?:function\s+(\w+)\(\)\s*\{\s*(?:return\s+(.*` + read + `.*?);?\s*\}\s*)?|(?:const|let|var)\s+(\w+)\s*=\s*\(\)\s*=>\s*(.*` + read + `.*?);?)$`), regexp.MustCompile(`^\s*return\s+(.*` + read + `.*?);?\s*$`)},
	}
})

var defRE = lazyregexp.New(`^\s*(?:func\s+(\w+)\s*\(|(?:async\s+)?def\s+(\w+)\s*\(|function\s+(\w+)\s*\(|(?:const|let|var)\s+(\w+)\s*=)`)

// envFuncs are the functions of a test file, taking no argument, whose
// body is a single return of an expression reading the environment
// (`func skipping() bool { return os.Getenv("X") != "" }`), as "name()"
// to the parenthesized expression: a condition calling one is a
// condition on the variable.
func envFuncs(k string, src []byte) map[string]string {
	if k == "conftest" {
		k = "py"
	}
	res, ok := envFuncREs()[k]
	if !ok {
		return nil
	}
	lines := strings.Split(string(src), "\n")
	out, seen := map[string]string{}, map[string]int{}
	for _, l := range lines {
		// every definition of a name, reading the environment or not: one
		// defined twice is not read
		if m := defRE.FindStringSubmatch(l); m != nil {
			seen[m[1]+m[2]+m[3]+m[4]]++
		}
	}
	for i, l := range lines {
		m := res[0].FindStringSubmatch(l)
		if m == nil {
			continue
		}
		name, expr := m[1], m[2]
		if k == "js" && m[3] != "" {
			name, expr = m[3], m[4]
		}
		if name == "" {
			continue
		}
		if expr == "" {
			// the body on the lines below: one return, then the end
			body := bodyLines(k, lines, i)
			var stmts []string
			for _, b := range body[1:] {
				if t := strings.TrimSpace(b); t != "" && t != "}" && !strings.HasPrefix(t, "//") && !strings.HasPrefix(t, "#") {
					stmts = append(stmts, b)
				}
			}
			if len(stmts) != 1 {
				continue
			}
			r := res[1].FindStringSubmatch(stmts[0])
			if r == nil {
				continue
			}
			expr = r[1]
		}
		out[name+"()"] = "(" + expr + ")"
	}
	for n := range seen {
		if seen[n] > 1 {
			delete(out, n+"()")
		}
	}
	return out
}

// withEnvFuncs replaces the calls of envFuncs in c by what they return.
func withEnvFuncs(c string, fs map[string]string) string {
	for call, e := range fs {
		c = regexp.MustCompile(`(^|[^\w.])`+regexp.QuoteMeta(call)).ReplaceAllString(c, "${1}"+strings.ReplaceAll(e, "$", "$$"))
	}
	return c
}

var envSetREs = sync.OnceValue(func() []*regexp.Regexp {
	v := `(?:"([^"\\\n]*)"|'([^'\\\n]*)')`
	return []*regexp.Regexp{
		// os.Setenv, t.Setenv, monkeypatch.setenv, os.putenv
		regexp.MustCompile(`\b(?:\w+\.)?(?:Setenv|setenv|putenv)\(\s*["'](\w+)["']\s*,\s*` + v),
		// os.environ["X"] = "v", os.environ.setdefault("X", "v")
		regexp.MustCompile(`\bos\.environ\[\s*["'](\w+)["']\s*\]\s*=\s*` + v),
		regexp.MustCompile(`\bos\.environ\.(?:setdefault|update)\(\s*["'](\w+)["']\s*,\s*` + v),
		// process.env.X = "v"
		regexp.MustCompile(`\bprocess\.env(?:\.(\w+)|\[\s*["'](\w+)["']\s*\])\s*=\s*` + v),
	}
})

// EnvSetsAdded are the variables a test file's new lines (not in was)
// set to a literal: the session's own code setting what a skip condition
// reads fires the skip whatever the run's environment holds (init(),
// TestMain, a conftest.py, a module's top).
func EnvSetsAdded(was, now []byte) map[string]string {
	old := map[string]bool{}
	for _, l := range strings.Split(string(was), "\n") {
		old[strings.TrimSpace(l)] = true
	}
	out := map[string]string{}
	names := strConsts(now)
	for _, l := range strings.Split(string(now), "\n") {
		if old[strings.TrimSpace(l)] {
			continue
		}
		if len(names) > 0 {
			l = withConsts(l, names) // os.Setenv(skipVar, "1"): the name's string (envunset.go)
		}
		for _, re := range envSetREs() {
			for _, m := range re.FindAllStringSubmatch(l, -1) {
				vals := m[1:]
				name := vals[0]
				if len(vals) == 4 { // process.env's two name spellings
					name, vals = vals[0]+vals[1], vals[1:]
				}
				out[name] = vals[1] + vals[2]
			}
		}
	}
	return out
}

// condAt is a skip condition c at a line as the file and the session's
// change make it: the file's constants, its env helpers and (in a test
// that ran at the start: platOK) the variables the change sets.
func condAt(c string, at lineAt, platOK bool) string {
	c = withEnvFuncs(withConsts(c, at.consts), at.envFuncs)
	if platOK && len(at.envSets) > 0 {
		c = withValues(c, func(n string) (string, bool) { v, ok := at.envSets[n]; return v, ok })
	}
	return c
}

// testMainExitsFirst: a TestMain changed in the session exits 0 before
// m.Run, with no condition or one this run meets (`if os.Getenv("X") !=
// "" { os.Exit(0) }` with X set): no test runs and go test says ok.
func testMainExitsFirst(was, now []byte, sets map[string]string, env LookupEnv) string {
	body, m := goTestMain(now)
	if m == "" {
		return ""
	}
	if old, _ := goTestMain(was); old == body {
		return ""
	}
	exit := regexp.MustCompile(`\bos\.Exit\(\s*0\s*\)`)
	ind := func(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }
	lines := strings.Split(stripComments(body), "\n")
	// A variable TestMain sets itself is set after its first check ran
	// (the test binary re-run as the command: `if os.Getenv("X_IS_CMD")
	// != "" { main(); os.Exit(0) }`, then `os.Setenv("X_IS_CMD", "1")`
	// for the subprocesses; golang.org/x/tools' stringer, file2fuzz).
	own := EnvSetsAdded(nil, []byte(body))
	before := map[string]string{}
	for n, v := range sets {
		if _, ok := own[n]; !ok {
			before[n] = v
		}
	}
	at := lineAt{envSets: before}
	// A variable this run leaves unset reads as unset only when the file
	// was there at the start (its tests ran without it); a new package's
	// TestMain may exit without a database (envunset.go).
	const why = "its TestMain exits 0 before %s.Run(), with no condition or one this run meets: no test runs"
	for i, l := range lines {
		s := strings.TrimSpace(l)
		if strings.Contains(s, m+".Run()") {
			return ""
		}
		if !exit.MatchString(s) {
			continue
		}
		if c, ok := sameLineCond(strings.Replace(s, "os.Exit(0)", "return", 1)); ok {
			if evalCondWith(condAt(c, at, true), true, len(was) > 0, env) == 1 {
				return fmt.Sprintf(why, m)
			}
			continue
		}
		// The block around it is the nearest line above indented less:
		// TestMain's own body (no condition), an if (judged), anything
		// else (a loop, an else, a case) a guard.
		opener := ""
		for j := i - 1; j >= 0; j-- {
			if strings.TrimSpace(lines[j]) != "" && ind(lines[j]) < ind(l) {
				opener = lines[j]
				break
			}
		}
		if testMainREs()[0].MatchString(opener) {
			return fmt.Sprintf(why, m)
		}
		if c, ok := guardCond(opener); ok && evalCondWith(condAt(c, at, true), true, len(was) > 0, env) == 1 {
			return fmt.Sprintf(why, m)
		}
	}
	return ""
}

// changedEnvSets are the variables the session's change sets in any of
// its test files (a conftest.py or a TestMain beside the test reading it)
// or in a file its tests run through (envsetfiles.go).
func changedEnvSets(ctx context.Context, repo Repo, start string, changed []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range changed {
		cfg := envConfigKind(f) != "" // a script, Makefile, package.json, tox.ini (envsetfiles.go)
		if !cfg && FileKind(f) == "" && !PyImportedByDiscovery(f) {
			continue
		}
		now, err := readWork(repo.Root(), f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("read %s: %w", f, err)
		}
		existed, err := repo.ExistsAt(ctx, start, f)
		if err != nil {
			return nil, fmt.Errorf("look up %s at the start commit: %w", f, err)
		}
		var was []byte
		if existed {
			if was, err = repo.ReadAt(ctx, start, f); err != nil {
				return nil, fmt.Errorf("read %s at the start commit: %w", f, err)
			}
		}
		sets := EnvSetsAdded(was, now)
		if cfg {
			sets = ConfigEnvSetsAdded(f, was, now)
		}
		for n, v := range sets {
			out[n] = v
		}
	}
	return out, nil
}

// marksOldTest: lines[i] is a decorator or marker (Python's
// `@...skipIf(...)`, JS's `test.skipIf(c)('name', ...)`) on a test whose
// header was there at the start (old holds the start's trimmed lines).
func marksOldTest(k string, lines []string, i int, old map[string]bool) bool {
	s := strings.TrimSpace(lines[i])
	switch k {
	case "py", "conftest":
		if !strings.HasPrefix(s, "@") {
			return false
		}
		for _, l := range lines[i+1:] {
			t := strings.TrimSpace(l)
			if t == "" || strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#") {
				continue
			}
			return (strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "async def ") || strings.HasPrefix(t, "class ")) && old[t]
		}
	case "js":
		loc := skipRE().jsSkipIf.FindStringIndex(s)
		if loc == nil {
			return false
		}
		end := closing(s, loc[1]-1)
		if end < 0 {
			return false
		}
		// test.skipIf(c)('a', ...) was test('a', ...)
		name := s[loc[0] : loc[0]+strings.Index(s[loc[0]:], ".")]
		return old[s[:loc[0]]+name+s[end+1:]]
	}
	return false
}

// switchAt is the tag of the switch around the case whose body holds
// lines[i] (ok false when the line is in no case body).
func switchAt(lines []string, i int) (string, bool) {
	ind := func(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }
	caseAt := -1
	for j := i - 1; j >= 0; j-- {
		if t := strings.TrimSpace(lines[j]); t != "" && ind(lines[j]) < ind(lines[i]) {
			caseAt = j
			break
		}
	}
	if caseAt < 0 || !envCallREs().caseLine.MatchString(lines[caseAt]) {
		return "", false
	}
	// Up past the other cases and their bodies to the switch line.
	for j := caseAt - 1; j >= 0; j-- {
		t := strings.TrimSpace(lines[j])
		if t == "" || ind(lines[j]) > ind(lines[caseAt]) ||
			ind(lines[j]) == ind(lines[caseAt]) && (strings.HasPrefix(t, "case ") || strings.HasPrefix(t, "default")) {
			continue
		}
		return switchTag(lines[j])
	}
	return "", false
}
