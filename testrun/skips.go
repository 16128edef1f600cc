package testrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
)

// Tests the session's own change skips do not run (issue 25 item 5, route
// 3): `//go:build ignore` added to a _test.go file drops it from `go test
// ./...`, an unconditional t.Skip, @pytest.mark.skip, a module-level
// pytest.skip, a conftest.py hook that deselects, it.skip/xit or a .only
// leave the same command passing on fewer tests. Skips in test files are
// compared with the start commit: one added, unguarded by a condition,
// makes the run no QA. A skip behind `if` (a missing tool, -short) or a
// skipif with a real condition is how honest tests skip, and counts.

type skipREs struct {
	build, goSkip, pyMark, pySkip, pyConftest, jsSkip, jsEmptyEach, jsCtxSkip, jsSkipIf, jsHeader, ifLine *regexp.Regexp
}

var skipRE = sync.OnceValue(func() skipREs {
	return skipREs{
		// goSkip: t.Skip(), and the same method reached otherwise: a converted
		// or returned receiver (testing.TB(t).Skip(), s.T().SkipNow()), a method
		// expression ((*testing.T).Skip(t)), a method value (skip := t.Skip).
		// pySkip: pytest.xfail() ends the test as xfailed, as a skip does.
		build:      regexp.MustCompile(`^//\s*(go:build|\+build)\b`),
		goSkip:     regexp.MustCompile(`(\b[a-z]\w*|\))\.Skip(Now|f)?(\(|\s*$)`),
		pyMark:     regexp.MustCompile(`(pytest\.mark\.(skip|xfail)\b([^\w]|$)|@unittest\.skip\(|@unittest\.expectedFailure|pytestmark\s*=.*pytest\.mark\.(skip|xfail)\b)`),
		pySkip:     regexp.MustCompile(`\bpytest\.(skip|xfail)\(|\bpytest\.skip\.Exception\b|raise\s+(unittest\.)?SkipTest\b|\bself\.skipTest\(`),
		pyConftest: regexp.MustCompile(`\bpytest_collection_modifyitems\b|\bpytest_ignore_collect\b|\bcollect_ignore(_glob)?\b|\bdeselect`),
		// Playwright's fixme; a skip taken into a variable (`const { skip }
		// = describe`, `test['skip']`) skips as well.
		jsSkip: regexp.MustCompile(`\b(it|test|describe|context|suite)\.(skip|only|todo|fixme)\b|\bx(it|describe|test|context)\s*\(|\bf(it|describe)\s*\(|\{[^}]*\b(skip|only|todo|fixme)\b[^}]*\}\s*=\s*(it|test|describe|context|suite)\b|\b(it|test|describe|context|suite)\[\s*['"\x60](skip|only|todo|fixme)['"\x60]\s*\]` +
			// node:test's options (lazy pass 35): test('x', { todo: 'later' }, fn)
			`|\b(it|test|describe|suite)\s*\(\s*['"\x60][^'"\x60]*['"\x60]\s*,\s*\{[^}]*\b(skip|todo|only)\s*:`),
		ifLine: regexp.MustCompile(`^\s*(\}\s*else\b|if\b|elif\b|else\b|case\b|default\s*:|for\b|while\b|switch\b|unless\b)`),
		// test.each([]) or test.each``: a table with no rows runs nothing.
		jsEmptyEach: regexp.MustCompile(`\b(it|test|describe)(\.\w+)*\.each\s*(\(\s*\[\s*\]\s*\)|\x60\s*\x60)`),
		// Mocha's this.skip(), Vitest's context.skip() (the test's context
		// under any short name: `(c) => { c.skip() }`), node:test's t.skip(),
		// with no argument or a reason string.
		jsCtxSkip: regexp.MustCompile(`\b(this|ctx|context|[a-z]\w{0,2})\.(?:skip|todo)\(\s*(["'\x60][^"'\x60]*["'\x60]\s*)?\)`),
		jsSkipIf:  regexp.MustCompile(`\b(?:it|test|describe)\.(skipIf|runIf)\(`),
		jsHeader:  regexp.MustCompile(`^\s*(it|test)(\.(concurrent|failing|sequential))?\s*\(\s*['"\x60]`),
	}
})

// FileKind: "go", "py", "conftest" or "js" for a test file, "" else.
func FileKind(f string) string {
	switch {
	case SkippedDir(f):
		return ""
	case path.Base(f) == "conftest.py":
		return "conftest"
	case GoSuite.test(f):
		return "go"
	case PySuite.test(f):
		return "py"
	case JSSuite.test(f):
		return "js"
	}
	return ""
}

// lineAt is what an added line's place in a test file says of it.
type lineAt struct {
	// prev is the nearest non-blank line above it in the file as it is now.
	prev string
	// fileExisted: the start commit has the file; fnExisted: the test
	// function around the line (its header line) was there at the start,
	// so the line can stop a test that ran before.
	fileExisted, fnExisted bool
	// topReturn: the line is a bare return at the top level of a test
	// function's body with more of the body after it.
	topReturn bool
	// consts are the names the file sets once to a literal; helpers the
	// functions that skip with no condition (skipnames.go).
	consts  map[string]string
	helpers map[string]bool
	// env is the environment the judged run had (nil: this process's).
	env LookupEnv
	// opener is the line that opens the block holding the line (the
	// nearest line above it indented less; blockopener.go).
	opener string
	// envFuncs, envSets, marksOld, switchTag/inSwitch: envcalls.go.
	envFuncs, envSets map[string]string
	marksOld          bool
	// elseAlways: the line's block is an else whose if chain never
	// holds (elseconds.go).
	elseAlways, elseGuarded bool
	switchTag               string
	inSwitch                bool
}

// AddedSkip says how line (added to a test file of kind k) skips tests,
// "" when it does not or a condition guards it (prev is the nearest
// non-blank line above it; existed: the file and its test were there at
// the start).
func AddedSkip(k, line, prev string, existed bool) string {
	return addedSkip(k, line, lineAt{prev: prev, fileExisted: existed, fnExisted: existed})
}

func addedSkip(k, line string, at lineAt) string {
	re := skipRE()
	s := strings.TrimSpace(line)
	// A skip guarded by a condition this run meets anyway (`if true`,
	// `if os.getenv("HOME")`, `if runtime.GOOS != "plan9"` in a test that
	// ran here) is a skip no condition guards; the condition may also sit
	// on the skip's own line (`if X: pytest.skip()`).
	guarded, condLine := false, true
	if c, ok := sameLineCond(s); ok {
		guarded = !condAlways(condAt(c, at, at.fnExisted), at.fnExisted, at.env)
	} else if c, ok := guardCond(at.prev); ok {
		guarded = !condAlways(condAt(c, at, at.fnExisted), at.fnExisted, at.env)
	} else if c, ok := caseCond(at.switchTag, at.prev); ok && at.inSwitch {
		guarded = !condAlways(condAt(c, at, at.fnExisted), at.fnExisted, at.env) // a switch's case (envcalls.go)
	} else {
		guarded, condLine = re.ifLine.MatchString(at.prev), false
		if !guarded && at.opener != "" {
			// a skip further down an if's block (`if missing { if CI { t.Fatal() }; t.Skip() }`,
			// this repository's own rule for tests needing a program): the block's if guards it
			if c, ok := guardCond(at.opener); ok {
				guarded = !condAlways(condAt(c, at, at.fnExisted), at.fnExisted, at.env)
			} else {
				guarded = re.ifLine.MatchString(at.opener)
			}
		}
	}
	if guarded && at.elseAlways {
		guarded, condLine = false, true // an else whose if never holds (elseconds.go)
	} else if !guarded && at.elseGuarded {
		guarded = true // a one-line else after a condition (`} else { t.Skip() }`)
	}
	switch k {
	case "go":
		if at.fileExisted && re.build.MatchString(s) {
			return "a build constraint, which can leave the file out of `go test`"
		}
		if re.goSkip.MatchString(s) && !guarded {
			return "a skip no condition guards"
		}
		if h := helperSkip(s, at.helpers); h != "" && !guarded {
			return "a call of " + h + ", which skips with no condition"
		}
		if at.fnExisted && isReturn(s) && (at.topReturn || !guarded && condLine) {
			return "a return that ends a test before its checks"
		}
	case "py", "conftest":
		if re.pyMark.MatchString(s) {
			return "a skip or xfail marker"
		}
		if pySkipIf(condAt(s, at, at.marksOld), at.marksOld, at.env) {
			return "a skip marker whose condition holds in every run"
		}
		if re.pySkip.MatchString(s) && (!guarded || line == s && !sameLineIf(s)) {
			return "a skip no condition guards"
		}
		if h := helperSkip(s, at.helpers); h != "" && !guarded && line != s {
			return "a call of " + h + ", which skips with no condition"
		}
		if at.fnExisted && isReturn(s) && (at.topReturn || !guarded && condLine) {
			return "a return that ends a test before its checks"
		}
		if k == "conftest" && re.pyConftest.MatchString(s) {
			return "a collection hook or ignore list, which can drop tests"
		}
	case "js":
		if re.jsSkip.MatchString(s) {
			return "a skip, todo or only (which skips every other test)"
		}
		if re.jsEmptyEach.MatchString(s) {
			return "a table with no rows (each([])), which runs no test"
		}
		if why := jsSkipIf(condAt(s, at, at.fnExisted || at.marksOld), at.fnExisted || at.marksOld, at.env); why != "" {
			return why
		}
		if re.jsCtxSkip.MatchString(s) && !guarded {
			return "a skip no condition guards"
		}
		if at.fnExisted && isReturn(s) && (at.topReturn || !guarded && condLine) {
			return "a return that ends a test before its checks"
		}
	}
	return ""
}

var condREs = sync.OnceValue(func() (r struct{ same, jsSame, guard, ret, goos, pyplat, jsplat *regexp.Regexp }) {
	// `if X { t.Skip() }`, `if X: pytest.skip()`, `if X: return`
	r.same = regexp.MustCompile(`^(?:\}\s*else\s+)?(?:if|elif)\b\s*(.+?)\s*(?:\{|:)\s*(?:\w+\.(?:Skip(?:Now|f)?|skip|skipTest)\(|return\b|raise\b)`)
	// JS: `if (X) return;`, `if (X) { this.skip() }`
	r.jsSame = regexp.MustCompile(`^(?:\}\s*else\s+)?if\s*(\(.*\))\s*\{?\s*(?:\w+\.skip\(|return\b)`)
	r.guard = regexp.MustCompile(`^\s*(?:\}\s*else\s+)?(?:if|elif)\b\s*(.+?)\s*[{:]\s*$`)
	r.ret = regexp.MustCompile(`(^|[{:)]\s*)return(\s+None)?\s*;?\s*\}?\s*$`)
	r.goos = regexp.MustCompile(`^runtime\.(GOOS|GOARCH)\s*(==|!=)\s*"(\w+)"$`)
	r.pyplat = regexp.MustCompile(`^sys\.platform\s*(==|!=)\s*["'](\w+)["']$`)
	r.jsplat = regexp.MustCompile(`^process\.platform\s*(===|!==|==|!=)\s*["'](\w+)["']$`)
	return r
})

func sameLineIf(s string) bool {
	_, ok := sameLineCond(s)
	return ok
}
func guardIf(prev string) bool { return condREs().guard.MatchString(prev) }

// isReturn: the line is (or ends in) a bare return.
func isReturn(s string) bool { return condREs().ret.MatchString(s) }

// sameLineCond is the condition of an if whose body, on the same line,
// skips or returns.
func sameLineCond(s string) (string, bool) {
	m := condREs().same.FindStringSubmatch(s)
	if m == nil {
		if m = condREs().jsSame.FindStringSubmatch(s); m == nil {
			return "", false
		}
	}
	if i := strings.LastIndex(m[1], ";"); i >= 0 {
		return initCond(m[1][:i], m[1][i+1:]), true
	}
	return m[1], true
}

// guardCond is the condition of an if (or elif) line that opens a block.
func guardCond(prev string) (string, bool) {
	m := condREs().guard.FindStringSubmatch(prev)
	if m == nil {
		return "", false
	}
	c := m[1]
	if i := strings.LastIndex(c, ";"); i >= 0 {
		c = initCond(c[:i], c[i+1:]) // `if _, err := f(); err != nil`: the test is the last part
	}
	return c, true
}

// condAlways reports a condition that holds in any run of the suite: a
// constant, a variable every shell has, or (platOK: in a test that ran
// here before) a platform test this machine meets. Conditions it cannot
// judge (a missing tool, testing.Short(), an env flag) are guards. env
// is the environment the judged run had (nil: this process's).
func condAlways(c string, platOK bool, env LookupEnv) bool { return evalCondIn(c, platOK, env) == 1 }

// pyPlatform is sys.platform here.
func pyPlatform() string {
	if runtime.GOOS == "windows" {
		return "win32"
	}
	return runtime.GOOS
}

// harnessScanAt reads the changed files harnessDetect may read, in the
// work tree and at the start commit, and what they say together.
func harnessScanAt(ctx context.Context, repo Repo, start string, changed []string) ([]harnessFile, *harnessScan, error) {
	var files []harnessFile
	for _, f := range changed {
		if !harnessLang(f) && !harnessConfig(f) {
			continue
		}
		now, was, err := workAndStart(ctx, repo, start, f)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, harnessFile{path: f, was: was, now: now})
	}
	return files, newHarnessScan(files), nil
}

// workAndStart reads f in the work tree (nil: gone) and at the start
// commit (nil: not there).
func workAndStart(ctx context.Context, repo Repo, start, f string) (now, was []byte, err error) {
	now, err = readWork(repo.Root(), f)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	} else if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", f, err)
	}
	if existed, err := repo.ExistsAt(ctx, start, f); err != nil {
		return nil, nil, fmt.Errorf("look up %s at the start commit: %w", f, err)
	} else if existed {
		if was, err = repo.ReadAt(ctx, start, f); err != nil {
			return nil, nil, fmt.Errorf("read %s at the start commit: %w", f, err)
		}
	}
	return now, was, nil
}

// pySubvertedAt is pyRunSubverted (jsRunSubverted for JavaScript) for a
// file of the work tree against its copy at the start commit.
func pySubvertedAt(ctx context.Context, repo Repo, start, f string) (string, error) {
	now, was, err := workAndStart(ctx, repo, start, f)
	if err != nil || now == nil {
		return "", err
	}
	if jsSource(f) {
		return jsRunSubverted(f, was, now), nil
	}
	return pyRunSubverted(f, was, now), nil
}

// SkipsAdded lists the skips the session's change added to test files
// (work tree against the start commit), as "file: adds `line`: why".
func SkipsAdded(ctx context.Context, repo Repo, start string) ([]string, error) {
	return SkipsAddedIn(ctx, repo, start, nil)
}

// SkipsAddedIn is SkipsAdded for a run that had the environment env (nil:
// this process's): a skip condition reading a variable is judged by the
// value the run had (RunEnv: what the run's command line set).
func SkipsAddedIn(ctx context.Context, repo Repo, start string, env LookupEnv) ([]string, error) {
	if start == "" {
		return nil, nil
	}
	changed, err := repo.ChangedFiles(ctx, start)
	if err != nil {
		return nil, fmt.Errorf("list the files changed since the start: %w", err)
	}
	helpers, err := changedSkipHelpers(repo.Root(), changed)
	if err != nil {
		return nil, err
	}
	sets, err := changedEnvSets(ctx, repo, start, changed)
	if err != nil {
		return nil, err
	}
	var out []string
	exits, err := goInitExitsAdded(ctx, repo, start, changed, env)
	if err != nil {
		return nil, err
	}
	out = append(out, exits...)
	helpersOut, helperOK, err := testMainHelpersAdded(ctx, repo, start, changed) // testmainpkg.go
	if err != nil {
		return nil, err
	}
	out = append(out, helpersOut...)
	shadows := localPyShadows(ctx, repo, start, changed)
	var py *PyLayout
	layout := func() *PyLayout { // read once, and only for a Python test file
		if py == nil {
			py = LocalPyLayout(repo.Root())
		}
		return py
	}
	hfiles, hscan, err := harnessScanAt(ctx, repo, start, changed)
	if err != nil {
		return nil, err
	}
	for _, hf := range hfiles {
		if why := harnessDetect(hf.path, hf.was, hf.now, hscan); why != "" {
			out = append(out, hf.path+": "+why)
		}
	}
	for _, f := range changed {
		if path.Ext(f) == ".py" || jsSource(f) {
			why, err := pySubvertedAt(ctx, repo, start, f)
			if err != nil {
				return nil, err
			}
			if why != "" {
				out = append(out, f+": "+why)
			}
		}
		why := pyRunnerShadow(f)
		if why == "" {
			why = pyStdlibShadow(f)
		}
		if why == "" && path.Ext(f) == ".py" && strings.Contains(strings.ToLower(f), "test") {
			why = pyRootdirShadow(f, true, layout().File) // added: checked below
		}
		if why != "" {
			if existed, err := repo.ExistsAt(ctx, start, f); err != nil {
				return nil, fmt.Errorf("look up %s at the start commit: %w", f, err)
			} else if !existed && fileExists(repo.Root(), f) {
				out = append(out, f+": "+why)
			}
		}
		k := FileKind(f)
		if k == "" && PyImportedByDiscovery(f) {
			k = "pyinit" // a test folder's __init__.py: read for exits only
		}
		if k == "" {
			if why := pyIniShadowsAt(ctx, repo, start, f, shadows); why != "" {
				out = append(out, f+": "+why)
			}
			continue
		}
		now, err := readWork(repo.Root(), f)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue // deleted: no skip added
			}
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
		if k == "pyinit" || k == "py" || k == "conftest" {
			if why := pyPathShadows(f, was, now, shadows); why != "" {
				out = append(out, f+": "+why)
			}
		}
		if k == "pyinit" {
			if why := pyExitAdded(was, now); why != "" {
				out = append(out, f+": "+why)
			}
			if why := pyCodeReplaced(f, was, now, layout()); why != "" {
				out = append(out, f+": "+why)
			}
			continue
		}
		for _, sk := range skipsIn(k, was, now, existed, helpers[sourceKind(f)], sets, env) {
			if sk == helperOK[f] {
				continue // its helper in another file runs the tests
			}
			out = append(out, f+": "+sk)
		}
		if k == "py" || k == "conftest" {
			if why := pyCodeReplaced(f, was, now, layout()); why != "" {
				out = append(out, f+": "+why)
			}
		}
		if k == "go" {
			if why := goCodeReplacedWith(was, now, func() map[string][]byte { return goPkgSources(repo.Root(), path.Dir(f)) }, localGoHelperSrc(ctx, repo, start)); why != "" {
				out = append(out, f+": "+why)
			}
		}
		if k == "js" {
			if why := jsSelfMocked(f, was, now); why != "" { // jsselfmock.go
				out = append(out, f+": "+why)
			}
		}
	}
	out = append(out, localUnchangedShadows(repo.Root(), changed, shadows)...)
	// A test deleted or renamed away is skipped too (removed.go).
	gone, err := testsRemoved(ctx, repo, start, changed)
	if err != nil {
		return nil, err
	}
	out = append(out, gone...)
	return out, nil
}

// changedSkipHelpers are, by kind, the functions that skip with no
// condition in the changed code files and in the Go files beside a
// changed Go test (its package's helpers): a test calling one is skipped
// as surely as by a t.Skip of its own.
func changedSkipHelpers(root string, changed []string) (map[string]map[string]bool, error) {
	files := map[string]bool{}
	for _, f := range changed {
		if sk := sourceKind(f); (sk == "go" || sk == "py") && !SkippedDir(f) {
			files[f] = true
		}
		if FileKind(f) == "go" {
			ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(path.Dir(f))))
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("list the package of %s: %w", f, err)
			}
			for _, e := range ents {
				if strings.HasSuffix(e.Name(), ".go") && !e.IsDir() {
					files[path.Join(path.Dir(f), e.Name())] = true
				}
			}
		}
	}
	out := map[string]map[string]bool{}
	for f := range files {
		b, err := readWork(root, f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("read %s: %w", f, err)
		}
		k := sourceKind(f)
		for h := range skipHelpers(k, b) {
			if out[k] == nil {
				out[k] = map[string]bool{}
			}
			out[k][h] = true
		}
	}
	return out, nil
}

// testFuncRE finds the header of a test function: Go's Test/Benchmark/
// Fuzz/Example functions, Python's test_ functions and methods.
var testFuncRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(func\s+(Test|Benchmark|Fuzz|Example)\w*\s*\(|(\s*)(async\s+)?def\s+test\w*\s*\()`)
})

// SkipsIn lists the skips that now adds to a test file of kind k which
// was (nil: the file is new) did not have, as "adds `line`: why".
func SkipsIn(k string, was, now []byte, existed bool) []string {
	out := skipsIn(k, was, now, existed, nil, nil, nil)
	if k == "py" || k == "conftest" {
		if why := pyCodeReplaced("", was, now, nil); why != "" {
			out = append(out, why)
		}
	}
	return out
}

// skipsIn is SkipsIn with the skipping helpers of other files (helpers)
// and the variables the session's change sets in them (sets).
func skipsIn(k string, was, now []byte, existed bool, helpers map[string]bool, sets map[string]string, env LookupEnv) []string {
	envSets := EnvSetsAdded(was, now)
	for n, v := range sets {
		envSets[n] = v
	}
	envFns := envFuncs(k, now)
	for n, v := range constFuncs(k, now) { // constfuncs.go
		if envFns == nil {
			envFns = map[string]string{}
		}
		if _, ok := envFns[n]; !ok {
			envFns[n] = v
		}
	}
	consts := fileConsts(k, now)
	for n, v := range envConsts(k, now) {
		if _, ok := consts[n]; !ok {
			if consts == nil {
				consts = map[string]string{}
			}
			consts[n] = v
		}
	}
	hs := map[string]bool{}
	for h := range helpers {
		hs[h] = true
	}
	for h := range skipHelpers(k, now) {
		hs[h] = true
	}
	alias := func(s string) string { return s }
	if k == "py" || k == "conftest" {
		pa, oa := pyAliases(now), pyOSAlias(now) // os under another name: envunset.go
		alias = func(s string) string { return oa(pa(s)) }
	}
	count := map[string]int{}
	old := map[string]bool{}
	for _, l := range strings.Split(string(was), "\n") {
		count[strings.TrimSpace(l)]++
		old[strings.TrimSpace(l)] = true
	}
	var out []string
	lines := strings.Split(string(now), "\n")
	// A test existed when its name did (testkeys.go): an edited header
	// line does not make it new.
	oldKeys := map[string]bool{}
	if existed {
		for _, key := range testKeys(k, strings.Split(string(was), "\n")) {
			oldKeys[key] = true
		}
	}
	nowKeys := testKeys(k, lines)
	renamed := renamedTests(k, strings.Split(string(was), "\n"), lines, oldKeys, nowKeys) // renamedtests.go
	prev, fnExisted, bodyIndent, inFn := "", false, "", false
	for i, l := range lines {
		k2 := strings.TrimSpace(l)
		ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		switch {
		case testFuncRE().MatchString(l) || k == "js" && jsTestHeader(l):
			key, named := nowKeys[i]
			fnExisted, bodyIndent, inFn = existed && (named && (oldKeys[key] || renamed[i]) || !named && old[k2]), "", true
		case strings.HasPrefix(l, "func ") || strings.HasPrefix(k2, "def ") || strings.HasPrefix(k2, "async def ") || strings.HasPrefix(l, "class "):
			fnExisted, bodyIndent, inFn = false, "", false // a helper: not a test
		case inFn && bodyIndent != "" && k2 != "" && len(ind) < len(bodyIndent):
			fnExisted, bodyIndent, inFn = false, "", false // the test ended: what follows is not its body
		case inFn && bodyIndent == "" && k2 != "" && ind != "":
			bodyIndent = ind
		}
		if count[k2] > 0 {
			count[k2]--
		} else {
			at := lineAt{prev: alias(prev), fileExisted: existed, fnExisted: fnExisted, topReturn: topReturn(lines, i, bodyIndent), consts: consts, env: env,
				envFuncs: envFns, envSets: envSets, marksOld: existed && (marksOldTest(k, lines, i, old) || marksRenamed(k, lines, i, renamed))}
			at.switchTag, at.inSwitch = switchAt(lines, i)
			at.opener = blockOpener(lines, i)
			inElse, always := elseChain(lines, i, func(c string) truth {
				return evalCondIn(condAt(c, at, at.fnExisted), at.fnExisted, at.env)
			})
			at.elseAlways, at.elseGuarded = always, inElse && !always
			if inFn {
				at.helpers = hs // a helper's own body is not a call of it
			}
			if why := addedSkip(k, alias(l), at); why != "" {
				out = append(out, fmt.Sprintf("adds %q: %s", truncate(k2, 60), why))
			}
		}
		if k2 != "" {
			prev = l
		}
	}
	if k == "py" || k == "conftest" {
		if why := pyExitAdded(was, now); why != "" {
			out = append(out, why)
		}
		if why := pyLoadTestsDrops(was, now); why != "" {
			out = append(out, why)
		}
		for _, n := range pyCasesDropped(was, now) {
			out = append(out, "the class "+n+" is no longer a unittest TestCase, so its tests do not run")
		}
	}
	if k == "go" {
		out = append(out, goRunFlagsSet(was, now)...)
		if why := testMainHides(was, now); why != "" {
			out = append(out, why)
		} else if why := testMainExitsFirst(was, now, envSets, env); why != "" {
			out = append(out, why)
		}
		for _, n := range goChecksDropped(was, now) {
			out = append(out, "the test "+n+" can no longer fail: no t.Error, t.Fatal or t.Fail is left in it, and it hands t to nothing that could")
		}
	}
	return out
}

// pySkipIf: skipif(c)/skipIf(c) with c true in every run, or
// skipUnless(c) with c never true (`skipif(len(sys.argv) > 0, ...)`).
// Platform tests are not judged here: a decorator's line comes before
// the test it marks is known.
func pySkipIf(s string, platOK bool, env LookupEnv) bool {
	for _, f := range []string{"skipif(", "skipIf(", "skipUnless("} {
		i := strings.Index(s, f)
		if i < 0 {
			continue
		}
		open := i + len(f) - 1
		end := closing(s, open)
		if end < 0 {
			return false
		}
		c := splitTop(s[open+1:end], ",")[0]
		if strings.Contains(c, "=") && !strings.ContainsAny(c, "!<>") && !strings.Contains(c, "==") {
			return false // a keyword argument first (condition=...): not read
		}
		if tc := strings.TrimSpace(c); stringLitRE().FindString(tc) == tc {
			return false // skipif("expr"): pytest evaluates the string, not read here
		}
		t := evalCondIn(c, platOK, env) // platOK: it marks a test that ran at the start (envcalls.go)
		return f == "skipUnless(" && t == -1 || f != "skipUnless(" && t == 1
	}
	return false
}

// jsTestHeader: the line opens a JS test (`it('name', ...`, `test(...`).
func jsTestHeader(l string) bool { return skipRE().jsHeader.MatchString(l) }

// jsSkipIf judges Vitest's test.skipIf(c) and test.runIf(c): a skip
// when c holds in every run (runIf: never holds).
func jsSkipIf(s string, platOK bool, env LookupEnv) string {
	loc := skipRE().jsSkipIf.FindStringSubmatchIndex(s)
	if loc == nil {
		return ""
	}
	open := loc[1] - 1
	end := closing(s, open)
	if end < 0 {
		return ""
	}
	t := evalCondIn(s[open+1:end], platOK, env)
	if s[loc[2]:loc[3]] == "skipIf" && t == 1 || s[loc[2]:loc[3]] == "runIf" && t == -1 {
		return "a skip no condition guards"
	}
	return ""
}

// topReturn: lines[i] is a bare return at the function body's own
// indentation and a statement of the body follows it: the rest of the
// test never runs.
func topReturn(lines []string, i int, body string) bool {
	l := lines[i]
	switch strings.TrimSpace(l) {
	case "return", "return None", "return;":
	default:
		return false
	}
	if body == "" || !strings.HasPrefix(l, body) {
		return false
	}
	if ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]; ind != body {
		return false
	}
	for _, n := range lines[i+1:] {
		t := strings.TrimSpace(n)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") {
			continue
		}
		ind := n[:len(n)-len(strings.TrimLeft(n, " \t"))]
		return strings.HasPrefix(ind, body) && t != "}" && t != "})" && t != "});"
	}
	return false
}
