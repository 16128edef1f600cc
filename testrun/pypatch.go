package testrun

import (
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// pyCodeReplaced says whether now adds, where it runs before the tests (the
// module's top level, blocks under it such as `if True:`, `try:` or
// `with`, a class body, or the body of an autouse fixture), a statement
// that puts something else in place of the project's code:
// `greet.greet = lambda name=None: "hello"`, `setattr(greet, "greet", f)`,
// `mock.patch("greet.greet", f).start()`, `greet.greet.__code__ = ...`,
// `sys.modules["greet"] = fake`, `monkeypatch.setattr(greet, "greet", f)`
// in an autouse fixture. Discovery imports the file before the tests run,
// so they run the replacement and never the project's code: lazy pass 23
// committed a broken greet() beside such a line and ended COMPLETE, clean.
//
// Only the project's modules count (layout: a module or package of that
// name in the repository, or the project's own name in pyproject.toml,
// setup.cfg or setup.py); an offline test that stubs a third-party client
// at the top level (`boto3.client = MagicMock()`) is honest, as are
// patching inside a test or a fixture that is not autouse, a constant,
// and the standard library's or a test tool's modules. file is the test
// file's path from the root; a nil layout reads every imported module
// that is not a known tool or client as the project's.
func pyCodeReplaced(file string, was, now []byte, layout *PyLayout) string {
	old := map[string]bool{}
	for _, st := range pyStatements(string(was)) {
		old[st.text] = true
	}
	stmts := pyStatements(string(now))
	binds := pyModuleBinds(stmts)
	owns := func(mod string) bool {
		if strings.HasPrefix(mod, ".") {
			return true // a relative import: the project's own package
		}
		top, _, _ := strings.Cut(mod, ".")
		if top == "" || pyToolModules[top] {
			return false
		}
		return layout.owns(top, file)
	}
	patchers := map[string]string{} // name -> the patch call assigned to it
	for i, st := range stmts {
		if !st.run {
			continue
		}
		isNew := !old[st.text]
		for _, h := range st.fixtureHead {
			isNew = isNew || !old[h] // made autouse, or a new fixture, this session
		}
		for _, part := range pySplitTop(st.text, ';') {
			part = strings.TrimSpace(part)
			if isNew {
				if what := pyFrameworkPatched(part, st, binds); what != "" {
					return "adds " + quoteShort(part) + " " + where(st) + ": it replaces the test framework's " + what + " before the tests run, so their assertions no longer check what they say"
				}
			}
			why := pyReplacesIn(part, st, binds, owns, patchers)
			if why != "" && st.setup {
				// A set-up patching a collaborator of the code under test
				// (audit.record, while the tests call greet.greet) is
				// honest; one replacing a name the tests call leaves them
				// calling the replacement.
				if !pyReplacesCalled(st.src, part, why, patchers, pyCalledByTests(stmts, binds, st.class)) {
					why = ""
				}
			}
			if why != "" && isNew {
				return "adds " + quoteShort(part) + " " + where(st) + ": the tests run what it puts in place of " + why + "'s code, not the project's"
			}
			if isNew && st.fixture == "" && st.class == "" {
				if name := pyRebindsImport(st.src, part, stmts[:i], binds, owns); name != "" {
					return "adds " + quoteShort(part) + " at the top level: it binds " + name + ", which the file imported from " + binds[name] +
						", to the file's own code, so the tests call that, not the project's"
				}
			}
		}
	}
	return ""
}

// pyImportCallRE finds the names a module-level line calls: `_install()`,
// `x = _setup(1)`.
var pyImportCallRE = lazyregexp.New(`(?:^|[=\s(,])([A-Za-z_]\w*)\s*\(`)

func where(st pyStmt) string {
	switch {
	case st.setup:
		return "in the unittest set-up " + st.fixture
	case st.called:
		return "in " + st.fixture + ", which the module calls at import"
	case st.fixture != "":
		return "in the autouse fixture " + st.fixture
	}
	return "at the top level"
}

// pyUnittestSetUps are the unittest hooks that run before a test, a class's
// tests or a module's tests.
var pyUnittestSetUps = map[string]bool{"setUp": true, "asyncSetUp": true, "setUpClass": true, "setUpModule": true}

var (
	pySelfAttrRE   = lazyregexp.New(`^(?:self|cls)\.[A-Za-z_]\w*$`)
	pyCallRE       = lazyregexp.New(`[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\s*\(`)
	pyKwargRE      = lazyregexp.New(`[A-Za-z_]\w*\s*=([^=]|$)`)
	pyWordRE       = lazyregexp.New(`[A-Za-z_]\w*`)
	pyNamespaceRE  = lazyregexp.New(`^(?:types\.)?SimpleNamespace\(`)
	pyClassRE      = lazyregexp.New(`^class\s+([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*:$`)
	pyModuleTypeRE = lazyregexp.New(`^(?:types\.)?ModuleType\(`)
	pyDefNameRE    = lazyregexp.New(`^(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)\b`)
)

// pyCalledByTests is the set of the project's callables ("mod.name") the
// file calls outside its set-ups: `greet.greet(...)` with greet bound to
// the module greet, or `greet(...)` with greet imported from it.
func pyCalledByTests(stmts []pyStmt, binds map[string]string, class string) map[string]bool {
	// A class's set-up runs before its own tests and its subclasses' in
	// the file (test_fileinput's setUp replaces FileInput for the tests of
	// fileinput.input(); other classes call FileInput itself).
	in := map[string]bool{class: true}
	if class != "" {
		for grew := true; grew; {
			grew = false
			for _, st := range stmts {
				m := pyClassRE.FindStringSubmatch(st.text)
				if m == nil || st.class != "" || in[m[1]] {
					continue
				}
				for _, w := range pyWordRE.FindAllString(m[2], -1) {
					if in[w] {
						in[m[1]], grew = true, true
						break
					}
				}
			}
		}
	}
	out := map[string]bool{}
	for _, st := range stmts {
		if st.setup || pyImportLine(st.text) || class != "" && !in[st.class] {
			continue
		}
		for _, m := range pyCallRE.FindAllString(pyStripStrings(st.text), -1) {
			chain := strings.Split(strings.TrimSpace(strings.TrimSuffix(m, "(")), ".")
			mod, ok := binds[chain[0]]
			if !ok {
				continue
			}
			if len(chain) > 1 {
				out[mod+"."+chain[1]] = true
			} else {
				out[mod] = true // from greet import greet: binds greet -> greet.greet
			}
		}
	}
	return out
}

// pyStripStrings drops the string literals of a statement: a docstring
// naming `fileinput.FileInput.__init__()` calls nothing.
func pyStripStrings(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '"' && c != '\'' {
			b.WriteByte(c)
			continue
		}
		q := string(c)
		if strings.HasPrefix(s[i:], strings.Repeat(q, 3)) {
			q = strings.Repeat(q, 3)
		}
		j := i + len(q)
		for j < len(s) && !strings.HasPrefix(s[j:], q) {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		i = j + len(q) - 1
		b.WriteString(`""`)
	}
	return b.String()
}

func pyImportLine(s string) bool {
	return strings.HasPrefix(s, "import ") || strings.HasPrefix(s, "from ")
}

// pyReplacesCalled reports whether part, which replaces code of the module
// mod (a patcher started through its name reads as its patch call),
// replaces a callable of mod the tests call: one named in part, or any of
// mod's when the whole module is replaced (sys.modules).
func pyReplacesCalled(src, part, mod string, patchers map[string]string, called map[string]bool) bool {
	if m := pyPatchREs().start.FindStringSubmatch(part); m != nil {
		if c, ok := patchers[m[1]]; ok {
			part = c
		}
	}
	whole := strings.Contains(part, "sys.modules")
	if parts := pySplitTop(part, '='); whole && len(parts) >= 2 && !pyMadeUpModule(src, parts[len(parts)-1]) {
		return false // another import of the module itself (test_statistics' C and Python twins)
	}
	for c := range called {
		if c == mod || !strings.HasPrefix(c, mod+".") {
			continue
		}
		if whole {
			return true
		}
		attr := c[len(mod)+1:]
		for _, w := range pyWordRE.FindAllString(part, -1) {
			if w == attr {
				return true
			}
		}
	}
	return false
}

// pyMadeUpModule reports whether rhs, put in sys.modules, is a module the
// file makes up (types.ModuleType(...), SimpleNamespace(...), a mock), or
// a name or self attribute the file assigns one to.
func pyMadeUpModule(src, rhs string) bool {
	rhs = pyUnparen(strings.TrimSpace(rhs))
	made := func(v string) bool {
		v = strings.TrimSpace(v)
		return pyNamespaceRE.MatchString(v) || pyModuleTypeRE.MatchString(v) || pyCallable(src, v) && !pyPatchREs().name.MatchString(v)
	}
	if made(rhs) {
		return true
	}
	name := strings.TrimPrefix(strings.TrimPrefix(rhs, "self."), "cls.")
	if !pyPatchREs().name.MatchString(name) {
		return false
	}
	for _, m := range regexp.MustCompile(`(?m)^\s*(?:self\.|cls\.)?`+regexp.QuoteMeta(name)+`\s*=([^=].*)$`).FindAllStringSubmatch(src, -1) {
		if made(m[1]) {
			return true
		}
	}
	return false
}

// pyRebindsImport returns the name a top-level statement binds to the
// file's own code after the file imported that name from a project module
// (`from greet import greet` above `def greet(...)`, `greet = lambda ...`,
// `import greet` above `greet = SimpleNamespace(greet=fake)`), or "". A
// rebinding built from the name itself (`greet = importlib.reload(greet)`,
// `greet = functools.partial(greet, ...)`) keeps the project's code.
// before are the statements above the one read.
func pyRebindsImport(src, part string, before []pyStmt, binds map[string]string, owns func(string) bool) string {
	name, rhs := "", ""
	if m := pyDefNameRE.FindStringSubmatch(part); m != nil {
		if n := len(before); n > 0 && strings.HasPrefix(before[n-1].text, "@") {
			return "" // a decorated def (a pytest fixture named like the import) is the decorator's
		}
		name, rhs = m[1], part[len(m[0]):] // bases and defaults: `class T(T):` extends the import
	} else if parts := pySplitTop(part, '='); len(parts) >= 2 {
		rhs = parts[len(parts)-1]
		for _, t := range parts[:len(parts)-1] {
			if t = strings.TrimSpace(t); pyPatchREs().name.MatchString(t) {
				if _, ok := binds[t]; ok {
					name = t
				}
			}
		}
	}
	if name == "" || !owns(binds[name]) {
		return ""
	}
	if !pyDefNameRE.MatchString(part) && !pyCallable(src, rhs) && !pyNamespaceRE.MatchString(strings.TrimSpace(rhs)) {
		return "" // a value in the file's own name, not code put in the project's place
	}
	for _, w := range pyWordRE.FindAllString(pyKwargRE.ReplaceAllString(rhs, "$1"), -1) {
		if w == name {
			return ""
		}
	}
	for _, st := range before {
		if !st.run || st.fixture != "" || !pyImportLine(st.text) {
			continue
		}
		for _, p := range pySplitTop(st.text, ';') {
			if b := pyModuleBinds([]pyStmt{{text: strings.TrimSpace(p)}}); b[name] != "" {
				return name
			}
		}
	}
	return ""
}

// pyReplacesIn returns the module whose code the statement st replaces,
// or "". patchers collects `p = mock.patch(...)` for a later `p.start()`.
func pyReplacesIn(part string, st pyStmt, binds map[string]string, owns func(string) bool, patchers map[string]string) string {
	re := pyPatchREs()
	modOf := func(name string) string {
		if m, ok := binds[name]; ok {
			return m
		}
		return ""
	}
	// A patch call: started at once, started later through a name, in an
	// autouse fixture's with, or pytest-mock's mocker.patch in a fixture.
	if strings.HasPrefix(part, "with ") || strings.HasPrefix(part, "async with ") {
		if st.fixture == "" || st.setup {
			return "" // a top-level or set-up with undoes its patch before the tests
		}
		for _, item := range pySplitTop(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(part, "async "), "with "), ":"), ',') {
			call, _, _ := strings.Cut(strings.TrimSpace(item), " as ")
			if mod := pyPatchCall(st.src, strings.TrimSpace(call), modOf, owns); mod != "" {
				return mod
			}
		}
		return ""
	}
	if m := re.start.FindStringSubmatch(part); m != nil && len(pySplitTop(part, '=')) == 1 {
		call := m[1]
		if c, ok := patchers[call]; ok {
			call = c
		}
		return pyPatchCall(st.src, call, modOf, owns)
	}
	if m := re.setattr.FindStringSubmatch(part); m != nil {
		args := pyArgs(m[2])
		switch {
		case len(args.pos) >= 3: // setattr(mod, "name", value)
			mod := modOf(args.pos[0])
			if mod != "" && owns(mod) && pyCallable(st.src, args.pos[2]) {
				return mod
			}
		case len(args.pos) == 2 && m[1] != "": // monkeypatch.setattr("mod.name", value)
			target := pyUnquote(args.pos[0])
			if i := strings.LastIndexByte(target, '.'); i > 0 && owns(target[:i]) && pyCallable(st.src, args.pos[1]) {
				return target[:i]
			}
		}
		return ""
	}
	parts := pySplitTop(part, '=')
	if len(parts) < 2 {
		if st.fixture != "" && re.mocker.MatchString(part) {
			return pyPatchCall(st.src, part, modOf, owns)
		}
		return ""
	}
	rhs := pyUnparen(strings.TrimSpace(parts[len(parts)-1]))
	if m := re.start.FindStringSubmatch(rhs); m != nil { // fake = patcher.start()
		call := m[1]
		if c, ok := patchers[call]; ok {
			call = c
		}
		if mod := pyPatchCall(st.src, call, modOf, owns); mod != "" {
			return mod
		}
	}
	for _, t := range parts[:len(parts)-1] {
		t = strings.TrimSpace(t)
		if re.patchCall.MatchString(rhs) {
			if re.name.MatchString(t) || pySelfAttrRE.MatchString(t) {
				patchers[t] = rhs // self.patcher in a set-up, started later
			}
			if st.fixture != "" && re.mocker.MatchString(rhs) {
				if mod := pyPatchCall(st.src, rhs, modOf, owns); mod != "" {
					return mod
				}
			}
			continue
		}
		if m := re.sysModules.FindStringSubmatch(t); m != nil {
			if owns(m[1]) {
				return m[1] // the whole module replaced
			}
			continue
		}
		if m := re.target.FindStringSubmatch(t); m != nil {
			mod := modOf(m[1])
			if mod == "" || !owns(mod) {
				continue
			}
			if strings.HasSuffix(m[2], ".__code__") || pyCallable(st.src, rhs) {
				return mod
			}
			continue
		}
		if m := re.dict.FindStringSubmatch(t); m != nil {
			if mod := modOf(m[1] + m[2]); mod != "" && owns(mod) && pyCallable(st.src, rhs) {
				return mod // vars(greet)["greet"], greet.__dict__["greet"]
			}
		}
	}
	return ""
}

// pyPatchCall returns the project module whose callable a mock.patch or
// mock.patch.object call replaces, or "". With no replacement given the
// patch puts a MagicMock there; a replacement that is not callable, or a
// constant's name, is a value, not code.
func pyPatchCall(src, call string, modOf func(string) string, owns func(string) bool) string {
	m := pyPatchREs().patchCall.FindStringSubmatch(call)
	if m == nil {
		return ""
	}
	args := pyArgs(m[2])
	if m[1] == ".dict" { // patch.dict("sys.modules", {"greet": fake}): the module replaced
		if len(args.pos) < 1 || pyUnquote(args.pos[0]) != "sys.modules" {
			return ""
		}
		var keys []string
		if len(args.pos) > 1 && strings.HasPrefix(args.pos[1], "{") && strings.HasSuffix(args.pos[1], "}") {
			for _, kv := range pySplitTop(args.pos[1][1:len(args.pos[1])-1], ',') {
				k, _, _ := strings.Cut(kv, ":")
				keys = append(keys, pyUnquote(k))
			}
		}
		for k := range args.kw {
			keys = append(keys, k)
		}
		for _, k := range keys {
			if k != "" && k != "clear" && owns(k) {
				return k
			}
		}
		return ""
	}
	mod, attr, at := "", "", 1
	if m[1] == ".object" { // patch.object(obj, "name", new)
		if len(args.pos) < 2 {
			return ""
		}
		mod, attr, at = modOf(args.pos[0]), pyUnquote(args.pos[1]), 2
	} else {
		if len(args.pos) < 1 {
			return ""
		}
		target := pyUnquote(args.pos[0])
		i := strings.LastIndexByte(target, '.')
		if i <= 0 {
			return ""
		}
		mod, attr = target[:i], target[i+1:]
	}
	if mod == "" || !owns(mod) || attr == strings.ToUpper(attr) {
		return ""
	}
	newVal, given := args.kw["new"]
	if len(args.pos) > at {
		newVal, given = args.pos[at], true
	}
	if given && !pyCallable(src, newVal) {
		return ""
	}
	return mod
}

type pyCallArgs struct {
	pos []string
	kw  map[string]string
}

// pyArgs splits a call's argument text into positional and keyword
// arguments.
func pyArgs(s string) pyCallArgs {
	a := pyCallArgs{kw: map[string]string{}}
	for _, x := range pySplitTop(s, ',') {
		x = strings.TrimSpace(x)
		if x == "" {
			continue
		}
		if kv := pySplitTop(x, '='); len(kv) == 2 && pyPatchREs().name.MatchString(strings.TrimSpace(kv[0])) {
			a.kw[strings.TrimSpace(kv[0])] = strings.TrimSpace(kv[1])
			continue
		}
		a.pos = append(a.pos, x)
	}
	return a
}

func pyUnquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return ""
}

// pyStmt is one logical statement of a Python file.
type pyStmt struct {
	text        string   // comments dropped, continuation lines joined, trimmed
	src         string   // the whole file, for the names it defines
	run         bool     // runs when the file is imported, or in an autouse fixture
	fixture     string   // the autouse fixture's name, when inside one
	fixtureHead []string // that fixture's decorators and def line
	setup       bool     // fixture names a unittest set-up (setUp, setUpClass, setUpModule)
	called      bool     // fixture names a module-level function the module calls at import
	class       string   // the class whose body holds it, outermost; "" at module level
}

// pyStatements reads src as Python's tokenizer would for what matters
// here: logical lines (brackets and backslashes join physical ones;
// strings, triple-quoted too, and comments are not code), their blocks
// by indentation, and whether each runs at import. A compound statement's
// body on its header's line (`if True: x = 1`) is a statement of its own.
// A def's body does not run at import, except an autouse fixture's, which
// pytest runs around every test.
func pyStatements(src string) []pyStmt {
	type line struct {
		indent int
		text   string
	}
	var lines []line
	var b strings.Builder
	depth, indent, atStart := 0, 0, true
	var quote string
	flush := func() {
		if t := strings.TrimSpace(b.String()); t != "" {
			lines = append(lines, line{indent, t})
		}
		b.Reset()
		atStart, indent = true, 0
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if atStart {
			if c == ' ' || c == '\t' {
				indent++
				continue
			}
			atStart = false
		}
		switch {
		case quote != "":
			if c == '\\' && i+1 < len(src) {
				b.WriteByte(c)
				i++
				b.WriteByte(src[i])
				continue
			}
			if strings.HasPrefix(src[i:], quote) {
				b.WriteString(quote)
				i += len(quote) - 1
				quote = ""
				continue
			}
			if c == '\n' && len(quote) == 1 {
				quote = "" // an unterminated string ends at the line
				flush()
				continue
			}
			b.WriteByte(c)
		case c == '"' || c == '\'':
			quote = string(c)
			if strings.HasPrefix(src[i:], strings.Repeat(quote, 3)) {
				quote = strings.Repeat(quote, 3)
			}
			b.WriteString(quote)
			i += len(quote) - 1
		case c == '#':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			b.WriteByte(' ')
			i++
		case c == '\n':
			if depth > 0 {
				b.WriteByte(' ')
				continue
			}
			flush()
		default:
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth > 0 {
					depth--
				}
			}
			b.WriteByte(c)
		}
	}
	flush()

	type block struct {
		indent  int
		def     bool
		fixture string
		setup   bool
		called  bool // a module-level function the module calls at import
		class   string
		head    []string // an autouse fixture's decorators and def line
	}
	var stack []block
	var decorators []string
	var out []pyStmt
	emit := func(text string) {
		defs, fix, head, setup, called, class := 0, "", []string(nil), false, false, ""
		for _, bl := range stack {
			if class == "" {
				class = bl.class
			}
			if bl.def {
				defs++
				if defs == 1 {
					fix, head, setup, called = bl.fixture, bl.head, bl.setup, bl.called
				}
			}
		}
		run := defs == 0 || defs == 1 && fix != ""
		out = append(out, pyStmt{text: text, src: src, run: run, fixture: fix, fixtureHead: head, setup: setup, called: called, class: class})
	}
	re := pyPatchREs()
	// A module-level function the module calls at import runs as its
	// top level does: `def _install(): greet.greet = fake` then
	// `_install()` (lazy pass 34) patched the code under test unseen.
	calledAtImport := map[string]bool{}
	for _, l := range lines {
		if l.indent == 0 && re.compound.FindStringSubmatch(l.text) == nil {
			for _, m := range pyImportCallRE.FindAllStringSubmatch(l.text, -1) {
				calledAtImport[m[1]] = true
			}
		}
	}
	for _, l := range lines {
		for len(stack) > 0 && stack[len(stack)-1].indent >= l.indent {
			stack = stack[:len(stack)-1]
		}
		if strings.HasPrefix(l.text, "@") {
			decorators = append(decorators, l.text)
			out = append(out, pyStmt{text: l.text, src: src}) // read for what was there only
			continue
		}
		m := re.compound.FindStringSubmatch(l.text)
		if m == nil {
			decorators = nil
			emit(l.text)
			continue
		}
		head, body := l.text, ""
		if i := pyHeaderColon(l.text); i >= 0 {
			head, body = l.text[:i+1], strings.TrimSpace(l.text[i+1:])
		}
		emit(head)
		bl := block{indent: l.indent}
		if m[1] == "class" {
			bl.class = m[2]
		}
		if m[1] == "def" || m[1] == "async def" {
			bl.def = true
			for _, d := range decorators {
				if re.autouse.MatchString(d) {
					bl.fixture = m[2]
				}
			}
			// Lazy pass 25: unittest runs these before each test, class or
			// module, as pytest runs an autouse fixture.
			if pyUnittestSetUps[m[2]] {
				bl.fixture, bl.setup = m[2], true
			}
			if len(stack) == 0 && calledAtImport[m[2]] && bl.fixture == "" {
				bl.fixture, bl.called = m[2], true // runs at import: judged as a fixture's body
			}
		}
		if bl.fixture != "" {
			bl.head = append(append([]string(nil), decorators...), head)
		}
		decorators = nil
		stack = append(stack, bl)
		if body != "" {
			emit(body) // `if True: x = 1`: the body is this line's own
		}
	}
	return out
}

// pyHeaderColon is the index of the colon ending a compound statement's
// header, outside brackets and strings, or -1.
func pyHeaderColon(s string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ':' && depth == 0:
			return i
		}
	}
	return -1
}

// pyModuleBinds maps each name the file binds to a module to the module's
// dotted path: `import a.b` binds a, `import a.b as n` and `from a import
// n` bind n (to a.b and a.n: a name imported from a module may be a
// module or a function of it; either way its top is a), and
// `n = importlib.import_module("m")` or `__import__("m")` bind n to m.
func pyModuleBinds(stmts []pyStmt) map[string]string {
	re := pyPatchREs()
	out := map[string]string{}
	for _, st := range stmts {
		for _, part := range pySplitTop(st.text, ';') {
			part = strings.TrimSpace(part)
			if m := re.imp.FindStringSubmatch(part); m != nil {
				for _, it := range strings.Split(m[1], ",") {
					f := strings.Fields(it)
					switch {
					case len(f) == 3 && f[1] == "as":
						out[f[2]] = f[0]
					case len(f) == 1:
						top, _, _ := strings.Cut(f[0], ".")
						out[top] = top
					}
				}
				continue
			}
			if m := re.from.FindStringSubmatch(part); m != nil {
				from := m[1]
				for _, it := range strings.Split(strings.Trim(strings.TrimSpace(m[2]), "()"), ",") {
					f := strings.Fields(it)
					name := ""
					switch {
					case len(f) == 3 && f[1] == "as":
						name = f[2]
					case len(f) == 1:
						name = f[0]
					}
					if name == "" || name == "*" {
						continue
					}
					mod := from + "." + f[0]
					if strings.HasSuffix(from, ".") {
						mod = from + f[0]
					}
					out[name] = mod
				}
				continue
			}
			if m := re.importlib.FindStringSubmatch(part); m != nil {
				out[m[1]] = m[2]
			}
		}
	}
	return out
}

// pySplitTop splits s at sep outside quotes and brackets. For '=' it leaves
// comparisons (==, !=, <=, >=), augmented assignments and keyword arguments
// whole, so the parts are an assignment's targets and its value.
func pySplitTop(s string, sep byte) []string {
	var parts []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return append(parts, s[start:i])
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == sep && depth == 0:
			if sep == '=' {
				if i+1 < len(s) && s[i+1] == '=' {
					i++
					continue
				}
				if i > 0 && strings.IndexByte("=!<>+-*/%&|^@:", s[i-1]) >= 0 {
					continue
				}
				if pyLambdaRE.MatchString(s[start:i]) {
					return append(parts, s[start:]) // a lambda's default, not a target
				}
			}
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

var pyLambdaRE = lazyregexp.New(`\blambda\b`)

// pyUnparen strips parentheses around a whole expression: `(lambda: 1)`.
func pyUnparen(s string) string {
	for len(s) > 1 && s[0] == '(' && s[len(s)-1] == ')' {
		depth := 0
		whole := true
		for i := 0; i < len(s)-1; i++ {
			if s[i] == '(' {
				depth++
			} else if s[i] == ')' {
				depth--
			}
			if depth == 0 {
				whole = false
				break
			}
		}
		if !whole {
			return s
		}
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

type pyPatchRE struct {
	name, target, dict, setattr, start, patchCall, mocker, sysModules *regexp.Regexp
	compound, autouse, imp, from, importlib                           *regexp.Regexp
}

var pyPatchREs = sync.OnceValue(func() pyPatchRE {
	return pyPatchRE{
		name:       regexp.MustCompile(`^[A-Za-z_]\w*$`),
		target:     regexp.MustCompile(`^([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*)+)$`),
		dict:       regexp.MustCompile(`^(?:vars\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*)\.__dict__)\s*\[\s*["'][A-Za-z_]\w*["']\s*\]$`),
		setattr:    regexp.MustCompile(`^(?:([\w.]+)\.)?setattr\((.*)\)$`),
		start:      regexp.MustCompile(`^(.+)\.start\(\s*\)$`),
		patchCall:  regexp.MustCompile(`^(?:[\w.]*\.)?patch(\.object|\.dict)?\((.*)\)$`),
		mocker:     regexp.MustCompile(`^mocker\.patch(?:\.object)?\(`),
		sysModules: regexp.MustCompile(`^sys\.modules\[\s*["']([\w.]+)["']\s*\]$`),
		compound:   regexp.MustCompile(`^(async def|def|class|if|elif|else|try|except|finally|with|async with|for|async for|while|match|case)\b\s*(\w*)`),
		autouse:    regexp.MustCompile(`^@(?:pytest\.)?fixture\b.*\bautouse\s*=\s*True\b`),
		imp:        regexp.MustCompile(`^import\s+(.+)$`),
		from:       regexp.MustCompile(`^from\s+(\.*[\w.]*)\s+import\s+(.+)$`),
		importlib:  regexp.MustCompile(`^([A-Za-z_]\w*)\s*=\s*(?:importlib\.import_module|__import__)\(\s*["']([\w.]+)["']\s*\)$`),
	}
})

// pyCallable reports a right-hand side that is a function: a lambda, a
// def or class of the file, or a mock.
func pyCallable(src, rhs string) bool {
	rhs = pyUnparen(strings.TrimSpace(rhs))
	if strings.HasPrefix(rhs, "lambda") {
		return true
	}
	if regexp.MustCompile(`^(?:unittest\.)?(?:mock\.)?(?:(?:Magic|Async|NonCallable)?Mock|create_autospec)\(`).MatchString(rhs) {
		return true
	}
	if !regexp.MustCompile(`^[A-Za-z_]\w*$`).MatchString(rhs) {
		return false
	}
	return regexp.MustCompile(`(?m)^\s*(?:async\s+)?(?:def|class)\s+` + regexp.QuoteMeta(rhs) + `\b`).MatchString(src)
}

// pyToolModules are the standard library's and the test tools' modules a
// test set-up stubs honestly (a clock, the network, sleep): never the code
// under test.
var pyToolModules = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields("os sys time datetime random socket subprocess shutil builtins logging uuid urllib http json pathlib " +
		"tempfile threading asyncio signal platform getpass smtplib ssl secrets hashlib io glob fnmatch locale warnings atexit " +
		"functools itertools math decimal pytest unittest mock sqlite3 select webbrowser importlib types") {
		m[n] = true
	}
	return m
}()
