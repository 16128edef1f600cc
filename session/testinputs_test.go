package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// What a test run reads besides the tests, compared with the start
// commit (issue 25 QA gaps 2 and 3). The script `make test` or `npm test`
// calls, the Makefile variables its recipe uses and the runner's config:
// a change that removes lines or adds a filter, an early exit or a
// replaced function makes the run not count; a change that only adds
// checks is noted and counts.
const checkScript = "#!/bin/sh\ngrep -q hello greet.txt\ngrep -q l greet.txt\n"

func TestQATestInputsChanged(t *testing.T) {
	requireGit(t)
	makeT := map[string]string{"Makefile": "test:\n\tsh scripts/t.sh\n", "scripts/t.sh": checkScript}
	npmT := map[string]string{"package.json": `{"name": "p", "scripts": {"test": "sh scripts/t.sh"}}`, "scripts/t.sh": checkScript}
	pyT := map[string]string{"pytest.ini": "[pytest]\ntestpaths = tests\n", "tests/test_one.py": "def test_x(): pass\n"}
	pyproj := map[string]string{"pyproject.toml": "[project]\nname = \"p\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n", "tests/test_one.py": "def test_x(): pass\n"}
	goMake := map[string]string{"Makefile": "GOTESTFLAGS = -count=1\n\ntest:\n\tgo test $(GOTESTFLAGS) ./...\n", "go.mod": "module example.com/m\n", "a_test.go": "package m\n"}
	goScript := map[string]string{"Makefile": "test:\n\tsh scripts/t.sh\n", "scripts/t.sh": "#!/bin/sh\nset -e\ngo test ./...\n", "go.mod": "module example.com/m\n", "pkg/a/a_test.go": "package a\n", "pkg/b/b_test.go": "package b\n"}
	pyScript := map[string]string{"Makefile": "test:\n\tsh scripts/t.sh\n", "scripts/t.sh": "#!/bin/sh\nset -e\npytest\n", "tests/test_one.py": "def test_x(): pass\n"}
	npmScript := map[string]string{"Makefile": "test:\n\tsh scripts/t.sh\n", "scripts/t.sh": "#!/bin/sh\nset -e\nnpm test\n", "package.json": `{"name": "p", "scripts": {"test": "node --test"}}`}
	helperScript := map[string]string{"Makefile": "test:\n\tsh scripts/t.sh\n", "scripts/t.sh": "#!/bin/sh\nrun() { \"$@\"; }\nrun pytest\n", "tests/test_one.py": "def test_x(): pass\n"}
	const directScript = "#!/bin/sh\nset -e\ngrep -q hello greet.txt\ngrep -q l greet.txt\n"
	direct := map[string]string{"tests/check.sh": directScript}
	runTests := map[string]string{"run-tests.sh": "#!/bin/sh\npytest\n", "tests/test_one.py": "def test_x(): pass\n"}
	const sourcedLib = "check() { grep -q \"$1\" greet.txt; }\n"
	sourced := map[string]string{"tests/check.sh": "#!/bin/sh\nset -e\n. ./tests/lib.sh\ncheck hello\n", "tests/lib.sh": sourcedLib}
	tests := []struct {
		name          string
		start, during map[string]string
		line          string
		counts        bool
		noted         bool
	}{
		{name: "make test: the script it calls loses a check", start: makeT, during: map[string]string{"scripts/t.sh": "#!/bin/sh\ngrep -q hello greet.txt\n"}, line: "make test"},
		{name: "make test: the script it calls exits 0 first", start: makeT, during: map[string]string{"scripts/t.sh": "#!/bin/sh\nexit 0\n" + checkScript[10:]}, line: "make test"},
		{name: "npm test: the script it calls loses a check", start: npmT, during: map[string]string{"scripts/t.sh": "#!/bin/sh\ngrep -q hello greet.txt\n"}, line: "npm test"},
		{name: "npm test: the script it calls is deleted", start: npmT, during: map[string]string{"scripts/t.sh": ""}, line: "npm test"},
		{name: "pytest: addopts -k added to pytest.ini", start: pyT, during: map[string]string{"pytest.ini": "[pytest]\ntestpaths = tests\naddopts = -k add\n"}, line: "pytest"},
		{name: "pytest: [tool.pytest] testpaths narrowed", start: pyproj, during: map[string]string{"pyproject.toml": "[project]\nname = \"p\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests/unit\"]\n"}, line: "python3 -m pytest"},
		{name: "jest: a config added that ignores tests", start: map[string]string{"package.json": `{"name": "p"}`, "a.test.js": "test('x', () => {})\n"},
			during: map[string]string{"jest.config.js": "module.exports = {\n  testPathIgnorePatterns: ['a.test.js'],\n};\n"}, line: "npx jest"},
		{name: "mocha: grep added to .mocharc.yml", start: map[string]string{".mocharc.yml": "spec: test/\n", "test/a.spec.js": "it('x', () => {})\n"},
			during: map[string]string{".mocharc.yml": "spec: test/\ngrep: add\n"}, line: "npx mocha"},
		{name: "make test: a flag variable gets -run", start: goMake, during: map[string]string{"Makefile": "GOTESTFLAGS = -count=1 -run TestAdd\n\ntest:\n\tgo test $(GOTESTFLAGS) ./...\n"}, line: "make test"},
		// Route 1: a line of the script swapped one for one is judged:
		// fewer tests, or no test at all, weakens.
		{name: "make test: the script's go test ./... becomes one package", start: goScript, during: map[string]string{"scripts/t.sh": "#!/bin/sh\nset -e\ngo test ./pkg/a\n"}, line: "make test"},
		{name: "make test: the script's pytest becomes pytest -k fast", start: pyScript, during: map[string]string{"scripts/t.sh": "#!/bin/sh\nset -e\npytest -k fast\n"}, line: "make test"},
		{name: "make test: the script's npm test becomes echo ok", start: npmScript, during: map[string]string{"scripts/t.sh": "#!/bin/sh\nset -e\necho ok\n"}, line: "make test"},
		{name: "make test: a helper's test line narrowed", start: helperScript, during: map[string]string{"scripts/t.sh": "#!/bin/sh\nrun() { \"$@\"; }\nrun pytest -k fast\n"}, line: "make test"},
		// Route 2: a script run directly is compared with the start too.
		{name: "sh tests/check.sh: a check removed", start: direct, during: map[string]string{"tests/check.sh": "#!/bin/sh\nset -e\ngrep -q hello greet.txt\n"}, line: "sh tests/check.sh"},
		{name: "./run-tests.sh: exit 0 added", start: runTests, during: map[string]string{"run-tests.sh": "#!/bin/sh\nexit 0\npytest\n"}, line: "./run-tests.sh"},
		{name: "bash scripts/test: go test narrowed", start: map[string]string{"scripts/test": "#!/bin/bash\ngo test ./...\n", "go.mod": "module example.com/m\n", "a_test.go": "package m\n"},
			during: map[string]string{"scripts/test": "#!/bin/bash\ngo test -run TestA ./...\n"}, line: "bash scripts/test"},
		// Route 3: a helper the script sources.
		{name: "sh tests/check.sh: the sourced helper's check redefined", start: sourced, during: map[string]string{"tests/lib.sh": "check() { true; }\n"}, line: "sh tests/check.sh"},
		// Round 30 (c1): the runner line commented out or made a no-op.
		// Held on main already (regression rows); the Makefile recipe line
		// so changed is refused as "runs no test" (WeakScript).
		{name: "make test: the script's pytest made a comment", start: pyScript, during: map[string]string{"scripts/t.sh": "#!/bin/sh\nset -e\n# pytest\n"}, line: "make test"},
		{name: "make test: the script's pytest made a no-op", start: pyScript, during: map[string]string{"scripts/t.sh": "#!/bin/sh\nset -e\n: pytest\n"}, line: "make test"},
		{name: "./run-tests.sh: pytest made a comment", start: runTests, during: map[string]string{"run-tests.sh": "#!/bin/sh\n# pytest\n"}, line: "./run-tests.sh"},
		{name: "./run-tests.sh: pytest made a no-op", start: runTests, during: map[string]string{"run-tests.sh": "#!/bin/sh\n: pytest\n"}, line: "./run-tests.sh"},
		// Honest: unchanged, or only new checks.
		{name: "make test: the script's go test gains -race", start: goScript, during: map[string]string{"scripts/t.sh": "#!/bin/sh\nset -e\ngo test -race ./...\n"}, line: "make test", counts: true, noted: true},
		{name: "make test: a helper's test line gains -v", start: helperScript, during: map[string]string{"scripts/t.sh": "#!/bin/sh\nrun() { \"$@\"; }\nrun pytest -v\n"}, line: "make test", counts: true, noted: true},
		{name: "sh tests/check.sh: unchanged", start: direct, line: "sh tests/check.sh", counts: true},
		{name: "sh tests/check.sh: a check added", start: direct, during: map[string]string{"tests/check.sh": directScript + "grep -q o greet.txt\n"}, line: "sh tests/check.sh", counts: true, noted: true},
		{name: "./run-tests.sh: unchanged", start: runTests, line: "./run-tests.sh", counts: true},
		{name: "sh tests/check.sh: the sourced helper gains a function", start: sourced, during: map[string]string{"tests/lib.sh": sourcedLib + "has() { test -e \"$1\"; }\n"}, line: "sh tests/check.sh", counts: true, noted: true},
		{name: "make test: unchanged", start: makeT, line: "make test", counts: true},
		{name: "make test: the script gains a check", start: makeT, during: map[string]string{"scripts/t.sh": checkScript + "grep -q o greet.txt\n"}, line: "make test", counts: true, noted: true},
		{name: "npm test: the script gains a check", start: npmT, during: map[string]string{"scripts/t.sh": checkScript + "[ -s greet.txt ] || { echo FAIL; exit 1; }\n"}, line: "npm test", counts: true, noted: true},
		{name: "npm test: the script it calls is the tests, an expectation changes", start: npmT, during: map[string]string{"scripts/t.sh": "#!/bin/sh\ngrep -q hello greet.txt\ngrep -q ll greet.txt\n"}, line: "npm test", counts: true, noted: true},
		{name: "pytest: a marker declared", start: pyT, during: map[string]string{"pytest.ini": "[pytest]\ntestpaths = tests\nmarkers = slow: slow tests\n"}, line: "pytest", counts: true, noted: true},
		{name: "pytest: pyproject's other sections change", start: pyproj, during: map[string]string{"pyproject.toml": "[project]\nname = \"p\"\nversion = \"2\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n"}, line: "pytest", counts: true},
		{name: "make test: other Makefile variables change", start: goMake, during: map[string]string{"Makefile": "BIN = x\nGOTESTFLAGS = -count=1\n\ntest:\n\tgo test $(GOTESTFLAGS) ./...\n"}, line: "make test", counts: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			during := map[string]string{}
			var gone []string
			for k, v := range tc.during {
				if v == "" {
					gone = append(gone, k)
					continue
				}
				during[k] = v
			}
			e, id := toQA(t, tc.start, during)
			for _, g := range gone {
				removeFile(t, e.root, g)
			}
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
				Command: tc.line, Output: []byte("ok\n")})
			if err != nil {
				t.Fatal(err)
			}
			res := e.advance(id)
			if got := res.Blocked == nil; got != tc.counts {
				t.Fatalf("%q (exit %d, %s): QA passed=%v, want %v; blocked: %+v", ev.Command, *ev.ExitCode, ev.Ref, got, tc.counts, res.Blocked)
			}
			if got := strings.Contains(ev.Ref, "noted:"); got != tc.noted {
				t.Errorf("noted=%v, want %v: %s", got, tc.noted, ev.Ref)
			}
			if !tc.counts && !strings.Contains(ev.Ref, "proves less") {
				t.Errorf("the run's record does not say what it runs was weakened: %s", ev.Ref)
			}
		})
	}
}

// TestQACommandInputsChanged: a QA command set in sessiongate.yaml (`sh
// scripts/t.sh`) is run by the gate; a session change to its script that
// removes a check or replaces a function fails the gate, one that only
// adds checks passes with a warning (verify treats them the same way).
func TestQACommandInputsChanged(t *testing.T) {
	requireGit(t)
	const fnScript = "#!/bin/sh\ncheck() { grep -q \"$1\" greet.txt; }\ncheck hello\ncheck l\n"
	tests := []struct {
		name   string
		during string // scripts/t.sh in the session ("" unchanged)
		passes bool
		warns  bool
	}{
		{name: "unchanged", passes: true},
		{name: "a check added", during: fnScript + "check o\n", passes: true, warns: true},
		{name: "a check removed", during: "#!/bin/sh\ncheck() { grep -q \"$1\" greet.txt; }\ncheck hello\n"},
		{name: "the helper redefined to pass", during: fnScript[:10] + "check() { grep -q \"$1\" greet.txt; }\ncheck() { true; }\ncheck hello\ncheck l\n"},
		{name: "exit 0 added before the checks", during: "#!/bin/sh\nexit 0\n" + fnScript[10:]},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, qaProtocol)
			e.engine.Config.Commands = map[string]string{"QA_VALIDATION": "sh scripts/t.sh"}
			e.commitFile("greet.txt", "hello\n")
			e.commitFile("scripts/t.sh", fnScript)
			id := e.start("QA by the configured command")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: run the tests")
			e.advance(id) // WORKING
			if tc.during != "" {
				e.commitFile("scripts/t.sh", tc.during)
			}
			e.advance(id) // into QA_VALIDATION
			if _, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
				Command: "sh scripts/t.sh", Output: []byte("ok\n")}); err != nil {
				t.Fatal(err)
			}
			res := e.advance(id)
			if got := res.Blocked == nil; got != tc.passes {
				t.Fatalf("QA passed=%v, want %v: %+v", got, tc.passes, res.Blocked)
			}
			if !tc.passes && !strings.Contains(res.Blocked.Reason, "proves less") {
				t.Errorf("the gate does not say the QA command's script was weakened: %s", res.Blocked.Reason)
			}
			warned := false
			for _, g := range res.Gates {
				for _, w := range g.Warnings {
					warned = warned || strings.Contains(w, "scripts/t.sh") && strings.Contains(w, "noted")
				}
			}
			if warned != tc.warns {
				t.Errorf("warned=%v, want %v: %+v", warned, tc.warns, res.Gates)
			}
		})
	}
}

// TestQANewTestScript: a project with no tests gets its first ones in the
// session (issue 25 route 4). A new runner script that runs only the new
// test files and fails when they fail is QA (it was refused as a script
// the session wrote); one that runs nothing, swallows failures, runs no
// test file or runs a test file that checks nothing is still refused.
func TestQANewTestScript(t *testing.T) {
	requireGit(t)
	const run = "#!/bin/sh\nset -e\nsh tests/test_greet.sh\n"
	const check = "#!/bin/sh\nset -e\ngrep -q hello greet.txt\necho PASS\n"
	tests := []struct {
		name           string
		run, check, py string
		counts         bool
	}{
		{name: "run.sh is echo ok", run: "echo ok\n", check: check},
		{name: "run.sh swallows the failure", run: "#!/bin/sh\nsh tests/test_greet.sh || true\n", check: check},
		{name: "run.sh ends in echo without set -e", run: "#!/bin/sh\nsh tests/test_greet.sh\necho done\n", check: check},
		{name: "run.sh runs no test file", run: "#!/bin/sh\nset -e\ncat greet.txt\n", check: check},
		{name: "run.sh exits 0 first", run: "#!/bin/sh\nexit 0\nsh tests/test_greet.sh\n", check: check},
		{name: "the test file only echoes", run: run, check: "#!/bin/sh\necho PASS\n"},
		{name: "the test file ends in echo without set -e", run: run, check: "#!/bin/sh\ngrep -q hello greet.txt\necho PASS\n"},
		{name: "the test file is python that only prints", run: "#!/bin/sh\nset -e\npython3 tests/test_greet.py\n", check: check, py: "print(\"ok\")\n"},
		// Honest.
		{name: "set -e runner and checking test file", run: run, check: check, counts: true},
		{name: "one-command runner after a print", run: "#!/bin/sh\necho running the tests\nsh tests/test_greet.sh\n", check: "#!/bin/sh\ngrep -q hello greet.txt\n", counts: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			during := map[string]string{"tests/run_tests.sh": tc.run, "tests/test_greet.sh": tc.check}
			if tc.py != "" {
				during["tests/test_greet.py"] = tc.py
			}
			e, id := toQA(t, nil, during)
			ev, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
				Command: "sh tests/run_tests.sh", Output: []byte("PASS\n")})
			if err != nil {
				t.Fatal(err)
			}
			res := e.advance(id)
			if got := res.Blocked == nil; got != tc.counts {
				t.Fatalf("%q (exit %d, %s): QA passed=%v, want %v; blocked: %+v", ev.Command, *ev.ExitCode, ev.Ref, got, tc.counts, res.Blocked)
			}
		})
	}
}

// TestQACommandBesideATestFolder: `make test` in a project with a test/
// folder. The word "test" of the command named the folder, which was
// looked up as a file at the start commit: `git cat-file blob` of a tree
// failed and blocked every honest QA gate of such a project (the field
// pass's npm test with test/ and go test beside test/ too). The folder is
// no file; the script the target runs is still compared.
func TestQACommandBesideATestFolder(t *testing.T) {
	requireGit(t)
	const run = "#!/bin/sh\ngrep -q hello greet.txt\ngrep -q l greet.txt\n"
	tests := []struct {
		name   string
		during string // test/run.sh in the session ("" unchanged)
		passes bool
	}{
		{name: "honest: unchanged checks", passes: true},
		{name: "honest: a check added", during: run + "grep -q o greet.txt\n", passes: true},
		{name: "lazy: a check cut", during: "#!/bin/sh\ngrep -q hello greet.txt\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, qaProtocol)
			e.engine.Config.Commands = map[string]string{"QA_VALIDATION": "make test"}
			e.commitFile("greet.txt", "hello\n")
			// .PHONY: without it make says "'test' is up to date" beside
			// the folder and runs nothing, which the gate fails (lazy
			// pass 33); this test's Makefile never ran test/run.sh before.
			e.commitFile("Makefile", ".PHONY: test\ntest:\n\tsh test/run.sh\n")
			e.commitFile("test/run.sh", run)
			id := e.start("QA by make test beside test/")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: run the tests")
			e.advance(id) // WORKING
			if tc.during != "" {
				e.commitFile("test/run.sh", tc.during)
			}
			e.advance(id) // into QA_VALIDATION
			if _, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
				Command: "make test", Output: []byte("ok\n")}); err != nil {
				t.Fatal(err)
			}
			res := e.advance(id)
			if got := res.Blocked == nil; got != tc.passes {
				t.Fatalf("QA passed=%v, want %v: %+v", got, tc.passes, res.Blocked)
			}
			if !tc.passes && !strings.Contains(res.Blocked.Reason, "proves less") {
				t.Errorf("the gate does not say test/run.sh was weakened: %s", res.Blocked.Reason)
			}
		})
	}
}

// TestQACommandScriptRenamed: `make test` runs tests/run.sh, which runs
// scripts/greet.sh. An honest rename (git mv to scripts/hello.sh, the
// caller updated) was refused as a script deleted plus one the session
// wrote (the field pass's make rename); a moved script with the same
// content is the same checks. A rename that also cuts a check still fails.
func TestQACommandScriptRenamed(t *testing.T) {
	requireGit(t)
	const check = "#!/bin/sh\ngrep -q hello greet.txt\ngrep -q l greet.txt\n"
	tests := []struct {
		name    string
		renamed string // scripts/hello.sh after the move
		passes  bool
	}{
		{name: "honest: renamed as is", renamed: check, passes: true},
		{name: "lazy: renamed with a check cut", renamed: "#!/bin/sh\ngrep -q hello greet.txt\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, qaProtocol)
			e.engine.Config.Commands = map[string]string{"QA_VALIDATION": "make test"}
			e.commitFile("greet.txt", "hello\n")
			e.commitFile("Makefile", "test:\n\tsh tests/run.sh\n")
			e.commitFile("tests/run.sh", "#!/bin/sh\nset -e\nsh scripts/greet.sh\n")
			e.commitFile("scripts/greet.sh", check)
			id := e.start("rename the check script")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: run the tests")
			e.advance(id) // WORKING
			gittest.Git(t, e.root, "mv", "scripts/greet.sh", "scripts/hello.sh")
			e.commitFile("scripts/hello.sh", tc.renamed)
			e.commitFile("tests/run.sh", "#!/bin/sh\nset -e\nsh scripts/hello.sh\n")
			e.advance(id) // into QA_VALIDATION
			if _, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
				Command: "make test", Output: []byte("ok\n")}); err != nil {
				t.Fatal(err)
			}
			res := e.advance(id)
			if got := res.Blocked == nil; got != tc.passes {
				t.Fatalf("QA passed=%v, want %v: %+v", got, tc.passes, res.Blocked)
			}
		})
	}
}
