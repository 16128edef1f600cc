package testrun

import "testing"

// TestNewRunnerScript: a script new in the session is a test runner when
// every command runs a test and a failing one fails it.
func TestNewRunnerScript(t *testing.T) {
	exists := func(p string) bool { return p == "tests/test_a.sh" || p == "tests/b_test.sh" }
	for _, c := range []struct {
		name, body string
		ok         bool
	}{
		{"set -e, two test files", "#!/bin/sh\nset -eu\nsh tests/test_a.sh\nbash tests/b_test.sh\necho all passed\n", true},
		{"one test file", "#!/bin/sh\nsh tests/test_a.sh\n", true},
		{"shebang -e", "#!/bin/sh -e\nsh tests/test_a.sh\nsh tests/b_test.sh\n", true},
		{"a test runner", "#!/bin/sh\nset -e\ngo test ./...\n", true},
		{"echo ok", "echo ok\n", false},
		{"empty", "#!/bin/sh\n", false},
		{"|| true", "#!/bin/sh\nsh tests/test_a.sh || true\n", false},
		{"exit 0", "#!/bin/sh\nexit 0\n", false},
		{"set +e", "#!/bin/sh\nset -e\nset +e\nsh tests/test_a.sh\nsh tests/b_test.sh\n", false},
		{"two tests without set -e", "#!/bin/sh\nsh tests/test_a.sh\nsh tests/b_test.sh\n", false},
		{"echo after the test without set -e", "#!/bin/sh\nsh tests/test_a.sh\necho done\n", false},
		{"a test file not in the tree", "#!/bin/sh\nsh tests/test_c.sh\n", false},
		{"a script not named as a test", "#!/bin/sh\nsh scripts/build.sh\n", false},
		{"a command that tests nothing", "#!/bin/sh\nset -e\nls\nsh tests/test_a.sh\n", false},
	} {
		if _, ok := newRunnerScript(c.body, exists); ok != c.ok {
			t.Errorf("%s: runner %v, want %v", c.name, ok, c.ok)
		}
	}
	for _, c := range []struct {
		name, body string
		ok         bool
	}{
		{"a check", "#!/bin/sh\nset -e\ngrep -q hello greet.txt\necho PASS\n", true},
		{"one check", "#!/bin/sh\n[ \"$(cat greet.txt)\" = hello ]\n", true},
		{"only echo", "#!/bin/sh\necho PASS\n", false},
		{"true", "#!/bin/sh\ntrue\n", false},
		{"a check then echo without set -e", "#!/bin/sh\ngrep -q hello greet.txt\necho PASS\n", false},
		{"a check || true", "#!/bin/sh\ngrep -q hello greet.txt || true\n", false},
		// Checks that prove nothing about the code (issue 25: weak new tests).
		{"grep -q . (any line)", "#!/bin/sh\nset -e\ngrep -q . greet.txt\n", false},
		{"grep -q -e '' (any line)", "#!/bin/sh\ngrep -q -e '' greet.txt\n", false},
		{"a file exists", "#!/bin/sh\n[ -f scripts/greet.sh ]\n", false},
		{"test -s and ls", "#!/bin/sh\nset -e\ntest -s greet.txt\nls scripts\n", false},
		{"the script's output checked", "#!/bin/sh\nset -e\nsh scripts/greet.sh | grep -q '^hello$'\n", true},
		{"a file's content checked", "#!/bin/sh\n[ \"$(sh scripts/greet.sh)\" = hello ]\n", true},
	} {
		if ok := newTestFile(c.body); ok != c.ok {
			t.Errorf("test file %s: %v, want %v", c.name, ok, c.ok)
		}
	}
}
