package session_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// qaProtocol: a QA phase with no command of its own (none in
// sessiongate.yaml, no command gate), whose requirement names none: it
// takes only a run of the project's test suite.
const qaProtocol = `# P

## Session Start

### Phase 1: Context Retrieval (BLOCKING)

<!-- gate: evidence tool_output -->

- The agent MUST read the README.

## Session End

### Phase 1: QA Validation (BLOCKING)

<!-- gate: evidence tool_output origin=observed -->

- The agent MUST run the tests and record their output.
`

// Project files the cases start from: a real check each (greet.txt must
// say hello), so an honest make test or npm test tests something.
const (
	realMakefile = "test:\n\tgrep -q hello greet.txt\n"
	realPkg      = `{"name": "p", "private": true, "scripts": {"test": "node test.js"}}` + "\n"
	realTestJS   = "const fs = require('fs'); if (!fs.readFileSync('greet.txt', 'utf8').includes('hello')) process.exit(1);\n"
)

// toQA starts a session on qaProtocol in a repository holding start
// (committed), writes during (staged: not untracked, so the untracked
// rule does not decide) and moves to the QA phase.
func toQA(t *testing.T, start, during map[string]string) (*env, string) {
	t.Helper()
	e := newEnv(t, qaProtocol)
	files := map[string]string{"greet.txt": "hello\n"}
	for k, v := range start {
		files[k] = v
	}
	gittest.Commit(t, e.root, "project", files)
	id := e.start("QA by a real test run")
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: run the tests")
	e.advance(id) // WORKING
	for k, v := range during {
		gittest.Write(t, e.root, k, v)
		gittest.Git(t, e.root, "add", k)
	}
	e.advance(id) // into QA_VALIDATION
	return e, id
}

// TestQATakesOnlyARealTestRun: a QA phase without a command takes a run
// of the project's test suite, never one that only names it (issue 25
// route 1): the shell's test builtin, echo, a make target or npm script
// that runs nothing or that the session wrote. Honest runs still count.
// Lines with a shell are recorded as `sessiongate run -- sh -c '...'`
// records them; runs of make and npm run the real programs.
func TestQATakesOnlyARealTestRun(t *testing.T) {
	requireGit(t)
	tests := []struct {
		name          string
		start, during map[string]string
		line          string // recorded with output and exit, or
		argv          []string
		out           string
		exit          int
		counts        bool
	}{
		// Honest runs.
		{name: "go test", line: "go test ./...", out: "ok  \texample.com/p\t0.01s\n", counts: true},
		{name: "go test -race -count=1", line: "go test -race -count=1 ./...", out: "ok  \texample.com/p\t1.2s\n", counts: true},
		{name: "pytest -q", line: "pytest -q", out: "...\n3 passed in 0.01s\n", counts: true},
		{name: "uv run pytest", line: "uv run pytest", out: "=== 3 passed in 0.02s ===\n", counts: true},
		{name: "cargo test", line: "cargo test", out: "test result: ok. 3 passed; 0 failed\n", counts: true},
		{name: "make test, an unchanged real target", start: map[string]string{"Makefile": realMakefile}, argv: []string{"make", "test"}, counts: true},
		{name: "npm test, an unchanged real script", start: map[string]string{"package.json": realPkg, "test.js": realTestJS}, argv: []string{"npm", "test"}, counts: true},
		{name: "make test, the session changed other targets", start: map[string]string{"Makefile": realMakefile + "\nbuild:\n\tcc -o x x.c\n"},
			during: map[string]string{"Makefile": realMakefile + "\nbuild:\n\tcc -O2 -o x x.c\n"}, argv: []string{"make", "test"}, counts: true},

		// The shell's test and what only names a test runner.
		{name: "test -f", line: "test -f greet.txt"},
		{name: "[ -f ]", line: "sh -c '[ -f greet.txt ]'"},
		{name: "/usr/bin/test", line: "/usr/bin/test -f greet.txt"},
		{name: "true && test -d", line: "sh -c 'true && test -d .'"},
		{name: "echo go test", line: "echo go test", out: "go test\n"},
		{name: "printf go test", line: "printf 'go test\\n'", out: "go test\n"},
		// bash runs `true pytest` (a hook-observed line is bash's).
		{name: "true in braces before pytest", line: "{true,pytest}", out: "3 passed in 0.01s\n"},
		// A make target or npm script that runs nothing, or that the session wrote.
		{name: "make test, target true", start: map[string]string{"Makefile": "test:\n\ttrue\n"}, argv: []string{"make", "test"}},
		{name: "make test, target echo", start: map[string]string{"Makefile": "test: unit\nunit:\n\t@echo all tests pass\n"}, argv: []string{"make", "test"}},
		{name: "make test, target written in the session", during: map[string]string{"Makefile": realMakefile}, argv: []string{"make", "test"}},
		{name: "make test, target changed in the session", start: map[string]string{"Makefile": realMakefile},
			during: map[string]string{"Makefile": "test:\n\tgrep -q h greet.txt\n"}, argv: []string{"make", "test"}},
		{name: "npm test, exit 0", start: map[string]string{"package.json": `{"scripts": {"test": "exit 0"}}`}, argv: []string{"npm", "test"}},
		{name: "npm test, echo", start: map[string]string{"package.json": `{"scripts": {"test": "echo tests pass"}}`}, argv: []string{"npm", "test"}},
		{name: "npm test, script changed in the session", start: map[string]string{"package.json": realPkg, "test.js": realTestJS},
			during: map[string]string{"package.json": `{"name": "p", "private": true, "scripts": {"test": "node -e 0"}}`}, argv: []string{"npm", "test"}},
		// Runners told to run nothing, or whose status the line hides.
		{name: "pytest --collect-only", line: "pytest --collect-only", out: "collected 3 items\n"},
		{name: "go test -run XXX_NONE", line: "go test -run XXX_NONE ./...", out: "ok  \texample.com/p\t0.01s [no tests to run]\n"},
		{name: "go test -list", line: "go test -list . ./...", out: "TestGreet\nok  \texample.com/p\t0.01s\n"},
		{name: "pytest -k nothing", line: "pytest -k nothing", out: "=== 3 deselected in 0.01s ===\n", exit: 5},
		{name: "go test || true", line: "sh -c 'go test ./... || true'", out: "FAIL\texample.com/p\n"},
		{name: "go test ; true", line: "sh -c 'go test ./... ; true'", out: "FAIL\texample.com/p\n"},
		{name: "go test &", line: "sh -c 'go test ./... &'"},
		{name: "timeout 1 go test", line: "timeout 1 go test ./...", exit: 124},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			e, id := toQA(t, tc.start, tc.during)
			var ev *session.Evidence
			if tc.argv != nil {
				if _, err := exec.LookPath(tc.argv[0]); err != nil {
					t.Skipf("%s not installed: %v", tc.argv[0], err)
				}
				// npm alone takes seconds to start on a loaded machine.
				res, err := e.engine.Run(ctx, session.RunRequest{ID: id, Phase: "QA_VALIDATION", Argv: tc.argv, Timeout: 2 * time.Minute})
				if err != nil {
					t.Fatal(err)
				}
				ev = res.Evidence
			} else {
				var err error
				ev, err = e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
					Command: tc.line, ExitCode: tc.exit, Output: []byte(tc.out)})
				if err != nil {
					t.Fatal(err)
				}
			}
			res := e.advance(id)
			if got := res.Blocked == nil; got != tc.counts {
				t.Fatalf("%q (recorded: exit %d, %s): QA passed=%v, want %v; blocked: %+v", ev.Command, *ev.ExitCode, ev.Ref, got, tc.counts, res.Blocked)
			}
			if !tc.counts && tc.argv != nil && *ev.ExitCode == 0 {
				t.Fatalf("%q counted as exit 0: %s", ev.Command, ev.Ref)
			}
			if !tc.counts && strings.Contains(tc.name, "session") && !strings.Contains(res.Blocked.Reason, "in this session") {
				t.Errorf("the refusal does not say the session wrote the script: %s", res.Blocked.Reason)
			}
		})
	}
}

// TestQANarrowedPassAfterFailure: once a test-suite run failed, only a
// later passing run that covers it (the same command or broader) meets QA
// (issue 25 route 2); the gate names the failing run and the command that
// answers it. Debugging with narrow runs stays free.
func TestQANarrowedPassAfterFailure(t *testing.T) {
	requireGit(t)
	type run struct {
		line   string
		exit   int
		source string // "" is sessiongate run for the QA phase; an agent's name is its hook, seen while WORKING
	}
	tests := []struct {
		name       string
		runs       []run
		passes     bool
		unanswered string // the failing command the gate names
	}{
		{name: "fail, then -run one test", runs: []run{{line: "go test ./...", exit: 1}, {line: "go test -run TestAdd ./pkg"}}, unanswered: "go test ./..."},
		{name: "fail, then one package", runs: []run{{line: "go test ./...", exit: 1}, {line: "go test ./pkg"}}, unanswered: "go test ./..."},
		{name: "fail, then -skip", runs: []run{{line: "go test ./...", exit: 1}, {line: "go test -skip TestSlow ./..."}}, unanswered: "go test ./..."},
		{name: "pytest fail, then one file", runs: []run{{line: "pytest", exit: 1}, {line: "pytest tests/test_one.py"}}, unanswered: "pytest"},
		{name: "pytest fail, then -k", runs: []run{{line: "pytest -q", exit: 1}, {line: "pytest -q -k add"}}, unanswered: "pytest -q"},
		{name: "failure seen by the agent's hook while working", runs: []run{{line: "go test ./...", exit: 1, source: "claude"}, {line: "go test -run TestAdd ./pkg"}}, unanswered: "go test ./..."},
		{name: "failure hidden behind a pipe, then -run one test", runs: []run{{line: "sh -c 'go test ./... | tail -3'"}, {line: "go test -run TestAdd ./pkg"}}, unanswered: "sh -c 'go test ./... | tail -3'"},
		{name: "failure behind a pipe, then the full run passes", runs: []run{{line: "sh -c 'go test ./... | tail -3'"}, {line: "go test ./..."}}, passes: true},
		{name: "two failures, the second answered", runs: []run{{line: "go test ./...", exit: 1}, {line: "go test ./pkg", exit: 1}, {line: "go test ./pkg"}}, unanswered: "go test ./..."},
		// Honest flows.
		{name: "fail, fix, full run passes", runs: []run{{line: "go test ./...", exit: 1}, {line: "go test ./..."}}, passes: true},
		{name: "narrow debug run fails, full run passes", runs: []run{{line: "go test -run TestAdd ./pkg", exit: 1}, {line: "go test ./..."}}, passes: true},
		{name: "narrow run passes, full run passes", runs: []run{{line: "go test -run TestAdd ./pkg"}, {line: "go test -race -count=1 ./..."}}, passes: true},
		{name: "pytest fails, uv run pytest passes", runs: []run{{line: "pytest", exit: 1}, {line: "uv run pytest -q"}}, passes: true},
		{name: "one file fails, the suite passes", runs: []run{{line: "pytest tests/test_one.py", exit: 1}, {line: "python3 -m pytest"}}, passes: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, qaProtocol)
			id := e.start("narrowed QA")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: run the tests")
			e.advance(id) // WORKING
			for _, r := range tc.runs {
				if r.source != "" {
					if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Source: r.source, Command: r.line, ExitCode: r.exit, Output: []byte("FAIL\n")}); err != nil {
						t.Fatal(err)
					}
				}
			}
			e.advance(id) // into QA_VALIDATION
			for _, r := range tc.runs {
				if r.source != "" {
					continue
				}
				out := "ok  \texample.com/p\t0.01s\n"
				if r.exit != 0 {
					out = "--- FAIL: TestAdd\nFAIL\texample.com/p\n"
				}
				if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun, Command: r.line, ExitCode: r.exit, Output: []byte(out)}); err != nil {
					t.Fatal(err)
				}
			}
			res := e.advance(id)
			if got := res.Blocked == nil; got != tc.passes {
				t.Fatalf("QA passed=%v, want %v: %+v", got, tc.passes, res.Blocked)
			}
			if !tc.passes && !strings.Contains(res.Blocked.Reason, "`"+tc.unanswered+"` ") || !tc.passes && !strings.Contains(res.Blocked.Reason, "run `"+tc.unanswered+"`") {
				t.Errorf("the gate does not name the unanswered run %q and the command that answers it: %s", tc.unanswered, res.Blocked.Reason)
			}
		})
	}
}

// TestQAFailureAfterThePass: a test run that fails after QA passed, and
// that no later run answers, blocks the end; answered, or absent, it does
// not.
func TestQAFailureAfterThePass(t *testing.T) {
	requireGit(t)
	for _, tc := range []struct {
		name  string
		after []string // runs the agent's hook saw after QA passed: "LINE exit"
		ends  bool
	}{
		{name: "no run after QA", ends: true},
		{name: "the suite fails after QA", after: []string{"go test ./...|1"}},
		{name: "the suite fails, a narrow run passes", after: []string{"go test ./...|1", "go test -run TestAdd ./pkg|0"}},
		{name: "the suite fails, then passes again", after: []string{"go test ./...|1", "go test ./...|0"}, ends: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, qaProtocol)
			id := e.start("QA then a failure")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: run the tests")
			e.advance(id)
			e.advance(id)
			if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun, Command: "go test ./...", Output: []byte("ok\n")}); err != nil {
				t.Fatal(err)
			}
			if res := e.advance(id); res.Blocked != nil {
				t.Fatalf("an honest QA run was blocked: %+v", res.Blocked)
			}
			for _, a := range tc.after {
				line, code, _ := strings.Cut(a, "|")
				if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun, Command: line, ExitCode: int(code[0] - '0'), Output: []byte("x\n")}); err != nil {
					t.Fatal(err)
				}
			}
			res, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "done"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Ended != tc.ends {
				t.Fatalf("ended=%v, want %v: %+v", res.Ended, tc.ends, res.Blocked)
			}
			if !tc.ends && !strings.Contains(res.Blocked.Reason, "`go test ./...` failed") {
				t.Errorf("the block does not name the failing run: %s", res.Blocked.Reason)
			}
		})
	}
}

// TestQARunSawTheCommittedTree: a passing QA run records the tree it saw
// (staged files included); it counts only while the files its runner
// reads are the same in the work tree (at the gate) and in the commit (at
// the end). Staging a new test file before the run is enough for an honest
// agent; a stub staged for the run and then swapped out is caught.
func TestQARunSawTheCommittedTree(t *testing.T) {
	requireGit(t)
	const add = "package p\n\nfunc Add(a, b int) int { return a + b }\n"
	const addTest = "package p\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n"
	// The stub is a test file the run saw and the commit lacks; a TestMain
	// that skips m.Run, or a test that checks nothing, is refused at the gate
	// by itself (testrun's rules); this test is about the tree the run saw.
	const stub = "package p\n\nimport \"testing\"\n\nfunc TestZ(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n"
	tests := []struct {
		name string
		// before runs before the test run, after between the run and the
		// commit: "write FILE" (the change's content), "stage FILE",
		// "unstage FILE", "edit FILE", "rm FILE".
		before, after []string
		afterGate     []string // between the passing gate and the commit
		gateOK, endOK bool
	}{
		{name: "new test file staged, run, committed unchanged", before: []string{"write add.go", "write add_test.go", "stage add_test.go"}, gateOK: true, endOK: true},
		{name: "run, then a README edit committed", before: []string{"write add.go"}, after: []string{"edit README.md"}, gateOK: true, endOK: true},
		{name: "stub staged for the run, then unstaged and removed", before: []string{"write add.go", "write zz_test.go", "stage zz_test.go"}, after: []string{"unstage zz_test.go", "rm zz_test.go"}, gateOK: false},
		{name: "code changed after the run", before: []string{"write add.go"}, after: []string{"edit add.go"}, gateOK: false},
		{name: "stub swapped out after the gate passed", before: []string{"write add.go", "write zz_test.go", "stage zz_test.go"},
			afterGate: []string{"unstage zz_test.go", "rm zz_test.go", "write add_test.go"}, gateOK: true},
		{name: "code changed after the gate passed", before: []string{"write add.go"}, afterGate: []string{"edit add.go"}, gateOK: true},
	}
	content := map[string]string{"add.go": add, "add_test.go": addTest, "zz_test.go": stub}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, qaProtocol)
			gittest.Commit(t, e.root, "project", map[string]string{"go.mod": "module example.com/p\n\ngo 1.22\n", "add.go": "package p\n"})
			id := e.start("QA on the committed tree")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: go test")
			e.advance(id) // WORKING
			do := func(steps []string) {
				for _, st := range steps {
					verb, f, _ := strings.Cut(st, " ")
					switch verb {
					case "write":
						gittest.Write(t, e.root, f, content[f])
					case "stage":
						gittest.Git(t, e.root, "add", f)
					case "unstage":
						gittest.Git(t, e.root, "rm", "-q", "--cached", f)
					case "rm":
						removeFile(t, e.root, f)
					case "edit":
						gittest.Write(t, e.root, f, "// edited after the run\n"+map[string]string{"add.go": "package p\n", "README.md": "# demo\n\nRun go test.\n"}[f])
					}
				}
			}
			do(tc.before)
			e.advance(id) // into QA_VALIDATION
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun, Command: "go test ./...", Output: []byte("ok  \texample.com/p\t0.01s\n")})
			if err != nil || !strings.Contains(ev.Ref, "saw tree ") {
				t.Fatalf("the run recorded no tree: %+v %v", ev, err)
			}
			do(tc.after)
			res := e.advance(id)
			if (res.Blocked == nil) != tc.gateOK && tc.gateOK {
				t.Fatalf("QA gate blocked an honest run: %+v", res.Blocked)
			}
			if res.Blocked != nil && !tc.gateOK {
				if !strings.Contains(res.Blocked.Reason, "differ from the work tree now") {
					t.Errorf("the gate does not say the run saw other files: %s", res.Blocked.Reason)
				}
			}
			do(tc.afterGate)
			// Commit what is there (the agent's commit through the hooks),
			// then end: the commit is compared with what the run saw.
			gittest.Git(t, e.root, "add", "-A")
			e.hookCommit("feat: add")
			end, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "done"})
			if err != nil {
				t.Fatal(err)
			}
			if end.Ended != tc.endOK {
				t.Fatalf("ended=%v, want %v: %+v", end.Ended, tc.endOK, end.Blocked)
			}
			if tc.gateOK && !tc.endOK && !strings.Contains(end.Blocked.Reason, "differ from what is committed") {
				t.Errorf("the end does not say the run saw other files than the commit: %s", end.Blocked.Reason)
			}
		})
	}
}

// TestQAWholeSuiteRun: with no QA command configured, "run the tests" is
// met only by a passing run of the whole suite (issue 25 QA gap 1): no
// filter, targets that hold every test package or file of the project. A
// narrow run that passes with nothing failing first met QA before. Narrow
// runs to debug stay free when the whole suite passes too.
func TestQAWholeSuiteRun(t *testing.T) {
	requireGit(t)
	goProject := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n",
		"pkg/add.go": "package pkg\n", "pkg/add_test.go": "package pkg\n", "other/sub_test.go": "package other\n"}
	pyProject := map[string]string{"pyproject.toml": "[project]\nname = \"p\"\n",
		"tests/test_one.py": "def test_x(): pass\n", "tests/test_two.py": "def test_y(): pass\n"}
	scriptProject := map[string]string{"tests/check.sh": "#!/bin/sh\ngrep -q hello greet.txt\n"}
	tests := []struct {
		name   string
		start  map[string]string
		lines  []string // passing runs, in order
		passes bool
	}{
		{name: "go test -run one test", start: goProject, lines: []string{"go test -run TestAdd ./pkg"}},
		{name: "go test -skip", start: goProject, lines: []string{"go test -skip TestSlow ./..."}},
		{name: "go test one package of two", start: goProject, lines: []string{"go test ./pkg"}},
		{name: "go test from a package folder", start: goProject, lines: []string{"sh -c 'cd pkg && go test ./...'"}},
		{name: "pytest one node id", start: pyProject, lines: []string{"pytest tests/test_one.py::test_x"}},
		{name: "pytest one file of two", start: pyProject, lines: []string{"pytest tests/test_one.py"}},
		{name: "pytest -k", start: pyProject, lines: []string{"pytest -k add"}},
		{name: "npm test -- -t foo", start: map[string]string{"package.json": realPkg, "test.js": realTestJS}, lines: []string{"npm test -- -t foo"}},
		{name: "a script with a filter argument", start: scriptProject, lines: []string{"sh tests/check.sh --bare-only"}},
		// Filters and a runner hidden in braces (the shell runs the expanded words).
		{name: "go test, a -run filter in braces", start: goProject, lines: []string{"go test {-run=TestAdd,./...}"}},
		{name: "pytest, a -k filter in braces", start: pyProject, lines: []string{"pytest {-k,add}"}},
		// Honest runs.
		{name: "go test ./...", start: goProject, lines: []string{"go test ./..."}, passes: true},
		{name: "go test, every package named in braces", start: goProject, lines: []string{"go test ./{pkg,other}"}, passes: true},
		{name: "go test -race -count=1 -v ./...", start: goProject, lines: []string{"go test -race -count=1 -v ./..."}, passes: true},
		{name: "go test, every package named", start: goProject, lines: []string{"go test ./pkg ./other"}, passes: true},
		{name: "go test, the module's import path", start: goProject, lines: []string{"go test example.com/m/..."}, passes: true},
		{name: "debug narrowly, then the whole suite", start: goProject, lines: []string{"go test -run TestAdd ./pkg", "go test ./..."}, passes: true},
		{name: "the whole suite, then a narrow rerun", start: goProject, lines: []string{"go test ./...", "go test -run TestAdd ./pkg"}, passes: true},
		{name: "pytest", start: pyProject, lines: []string{"pytest -q"}, passes: true},
		{name: "pytest tests", start: pyProject, lines: []string{"uv run pytest tests"}, passes: true},
		{name: "npm test", start: map[string]string{"package.json": realPkg, "test.js": realTestJS}, lines: []string{"npm test"}, passes: true},
		{name: "a script, verbose", start: scriptProject, lines: []string{"sh tests/check.sh -v"}, passes: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			e, id := toQA(t, tc.start, nil)
			for _, l := range tc.lines {
				if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
					Command: l, Output: []byte("ok\n")}); err != nil {
					t.Fatal(err)
				}
			}
			res := e.advance(id)
			if got := res.Blocked == nil; got != tc.passes {
				t.Fatalf("QA passed=%v, want %v: %+v", got, tc.passes, res.Blocked)
			}
			if !tc.passes && !strings.Contains(res.Blocked.Reason, "runs part of the suite") {
				t.Errorf("the gate does not say the run is partial: %s", res.Blocked.Reason)
			}
		})
	}
}
