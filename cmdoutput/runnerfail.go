package cmdoutput

import (
	"regexp"
	"strings"
	"sync"
)

// runnerFailRE matches a test runner's own line saying tests failed, alone
// on its line as the runner prints it: go test (`--- FAIL: T`, `FAIL` and
// `FAIL<TAB>pkg`), pytest's closing `=== 2 failed, 3 passed in 0.1s ===`,
// Jest's `Tests: 1 failed`, Vitest's `Tests  1 failed`, node --test's
// `# fail 1` (and `ℹ fail 1`), cargo's `test result: FAILED.`, Mocha's
// `1 failing`, RSpec's `3 examples, 1 failure` and the plain `N passed,
// N failed`, unittest's `FAILED (failures=2)`, `pytest -q`'s bare `1 failed in 0.05s`. A count of 0 is no failure.
var runnerFailRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^(?:` +
		`--- FAIL: \S.*|FAIL|FAIL\t\S.*` +
		`|=+ (?:.*\b)?[1-9]\d* (?:failed|errors?)\b.* in [\d.]+m?s\b.*=+` +
		`|Tests:\s+[1-9]\d* failed.*` +
		`|\s*Tests\s+[1-9]\d* failed.*` +
		`|(?:# |ℹ )fail [1-9]\d*` +
		`|test result: FAILED\..*` +
		`|\s+[1-9]\d* failing` +
		`|\d+ examples?, [1-9]\d* failures?.*` +
		`|(?:\w+: )?\d+ passed, [1-9]\d* failed(?:, \d+ skipped)?` +
		`|FAILED \((?:failures|errors)=[1-9]\d*.*\)` +
		`|(?:\d+ \w+, )*[1-9]\d* (?:failed|errors?)(?:, \d+ \w+)* in [\d.]+m?s(?: \([\d:.]+\))?` +
		`)\r?$`)
})

// RunnerFailed returns the first line of out in which a test runner says
// tests failed, "" when there is none. A command whose status says 0 while
// its runner printed that is no pass: Codex's exit status comes from its
// rollout, a file the agent's shell can rewrite, while the output in its
// PostToolUse payload is Codex's own (issue 25 item 4).
func RunnerFailed(out []byte) string {
	loc := runnerFailRE().FindIndex(out)
	if loc == nil {
		return ""
	}
	return strings.TrimSpace(string(out[loc[0]:loc[1]]))
}
