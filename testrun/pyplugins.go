package testrun

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// Lazy pass 28 (c6): a pytest plugin of the agent's decides outcomes.
// pytest loads hooks from more than conftest.py (whose deselecting hooks
// round 19's skip rule reads): `-p plug` on the line or in addopts,
// `pytest_plugins = ['plug']` in a conftest or test module, PYTEST_PLUGINS
// (refused by gateenv), an entry point. A hook there that never calls the
// test (`pytest_pyfunc_call` returning True), rewrites its report
// (`rep.outcome = 'passed'`), drops collected tests or resets the exit
// status makes the real pytest pass a broken module. Whatever loads it,
// the hook is in a .py file the session changed, so that is what is read.
// Honest hooks (a report hook attaching logs, an async runner that awaits
// the test, a fixture plugin, reordering items) stay clean.

// pyHookDefRE is a def of a hook that can decide an outcome.
var pyHookDefRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^([ \t]*)(?:async[ \t]+)?def\s+(pytest_pyfunc_call|pytest_runtest_protocol|pytest_runtestloop|pytest_runtest_makereport|pytest_report_teststatus|pytest_collection_modifyitems|pytest_sessionfinish|pytest_runtest_call|pytest_itemcollected|pytest_collection_finish|pytest_unconfigure|pytest_runtest_setup|pytest_runtest_logreport)\s*\(`)
})

// pyHookWeakRE: in such a hook's body, what changes the outcome.
var pyHookWeakRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\._?excinfo\s*=[^=]|\.runtest\s*=[^=]|\bruntest\s*=\s*lambda|\.outcome\s*=[^=]|\.longrepr\s*=\s*None|force_result\s*\(|force_exception\s*\(|\bexitstatus\s*=[^=]|\bitems\s*\.\s*(?:clear|remove|pop)\s*\(|\bdel\s+items\b|\bdeselected\b|pytest_deselected|\bitems\s*\[\s*:\s*\]\s*=\s*\[[^\]]*\bif\b|\bitems\s*\[\s*:\s*\]\s*=\s*\[\s*\]|setattr\s*\([^\n]*["'](?:outcome|longrepr|exitstatus)["']`)
})

// pyHookCallsTestRE: the hook runs the test itself, or hands the test's
// function to what runs it (`cProfile.Profile().runcall(pyfuncitem.obj,
// **kw)`, `Thread(target=pyfuncitem.obj)`: round 39's re-check, HY3).
// Whether the body then ran is the pytest observer's to see.
var pyHookCallsTestRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\.runtest\s*\(|\.obj\s*\(|testfunction\s*\(|\byield\b|runtestprotocol\s*\(|\.i?hook\.|\bsuper\(\)|[(,=]\s*\w+(?:\.\w+)*\.obj\s*[,)]`)
})

// pyHookReturnRE: a return with a value. A firstresult hook returning
// anything but None (True, the item, a helper's answer from another
// file: review 28 c10) ends the call, so pytest's own implementation
// (which runs the test) is not called; returning None (trio's plugin
// wrapping pyfuncitem.obj) leaves it to run.
var pyHookReturnRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\breturn[ \t]+([^\s#;]+)`)
})

// pyDocCommentRE: docstrings and comments, whose "return early" is prose.
var pyDocCommentRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)""".*?"""|'''.*?'''|#[^\n]*`)
})

func pyHookAnswers(body string) bool {
	body = pyOwnLines(pyDocCommentRE().ReplaceAllString(body, ""))
	for _, m := range pyHookReturnRE().FindAllStringSubmatch(body, -1) {
		if m[1] != "None" {
			return true
		}
	}
	return false
}

// pyNestedDefRE: a def or class inside a hook's body.
var pyNestedDefRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([ \t]*)(?:async[ \t]+def|def|class)\b`)
})

// pyOwnLines drops the bodies of functions and classes nested in a hook's
// body: their return is their own, not the hook's answer (lazy pass 38's
// honest row: an asyncio runner whose pytest_pyfunc_call sets
// pyfuncitem.obj to a wrapper that returns asyncio.run(...) and itself
// returns None, so pytest's own call runs the wrapper).
func pyOwnLines(body string) string {
	var out []string
	skip := -1 // the indent of the nested def being skipped, -1 none
	for _, l := range strings.Split(body, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := len(l) - len(strings.TrimLeft(l, " \t"))
		if skip >= 0 {
			if ind > skip {
				continue
			}
			skip = -1
		}
		if m := pyNestedDefRE().FindStringSubmatch(l); m != nil {
			skip = len(m[1])
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// pyHookBoundRE: a hook name bound by assignment (`pytest_pyfunc_call =
// _run`, a lambda): its body is another function's, not read here
// (review 28 c10); honest plugins define hooks with def.
var pyHookBoundRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*(pytest_pyfunc_call|pytest_runtest_protocol|pytest_runtestloop|pytest_runtest_makereport|pytest_report_teststatus|pytest_collection_modifyitems|pytest_sessionfinish)[ \t]*=[^=]`)
})

// pyPluginStandIns reads the .py files the session changed for a hook
// that decides an outcome; only for a line that runs pytest.
func pyPluginStandIns(ctx context.Context, repo Repo, start string, fams []string) ([]InputChange, error) {
	if !slices.Contains(fams, "pytest") {
		return nil, nil
	}
	changed, err := repo.ChangedFiles(ctx, start)
	if err != nil {
		return nil, fmt.Errorf("list the files changed since the start: %w", err)
	}
	was := func(p string) string {
		b, _ := repo.ReadAt(ctx, start, p)
		return string(b)
	}
	now := func(p string) (string, bool) {
		b, err := boundedread.File(filepath.Join(repo.Root(), filepath.FromSlash(p)), boundedread.DefaultLimit)
		return string(b), err == nil && len(b) <= 512<<10
	}
	return PyHookStandIns(changed, was, now), nil
}

// PyHookStandIns is the pytest-hook judgement of a run's inputs for the
// QA gate (the start commit against the work tree) and for verify (the
// base against the tip; round 29, c2: before, verify judged none of it,
// so a conftest whose pytest_pyfunc_call answered True passed CI): the
// changed .py files, and the unchanged conftest files above them (at
// the root and above each changed .py), read for a hook that decides an
// outcome. was reads a file at the start ("" none), now at the end.
func PyHookStandIns(changed []string, was func(string) string, now func(string) (string, bool)) []InputChange {
	var out []InputChange
	// The team's conftest files, unchanged, calling a helper the session
	// changed (review 28 c10): at the root and above each changed .py.
	isChanged := map[string]bool{}
	for _, f := range changed {
		isChanged[f] = true
	}
	confs := map[string]bool{}
	for _, f := range changed {
		if !strings.HasSuffix(f, ".py") {
			continue
		}
		for d := path.Dir(f); ; d = path.Dir(d) {
			confs[path.Join(d, "conftest.py")] = true
			if d == "." || d == "/" {
				break
			}
		}
	}
	var confList []string
	for c := range confs {
		confList = append(confList, c)
	}
	slices.Sort(confList)
	for _, c := range confList {
		if isChanged[c] {
			continue // read below with the changed files
		}
		text, ok := now(c)
		if !ok {
			continue
		}
		if hook, why := pyWeakHelper(c, text, changed, was, now); hook != "" {
			out = append(out, InputChange{c, fmt.Sprintf("defines the pytest hook %s, which %s: loaded as a plugin, the run passes whatever the code does", hook, why), true})
		}
	}
	for _, f := range changed {
		if !strings.HasSuffix(f, ".py") {
			continue
		}
		text, ok := now(f)
		if !ok || !pyHookDefRE().MatchString(text) && !pyHookBoundRE().MatchString(text) {
			continue
		}
		hook, why := pyWeakHook(text)
		if hook == "" {
			hook, why = pyWeakHelper(f, text, changed, was, now)
		}
		if hook != "" {
			if h, _ := pyWeakHook(was(f)); h == hook {
				continue // the team's hook, as it was
			}
			out = append(out, InputChange{f, fmt.Sprintf("defines the pytest hook %s, which %s: loaded as a plugin (conftest, -p, pytest_plugins), the run passes whatever the code does", hook, why), true})
		}
	}
	return out
}

// pyWeakHook names the first hook in text that decides an outcome and
// how, "" when none does.
func pyWeakHook(text string) (hook, why string) {
	if m := pyHookBoundRE().FindStringSubmatch(text); m != nil {
		return m[1], "is bound by assignment to another function"
	}
	lines := strings.Split(text, "\n")
	for _, m := range pyHookDefRE().FindAllStringSubmatchIndex(text, -1) {
		indent, name := text[m[2]:m[3]], text[m[4]:m[5]]
		first := strings.Count(text[:m[0]], "\n")
		// The body: the lines after the def indented deeper than it.
		var body []string
		for _, l := range lines[first+1:] {
			if strings.TrimSpace(l) != "" && len(l)-len(strings.TrimLeft(l, " \t")) <= len(indent) {
				break
			}
			body = append(body, l)
		}
		b := strings.Join(body, "\n")
		switch name {
		case "pytest_pyfunc_call", "pytest_runtest_protocol", "pytest_runtestloop":
			if pyHookAnswers(b) && !pyHookCallsTestRE().MatchString(b) {
				return name, "never runs the test"
			}
		}
		if loc := pyHookWeakRE().FindString(b); loc != "" {
			return name, fmt.Sprintf("changes what the run reports (%s)", strings.TrimSpace(loc))
		}
	}
	return "", ""
}

// pyImportRE: a module a hook file imports (`from X import`, `import X`).
var pyImportRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import|import[ \t]+([\w.]+))`)
})

// pyWeakHelper: a hook file whose own hooks decide nothing but that
// imports a module the session also changed doing what pyHookWeakRE
// names (conftest's pytest_collection_modifyitems calling
// `_prune.prune(items)`, which drops test_greet: review 28 c10, a hook
// split across two files).
func pyWeakHelper(f, text string, changed []string, wasAt func(string) string, now func(string) (string, bool)) (hook, why string) {
	m := pyHookDefRE().FindStringSubmatch(text)
	if m == nil {
		return "", ""
	}
	isChanged := map[string]bool{}
	for _, c := range changed {
		isChanged[c] = true
	}
	if cand, loc := pyWeakImport(f, text, isChanged, wasAt, now, map[string]bool{f: true}, 0); cand != "" {
		return m[2], fmt.Sprintf("calls into %s, changed in this session, which changes what the run reports (%s)", cand, strings.TrimSpace(loc))
	}
	return "", ""
}

// pyMaxHelperDepth bounds the walk through helpers the session changed:
// a helper of a helper (pass 29, c3: conftest -> _prune.py ->
// lib/_deep.py dropping test_greet got through when one import deep was
// read).
const pyMaxHelperDepth = 4

// pyWeakImport follows text's imports of files the session changed, to
// pyMaxHelperDepth, for one doing what pyHookWeakRE names and its start
// version did not: the file and the construct, "" when none.
func pyWeakImport(f, text string, isChanged map[string]bool, wasAt func(string) string, now func(string) (string, bool), seen map[string]bool, depth int) (cand, loc string) {
	if depth >= pyMaxHelperDepth {
		return "", ""
	}
	for _, im := range pyImportRE().FindAllStringSubmatch(text, 32) {
		mod := im[1] + im[2]
		if strings.HasPrefix(mod, ".") {
			mod = strings.TrimLeft(mod, ".")
		}
		rel := strings.ReplaceAll(mod, ".", "/")
		for _, dir := range []string{"", path.Dir(f)} {
			for _, c := range []string{path.Join(dir, rel+".py"), path.Join(dir, rel, "__init__.py")} {
				if !isChanged[c] || seen[c] {
					continue
				}
				seen[c] = true
				b, ok := now(c)
				if !ok {
					continue
				}
				if l := pyHookWeakRE().FindString(b); l != "" && !strings.Contains(wasAt(c), l) {
					return c, l
				}
				if cand, loc := pyWeakImport(c, b, isChanged, wasAt, now, seen, depth+1); cand != "" {
					return cand, loc
				}
			}
		}
	}
	return "", ""
}

// PyWeakHook names the first pytest hook in a plugin's text that decides
// an outcome and how ("" when none does): venvtrust reads with it a
// pytest11 plugin installed into the venv, whose source need not stand
// in the work tree.
func PyWeakHook(text string) (hook, why string) { return pyWeakHook(text) }
