package testrun

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/shellline"
)

// A project with no tests gets its first ones in the session: the agent
// writes tests/test_greet.sh and a tests/run.sh that runs it (issue 25
// route 4). Any script new in the session was refused as "the session
// wrote what its tests run", which left such a session no QA at all. A new
// runner script is honest evidence when every command it runs is a test
// run (a test runner, or a test file: test_*, *_test.*, *.test.*) and a
// failing one fails it (set -e, or the test is its only and last
// command); a new test file it runs must check something (no command that
// proves nothing, such as echo or true, as its only work) and fail the
// same way. `echo ok > run.sh`, `|| true`, `exit 0` or a test followed by
// an echo without set -e stay refused.

var errexitRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(set\s+(-[a-z]*e[a-z]*|-o\s+errexit)\b|#!.*\s-[a-z]*e[a-z]*\s*$)`)
})

// testNamed: a file named as a test (tests/test_greet.sh, greet_test.sh,
// greet.test.js), whatever its language.
func testNamed(p string) bool {
	b := path.Base(p)
	return strings.HasPrefix(b, "test_") || strings.HasPrefix(b, "test.") || strings.Contains(b, "_test.") || strings.Contains(b, ".test.") || strings.Contains(b, ".spec.")
}

// scriptCommands splits a script into its command lines (comments,
// blank lines, set and cd aside) and says whether a failing command
// fails it.
func scriptCommands(body string) (cmds []string, errexit bool, weak string) {
	for _, l := range strings.Split(body, "\n") {
		s := strings.TrimSpace(l)
		if errexitRE().MatchString(s) {
			errexit = true
			continue
		}
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		if why := shellline.AddedLineWeakens(s, ""); why != "" {
			return nil, false, why
		}
		if strings.HasPrefix(s, "set ") || s == "cd" || strings.HasPrefix(s, "cd ") {
			continue
		}
		cmds = append(cmds, s)
	}
	return cmds, errexit, ""
}

// failsWhenTheyFail: a failing command fails the script: set -e, or its
// one command (prints aside) is its last.
func failsWhenTheyFail(cmds []string, errexit bool) bool {
	return errexit || len(nonPrint(cmds)) == 1 && !isPrint(cmds[len(cmds)-1])
}

// newRunnerScript reports whether a script new in the session runs only
// tests and fails when they fail; tests are the test files it runs
// (relative to the repository root). exists says a file is in the work
// tree.
func newRunnerScript(body string, exists func(string) bool) (tests []string, ok bool) {
	cmds, errexit, weak := scriptCommands(body)
	if weak != "" || len(cmds) == 0 || !failsWhenTheyFail(cmds, errexit) {
		return nil, false
	}
	for _, c := range cmds {
		if isPrint(c) {
			continue
		}
		rs := ranScripts(c)
		if len(rs) == 0 {
			if len(shellline.TestRuns(c)) == 0 {
				return nil, false // a command that runs no test
			}
			continue
		}
		for _, r := range rs {
			p := path.Clean(path.Join(r.dir, strings.TrimPrefix(r.file, "./")))
			if !testNamed(p) || !exists(p) {
				return nil, false
			}
			tests = append(tests, p)
		}
	}
	return tests, true
}

// newTestFile reports whether a test file new in the session checks
// something and fails when a check fails.
func newTestFile(body string) bool {
	cmds, errexit, weak := scriptCommands(body)
	if weak != "" || len(cmds) == 0 || !failsWhenTheyFail(cmds, errexit) {
		return false
	}
	for _, c := range cmds {
		if !isPrint(c) && !shellline.Trivial(c) && !shellChecksNothing(c) {
			return true
		}
	}
	return false
}

func isPrint(c string) bool {
	f := strings.Fields(c)
	return len(f) > 0 && (f[0] == "echo" || f[0] == "printf")
}

func nonPrint(cmds []string) []string {
	var out []string
	for _, c := range cmds {
		if !isPrint(c) {
			out = append(out, c)
		}
	}
	return out
}

// shellScript: a file read as shell (by its extension or first line).
// A test file in another language (test_x.py run by python3) is not
// judged line by line here: print("ok") would pass for a check.
func shellScript(p string, b []byte) bool {
	switch path.Ext(p) {
	case ".sh", ".bash", ".bats":
		return true
	case "":
		first, _, _ := strings.Cut(string(b), "\n")
		return strings.HasPrefix(first, "#!") && (strings.HasSuffix(strings.Fields(first)[0], "sh") || strings.Contains(first, "env bash") || strings.Contains(first, "env sh"))
	}
	return false
}
