package shellline

import "strings"

// TestsNotRun says why a command line runs a test runner in a mode that
// runs no test and still exits 0, or "" when it does not: go test that
// only compiles (-c), prints (-n) or lists (-list) the tests, or hands each
// test binary to another program (-exec, -toolexec: `-exec=true` reports
// every package ok); pytest that only collects or plans (--collect-only,
// --setup-plan, --fixtures, ...); jest's --listTests; cargo test --no-run.
// The flags count on the command line and in the variable the runner reads
// its default flags from when the line sets it (GOFLAGS, PYTEST_ADDOPTS).
// What the agent set earlier (an exported GOFLAGS, `go env -w`) is not on
// the line and is not seen; docs/protocol.md says so.
func TestsNotRun(line string) string {
	calls, _, ok := Calls(line)
	if !ok {
		return ""
	}
	for _, c := range calls {
		env := map[string]string{}
		for _, a := range c.Node.Assigns {
			if a.Name != nil {
				v, _ := Literal(a.Value)
				env[a.Name.Value] = v
			}
		}
		w := c.Words
		// env VAR=value ... and the other wrappers: their assignments count too.
		for _, x := range w {
			if k, v, ok := strings.Cut(x, "="); ok && k != "" && !strings.HasPrefix(k, "-") {
				env[k] = v
			}
		}
		w = StripWrappers(w)
		if len(w) == 0 {
			continue
		}
		prog := w[0][strings.LastIndexByte(w[0], '/')+1:]
		args := w[1:]
		if prog == "npx" || prog == "pnpx" || prog == "bunx" {
			if len(args) == 0 {
				continue
			}
			prog, args = args[0], args[1:]
		}
		if (strings.HasPrefix(prog, "python") || prog == "py") && len(args) >= 2 && args[0] == "-m" {
			prog, args = args[1], args[2:]
		}
		switch {
		case prog == "go" && len(args) > 0 && args[0] == "test":
			if f := goTestSkipFlag(args[1:]); f != "" {
				return "go test " + f + " runs no test"
			}
			if f := goTestSkipFlag(strings.Fields(env["GOFLAGS"])); f != "" {
				return "go test with GOFLAGS " + f + " runs no test"
			}
		case prog == "pytest" || prog == "py.test":
			if f := pytestSkipFlag(args); f != "" {
				return "pytest " + f + " runs no test"
			}
			if f := pytestSkipFlag(strings.Fields(env["PYTEST_ADDOPTS"])); f != "" {
				return "pytest with PYTEST_ADDOPTS " + f + " runs no test"
			}
		case prog == "jest" || prog == "vitest" || (prog == "npm" || prog == "yarn" || prog == "pnpm" || prog == "bun") && len(args) > 0 && (args[0] == "test" || args[0] == "t"):
			for _, a := range args {
				if a == "--listTests" || a == "--showConfig" {
					return prog + " " + a + " runs no test"
				}
			}
		case prog == "cargo" && len(args) > 0 && args[0] == "test":
			for _, a := range args[1:] {
				if a == "--" {
					break
				}
				if a == "--no-run" {
					return "cargo test --no-run runs no test"
				}
			}
		}
	}
	return ""
}

// goTestSkipFlag returns the first of go test's flags in args that keep it
// from running the tests, or "". Flags after -args are the test binary's.
func goTestSkipFlag(args []string) string {
	for _, a := range args {
		if a == "-args" || a == "--args" {
			return ""
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch name {
		case "c", "n":
			if !hasVal || val != "false" {
				return "-" + name
			}
		case "list", "exec", "toolexec":
			return "-" + name
		}
	}
	return ""
}

// pytestSkipFlag returns the first of pytest's options in args that make it
// collect, plan or describe the tests instead of running them, or "".
func pytestSkipFlag(args []string) string {
	for _, a := range args {
		name, _, _ := strings.Cut(a, "=")
		switch name {
		case "--collect-only", "--co", "--setup-plan", "--setup-only", "--fixtures", "--fixtures-per-test",
			"--markers", "--version", "-V", "--help", "-h":
			return name
		}
	}
	return ""
}
