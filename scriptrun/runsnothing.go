package scriptrun

import (
	"fmt"
	"go/build"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
)

// RunsNothing says why a test run of line, started in dir, runs none of
// the tests it finds, or "" (issue 25, third round: each of these exits 0
// and was taken as QA). It reads the test files the line's flags apply to,
// which shellline.TestsNotRun (the line alone) cannot:
//   - go test: -run matching no Test/Fuzz/Example name of the packages,
//     -skip matching every one, -short when every selected test skips on
//     testing.Short(), -tags (or none) building no test file; GOFLAGS set
//     on the line counts as flags;
//   - cargo test: every #[test] marked #[ignore] (without --ignored or
//     --include-ignored), or a name filter no test, module or file holds;
//   - pytest: a conftest.py (or a -p plugin of the repository's) that sets
//     the session's exit status or empties the collected items, and an ini
//     file's addopts that collect or plan only (--co, --setup-plan).
//
// An npm/yarn/pnpm script (`npm test`, `npm run test:unit`) is judged as
// its package.json body with the line's extra arguments, by these rules and
// shellline.TestsNotRun: a test script edited to `jest --passWithNoTests
// --testPathIgnorePatterns=.` runs nothing however plain `npm test` looks.
//
// A line it cannot read (an expansion, a file outside the places) is left
// to the other rules: "".
func (pl Places) RunsNothing(dir, line string) string {
	return pl.runsNothing(dir, line, 0)
}

func (pl Places) runsNothing(dir, line string, depth int) string {
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return ""
	}
	why := ""
	cwd := ""
	exported := shellline.Exported(f) // export GOFLAGS=-run=x; go test
	syntax.Walk(f, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		if d, ok := cdTo(st); ok {
			cwd = path.Join(cwd, d)
			if path.IsAbs(d) {
				cwd = d
			}
			return true
		}
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok {
			return true
		}
		env := maps.Clone(exported[c])
		if env == nil {
			env = map[string]string{}
		}
		for _, a := range c.Assigns {
			if a.Name != nil {
				v, _ := shellline.Literal(a.Value)
				env[a.Name.Value] = v
			}
		}
		w := words(c)
		for _, x := range w {
			if k, v, ok := strings.Cut(x, "="); ok && k != "" && !strings.HasPrefix(k, "-") && !strings.Contains(k, "/") {
				env[k] = v
			}
		}
		w = shellline.StripWrappers(w)
		if len(w) == 0 {
			return true
		}
		rdir := filepath.Join(dir, filepath.FromSlash(cwd))
		if path.IsAbs(cwd) {
			rdir = filepath.FromSlash(cwd)
		}
		prog, args := path.Base(w[0]), w[1:]
		if (prog == "uv" || prog == "poetry" || prog == "pdm" || prog == "pipenv" || prog == "rye" || prog == "hatch") && len(args) > 1 && args[0] == "run" {
			prog, args = path.Base(args[1]), args[2:]
		}
		if (strings.HasPrefix(prog, "python") || prog == "py") && len(args) >= 2 && args[0] == "-m" {
			prog, args = args[1], args[2:]
		}
		switch {
		case prog == "go" && len(args) > 0 && args[0] == "test":
			why = pl.goRunsNothing(rdir, append(strings.Fields(env["GOFLAGS"]), args[1:]...))
		case prog == "cargo" && len(args) > 0 && args[0] == "test":
			why = pl.cargoRunsNothing(rdir, args[1:])
		case prog == "pytest" || prog == "py.test":
			// pytest reads PYTEST_ADDOPTS as arguments before the line's
			why = pl.pytestRunsNothing(rdir, append(strings.Fields(env["PYTEST_ADDOPTS"]), args...))
		case (prog == "npm" || prog == "yarn" || prog == "pnpm" || prog == "bun") && depth < 3:
			why = pl.npmRunsNothing(rdir, prog, args, depth)
		}
		return why == ""
	})
	return why
}

// goFlag returns a go test flag's value in args (-run x, -run=x, --run=x)
// (or -test.run) and whether it is there; a bool flag reads as "true". The last one wins,
// as with go's flag package; after -args only the test binary's own
// spelling (-test.run) counts.
func goFlag(args []string, name string, isBool bool) (string, bool) {
	val, found, binary := "", false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-args" || a == "--args" {
			binary = true
			continue
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		n, v, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		// go test takes -test.run as -run (go help testflag), and the test
		// binary reads -test.run after -args too (last wins): the lazy
		// spellings of a run of nothing
		if n != "test."+name && (binary || n != name) {
			continue
		}
		switch {
		case hasVal:
			val, found = v, true
		case isBool:
			val, found = "true", true
		case i+1 < len(args):
			i++
			val, found = args[i], true
		}
	}
	return val, found
}

var (
	goTestFunc  = lazyregexp.New(`(?m)^func ((?:Test|Fuzz|Example)[A-Za-z0-9_]*)\(`)
	goShortSkip = lazyregexp.New(`(?:^|[^!])testing\.Short\(\)\s*\{?\s*(?:\n\s*)?[A-Za-z_][A-Za-z0-9_]*\.(?:Skip|SkipNow|Skipf)\(`)
)

// goRunsNothing reads the _test.go files of the packages go test builds.
func (pl Places) goRunsNothing(dir string, args []string) string {
	runs := goTestRuns(args)
	if len(runs) == 0 {
		return ""
	}
	sdir := filepath.Join(dir, filepath.FromSlash(runs[0].Path))
	files, over := pl.SuiteFiles("go test", sdir, strings.Fields(runs[0].Paths))
	if over {
		return ""
	}
	ctxt := build.Default
	if tags, ok := goFlag(args, "tags", false); ok {
		ctxt.BuildTags = strings.FieldsFunc(tags, func(r rune) bool { return r == ',' || r == ' ' })
	}
	type test struct{ name, body string }
	var built []test
	all, excluded := 0, 0
	for _, abs := range files {
		if !strings.HasSuffix(abs, "_test.go") {
			continue
		}
		b, err := boundedread.File(abs, boundedread.DefaultLimit)
		if err != nil || len(b) > MaxRead {
			return ""
		}
		text := string(b)
		idx := goTestFunc.FindAllStringSubmatchIndex(text, -1)
		if len(idx) == 0 {
			continue
		}
		all += len(idx)
		if ok, err := ctxt.MatchFile(filepath.Dir(abs), filepath.Base(abs)); err != nil || !ok {
			excluded += len(idx)
			continue
		}
		for i, m := range idx {
			name := text[m[2]:m[3]]
			if strings.HasPrefix(name, "Example") && !strings.Contains(text, "// Output:") && !strings.Contains(text, "// Unordered output:") {
				continue // an example without output is compiled, not run
			}
			end := len(text)
			if i+1 < len(idx) {
				end = idx[i+1][0]
			}
			built = append(built, test{name, text[m[0]:end]})
		}
	}
	if all == 0 {
		return "" // no tests at all: not this rule's to judge
	}
	if len(built) == 0 {
		if excluded > 0 {
			return fmt.Sprintf("go test builds none of the test files holding its %d tests (their build constraints exclude them%s)", all, tagsSaid(ctxt.BuildTags))
		}
		return ""
	}
	selected := built
	if pat, ok := goFlag(args, "run", false); ok && pat != "" {
		re, err := regexp.Compile(topLevel(pat))
		if err != nil {
			return "" // go test fails on it
		}
		var keep []test
		for _, t := range selected {
			if re.MatchString(t.name) {
				keep = append(keep, t)
			}
		}
		if len(keep) == 0 {
			return fmt.Sprintf("go test -run %q matches none of the %d tests of the packages", pat, len(built))
		}
		selected = keep
	}
	if pat, ok := goFlag(args, "skip", false); ok && pat != "" && !strings.Contains(pat, "/") {
		if re, err := regexp.Compile(pat); err == nil {
			var keep []test
			for _, t := range selected {
				if !re.MatchString(t.name) {
					keep = append(keep, t)
				}
			}
			if len(keep) == 0 {
				return fmt.Sprintf("go test -skip %q skips every one of the %d tests it selects", pat, len(selected))
			}
			selected = keep
		}
	}
	if v, ok := goFlag(args, "short", true); ok && v != "false" {
		for _, t := range selected {
			if !goShortSkip.MatchString(t.body) {
				return ""
			}
		}
		return fmt.Sprintf("go test -short: every one of the %d tests it selects skips on testing.Short()", len(selected))
	}
	return ""
}

// topLevel is the part of a -run pattern that top-level test names are
// matched against: go splits the pattern at slashes outside brackets.
func topLevel(pat string) string {
	depth := 0
	for i, r := range pat {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		case '/':
			if depth <= 0 {
				return pat[:i]
			}
		}
	}
	return pat
}

func tagsSaid(tags []string) string {
	if len(tags) == 0 {
		return ", no -tags"
	}
	return ", -tags " + strings.Join(tags, ",")
}

var (
	rustTest   = lazyregexp.New(`#\[(?:tokio::|async_std::)?test\b[^\]]*\]`)
	rustIgnore = lazyregexp.New(`^\s*(?:#\[[^\]]*\]\s*)*#\[ignore\b`)
	rustFn     = lazyregexp.New(`^\s*(?:#\[[^\]]*\]\s*)*(?:pub\s+)?(?:async\s+)?fn\s+([A-Za-z0-9_]+)`)
	rustAnyFn  = lazyregexp.New(`\bfn\s+([A-Za-z0-9_]+)`)
	rustMod    = lazyregexp.New(`(?m)^\s*(?:pub\s+)?mod\s+([A-Za-z0-9_]+)`)
)

// cargoRunsNothing reads the .rs files of the crate in dir (src/, tests/,
// benches/, examples/; target/ left out).
func (pl Places) cargoRunsNothing(dir string, args []string) string {
	var filter []string
	ignored, exact := false, false
	valued := map[string]bool{"-p": true, "--package": true, "--test": true, "--bin": true, "--example": true, "--bench": true, "--features": true, "-F": true,
		"--target": true, "--target-dir": true, "--manifest-path": true, "-j": true, "--jobs": true, "--profile": true, "--color": true, "--message-format": true, "--exclude": true, "-Z": true, "--config": true}
	harness := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			harness = true
		case a == "--manifest-path" || strings.HasPrefix(a, "--manifest-path=") || a == "--workspace" || a == "--all":
			return "" // another crate, or several: not read here
		case harness && (a == "--ignored" || a == "--include-ignored"):
			ignored = true
		case harness && a == "--exact":
			exact = true
		case harness && (a == "--skip" || a == "--test-threads" || a == "--format" || a == "--color" || a == "-Z" || a == "--logfile" || a == "--report-time"):
			i++
		case !harness && valued[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			filter = append(filter, a) // before or after --: a test name filter
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "Cargo.toml")); err != nil {
		return ""
	}
	var names []string
	known, fns := map[string]bool{}, map[string]bool{}
	tests, ign := 0, 0
	budget := MaxSuiteFiles
	for _, sub := range []string{"src", "tests", "benches", "examples"} {
		root := filepath.Join(dir, sub)
		if _, _, ok := pl.where(root); !ok {
			continue
		}
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			continue
		}
		walkErr := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if n := d.Name(); p != root && (n == "target" || strings.HasPrefix(n, ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".rs") {
				return nil
			}
			if budget--; budget < 0 {
				return filepath.SkipAll
			}
			b, err := boundedread.File(p, boundedread.DefaultLimit)
			if err != nil || len(b) > MaxRead {
				return nil
			}
			text := string(b)
			known[strings.TrimSuffix(filepath.Base(p), ".rs")] = true
			for _, m := range rustMod.FindAllStringSubmatch(text, -1) {
				known[m[1]] = true
			}
			// a test macro (rstest, test-case) makes a module named after
			// its function: any fn may be a module of a test's path
			for _, m := range rustAnyFn.FindAllStringSubmatch(text, -1) {
				known[m[1]] = true
				fns[m[1]] = true
			}
			for _, loc := range rustTest.FindAllStringIndex(text, -1) {
				rest := text[loc[1]:]
				tests++
				if rustIgnore.MatchString(rest) {
					ign++
				}
				if m := rustFn.FindStringSubmatch(rest); m != nil {
					names = append(names, m[1])
				}
			}
			return nil
		})
		if walkErr != nil || budget < 0 {
			return ""
		}
	}
	if tests == 0 {
		return ""
	}
	if !ignored && ign == tests {
		return fmt.Sprintf("cargo test: every one of the %d #[test] functions is #[ignore]d, and the line runs none of the ignored", tests)
	}
	if len(filter) > 0 && !exact {
		for _, f := range filter {
			if strings.Contains(f, "::") {
				// the tests a macro makes under a fn that is no #[test]
				// have names the text does not hold
				made := map[string]bool{}
				for k := range fns {
					made[k] = !slices.Contains(names, k)
				}
				if rustPathMatches(f, known, made) {
					return ""
				}
				continue
			}
			for _, n := range names {
				if strings.Contains(n, f) {
					return ""
				}
			}
			for k := range known {
				if strings.Contains(k, f) {
					return ""
				}
			}
		}
		return fmt.Sprintf("cargo test %s: no test, module or file of the crate's %d tests holds that name", strings.Join(filter, " "), tests)
	}
	return ""
}

// rustPathMatches: a filter holding :: (cargo matches it as a substring of
// a test's path, mod::sub::name) can match when its middle parts are
// names of the crate, the first ends one and the last begins one.
// tests::nothing matches no test of a crate with no such name; the
// nesting of the modules is not checked, so it errs towards a match, and
// under a fn of made (a test macro's) any last part may match.
func rustPathMatches(f string, known, made map[string]bool) bool {
	parts := strings.Split(f, "::")
	some := func(ok func(string) bool) bool {
		for k := range known {
			if ok(k) {
				return true
			}
		}
		return false
	}
	for i, p := range parts {
		var ok bool
		switch {
		case p == "":
			ok = i == 0 || i == len(parts)-1
		case i == 0:
			ok = some(func(k string) bool { return strings.HasSuffix(k, p) })
		case i == len(parts)-1:
			ok = made[parts[i-1]] || some(func(k string) bool { return strings.HasPrefix(k, p) })
		default:
			ok = known[p]
		}
		if !ok {
			return false
		}
	}
	return true
}

var (
	pyExitStatus = lazyregexp.New(`\.exitstatus\s*=[^=]`)
	pyItemsClear = lazyregexp.New(`\bitems\s*\[\s*:\s*\]\s*=\s*\[\s*\]|\bitems\.clear\(\)|\bdel\s+items\s*\[\s*:\s*\]`)
	pyAddoptSkip = map[string]bool{"--collect-only": true, "--co": true, "--setup-plan": true, "--setup-only": true, "--fixtures": true, "--fixtures-per-test": true, "--markers": true}
)

// pytestRunsNothing reads the conftest.py files pytest imports for the
// line, the repository's modules -p names (the line's or the ini file's
// addopts), and the ini file's addopts.
func (pl Places) pytestRunsNothing(dir string, args []string) string {
	var paths, plugins []string
	vals, _ := pl.pytestIni(dir)
	for _, a := range vals["addopts"] {
		if a = strings.Trim(a, `"',[]`); pyAddoptSkip[a] {
			return fmt.Sprintf("pytest's ini file adds %s to every run (addopts): it runs no test", a)
		}
	}
	all := append(append([]string{}, vals["addopts"]...), args...)
	for i := 0; i < len(all); i++ {
		a := strings.Trim(all[i], `"',[]`)
		switch {
		case a == "-p" && i+1 < len(all):
			i++
			plugins = append(plugins, strings.Trim(all[i], `"',[]`))
		case strings.HasPrefix(a, "-p") && len(a) > 2:
			plugins = append(plugins, a[2:])
		case a == "-k" || a == "-m" || a == "-c" || a == "-o" || a == "--rootdir" || a == "--confcutdir" || a == "--deselect" || a == "--ignore" || a == "--ignore-glob" || a == "-W" || a == "--basetemp" || a == "--junitxml" || a == "--maxfail" || a == "--tb" || a == "-r" || a == "--durations":
			i++
		case strings.HasPrefix(a, "-"):
		case i >= len(vals["addopts"]):
			paths = append(paths, a)
		}
	}
	var files []string
	files = append(files, pl.Conftests(dir, paths)...)
	for _, p := range plugins {
		if strings.HasPrefix(p, "no:") {
			continue
		}
		rel := filepath.FromSlash(strings.ReplaceAll(p, ".", "/"))
		for _, c := range []string{rel + ".py", filepath.Join(rel, "__init__.py")} {
			if abs := filepath.Join(dir, c); pl.Has(abs) && regular(abs) {
				files = append(files, abs)
			}
		}
	}
	for _, abs := range files {
		b, err := boundedread.File(abs, boundedread.DefaultLimit)
		if err != nil || len(b) > MaxRead {
			continue
		}
		text := string(b)
		rel, _ := filepath.Rel(dir, abs)
		if pyExitStatus.MatchString(text) {
			return fmt.Sprintf("pytest imports %s, which sets the session's exit status (a failing or empty run then exits 0)", filepath.ToSlash(rel))
		}
		if pyItemsClear.MatchString(text) {
			return fmt.Sprintf("pytest imports %s, which empties the collected tests", filepath.ToSlash(rel))
		}
	}
	return ""
}

// npmRunsNothing judges the package.json script a package manager's line
// runs, with the arguments it passes on (npm's after --, yarn's and
// pnpm's all), in the package's folder.
func (pl Places) npmRunsNothing(dir, prog string, args []string, depth int) string {
	name := ""
	var extra []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case name != "":
			if a == "--" && prog == "npm" {
				continue
			}
			if prog == "npm" && !slices.Contains(args[:i], "--") {
				continue // npm's own flags before --
			}
			extra = append(extra, a)
		case a == "--prefix" || a == "--cwd" || a == "-C" || a == "--dir":
			if i+1 < len(args) {
				i++
				dir = filepath.Join(dir, filepath.FromSlash(args[i]))
			}
		case strings.HasPrefix(a, "-"):
		case a == "test" || a == "t" || a == "tst":
			name = "test"
		case a == "run" || a == "run-script" || a == "rum" || a == "urn":
			if i+1 < len(args) {
				i++
				name = args[i]
			}
		case prog != "npm" && a != "install" && a != "add" && a != "exec" && a != "dlx" && a != "x":
			name = a // yarn X, pnpm X: the script X
		default:
			return ""
		}
	}
	if name == "" {
		return ""
	}
	pj := filepath.Join(dir, "package.json")
	if !pl.Has(pj) {
		return ""
	}
	b, err := boundedread.File(pj, boundedread.DefaultLimit)
	if err != nil || len(b) > MaxRead {
		return ""
	}
	body := NpmScript(string(b), name)
	if body == "" {
		return ""
	}
	for _, a := range extra {
		body += " " + syntaxQuote(a)
	}
	if why := shellline.TestsNotRun(body); why != "" {
		return fmt.Sprintf("its package.json script %q runs `%s`: %s", name, truncated(body), why)
	}
	if why := pl.runsNothing(dir, body, depth+1); why != "" {
		return fmt.Sprintf("its package.json script %q runs `%s`: %s", name, truncated(body), why)
	}
	return ""
}

// syntaxQuote quotes an argument for the shell when it needs it.
func syntaxQuote(a string) string {
	if q, err := syntax.Quote(a, syntax.LangBash); err == nil {
		return q
	}
	return a
}

func truncated(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
