package shellline

import (
	"path"
	"strings"
)

// RunsTests reports whether a line runs a test suite: a test runner
// (pytest, jest, go test, cargo test, npm test, make check, ...), or a
// program or script whose name says test, check or spec
// (scripts/test.sh, ./run_tests, bin/check). A QA phase with no command of
// its own takes only such a run: `ls`, `go vet` or `python3 -c pass` exit
// 0 without testing anything, and met "MUST run the tests" (adversarial
// pass, 2026-11-28).
func RunsTests(line string) bool {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return false
	}
	for _, c := range calls {
		// `{true,pytest}` runs `true pytest`: the words the shell runs.
		if callRunsTests(expandedWords(c)) {
			return true
		}
	}
	return false
}

// shellTest reports the shell's `test` and `[` (builtins, or their
// binaries in /bin and /usr/bin): `test -f go.mod` checks a file, not a
// suite, and met QA by its name before (issue 25). A repository script
// called test is run by a path (./test, scripts/test) and still counts.
func shellTest(prog string) bool {
	switch prog {
	case "test", "[", "[[", "/bin/test", "/usr/bin/test", "/bin/[", "/usr/bin/[":
		return true
	}
	return false
}

// testRunners are programs that only run tests.
var testRunners = map[string]bool{"Invoke-Pester": true, "jest": true, "vitest": true, "mocha": true, "ava": true, "tap": true, "karma": true,
	"phpunit": true, "rspec": true, "tox": true, "nox": true, "bats": true, "ctest": true, "nextest": true, "playwright": true,
	"cypress": true, "behave": true, "cucumber": true, "nose2": true, "trial": true}

// testSubcommand: a program whose subcommand runs its tests.
var testSubcommand = map[string]bool{"go": true, "cargo": true, "dotnet": true, "swift": true, "mix": true, "deno": true,
	"bun": true, "zig": true, "npm": true, "yarn": true, "pnpm": true, "make": true, "gmake": true, "just": true, "task": true,
	"rake": true, "gradle": true, "gradlew": true, "mvn": true, "mvnw": true, "bazel": true, "bazelisk": true, "sbt": true,
	"lein": true, "stack": true, "cabal": true, "dune": true, "hatch": true, "poetry": true, "pdm": true, "uv": true,
	"bundle": true, "composer": true, "mise": true, "pixi": true}

// taskRunners: `PROG run NAME` runs the project's task NAME.
var taskRunners = map[string]bool{"npm": true, "yarn": true, "pnpm": true, "bun": true, "mise": true, "pixi": true}

func saysTest(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "test") || strings.Contains(s, "check") || strings.Contains(s, "spec")
}

// testFolders hold a project's tests; runnerNames are what a script that
// runs a folder's tests is called.
var (
	testFolders = map[string]bool{"test": true, "tests": true, "t": true, "spec": true, "specs": true, "__tests__": true}
	runnerNames = map[string]bool{"run": true, "run_all": true, "run-all": true, "runall": true, "all": true, "runner": true, "main": true}
)

// scriptRunsTests: a script path whose name says test (scripts/test.sh),
// or the runner of a test folder (tests/run.sh, t/all.sh: issue 25's
// honest field pass, the project's own test script not counted). A
// helper in a test folder (tests/setup.sh, tests/fixtures/run.sh) is not.
func scriptRunsTests(p string) bool {
	b := path.Base(p)
	if saysTest(b) {
		return true
	}
	dir := path.Base(path.Dir(path.Clean(p)))
	stem := strings.ToLower(strings.TrimSuffix(b, path.Ext(b)))
	return testFolders[strings.ToLower(dir)] && runnerNames[stem]
}

func callRunsTests(w []string) bool {
	if len(w) == 0 {
		return false
	}
	prog := path.Base(w[0])
	if shellTest(w[0]) {
		return false
	}
	if testRunners[prog] || saysTest(prog) || strings.Contains(w[0], "/") && scriptRunsTests(w[0]) {
		return true
	}
	args := w[1:]
	switch prog {
	case "env", "nice", "timeout", "command", "exec", "nohup", "time", "xvfb-run", "npx", "bunx", "pnpx":
		// A wrapper: judge what it runs.
		skipNext := false
		for i, a := range args {
			switch {
			case skipNext:
				skipNext = false
			case prog == "env" && (a == "-u" || a == "--chdir" || a == "--unset" || !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "C")) || prog == "nice" && a == "-n":
				skipNext = true // the option's value (`env -u LANG go test`)
			case !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && (prog != "timeout" || i > 0):
				return callRunsTests(args[i:])
			}
		}
		return false
	case "python", "python3", "py":
		for i, a := range args {
			if a == "-m" && i+1 < len(args) {
				m := args[i+1]
				return m == "pytest" || m == "unittest" || m == "tox" || m == "nox" || m == "nose2" || saysTest(m)
			}
		}
		// python scripts/run_tests.py
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				return scriptRunsTests(a)
			}
		}
		return false
	case "pwsh", "powershell", "pwsh.exe", "powershell.exe":
		return pwshRunsTests(args)
	case "sh", "bash", "zsh", "dash", "node", "ruby", "perl", "php":
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				return scriptRunsTests(a)
			}
		}
		return false
	}
	if testSubcommand[prog] {
		skipNext := false
		for i, a := range args {
			switch {
			case skipNext:
				skipNext = false
			case (prog == "npm" || prog == "yarn" || prog == "pnpm" || prog == "make" || prog == "gmake") && (a == "--prefix" || a == "--cwd" || a == "-C" || a == "--dir" || a == "--directory"),
				prog == "go" && a == "-C":
				// `npm --prefix web test`, `make -C api test`, `go -C svc
				// test`: the folder is the flag's value, not the subcommand.
				skipNext = true
			case strings.HasPrefix(a, "-"):
			case a == "t" || saysTest(a):
				return true
			case a == "run" || a == "exec" || a == "x" || a == "r" && prog == "mise":
				// `npm run test:unit`, `uv run pytest`, `poetry run
				// python -m pytest`: judge what it runs.
				rest := args[i+1:]
				for len(rest) > 0 && (strings.HasPrefix(rest[0], "-") || rest[0] == "--") {
					rest = rest[1:]
				}
				// A script runner's `run` names a script or task, not a
				// program: `npm run test` and `mise run test` run the
				// project's test task (they read as the shell's `test`).
				if a != "exec" && a != "x" && taskRunners[prog] && len(rest) > 0 && saysTest(rest[0]) {
					return true
				}
				return callRunsTests(rest)
			default:
				return false
			}
		}
	}
	return false
}

// pwshValueFlags are PowerShell's command-line parameters that take a
// value (pwsh -ExecutionPolicy Bypass -File x.ps1).
var pwshValueFlags = map[string]bool{"-executionpolicy": true, "-ep": true, "-ex": true, "-workingdirectory": true, "-wd": true,
	"-outputformat": true, "-of": true, "-o": true, "-inputformat": true, "-if": true, "-configurationname": true, "-config": true,
	"-settingsfile": true, "-windowstyle": true, "-w": true, "-custompipename": true, "-encodedcommand": true, "-e": true, "-ec": true}

// pwshRunsTests judges a PowerShell command line: a script whose name says
// test (-File, or the first positional argument), or a -Command whose
// first command is Invoke-Pester or such a script. The team behind the
// real protocol tests with Pester (`pwsh -NoProfile -Command
// "Invoke-Pester -Path tests"`); its honest QA run was not counted (t7).
func pwshRunsTests(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := strings.ToLower(args[i])
		switch {
		case a == "-file" || a == "-f":
			return i+1 < len(args) && scriptRunsTests(args[i+1])
		case a == "-command" || a == "-c":
			if i+1 >= len(args) {
				return false
			}
			// The command is PowerShell, not sh: judge its first command
			// only (`Invoke-Pester -Path tests; exit $LASTEXITCODE`).
			first := strings.Fields(strings.TrimSpace(strings.SplitN(strings.Join(args[i+1:], " "), ";", 2)[0]))
			if len(first) > 0 && (first[0] == "&" || first[0] == ".") {
				first = first[1:]
			}
			if len(first) == 0 {
				return false
			}
			cmd := strings.Trim(first[0], `'"`)
			return strings.EqualFold(cmd, "Invoke-Pester") || strings.ContainsAny(cmd, `/\`) && scriptRunsTests(strings.ReplaceAll(cmd, `\`, "/"))
		case pwshValueFlags[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return scriptRunsTests(args[i])
		}
	}
	return false
}
