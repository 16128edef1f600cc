package session_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// needProg skips without prog, and fails under CI=true.
func needProg(t *testing.T, prog string) {
	t.Helper()
	if _, err := exec.LookPath(prog); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing (CI=true)", prog)
		}
		t.Skipf("%s is missing: this case needs it", prog)
	}
}

// realGoTest runs go test twice on a module whose test reads a data file
// and returns the second run's output: "(cached)" unless flags say not.
func realGoTest(t *testing.T, flags ...string) string {
	t.Helper()
	needProg(t, "go")
	dir := t.TempDir()
	for f, body := range map[string]string{
		"go.mod":        "module example.com/greet\n\ngo 1.21\n",
		"greeting.txt":  "hello\n",
		"greet_test.go": "package greet\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestGreeting(t *testing.T) {\n\tif b, _ := os.ReadFile(\"greeting.txt\"); string(b) != \"hello\\n\" {\n\t\tt.Fatal(string(b))\n\t}\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		// go test caches no result whose test read a file changed in the
		// last 2 s (cmd/go's modTimeCutoff): on a quiet machine both runs
		// fall within it, and the second run was not "(cached)" (CI).
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(filepath.Join(dir, f), old, old); err != nil {
			t.Fatal(err)
		}
	}
	var out []byte
	for range 2 {
		cmd := exec.Command("go", append(append([]string{"test"}, flags...), "./...")...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=")
		var err error
		if out, err = cmd.CombinedOutput(); err != nil {
			t.Fatalf("go test: %v\n%s", err, out)
		}
	}
	return string(out)
}

// TestObservedQACaches: an observed QA run (the agent's own, in its
// environment, for a phase with no command of its own) whose pass an
// mtime-keyed cache may have answered does not count, and says why:
// go test's "(cached)" (the output is read, only its hash kept), eslint
// --cache, ruff without --no-cache, __pycache__ bytecode older than the
// source Python loaded anyway, and compiled Python beside the session's
// source. Each honest twin counts.
func TestObservedQACaches(t *testing.T) {
	const greet = "def greet():\n    return \"hello\"\n"
	cases := []struct {
		name    string
		cmd     string
		out     func(t *testing.T) string
		before  map[string]string               // files committed before the session starts
		prepare func(t *testing.T, root string) // after greet.py's change is committed
		why     string                          // "" counted
	}{
		{name: "go test cached", cmd: "go test ./...", out: func(t *testing.T) string { return realGoTest(t) }, why: "(cached)"},
		{name: "go test -json cached", cmd: "go test -json ./...", out: func(t *testing.T) string { return realGoTest(t, "-json") }, why: "(cached)"},
		{name: "honest: go test -count=1", cmd: "go test -count=1 ./...", out: func(t *testing.T) string { return realGoTest(t, "-count=1") }},
		{name: "eslint --cache", cmd: "npx eslint --cache .", why: "--cache"},
		{name: "honest: eslint", cmd: "npx eslint ."},
		// eslint's cache behind the project's script: the line shows none
		// (counted on the parent commit)
		{name: "npm run lint, script adds --cache", cmd: "npm run lint", before: map[string]string{"package.json": `{"scripts": {"lint": "eslint --cache src"}}`}, why: "--cache"},
		{name: "npm test, pretest lints with --cache", cmd: "npm test", before: map[string]string{"package.json": `{"scripts": {"pretest": "npm run lint", "lint": "npx eslint --cache .", "test": "jest"}}`}, why: "--cache"},
		{name: "honest: npm run lint without cache", cmd: "npm run lint", before: map[string]string{"package.json": `{"scripts": {"lint": "eslint src", "fix": "eslint --cache --fix src"}}`}},
		// a test of the committed build output, not the changed source
		// (counted on the parent commit)
		{name: "test imports dist/", cmd: "npx jest", before: builtProject("../dist/calc"), prepare: changeCalc(false), why: "dist/calc.js"},
		{name: "honest: test imports dist/, session rebuilt it", cmd: "npx jest", before: builtProject("../dist/calc"), prepare: changeCalc(true)},
		{name: "honest: test imports the source", cmd: "npx jest", before: builtProject("../src/calc"), prepare: changeCalc(false)},
		{name: "ruff check", cmd: "ruff check .", why: "--no-cache"},
		{name: "honest: ruff check --no-cache", cmd: "ruff check --no-cache ."},
		{name: "stale pyc, mtime set back", cmd: "python3 -m pytest -q", prepare: func(t *testing.T, root string) {
			needProg(t, "python3")
			// Compile the start's greet.py, write the change at the same
			// size and set its mtime back: Python keeps the old bytecode.
			ref := filepath.Join(t.TempDir(), "ref")
			sh(t, root, "git show HEAD~1:greet.py > greet.py && python3 -m py_compile greet.py && cp -p greet.py "+ref+
				" && git checkout -q HEAD -- greet.py && touch -r "+ref+" greet.py")
		}, why: "bytecode compiled before greet.py"},
		{name: "unchecked-hash pyc", cmd: "python3 -m pytest -q", prepare: func(t *testing.T, root string) {
			needProg(t, "python3")
			sh(t, root, "python3 -c \"import py_compile as p; p.compile('greet.py', invalidation_mode=p.PycInvalidationMode.UNCHECKED_HASH)\"")
		}, why: "bytecode compiled before greet.py"},
		{name: "honest: pyc of the change", cmd: "python3 -m pytest -q", prepare: func(t *testing.T, root string) {
			needProg(t, "python3")
			sh(t, root, "python3 -m py_compile greet.py")
		}},
		{name: "extension module beside greet.py", cmd: "python3 -m pytest -q", prepare: func(t *testing.T, root string) {
			gittest.Write(t, root, "greet.cpython-311-x86_64-linux-gnu.so", "\x7fELF")
		}, why: "greet.py imports greet.cpython-311-x86_64-linux-gnu.so"},
		{name: "honest: an extension module of another name", cmd: "python3 -m pytest -q", prepare: func(t *testing.T, root string) {
			gittest.Write(t, root, "_speedups.cpython-311-x86_64-linux-gnu.so", "\x7fELF")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			out := "1 passed in 0.01s\n"
			if c.out != nil {
				out = c.out(t)
			}
			e := newEnv(t, earlyProtocol)
			gittest.Write(t, e.root, ".gitignore", "__pycache__/\n*.so\n")
			for n, b := range c.before {
				gittest.Write(t, e.root, n, b)
			}
			gittest.Write(t, e.root, "greet.py", strings.Replace(greet, "hello", "hullo", 1))
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "feat: greet")
			id := e.start(c.name)
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: pytest")
			e.advance(id)                     // WORKING
			time.Sleep(20 * time.Millisecond) // the change's ctime after the start's bytecode
			gittest.Write(t, e.root, "greet.py", greet)
			gittest.Git(t, e.root, "commit", "-q", "-am", "fix: greet says hello")
			if c.prepare != nil {
				c.prepare(t, e.root)
			}
			e.advance(id) // QA_VALIDATION
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: "claude", Command: c.cmd, Output: []byte(out)})
			if err != nil {
				t.Fatal(err)
			}
			if counted := *ev.ExitCode == 0; counted != (c.why == "") {
				t.Fatalf("exit %d (%s), want counted=%v", *ev.ExitCode, ev.Ref, c.why == "")
			}
			if c.why != "" && !strings.Contains(ev.Ref, c.why) {
				t.Fatalf("ref %q does not say %q", ev.Ref, c.why)
			}
			if ev.Body != nil {
				t.Fatal("the output body was kept")
			}
		})
	}
}

// sh runs a shell line in dir and fails the test on error.
func sh(t *testing.T, dir, line string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", line, err, out)
	}
}

// builtProject is a JS project with its build output committed, whose test
// requires spec.
func builtProject(spec string) map[string]string {
	return map[string]string{
		"src/calc.js":       "module.exports = (a, b) => a + b\n",
		"dist/calc.js":      "module.exports = (a, b) => a + b\n",
		"test/calc.test.js": "const add = require('" + spec + "')\ntest('add', () => expect(add(1, 2)).toBe(3))\n",
	}
}

// changeCalc commits a change of src/calc.js in the session, and of the
// build output when rebuilt.
func changeCalc(rebuilt bool) func(t *testing.T, root string) {
	return func(t *testing.T, root string) {
		gittest.Write(t, root, "src/calc.js", "module.exports = (a, b) => a - b\n")
		if rebuilt {
			gittest.Write(t, root, "dist/calc.js", "module.exports = (a, b) => a - b\n")
		}
		gittest.Git(t, root, "commit", "-q", "-am", "fix: calc")
	}
}
