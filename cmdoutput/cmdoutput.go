package cmdoutput

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/testrun"
)

// A command that exits 0 has not necessarily checked anything: a linter
// whose ignore list covers every file it was given lints nothing and
// reports success (the trap the real protocol's team filed: zero files
// linted is not clean). NothingChecked reads the output of known tools, and
// the check's proves= pattern, for proof that the command did its work.

var outputREs = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		// markdownlint-cli2: "Linting: 0 files" (0.24), "Linting: 0 file(s)" (earlier).
		"markdownlint-cli2": regexp.MustCompile(`(?m)^Linting: (\d+) file(?:s|\(s\))?\s*$`),
		// ruff: "warning: No Python files found under the given path(s)".
		"ruff": regexp.MustCompile(`(?m)^warning: No Python files found`),
		// go test: every package line says "[no test files]".
		"go test":       regexp.MustCompile(`(?m)^\?\s+\S+\s+\[no test files\]\s*$`),
		"go test other": regexp.MustCompile(`(?m)^(ok|FAIL|---|===|PASS)\b`),
	}
})

// MarkdownlintConfigs are the files that decide what markdownlint-cli2
// lints and ignores.
var MarkdownlintConfigs = []string{
	".markdownlint-cli2.jsonc", ".markdownlint-cli2.yaml", ".markdownlint-cli2.cjs", ".markdownlint-cli2.mjs",
	".markdownlint.jsonc", ".markdownlint.json", ".markdownlint.yaml", ".markdownlint.yml", ".markdownlint.cjs", ".markdownlint.mjs",
	".markdownlintignore",
}

// NothingChecked returns why a command that exited 0 checked nothing, or
// "" when its output shows it did (or says nothing either way). tool names
// the tool whose summary was read ("" for proves=).
func NothingChecked(c protocolspec.Check, out []byte) (reason, tool string) {
	if c.Proves != "" {
		re, err := regexp.Compile(c.Proves)
		if err == nil && !re.Match(out) {
			return fmt.Sprintf("its output does not match proves=%q, so it did not show that it checked anything", c.Proves), ""
		}
		return "", ""
	}
	res := outputREs()
	if m := res["markdownlint-cli2"].FindAllSubmatch(out, -1); len(m) > 0 {
		total := 0
		for _, x := range m {
			n, _ := strconv.Atoi(string(x[1]))
			total += n
		}
		if total == 0 {
			return "markdownlint-cli2 reported \"Linting: 0 files\": its ignore list or configuration excluded every file it was given", "markdownlint-cli2"
		}
		return "", ""
	}
	if res["ruff"].Match(out) {
		return "ruff found no Python files to check", "ruff"
	}
	if res["go test"].Match(out) && !res["go test other"].Match(out) {
		return "go test found no test files in any package", "go test"
	}
	if eslintIgnoredOnly(out) {
		return "eslint ignored every file it was given (each problem is \"File ignored\")", "eslint"
	}
	if pytestCollectedOnly(out) {
		return "pytest only collected tests (--collect-only): it ran none", "pytest"
	}
	if rakeTestSilent(c.Arg, out) {
		return "rake test printed no test runner's summary: its test task ran no test file", TestFilter
	}
	if goal := testrun.MakeIdle(out); goal != "" && testrun.RanNoTests(out) {
		return "make ran no recipe for " + strconv.Quote(goal) + ": it says the target is up to date, so no test ran (a file or folder named " + goal + " exists and the Makefile does not declare .PHONY: " + goal + ")", MakeIdle
	}
	if testrun.RanNoTests(out) {
		// A filter matched no test: -run or -k in the command, or in
		// the environment the gate ran in (GOFLAGS, PYTEST_ADDOPTS).
		return "the test runner says it ran no test (a filter matched none: -run/-k in the command, or GOFLAGS/PYTEST_ADDOPTS in the environment)", TestFilter
	}
	return "", ""
}

// MakeIdle is NothingChecked's tool for a make goal that ran no recipe
// and no test: never a skip either.
const MakeIdle = "make idle"

// TestFilter is NothingChecked's tool for a test run whose filter matched
// no test: unlike a repository without tests, that is never a skip.
const TestFilter = "test filter"
