package shellline

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// TestRun is what one test-suite run on a line covers: the runner, where
// it ran, the filters that narrow it and the targets it was given. QA
// compares a passing run with an earlier failing one (issue 25): `go test
// -run TestAdd ./pkg` passing after `go test ./...` failed proves only
// TestAdd, and met QA before.
type TestRun struct {
	Runner string // "go test", "pytest", "cargo test", "npm test", "make test", "sh scripts/test.sh"
	// Dir is the folder the run stood in, relative to where the line
	// started ("" there) or absolute after an absolute cd; UnknownDir ("?")
	// when the line moved the shell where it cannot be read (`cd $X`,
	// eval, a bare cd): such a run covers no folder.
	Dir string
	// Filters narrow the run (-run X, -k add, a cargo test name, extra
	// arguments of a script), sorted; a run covers another only when it
	// has no filter the other lacks.
	Filters []string
	// Targets are the packages or paths it was given; nil is the
	// runner's whole suite (go test's default is ".", its own package).
	Targets []string
	// Workspaces: npm's, pnpm's or yarn's flag that runs the script in
	// every workspace package (`npm test --workspaces`, `pnpm -r test`):
	// no filter, the whole monorepo's suites (testrun.WorkspaceDirs).
	Workspaces bool
}

// String is the run as a short description for messages.
func (r TestRun) String() string {
	s := r.Runner
	if len(r.Filters) > 0 {
		s += " " + strings.Join(r.Filters, " ")
	}
	if len(r.Targets) > 0 {
		s += " " + strings.Join(r.Targets, " ")
	}
	if r.Dir != "" {
		s = "cd " + r.Dir + " && " + s
	}
	return s
}

// TestRuns lists the test-suite runs of a line (RunsTests), in order.
func TestRuns(line string) []TestRun {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return nil
	}
	var out []TestRun
	var f folderTracker
	for _, c := range calls {
		w, nodes := expandedArgs(c) // `go test ./{a,b}/...` runs two packages
		if f.step(w, nodes) {
			continue
		}
		if !callRunsTests(w) {
			continue
		}
		r := scopeOf(testWords(w))
		dir := f.dir
		if d, ok := runChdir(w); ok {
			dir = joinDir(dir, d) // `env -C api make test`
		}
		if r.Dir != "" {
			dir = joinDir(dir, r.Dir)
		}
		r.Dir = dir
		slices.Sort(r.Filters)
		out = append(out, r)
	}
	return out
}

// Narrowing says how r runs less than o, "" when r covers o: the same
// runner in the same folder, no filter o lacks, and every target of o
// among r's (a whole suite, `./...` or a folder covers what is under it).
func (r TestRun) Narrowing(o TestRun) string {
	// Two runs in an unknown folder (UnknownDir) compare as one folder, as
	// they did when `cd $X` was not read: a failing `cd "$R/api" && make
	// test` is answered by the same line passing.
	if r.Runner != o.Runner || r.Dir != o.Dir {
		return "another runner or folder (" + r.String() + ")"
	}
	if o.Workspaces && !r.Workspaces {
		return "the root package alone, not every workspace (" + r.String() + ")"
	}
	var extra []string
	for _, f := range r.Filters {
		if !slices.Contains(o.Filters, f) {
			extra = append(extra, f)
		}
	}
	if len(extra) > 0 {
		return "a filter the failing run did not have (" + strings.Join(extra, " ") + ")"
	}
	if r.Targets == nil {
		return ""
	}
	if o.Targets == nil {
		return "fewer targets (" + strings.Join(r.Targets, " ") + " instead of the whole suite)"
	}
	for _, t := range o.Targets {
		if !slices.ContainsFunc(r.Targets, func(x string) bool { return targetCovers(r.Runner, x, t) }) {
			return "fewer targets (" + strings.Join(r.Targets, " ") + " does not hold " + t + ")"
		}
	}
	return ""
}

// targetCovers reports whether target a holds target b: the same, `a/...`
// (Go's pattern) over anything under a, a folder over its files, a file
// over its pytest node ids (file.py::test_x).
func targetCovers(runner, a, b string) bool {
	a, b = cleanTarget(a), cleanTarget(b)
	if a == b {
		return true
	}
	if base, ok := strings.CutSuffix(a, "/..."); ok {
		if base == "." {
			return !strings.HasPrefix(b, "../") && !path.IsAbs(b)
		}
		b = strings.TrimSuffix(b, "/...")
		return b == base || strings.HasPrefix(b, base+"/")
	}
	if runner == "go test" {
		return false // a package is not its sub-packages
	}
	return strings.HasPrefix(b, a+"/") || strings.HasPrefix(b, a+"::") || a == "."
}

func cleanTarget(t string) string {
	if strings.HasSuffix(t, "/...") {
		return path.Clean(strings.TrimSuffix(t, "/...")) + "/..."
	}
	if i := strings.Index(t, "::"); i >= 0 {
		return path.Clean(t[:i]) + t[i:]
	}
	return path.Clean(t)
}

// testWords drops the wrappers and launchers in front of a test runner:
// `timeout 600`, `npx`, `uv run`, `poetry run`, `python -m`.
func testWords(w []string) []string {
	for {
		w = StripWrappers(w)
		if len(w) == 0 {
			return w
		}
		p := path.Base(w[0])
		switch {
		case p == "npx" || p == "bunx" || p == "pnpx":
			w = skipFlags(w[1:])
		case (p == "uv" || p == "poetry" || p == "pdm" || p == "hatch" || p == "pipenv" || p == "rye") && len(w) > 1 && w[1] == "run":
			w = skipFlags(w[2:])
		case (strings.HasPrefix(p, "python") || p == "py") && len(w) > 2 && w[1] == "-m":
			w = w[2:]
		default:
			return w
		}
	}
}

func skipFlags(w []string) []string {
	for len(w) > 0 && (strings.HasPrefix(w[0], "-")) {
		if w[0] == "--" {
			return w[1:]
		}
		w = w[1:]
	}
	return w
}

// runnerFlags are the flag tables by runner, built on first use: a hook
// process that reads no test line never pays for them (TestHookInitWeight).
type runnerFlagTables struct {
	goValueFlags, goFilterFlags, pyValueFlags, pyFilterFlags map[string]bool
	jestValueFlags, jestFilter, cargoValueFlag, reportFlags  map[string]bool
	gotestsumValueFlags                                      map[string]bool
}

// Value-taking flags, by runner: their value is no target.
var runnerFlags = sync.OnceValue(func() runnerFlagTables {
	return runnerFlagTables{
		goValueFlags: flagSet("test.run test.skip test.list run skip bench benchtime count cpu parallel timeout tags p coverprofile covermode coverpkg o exec " +
			"toolexec ldflags gcflags asmflags mod modfile blockprofile blockprofilerate cpuprofile memprofile memprofilerate " +
			"mutexprofile mutexprofilefraction trace outputdir shuffle fuzz fuzztime fuzzminimizetime list vet C overlay pgo"),
		// exec and c run no test of the project's (round 56, helper 333: `go
		// test -exec true ./...` printed ok for a broken package; -c compiles
		// only; -overlay and -modfile swap in files from elsewhere: an overlay
		// replacing the broken greet.go with a good copy in /tmp passed); test.run
		// and the other test.* spellings are go test's too.
		goFilterFlags:  flagSet("run skip short list exec c overlay modfile test.run test.skip test.short test.list"),
		pyValueFlags:   flagSet("k m p c o config-file inifile override-ini deselect ignore ignore-glob rootdir maxfail n tb W durations basetemp confcutdir r junitxml junit-xml cov cov-report cov-config log-level import-mode dist"),
		pyFilterFlags:  flagSet("k m deselect ignore ignore-glob lf last-failed sw stepwise sw-skip stepwise-skip co collect-only setup-only setup-plan collectonly setuponly setupplan"),
		jestValueFlags: flagSet("t testNamePattern testPathPattern testPathIgnorePatterns config c changedSince shard project selectProjects reporter reporters"),
		jestFilter:     flagSet("t testNamePattern testPathPattern testPathIgnorePatterns o onlyChanged changedSince findRelatedTests lastCommit shard project selectProjects related listTests"),
		cargoValueFlag: flagSet("p package test bench example bin features F j jobs target manifest-path profile exclude color message-format"),
		// reportFlags change how a script or an unknown runner reports, not
		// what it runs: they never make a run partial.
		reportFlags: flagSet("v vv verbose q quiet x color no-color colors ci silent s " +
			// gradle's log and daemon options (`./gradlew test --info`)
			"info debug stacktrace S full-stacktrace warn w console no-daemon daemon offline build-cache no-build-cache scan no-scan"),
		gotestsumValueFlags: flagSet("format f junitfile jsonfile packages rerun-fails-max-failures rerun-fails-report post-run-command format-icons junitfile-testsuite-name junitfile-testcase-classname jsonfile-timing-events"),
	}
})

func flagSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// flagName is a flag's name without dashes and value ("-run=X" -> "run").
func flagName(a string) (name, val string, hasVal bool) {
	return strings.Cut(strings.TrimLeft(a, "-"), "=")
}

// scopeOf reads one test runner's words (testWords) into a TestRun.
func scopeOf(w []string) TestRun {
	prog := path.Base(w[0])
	args := w[1:]
	if prog == "go" {
		// `go -C DIR test` and `go test -C DIR` work in DIR (go takes -C
		// only as the first flag): the run is DIR's, not the line's
		// folder's. `go test -C sub ./...` read as the whole suite, and
		// an honest `go -C . test ./...` as a filtered run.
		if dir, rest, ok := goChdir(args); ok {
			r := scopeOf(append([]string{w[0]}, rest...))
			if r.Dir != "" {
				dir = joinDir(dir, r.Dir)
			}
			r.Dir = joinDir("", dir)
			return r
		}
	}
	switch {
	case prog == "go" && len(args) > 0 && args[0] == "test":
		return flagScope("go test", args[1:], runnerFlags().goValueFlags, runnerFlags().goFilterFlags, []string{"."}, "args")
	case prog == "pytest" || prog == "py.test":
		return flagScope("pytest", args, runnerFlags().pyValueFlags, runnerFlags().pyFilterFlags, nil, "")
	case prog == "jest" || prog == "vitest":
		return flagScope(prog, args, runnerFlags().jestValueFlags, runnerFlags().jestFilter, nil, "")
	case prog == "cargo" && len(args) > 0 && args[0] == "test":
		return cargoScope(args[1:])
	case prog == "unittest":
		if len(args) > 0 && args[0] == "discover" {
			// discover's start, pattern and top (-s, -p, -t) are the
			// project's layout; its -k is a name filter as the main
			// program's is (helper 365: `discover -k zzz 2>/dev/null`
			// hid "Ran 0 tests" and passed over a failing suite).
			r := TestRun{Runner: "unittest"}
			r.Filters = unittestKeyFilters(args[1:])
			return r
		}
		r := flagScope("unittest", args, nil, nil, nil, "")
		r.Filters = append(r.Filters, unittestKeyFilters(args)...)
		return r
	case testSubcommand[prog]:
		// npm test, make test, yarn run test:unit: the runner is the
		// script; anything after it goes to the script, and narrows it.
		// A folder flag (npm --prefix web, make -C api) moves the run.
		dir := ""
		ws := false
		for i := 0; i < len(args); i++ {
			a := args[i]
			if d, n, ok := dirFlag(prog, args, i); ok {
				i += n - 1
				dir = joinDir(dir, d) // -C api, -Capi, --directory=api, --prefix=api
				continue
			}
			if pkgManagers[prog] && fanOutFlags[a] {
				ws = true
				continue
			}
			if strings.HasPrefix(a, "-") || a == "run" {
				continue
			}
			r := TestRun{Runner: prog + " " + a, Dir: dir, Workspaces: ws}
			for _, f := range opaque(args[i+1:]) {
				if pkgManagers[prog] && fanOutFlags[f] {
					r.Workspaces = true // `npm test --workspaces`: npm's flag, not the script's
					continue
				}
				r.Filters = append(r.Filters, f)
			}
			return r
		}
		return TestRun{Runner: prog}
	case prog == "gotestsum":
		return gotestsumScope(args)
	}
	return TestRun{Runner: strings.Join(w[:min(len(w), 1)], " "), Filters: opaque(args)}
}

// pkgManagers run a package.json script; fanOutFlags make them run it in
// every workspace package (npm's --workspaces/-ws, pnpm's -r/--recursive),
// the root's too with --include-workspace-root; --if-present only skips a
// package without the script.
var (
	pkgManagers = map[string]bool{"npm": true, "pnpm": true, "yarn": true, "bun": true}
	fanOutFlags = map[string]bool{"--workspaces": true, "-ws": true, "-r": true, "--recursive": true, "--include-workspace-root": true, "--if-present": true}
)

// gotestsum runs `go test` with the arguments after its own flags (or
// after --); --packages names the packages.
func gotestsumScope(args []string) TestRun {
	var pkgs, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		name, val, hasVal := flagName(a)
		if !strings.HasPrefix(a, "-") {
			rest = append(rest, a)
			continue
		}
		if runnerFlags().gotestsumValueFlags[name] && !hasVal && i+1 < len(args) {
			i++
			val = args[i]
		}
		if name == "packages" {
			pkgs = append(pkgs, strings.Fields(val)...)
		}
	}
	// gotestsum's default is ./..., not go test's "."
	return flagScope("go test", append(rest, pkgs...), runnerFlags().goValueFlags, runnerFlags().goFilterFlags, []string{"./..."}, "args")
}

// goChdir splits go's leading -C (of go, or of its test subcommand) from
// the rest of go's arguments; ok is false when there is none.
func goChdir(args []string) (dir string, rest []string, ok bool) {
	at := 0
	if len(args) > 0 && args[0] == "test" {
		at = 1
	}
	if at >= len(args) {
		return "", nil, false
	}
	a := args[at]
	switch {
	case (a == "-C" || a == "--C") && at+1 < len(args):
		dir, rest = args[at+1], append(append([]string{}, args[:at]...), args[at+2:]...)
	case strings.HasPrefix(a, "-C=") || strings.HasPrefix(a, "--C="):
		_, dir, _ = strings.Cut(a, "=")
		rest = append(append([]string{}, args[:at]...), args[at+1:]...)
	default:
		return "", nil, false
	}
	return dir, rest, dir != ""
}

// opaque: arguments a runner passes on, whose meaning is unknown; a run
// with one the failing run lacked does not cover it.
func opaque(args []string) []string {
	var out []string
	for _, a := range args {
		if a != "--" {
			out = append(out, a)
		}
	}
	return out
}

// flagScope reads flags and positional targets; stop ends the runner's
// own arguments (go test's -args).
func flagScope(runner string, args []string, value, filter map[string]bool, whole []string, stop string) TestRun {
	r := TestRun{Runner: runner}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" && runner != "go test" {
			continue
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			r.Targets = append(r.Targets, a)
			continue
		}
		name, val, hasVal := flagName(a)
		if name == stop {
			// The test binary's own flags (-test.run=X): unknown here,
			// so they narrow.
			r.Filters = append(r.Filters, opaque(args[i+1:])...)
			break
		}
		short := !strings.HasPrefix(a, "--") && len(name) > 1 && !value[name] && !filter[name] && value[name[:1]]
		if short { // -kadd: pytest's and jest's one-letter flags take their value glued on
			name, val, hasVal = name[:1], name[1:], true
		}
		if value[name] && !hasVal && i+1 < len(args) {
			i++
			val, hasVal = args[i], true
		}
		if filter[name] || runner == "pytest" && pyConfigFilter(name, val) {
			f := "-" + name
			if hasVal {
				f += "=" + val
			}
			r.Filters = append(r.Filters, f)
		}
	}
	if r.Targets == nil {
		r.Targets = whole
	}
	return r
}

// unittestKeyFilters returns unittest's -k patterns in args (-k X, -kX,
// -k=X): each runs only the tests whose names match.
func unittestKeyFilters(args []string) []string {
	var f []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-k") {
			continue
		}
		v := strings.TrimPrefix(strings.TrimPrefix(a, "-k"), "=")
		if v == "" && i+1 < len(args) {
			i++
			v = args[i]
		}
		f = append(f, "-k="+v)
	}
	return f
}

// pyConfigFilter: a pytest flag that swaps in a config no check reads
// (round 18 review): `-c ../lazy.ini` names a file outside the repository
// (outsideconfig reads only the config pytest finds itself), and `-o
// addopts=...` sets the options on the line; either can carry `-k "not
// test_plain"`, and the run passed as a whole-suite run. A config inside
// the repository (`-c tests/pytest.ini`) is the project's, judged with
// its files, and other ini overrides (`-o log_cli=true`) select nothing.
func pyConfigFilter(name, val string) bool {
	switch name {
	case "c", "config-file", "inifile":
		return val == "" || strings.HasPrefix(val, "/") || strings.HasPrefix(val, "~") || val == ".." ||
			strings.HasPrefix(val, "../") || strings.Contains(val, "/../") || strings.ContainsAny(val, "$`")
	case "o", "override-ini":
		return strings.HasPrefix(strings.ToLower(strings.TrimSpace(val)), "addopts")
	}
	return false
}

// cargoScope: -p picks packages (--workspace all of them), --lib, --test X
// and friends pick targets of a package, a bare word filters tests by
// name, and after -- the harness's --skip, --exact and names filter too.
func cargoScope(args []string) TestRun {
	r := TestRun{Runner: "cargo test"}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			for _, h := range args[i+1:] {
				switch {
				case h == "--include-ignored" || h == "--nocapture" || h == "--show-output" || strings.HasPrefix(h, "--test-threads") || h == "-q" || h == "--quiet":
				default:
					r.Filters = append(r.Filters, h)
				}
			}
			break
		}
		if !strings.HasPrefix(a, "-") {
			r.Filters = append(r.Filters, a)
			continue
		}
		name, val, hasVal := flagName(a)
		if runnerFlags().cargoValueFlag[name] && !hasVal && i+1 < len(args) {
			i++
			val = args[i]
		}
		switch name {
		case "p", "package":
			r.Targets = append(r.Targets, "package:"+val)
		case "lib", "bins", "tests", "benches", "examples", "doc", "test", "bin", "example", "bench", "exclude", "no-run":
			f := "--" + name
			if val != "" {
				f += "=" + val
			}
			r.Filters = append(r.Filters, f)
		}
	}
	return r
}

// ScriptTarget is a test script a runner reads from a project file: a
// make target, a package.json script, a just recipe, a Taskfile task, a
// mise or pixi task.
type ScriptTarget struct {
	// File is the project file, relative to where the line started:
	// "package.json", a Makefile named by -f, or "" for make's own
	// choice (GNUmakefile, makefile, Makefile) in Dir.
	File string
	Dir  string
	Tool string // "make", "npm" (npm, yarn, pnpm, bun run), "just", "task", "mise" or "pixi"
	Name string // the target or script: "test", "test:unit"
}

// ScriptTargets lists the test scripts the test-suite runs of a line run
// from project files (`make test`, `npm test`, `yarn run test:unit`): what
// they run is in the repository, so it can be judged there (a test target
// that is `true`, or one the session rewrote).
func ScriptTargets(line string) []ScriptTarget {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return nil
	}
	var out []ScriptTarget
	var f folderTracker
	for _, c := range calls {
		w, nodes := expandedArgs(c) // `go test ./{a,b}/...` runs two packages
		if f.step(w, nodes) {
			continue
		}
		if !callRunsTests(w) {
			continue
		}
		dir := f.dir
		if d, ok := runChdir(w); ok {
			dir = joinDir(dir, d)
		}
		w = testWords(w)
		prog, args := path.Base(w[0]), w[1:]
		t := ScriptTarget{Dir: dir}
		switch prog {
		case "make", "gmake":
			t.Tool = "make"
			for i := 0; i < len(args); i++ {
				a := args[i]
				d, n, isDir := dirFlag("make", args, i)
				switch {
				case isDir:
					i += n - 1
					t.Dir = joinDir(t.Dir, d)
				case (a == "-f" || a == "--file" || a == "--makefile") && i+1 < len(args):
					i++
					t.File = args[i]
				case strings.HasPrefix(a, "-") || strings.Contains(a, "="):
				case t.Name == "":
					t.Name = a
				}
			}
		case "npm", "yarn", "pnpm", "bun":
			t.Tool, t.File = "npm", "package.json"
			for i := 0; i < len(args); i++ {
				a := args[i]
				d, n, isDir := dirFlag(prog, args, i)
				switch {
				case isDir:
					i += n - 1
					t.Dir = joinDir(t.Dir, d)
				case strings.HasPrefix(a, "-"):
				case a == "run" || a == "run-script":
				case a == "t" || a == "tst":
					t.Name = "test"
				case prog == "bun" && a == "test" && !slices.Contains(args[:i], "run"):
					t.Name = "" // bun's own runner, no script
				default:
					t.Name = a
				}
				if t.Name != "" || a == "test" {
					break
				}
			}
		case "just", "task", "mise", "pixi":
			t = recipeTarget(prog, args, dir)
		}
		if t.Tool != "" && t.Name != "" {
			out = append(out, t)
		}
	}
	return out
}

// interpreters run the script named after them; the script is the suite,
// not a filter.
var scriptRunners = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "node": true,
	"python": true, "python3": true, "ruby": true, "perl": true, "bats": true}

// Partial says which of r's filters make it run part of its suite, ""
// when none (issue 25: a narrow passing run met QA when nothing failed
// first). A known runner's filters (-run, -skip, -k, -m, -t, a cargo test
// name, ...) narrow; so does any argument a script or an unknown runner
// passes on (npm test -- -t foo, sh tests/check.sh --bare-only), except
// the script an interpreter runs and flags that only change the output
// (-v, -q, --color). Targets are judged against the repository's files
// by the caller: a path says nothing without them.
func (r TestRun) Partial() string {
	var narrow []string
	prog, _, _ := strings.Cut(r.Runner, " ")
	opaqueArgs := !knownScope[r.Runner]
	script := false
	for _, f := range r.Filters {
		if opaqueArgs {
			if name, _, _ := flagName(f); strings.HasPrefix(f, "-") && runnerFlags().reportFlags[name] {
				continue
			}
			if scriptRunners[path.Base(prog)] && !script && !strings.HasPrefix(f, "-") && (strings.Contains(f, "/") || path.Ext(f) != "") {
				script = true // the script an interpreter runs is the suite
				continue
			}
		}
		narrow = append(narrow, f)
	}
	if len(narrow) == 0 {
		return ""
	}
	return "a filter (" + strings.Join(narrow, " ") + ")"
}

// knownScope: runners whose Filters are real test filters (scopeOf).
var knownScope = map[string]bool{"go test": true, "pytest": true, "jest": true, "vitest": true, "cargo test": true, "unittest": true}

// TargetCovers reports whether test target a holds b (a package folder
// or file): the same, a Go `dir/...` pattern over what is under it, a
// folder over its files (not Go's: a package is not its sub-packages).
func TargetCovers(runner, a, b string) bool { return targetCovers(runner, a, b) }
