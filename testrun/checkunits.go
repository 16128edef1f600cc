package testrun

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A check is the assertion and what flows into it (issue 25 item 4, the
// routes left open: a "consolidation" that keeps a deleted test's calls
// and expected values but checks less). Values parked in a line no check
// reads (`_ = 42`, a log call, a bare string), a comparison weakened
// (`==` to `>=`, `assert x == 3` to `assert x`, `toBe(3)` to
// `toBeDefined()`), or a call and a value pooled from two unrelated
// checks all kept the pool of a test file's calls and literals whole. So
// a test is read as units: each check statement with the statements
// whose names it reads, transitively (`got := A(2)`, a table `tests :=
// []struct{...}{...}` ranged by `for _, tc := range tests`, a
// parametrize list, a module-level table), and the helpers of the test
// file it calls (their calls and their comparisons count as the
// caller's). A deleted test's unit is carried when one unit elsewhere
// calls what it called and compares with its values, and compares for
// equality if it did. A unit that reads no code (no call, no name it did
// not define itself) and one whose two sides are the same expression
// check nothing.

// unit is one check and what flows into it.
type unit struct {
	callees, lits map[string]bool
	eq            bool // compares for equality (==, Equal, toBe, assertEqual, ...)
	about         bool // reads the code: a call or a name the test did not define
}

// stmt is a statement of a test or helper: its lines joined, the names
// it defines and the names it reads.
type stmt struct {
	text        string
	start, end  int // line indices, end inclusive
	defs, uses  map[string]bool
	calls, lits map[string]bool // what it calls and its literals
	top         bool            // at a file's top level (a module-level table)
	parent      int             // the block header it is in (a func, if, for, ...), -1: none
	fn          bool            // a header that opens a function (a closure, a nested def)
	bodyEnd     int             // a header's last line of its block
	// bare is text with its string literals emptied (stripStrings), made
	// once: a unit asks it of the same statement for each name it reads.
	bare   string
	bareOK bool
}

func (m *stmt) stripped() string {
	if !m.bareOK {
		m.bare, m.bareOK = stripStrings(m.text), true
	}
	return m.bare
}

// scope is what a test file gives its tests besides their bodies: its
// helpers (non-test functions) and its top-level statements.
type scope struct {
	helpers map[string]string
	top     []stmt
	// codePkgs: Go packages the file imports from a module under a name
	// read as the standard library's (goccy/go-json as json): their calls
	// are the code's.
	codePkgs map[string]bool
}

var unitREs = sync.OnceValue(func() (r struct {
	goDefs, goFor, goIf, pyDefs, pyFor, pyWith, pyParam, pyParamTuple, jsDefs, jsFor, jsAssign, jsEach *regexp.Regexp
	eq, selector, structType, key, goHelper, pyHelper, jsHelper, jsArrow                               *regexp.Regexp
	swallow, rethrow, jsCatch                                                                          *regexp.Regexp
}) {
	r.goDefs = regexp.MustCompile(`^(?:var\s+|const\s+)?([\w.]+(?:\s*,\s*[\w.]+)*)\s*(?::=|=)(?:[^=]|$)`)
	r.goFor = regexp.MustCompile(`^for\s+(.+?)\s*:=\s*range\b`)
	r.goIf = regexp.MustCompile(`^(?:\}\s*else\s+)?(?:if|switch)\s+([\w\s,]+?)\s*:=`)
	r.pyDefs = regexp.MustCompile(`^([\w.]+(?:\s*,\s*[\w.]+)*)\s*(?:[-+*/]?=)(?:[^=]|$)`)
	r.pyFor = regexp.MustCompile(`^(?:async\s+)?for\s+(.+?)\s+in\s`)
	r.pyWith = regexp.MustCompile(`\bas\s+(\w+)`)
	r.pyParam = regexp.MustCompile(`parametrize\(\s*(?:argnames\s*=\s*)?["']([^"']+)["']`)
	r.pyParamTuple = regexp.MustCompile(`parametrize\(\s*[(\[]([^)\]]*)[)\]]`)
	r.jsDefs = regexp.MustCompile(`^(?:export\s+)?(?:const|let|var)\s+(.+?)\s*=(?:[^=>]|$)`)
	r.jsFor = regexp.MustCompile(`^for\s*\(\s*(?:const|let|var)\s+(.+?)\s+(?:of|in)\b`)
	r.jsAssign = regexp.MustCompile(`^([\w.$]+)\s*=(?:[^=>]|$)`)
	r.jsEach = regexp.MustCompile(`\.(?:forEach|map|each)\(.*?(?:async\s*)?(?:\(([^)]*)\)|(\w+))\s*=>`)
	// Comparisons for equality, by operator or by name.
	r.eq = regexp.MustCompile(`[=!]=|\bis\s+not\b|\bis\b|Equal|Equals\b|\bDiff\(|\.toBe\(|\.toEqual\(|\.toStrictEqual\(|\.toMatchObject\(|\.toMatch\w*Snapshot\(|\.toHaveLength\(|\.toHaveBeenCalledWith\(|\.toThrow\w*\(\s*[^)\s]|\bassert(?:Is|IsNone|IsNotNone|Raises\w*|Warns\w*|Regex)\b|_equal\b|\ballclose\b|\bpytest\.(?:raises|approx|warns)\(|\b(?:deepEqual|deepStrictEqual|strictEqual|equal|equals|eql|same|is|strictSame)\(|\bErrorIs\(|\bErrorAs\(|\bIsType\(|\bNil\(|\bPanics\w*\(|\bJSONEq\(|\bqt\.(?:Equals|DeepEquals|ErrorMatches|IsNil)\b`)
	r.selector = regexp.MustCompile(`\.\s*[A-Za-z_$][\w$]*`)
	r.structType = regexp.MustCompile(`\bstruct\s*\{[^{}]*\}`)
	r.key = regexp.MustCompile(`([A-Za-z_$][\w$]*)\s*:([^:=]|$)`)
	r.goHelper = regexp.MustCompile(`^func\s+(\w+)\s*\(`)
	r.pyHelper = regexp.MustCompile(`^\s*(?:async\s+)?def\s+(\w+)\s*\(`)
	r.jsHelper = regexp.MustCompile(`^\s*(?:export\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)\s*\(`)
	r.jsArrow = regexp.MustCompile(`^\s*(?:export\s+)?(?:const|let)\s+([\w$]+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[\w$]+)\s*=>`)
	// except AssertionError / Exception / BaseException / bare except
	r.swallow = regexp.MustCompile(`^except\b\s*(?:\(?[\w., ]*\b(?:AssertionError|Exception|BaseException)\b[\w., ]*\)?)?\s*(?:as\s+\w+\s*)?:`)
	r.rethrow = regexp.MustCompile(`\braise\b|\bthrow\b|\b(?:pytest|self|assert|t)\.fail\w*\(|\bfail\(|\bexpect\w*\(|^\s*assert\b`)
	r.jsCatch = regexp.MustCompile(`^\}?\s*catch\b`)
	return r
})

// keywords are words of the languages that are not names of the code.
var keywords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`_ true false True False None null undefined nil not and or is in if else elif
		for range while return break continue struct map chan interface var const let func type go defer select case default
		lambda def with as yield pass raise try except finally import from global nonlocal del class
		of new this await async function typeof instanceof void throw catch`) {
		m[w] = true
	}
	return m
})

// framework are the test frameworks' names; as variables (`it :=
// list.Iterator()`) they still carry a value to a check.
var framework = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`assert expect it test describe t b tb f self cls require`) {
		m[w] = true
	}
	return m
})

// goTypes are Go's predeclared types: names of the language in Go, and
// ordinary variable names (`error`, `string`) in Python and JS.
var goTypes = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`string int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 uintptr float32 float64 complex64 complex128 byte rune bool error any`) {
		m[w] = true
	}
	return m
})

// notName: w is a word of language k, not a name of a test or the code.
func notName(k, w string) bool { return keywords()[w] || k == "go" && goTypes()[w] }

// statements groups lines[from:to] into statements: a line that opens a
// bracket it does not close continues to the line that closes it, unless
// what it opens is a block (`if x {`, `() => {`, a Python `:`).
func statements(lines []string, from, to int) []stmt {
	var out []stmt
	for i := from; i < to; i++ {
		t := strings.TrimSpace(lines[i])
		if t == "" || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") {
			continue
		}
		j := i
		if opensLiteral(lines[i]) {
			depth := 0
			for ; j < to; j++ {
				for _, ch := range stripStrings(lines[j]) {
					switch ch {
					case '(', '[', '{':
						depth++
					case ')', ']', '}':
						depth--
					}
				}
				if depth <= 0 {
					break
				}
			}
			if j >= to {
				j = to - 1
			}
		}
		out = append(out, stmt{text: strings.Join(lines[i:j+1], "\n"), start: i, end: j})
		i = j
	}
	return out
}

// opensLiteral: the line leaves a bracket open that is not a block: a
// call, list or table continued on the lines below.
func opensLiteral(l string) bool {
	s := strings.TrimRight(stripStrings(l), " \t")
	depth := 0
	for _, ch := range s {
		switch ch {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
	}
	if depth <= 0 || s == "" {
		return false
	}
	last := s[len(s)-1]
	if last == '{' {
		before := strings.TrimRight(s[:len(s)-1], " \t")
		spaced := len(before) < len(s)-1
		if before == "" || strings.HasSuffix(before, "struct") || strings.HasSuffix(before, "interface") {
			return true // `tests := []struct {`: a table's type, then its rows
		}
		p := before[len(before)-1]
		// `T{`, `= {`, `({`, `, {`, `: {`, `[{`: a literal; `x {`, `) {`,
		// `=> {`: a block.
		return !spaced && p != ')' || strings.ContainsRune("=(,:[", rune(p)) && !strings.HasSuffix(before, "=>")
	}
	return true
}

// fillStmt reads a statement's definitions and reads.
func fillStmt(k string, s *stmt) {
	r := unitREs()
	text := strings.TrimSpace(s.text)
	first := strings.TrimSpace(strings.SplitN(text, "\n", 2)[0])
	s.defs, s.uses = map[string]bool{}, map[string]bool{}
	var lhs []string
	switch k {
	case "go":
		if m := r.goFor.FindStringSubmatch(first); m != nil {
			lhs = append(lhs, m[1])
		} else if m := r.goIf.FindStringSubmatch(first); m != nil {
			lhs = append(lhs, m[1])
		} else if m := r.goDefs.FindStringSubmatch(first); m != nil {
			lhs = append(lhs, m[1])
		} else if m := goVarRE().FindStringSubmatch(first); m != nil {
			lhs = append(lhs, m[1]) // var b bytes.Buffer
		}
	case "py":
		if m := r.pyFor.FindStringSubmatch(first); m != nil {
			lhs = append(lhs, m[1])
		} else if strings.HasPrefix(first, "with ") || strings.HasPrefix(first, "async with ") {
			for _, m := range r.pyWith.FindAllStringSubmatch(first, -1) {
				lhs = append(lhs, m[1])
			}
		} else if m := r.pyDefs.FindStringSubmatch(first); m != nil {
			lhs = append(lhs, m[1])
		}
		if strings.HasPrefix(first, "@") {
			if m := r.pyParam.FindStringSubmatch(text); m != nil {
				lhs = append(lhs, m[1])
			} else if m := r.pyParamTuple.FindStringSubmatch(text); m != nil {
				lhs = append(lhs, strings.NewReplacer(`"`, "", `'`, "").Replace(m[1]))
			}
		}
	case "js":
		if m := r.jsFor.FindStringSubmatch(first); m != nil {
			lhs = append(lhs, m[1])
		} else if m := r.jsDefs.FindStringSubmatch(first); m != nil {
			lhs = append(lhs, m[1])
		} else if m := r.jsAssign.FindStringSubmatch(first); m != nil {
			lhs = append(lhs, m[1])
		}
		if m := r.jsEach.FindStringSubmatch(first); m != nil {
			lhs = append(lhs, m[1]+" "+m[2])
		}
	}
	switch k {
	case "py":
		if m := r.pyHelper.FindStringSubmatch(first); m != nil {
			lhs = append(lhs, m[1]) // a nested def
		}
	case "js":
		if m := r.jsHelper.FindStringSubmatch(first); m != nil {
			lhs = append(lhs, m[1])
		}
	}
	for _, l := range lhs {
		for _, item := range strings.Split(l, ",") {
			if strings.Contains(item, ".") {
				continue // `std.names = x` changes std, it does not define it
			}
			for _, w := range identRE().FindAllString(item, -1) {
				if !keywords()[w] {
					s.defs[w] = true // `any := list.Any(...)` too
				}
			}
		}
	}
	for _, w := range identRE().FindAllString(stripStrings(text), -1) {
		if !keywords()[w] {
			s.uses[w] = true
		}
	}
	s.calls = callees(k, "\n"+s.text)
	s.lits = checkLiterals("\n" + s.text)
}

// fileScope reads a test file's helpers and top-level statements.
func fileScope(k string, src []byte) *scope {
	sc := &scope{helpers: map[string]string{}}
	if src == nil {
		return sc
	}
	lines := strings.Split(string(src), "\n")
	if k == "go" {
		sc.codePkgs = goCodePkgs(lines)
	}
	tests := map[string]bool{}
	c, u := testNames(k, src)
	for _, n := range append(c, u...) {
		tests[n] = true
	}
	inFunc := make([]bool, len(lines))
	r := unitREs()
	for i, l := range lines {
		var name string
		switch k {
		case "go":
			if m := r.goHelper.FindStringSubmatch(l); m != nil {
				name = m[1]
			}
		case "py":
			if m := r.pyHelper.FindStringSubmatch(l); m != nil {
				name = m[1]
			}
		case "js":
			if m := r.jsHelper.FindStringSubmatch(l); m != nil {
				name = m[1]
			} else if m := r.jsArrow.FindStringSubmatch(l); m != nil {
				name = m[1]
			} else if jsTestHeader(l) || skipRE().jsSkip.MatchString(l) {
				name = "\x00test" // a test's own lines are not the file's
			}
		}
		if name == "" {
			continue
		}
		body := bodyLines(k, lines, i)
		for j := i; j < i+len(body); j++ {
			inFunc[j] = true
		}
		if !tests[name] && name != "\x00test" && !notCode()[name] {
			sc.helpers[name] = strings.Join(body, "\n")
		}
	}
	for i := 0; i < len(lines); {
		if inFunc[i] {
			i++
			continue
		}
		j := i
		for j < len(lines) && !inFunc[j] {
			j++
		}
		for _, s := range statements(lines, i, j) {
			if k != "js" && indentOf(lines[s.start]) != "" {
				continue // a module-level table is at the left margin
			}
			if strings.HasPrefix(strings.TrimSpace(s.text), "@") {
				continue // a decorator belongs to the test below it
			}
			s.top = true
			fillStmt(k, &s)
			sc.top = append(sc.top, s)
		}
		i = j
	}
	return sc
}

// decorators are the decorator lines just above a Python def at line i.
func decorators(lines []string, i int) []string {
	j := i
	for j > 0 {
		p := strings.TrimSpace(lines[j-1])
		if strings.HasPrefix(p, "@") || strings.HasPrefix(p, ")") || strings.HasSuffix(p, ",") || strings.HasSuffix(p, "(") || strings.HasSuffix(p, "[") || strings.HasPrefix(p, "(") || strings.HasPrefix(p, "[") || strings.HasPrefix(p, "]") || strings.HasPrefix(p, "\"") || strings.HasPrefix(p, "'") {
			j--
			continue
		}
		break
	}
	for j < i && !strings.HasPrefix(strings.TrimSpace(lines[j]), "@") {
		j++ // start at the first decorator
	}
	return lines[j:i]
}

// checkUnits reads body (a test's source, header line first) as checks
// and what flows into each. sc is its file's scope (nil: none).
var goImportRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:import\s+)?(?:([\w.]+)\s+)?"([^"]+)"\s*$`)
})

// goCodePkgs are the names a Go file imports module packages under that
// notCode takes for the standard library's (`"github.com/goccy/go-json"`
// is json, as is `json "example.com/x"`).
func goCodePkgs(lines []string) map[string]bool {
	var out map[string]bool
	in := false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "import ("):
			in = true
			continue
		case in && t == ")":
			in = false
			continue
		case !in && !strings.HasPrefix(t, "import "):
			if strings.HasPrefix(t, "func ") {
				return out // imports come before the code
			}
			continue
		}
		m := goImportRE().FindStringSubmatch(t)
		if m == nil || !strings.Contains(strings.Split(m[2], "/")[0], ".") {
			continue // the standard library
		}
		name := m[1]
		if name == "" {
			name = path.Base(m[2])
			if strings.HasPrefix(name, "v") && len(name) > 1 && strings.Trim(name[1:], "0123456789") == "" {
				name = path.Base(path.Dir(m[2])) // example.com/x/v2 is x
			}
			name = strings.TrimSuffix(strings.TrimPrefix(name, "go-"), "-go")
			name = strings.ReplaceAll(strings.TrimSuffix(name, ".go"), "-", "_")
		}
		if notCode()[name] {
			if out == nil {
				out = map[string]bool{}
			}
			out[name] = true
		}
	}
	return out
}

func checkUnits(k, body string, sc *scope) []unit {
	if sc == nil {
		sc = &scope{}
	}
	lines := strings.Split(body, "\n")
	stmts := statements(lines, 1, len(lines))
	defsBy := map[string][]int{} // name -> the statements defining it, in order
	usesBy := map[string][]int{} // name -> the statements reading it, in order
	for i := range stmts {
		fillStmt(k, &stmts[i])
		for d := range stmts[i].defs {
			defsBy[d] = append(defsBy[d], i)
		}
		for w := range stmts[i].uses {
			usesBy[w] = append(usesBy[w], i)
		}
	}
	blocks(k, lines, stmts)
	bi := &bodyIndex{stmts: stmts, defsBy: defsBy, usesBy: usesBy}
	stmtAt := func(li int) *stmt { // the statement holding lines[li]
		for i := range stmts {
			if stmts[i].start <= li && li <= stmts[i].end {
				return &stmts[i]
			}
		}
		return nil
	}
	swallowed := swallowedLines(k, lines)
	end := reachableEnd(k, lines)
	r := bodyREs()
	var out []unit
	for i := 1; i < end; i++ {
		if swallowed[i] {
			continue
		}
		s := statementAt(lines, i)
		var at *stmt // the statement the check reads from
		cond := s    // what it compares
		switch k {
		case "go":
			switch {
			case r.goReport.MatchString(s):
				c, ok := sameLineCond(s)
				at = stmtAt(i)
				if !ok {
					c, ok = guardCond(prevCode(lines, i))
					if ok {
						at = stmtAt(prevCodeIndex(lines, i))
					}
				}
				if ok {
					if evalCond(c, false) != 0 || sameSides(c) {
						continue
					}
					cond = c
				} else {
					// Unguarded: the test fails, which is a check.
					out = append(out, unit{callees: map[string]bool{}, lits: map[string]bool{}, about: true})
					continue
				}
			case r.goCheck.MatchString(s) && aboutCode(k, s) && !sameSides(s):
				at = stmtAt(i)
			default:
				continue
			}
		case "py":
			if !r.pyCheck.MatchString(s) {
				continue
			}
			if e, ok := strings.CutPrefix(s, "assert "); ok {
				e = splitTop(e, ",")[0]
				if evalCond(e, false) != 0 || !aboutCode(k, e) || sameSides(e) || alwaysLen(e) {
					continue
				}
				cond = e
			} else if !aboutCode(k, s) || sameSides(s) {
				continue
			}
			at = stmtAt(i)
		case "js":
			if !r.jsCheck.MatchString(s) || !aboutCode(k, s) || sameSides(s) {
				continue
			}
			at = stmtAt(i)
		}
		if at == nil {
			continue
		}
		// A check's own lines below it (`assert.Panics(t, func() {`,
		// `expect(() => {`) hold what it runs.
		var span []*stmt
		e := statementEnd(lines, i)
		for j := range stmts {
			if stmts[j].start > at.end && stmts[j].start <= e {
				span = append(span, &stmts[j])
			}
		}
		out = append(out, closeUnit(k, at, span, bi, sc, unitREs().eq.MatchString(cond)))
	}
	return out
}

// bodyIndex is a test body's statements with the names they define and
// read.
type bodyIndex struct {
	stmts          []stmt
	defsBy, usesBy map[string][]int
}

// blocks marks each statement's enclosing block header (a line that
// opens a block: `if x {`, `go func() {`, `def handler(url):`,
// `writeStream(function (data) {`) and the function headers.
func blocks(k string, lines []string, stmts []stmt) {
	var open []int // headers whose block is still open
	for i := range stmts {
		s := &stmts[i]
		for len(open) > 0 && stmts[open[len(open)-1]].bodyEnd < s.start {
			open = open[:len(open)-1]
		}
		s.parent = -1
		if len(open) > 0 {
			s.parent = open[len(open)-1]
		}
		first := strings.TrimSpace(stripStrings(lines[s.end]))
		if j := strings.Index(first, "//"); k != "py" && j >= 0 {
			first = strings.TrimSpace(first[:j])
		}
		if j := strings.Index(first, "#"); k == "py" && j >= 0 {
			first = strings.TrimSpace(first[:j])
		}
		switch k {
		case "py":
			if !strings.HasSuffix(first, ":") {
				continue
			}
			ind := len(indentOf(lines[s.start]))
			e := s.end
			for j := s.end + 1; j < len(lines); j++ {
				if t := strings.TrimSpace(lines[j]); t != "" {
					if len(indentOf(lines[j])) <= ind {
						break
					}
					e = j
				}
			}
			s.bodyEnd = e
			h := strings.TrimSpace(lines[s.start])
			s.fn = strings.HasPrefix(h, "def ") || strings.HasPrefix(h, "async def ")
			fnParams(s)
			// `@decorators.flag_calls` above a nested def: what it is
			// made of.
			for j := i - 1; j >= 0 && strings.HasPrefix(strings.TrimSpace(stmts[j].text), "@"); j-- {
				for w := range stmts[j].uses {
					s.uses[w] = true
				}
				for c := range stmts[j].calls {
					s.calls[c] = true
				}
				s.text = stmts[j].text + "\n" + s.text
				s.bareOK = false
			}
		default:
			if !strings.HasSuffix(first, "{") || s.end != s.start {
				continue
			}
			depth, e := 0, len(lines)-1
			for j := s.start; j < len(lines); j++ {
				for _, ch := range stripStrings(lines[j]) {
					switch ch {
					case '(', '[', '{':
						depth++
					case ')', ']', '}':
						depth--
					}
				}
				if depth <= 0 {
					e = j
					break
				}
			}
			s.bodyEnd = e
			s.fn = strings.Contains(first, "func(") || strings.Contains(first, "func (") || strings.Contains(first, "function") || strings.Contains(first, "=>")
			// A named function of the test defines its parameters; a
			// callback's (`.catch((ctx) => {`) are values the code passes.
			if r := unitREs(); s.fn && (r.jsHelper.MatchString(lines[s.start]) || r.jsArrow.MatchString(lines[s.start]) || goFuncVarRE().MatchString(first)) {
				fnParams(s)
			}
		}
		open = append(open, i)
	}
}

// fnParams: a function header defines its parameters (a name the code
// passes in, not one of the code).
func fnParams(s *stmt) {
	for d := range s.defs {
		delete(s.calls, d) // `def handler(url):` does not call handler
	}
	for _, m := range fnParamsRE().FindAllStringSubmatch(stripStrings(s.text), -1) {
		for _, g := range m[1:] {
			for _, w := range identRE().FindAllString(g, -1) {
				s.defs[w] = true
			}
		}
	}
}

// mutates: statement text that changes w in place: Go `&w`, `w.M(`,
// `w[:]`; Python and JS `w.m(` or w passed to a call.
func mutates(k string, m *stmt, w string, scalar bool) bool {
	if !strings.Contains(m.text, w) {
		return false // emptying the strings adds no name
	}
	t := m.stripped()
	for i := 0; ; {
		j := strings.Index(t[i:], w)
		if j < 0 {
			return false
		}
		j += i
		i = j + len(w)
		if j > 0 && isIdent(t[j-1]) || i < len(t) && isIdent(t[i]) {
			continue
		}
		before := strings.TrimRight(t[:j], " \t")
		after := strings.TrimLeft(t[i:], " \t")
		if k == "go" {
			if strings.HasSuffix(before, "&") || strings.HasPrefix(after, "[:]") || methodCall(after) {
				return true
			}
			continue
		}
		if methodCall(after) {
			return true
		}
		if !scalar && (strings.HasSuffix(before, "(") || strings.HasSuffix(before, ",")) && (strings.HasPrefix(after, ")") || strings.HasPrefix(after, ",")) {
			return true
		}
	}
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// methodCall: s starts with `.name(`.
func methodCall(s string) bool {
	if !strings.HasPrefix(s, ".") {
		return false
	}
	s = strings.TrimLeft(s[1:], " ")
	n := 0
	for n < len(s) && isIdent(s[n]) {
		n++
	}
	return n > 0 && strings.HasPrefix(strings.TrimLeft(s[n:], " "), "(")
}

var goFuncVarRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\w+\s*:?=\s*func\s*\(`)
})

var goVarRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^var\s+(\w+(?:\s*,\s*\w+)*)\s+[^=\s]+$`)
})

// fnParamsRE: a function header's parameters (`def f(a, b):`,
// `function (data, cb) {`, `func(t *testing.T) {`, `(x) => {`, `x => {`).
var fnParamsRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\bdef\s+\w+|\bfunction\s*\*?\s*[\w$]*|\bfunc)\s*\(([^)]*)\)|\(([^()]*)\)\s*(?::\s*[^=]+)?=>|([\w$]+)\s*=>`)
})

var scalarRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:=|:=)\s*(?:-?\d|["'\x60]|true\b|false\b|True\b|False\b|None\b|null\b|undefined\b|nil\b)`)
})

// closeUnit gathers the statements whose names check statement at reads,
// transitively, and what they call and compare with. span are the
// statements inside the check's own lines (a closure it runs).
func closeUnit(k string, at *stmt, span []*stmt, bi *bodyIndex, sc *scope, eq bool) unit {
	stmts, defsBy, usesBy := bi.stmts, bi.defsBy, bi.usesBy
	u := unit{callees: map[string]bool{}, lits: map[string]bool{}, eq: eq}
	var in, work []*stmt
	taken := map[*stmt]bool{}
	take := func(d *stmt) {
		if d != nil && !taken[d] {
			taken[d] = true
			in = append(in, d)
			work = append(work, d)
		}
	}
	take(at)
	for _, s := range span {
		take(s)
	}
	// closure: a statement in a function of the test (a callback, a
	// nested def, a goroutine) runs when that function does: its header
	// and the calls that run it (a named one's callers, an anonymous
	// one's own calls) flow in too.
	reached := map[int]bool{}
	closure := func(s *stmt, anon bool) {
		for p := s.parent; p >= 0; p = stmts[p].parent {
			h := &stmts[p]
			if !h.fn || reached[p] || !anon && len(h.defs) == 0 {
				continue
			}
			reached[p] = true
			take(h)
			named := false
			for d := range h.defs {
				named = true
				for _, i := range usesBy[d] {
					if m := &stmts[i]; m != h && len(m.calls) > 0 {
						take(m)
					}
				}
			}
			if !named {
				for i := p + 1; i < len(stmts) && stmts[i].start <= h.bodyEnd; i++ {
					if len(stmts[i].calls) > 0 {
						take(&stmts[i])
					}
				}
			}
		}
	}
	closure(at, false)
	// Each name read resolves to its nearest definition above the reader
	// (`if got := B(); got != "bee"` reads its own got, not an earlier
	// one), else to the file's top level; and to the statements above the
	// check that change it in place (`list.Add(x)`, `f(&buf)`,
	// `record.append(x)` in a callback).
	alias := map[*stmt]bool{} // `r := &Recur{3, &failed}`: r holds failed
	var changers func(w string, d *stmt)
	type nameAt struct {
		w string
		d *stmt
	}
	read := map[nameAt]bool{} // a name and its definition: read once
	closed := map[*stmt]bool{}
	changers = func(w string, d *stmt) {
		if read[nameAt{w, d}] {
			return
		}
		read[nameAt{w, d}] = true
		scalar := d != nil && scalarRE().MatchString(strings.SplitN(d.text, "\n", 2)[0])
		for _, i := range usesBy[w] {
			m := &stmts[i]
			if m.start >= at.start || m.defs[w] {
				continue
			}
			// Whether m was taken already or not (by another route), the
			// same reading: the unit does not depend on the order of names.
			inFn := false
			for p := m.parent; p >= 0; p = stmts[p].parent {
				inFn = inFn || stmts[p].fn
			}
			switch {
			case inFn && (d == nil || d.parent < 0 || !stmts[d.parent].fn):
				take(m)
				if !closed[m] {
					closed[m] = true
					closure(m, true)
				}
			case len(m.calls) > 0 && mutates(k, m, w, scalar):
				take(m)
			case k == "go" && len(m.defs) > 0 && !alias[m] && mutates(k, m, w, scalar):
				alias[m] = true
				if taken[m] {
					work = append(work, m) // read its defs' changers
				}
				take(m)
			}
		}
	}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if s.parent >= 0 && !stmts[s.parent].fn {
			take(&stmts[s.parent]) // what a block's condition reads decides it
		}
		if alias[s] {
			for d := range s.defs {
				changers(d, s)
			}
		}
		for w := range s.uses {
			if s.defs[w] {
				continue
			}
			var d *stmt
			for _, i := range defsBy[w] { // ascending: the last one above s
				if stmts[i].start >= s.start {
					break
				}
				d = &stmts[i]
			}
			if d == nil {
				for i := range sc.top {
					if sc.top[i].defs[w] {
						d = &sc.top[i]
						break
					}
				}
			}
			take(d)
			if d == nil && (framework()[w] || notName(k, w)) {
				continue
			}
			changers(w, d)
		}
	}
	defined := map[string]bool{}
	for _, s := range in {
		for d := range s.defs {
			defined[d] = true
		}
		for c := range s.calls {
			u.callees[c] = true
		}
		for l := range s.lits {
			u.lits[l] = true
		}
	}
	if len(sc.codePkgs) > 0 {
		for _, s := range in {
			for _, m := range bodyREs().call.FindAllStringSubmatch(stripStrings(s.text), -1) {
				if segs := strings.Split(m[1], "."); len(segs) == 2 && sc.codePkgs[segs[0]] {
					u.callees[segs[1]] = true
				}
			}
		}
	}
	// A method of a local whose name is also a framework's or the
	// language's (`for _, test := range tests { test.enum(nil, test.i) }`,
	// `list := New(); list.Add(x)`) is the code's.
	for _, s := range in {
		for _, m := range bodyREs().call.FindAllStringSubmatch(stripStrings(s.text), -1) {
			segs := strings.Split(m[1], ".")
			last := segs[len(segs)-1]
			if len(segs) >= 2 && defined[segs[0]] && !slices.Contains([]string{"t", "tb", "b", "self", "cls", "assert", "require", "expect"}, segs[0]) && !notCode()[last] && !(k == "js" && bodyREs().jsMatcher.MatchString(last)) {
				u.callees[last] = true
			}
		}
	}
	// Helpers of the test file count by what they call and compare.
	seen := map[string]bool{}
	for again := true; again; {
		again = false
		for c := range u.callees {
			h, ok := sc.helpers[c]
			if !ok || seen[c] {
				continue
			}
			seen[c] = true
			delete(u.callees, c)
			for hc := range callees(k, h) {
				if !seen[hc] {
					u.callees[hc] = true
				}
			}
			u.eq = u.eq || unitREs().eq.MatchString(h)
			u.about = true
			again = true
		}
	}
	if len(u.callees) > 0 {
		u.about = true
	}
	for _, s := range in {
		// A unittest case's own attribute or method (`self.Validator(...)`,
		// `self.cli_output_for(...)`) is the code or reaches it; so does an
		// assertion of its own (`self.assertCodemod(before, after)`, from
		// a base class), unlike unittest's (`self.assertEqual(1, 1)`).
		for _, m := range selfAttrRE().FindAllStringSubmatch(stripStrings(s.text), -1) {
			if !strings.HasPrefix(m[1], "assert") && !strings.HasPrefix(m[1], "fail") && !strings.HasPrefix(m[1], "skip") && m[1] != "subTest" ||
				k == "py" && strings.HasPrefix(m[1], "assert") && !unittestAsserts()[m[1]] {
				u.about = true
				// ... and is what the check calls: a test moved must take
				// it along (jsonschema's `self.message_for(...)` tests were
				// read as calling nothing, so not carried when moved as is).
				u.callees["self."+m[1]] = true
			}
		}
		// A file's import of its own package (`const uri = require('..')`).
		if s.top && k == "js" && relImportRE().MatchString(s.text) {
			u.about = true
		}
	}
	for _, s := range in {
		if u.about {
			break
		}
		t := unitREs().structType.ReplaceAllString(stripStrings(s.text), "")
		t = unitREs().selector.ReplaceAllString(t, "")
		t = unitREs().key.ReplaceAllString(t, "$2")
		for _, w := range identRE().FindAllString(t, -1) {
			if !notName(k, w) && !framework()[w] && !notCode()[w] && !defined[w] && !(w[0] >= '0' && w[0] <= '9') {
				u.about = true // a name of the code (a constant, a fixture)
				break
			}
		}
	}
	return u
}

// unittestAsserts are unittest.TestCase's own assertion methods.
var unittestAsserts = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`assert_ assertEqual assertEquals assertNotEqual assertNotEquals assertTrue assertFalse
		assertIs assertIsNot assertIsNone assertIsNotNone assertIn assertNotIn assertIsInstance assertNotIsInstance
		assertRaises assertRaisesRegex assertRaisesRegexp assertWarns assertWarnsRegex assertLogs assertNoLogs
		assertAlmostEqual assertAlmostEquals assertNotAlmostEqual assertNotAlmostEquals assertGreater assertGreaterEqual
		assertLess assertLessEqual assertRegex assertNotRegex assertRegexpMatches assertNotRegexpMatches assertCountEqual
		assertItemsEqual assertMultiLineEqual assertSequenceEqual assertListEqual assertTupleEqual assertSetEqual
		assertDictEqual assertDictContainsSubset`) {
		m[w] = true
	}
	return m
})

var relImportRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\brequire\s*\(\s*['"]\.|\bfrom\s*['"]\.`)
})

var selfAttrRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:self|this)\.([a-zA-Z_]\w*)`)
})

// prevCodeIndex is the index of the nearest non-blank line above i.
func prevCodeIndex(lines []string, i int) int {
	for j := i - 1; j >= 0; j-- {
		if strings.TrimSpace(lines[j]) != "" {
			return j
		}
	}
	return 0
}

// sameSides: a comparison of an expression with itself (`x == x`,
// `expect(f()).toEqual(f())`, `assertEqual(r, r)`, `require.Equal(t, a,
// a)`), which cannot fail however the code behaves.
func sameSides(s string) bool {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "if "), "assert ")
	s = strings.TrimSuffix(strings.TrimSpace(s), "{")
	for _, op := range []string{"===", "!==", "==", "!=", ">=", "<=", " is not ", " is "} {
		if l, r, ok := cutTop(s, op); ok {
			l, r = strings.TrimSpace(l), strings.TrimSpace(r)
			if i := strings.LastIndex(l, ";"); i >= 0 {
				l = strings.TrimSpace(l[i+1:])
			}
			return l != "" && l == strings.TrimRight(r, " ;")
		}
	}
	// expect(X).toBe(X), expect(X).toEqual(X)
	if i := strings.Index(s, "expect("); i >= 0 {
		e := closing(s, i+len("expect"))
		if e > 0 {
			x := strings.TrimSpace(s[i+len("expect(") : e])
			rest := s[e+1:]
			for _, m := range []string{".toBe(", ".toEqual(", ".toStrictEqual(", ".to.equal(", ".to.eql(", ".to.deep.equal("} {
				if j := strings.Index(rest, m); j >= 0 {
					if f := closing(rest, j+len(m)-1); f > 0 && strings.TrimSpace(rest[j+len(m):f]) == x {
						return true
					}
				}
			}
		}
	}
	// Equal(t, X, X), assertEqual(X, X), deepEqual(X, X): assertion
	// functions only (an `equal(nan, nan)` of the code is the code).
	for _, name := range []string{"assert.Equal(", "require.Equal(", "assert.Equals(", "reflect.DeepEqual(", "cmp.Equal(", "assertEqual(", "assert_equal(",
		"assert.equal(", "assert.deepEqual(", "assert.strictEqual(", "assert.deepStrictEqual(", "t.deepEqual(", "t.is(", "assertIs(", "assert.Same("} {
		j := strings.Index(s, name)
		if j < 0 {
			continue
		}
		e := closing(s, j+len(name)-1)
		if e < 0 {
			continue
		}
		args := splitTop(s[j+len(name):e], ",")
		for len(args) > 0 && slices.Contains([]string{"t", "tb", "b", "c"}, strings.TrimSpace(args[0])) {
			args = args[1:]
		}
		if len(args) >= 2 && strings.TrimSpace(args[0]) != "" && strings.TrimSpace(args[0]) == strings.TrimSpace(args[1]) {
			return true
		}
	}
	return false
}

// alwaysLen: `len(x) >= 0`, `len(x) > -1`: a length is never negative.
func alwaysLen(e string) bool {
	for _, op := range []string{">=", ">"} {
		if l, r, ok := cutTop(e, op); ok {
			l, r = strings.TrimSpace(l), strings.TrimSpace(r)
			if condEvalREs().length.MatchString(l) && (op == ">=" && r == "0" || op == ">" && strings.HasPrefix(r, "-")) {
				return true
			}
		}
	}
	return false
}

// swallowedLines marks the lines of a try block whose except (catch)
// takes assertion failures and neither re-raises nor fails: a check
// there cannot fail the test.
func swallowedLines(k string, lines []string) map[int]bool {
	out := map[int]bool{}
	r := unitREs()
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch k {
		case "py":
			if t != "try:" {
				continue
			}
			ind := indentOf(l)
			j := i + 1
			for j < len(lines) && (strings.TrimSpace(lines[j]) == "" || len(indentOf(lines[j])) > len(ind)) {
				j++
			}
			if j >= len(lines) || indentOf(lines[j]) != ind || !r.swallow.MatchString(strings.TrimSpace(lines[j])) {
				continue
			}
			h := j + 1
			rethrows := false
			for ; h < len(lines) && (strings.TrimSpace(lines[h]) == "" || len(indentOf(lines[h])) > len(ind)); h++ {
				rethrows = rethrows || r.rethrow.MatchString(lines[h])
			}
			if !rethrows {
				for x := i + 1; x < j; x++ {
					out[x] = true
				}
			}
		case "js":
			if !strings.HasPrefix(t, "try") || !strings.HasSuffix(t, "{") {
				continue
			}
			ind := indentOf(l)
			j := i + 1
			for j < len(lines) && !(indentOf(lines[j]) == ind && r.jsCatch.MatchString(strings.TrimSpace(lines[j]))) {
				if indentOf(lines[j]) == ind && strings.TrimSpace(lines[j]) != "" && !strings.HasPrefix(strings.TrimSpace(lines[j]), "}") {
					break
				}
				j++
			}
			if j >= len(lines) || !r.jsCatch.MatchString(strings.TrimSpace(lines[j])) {
				continue
			}
			h := j + 1
			rethrows := strings.Contains(lines[j], "throw")
			for ; h < len(lines) && !(indentOf(lines[h]) == ind && strings.HasPrefix(strings.TrimSpace(lines[h]), "}")); h++ {
				rethrows = rethrows || r.rethrow.MatchString(lines[h])
			}
			if !rethrows {
				for x := i + 1; x < j; x++ {
					out[x] = true
				}
			}
		}
	}
	return out
}

// reachableEnd is the index of the first line after a bare return at the
// top of the body (the checks below it never run), len(lines) if none.
func reachableEnd(k string, lines []string) int {
	top := ""
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) != "" {
			top = indentOf(l)
			break
		}
	}
	if top == "" && k != "js" {
		return len(lines)
	}
	for i := 1; i < len(lines); i++ {
		switch strings.TrimSpace(lines[i]) {
		case "return", "return;", "return None":
			if indentOf(lines[i]) == top {
				return i
			}
		}
	}
	return len(lines)
}
