package compliance_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Field pass (issue 25: "gates that block honest work are why such
// protocols die"): honest agents doing real, varied work in repositories
// shaped like real projects, under the v3.0-style protocol adopted with
// `sessiongate init`. Each must end COMPLETE, clean, with verify passing
// and no failed gate recorded; a failure here is a false block or a false
// FAIL on honest work.

// fieldCase is one project and one honest piece of work in it.
type fieldCase struct {
	name  string
	files map[string]string // the project, committed on the default branch
	// wantCmd is the QA command init must find ("" for none).
	wantCmd string
	// qa is the agent's QA run: sessiongate run's argv after "--" (nil:
	// wantCmd split on spaces).
	qa []string
	// work changes the work tree (the commit is made by the flow).
	work func(w *world)
	// msg is the work's conventional commit message; "" when work makes
	// its own commits (merges, rebases, reverts, cherry-picks).
	msg string
	// defaultBranch is the project's default branch ("" for main).
	defaultBranch string
	// docsOnly: every change is documentation and the project has no
	// tests; the agent ends with --skip-qa, the docs-only route.
	docsOnly bool
	// knownGap: why this honest case still fails; it is skipped while
	// it does, and logs when it stops failing.
	knownGap string
	// setup runs before init (submodules, git attributes); nil for none.
	setup func(w *world)
	// handoffBody is the session's handoff as the agent writes it ("":
	// advEndPhases' default).
	handoffBody string
	// needs are programs the QA run needs: the case skips without them
	// (fails under CI=true).
	needs []string
}

// fieldWorld adopts the v3.0-style protocol in the case's project, as
// advWorld does for the greet project.
func fieldWorld(t *testing.T, c fieldCase) *world {
	t.Helper()
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	for _, prog := range c.needs {
		if _, err := exec.LookPath(prog); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is needed under CI=true: %v", prog, err)
			}
			t.Skipf("%s is not installed: the %s case cannot run its tests", prog, c.name)
		}
	}
	w := newWorld(t)
	if c.defaultBranch != "" {
		w.git("symbolic-ref", "HEAD", "refs/heads/"+c.defaultBranch)
	}
	doc, err := os.ReadFile(filepath.Join(moduleRoot, "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatalf("read the v3.0-style protocol: %v", err)
	}
	w.write("SESSION-PROTOCOL.md", string(doc))
	w.write(".agents/HANDOFF.md", v3Handoff)
	w.write(".agents/handoffs/.gitkeep", "")
	for p, body := range c.files {
		w.write(p, body)
	}
	if c.setup != nil {
		c.setup(w)
	}
	w.sgOK("init")
	cfg := w.read("sessiongate.yaml")
	switch {
	case c.wantCmd == "" && strings.Contains(cfg, "\n  QA_VALIDATION: "):
		t.Fatalf("init found a QA command in a project with none:\n%s", cfg)
	case c.wantCmd != "" && !strings.Contains(cfg, "QA_VALIDATION: "+yamlQuote(c.wantCmd)):
		t.Fatalf("init did not make %q QA_VALIDATION's command:\n%s", c.wantCmd, cfg)
	}
	branch := c.defaultBranch
	if branch == "" {
		branch = "main"
	}
	w.git("add", "-A")
	w.git("commit", "-q", "-m", "chore: initial project")
	w.git("push", "-q", "-u", "origin", branch)
	w.git("remote", "set-head", "origin", branch)
	w.sgOK("install")
	w.base = w.git("rev-parse", "HEAD")
	w.git("switch", "-q", "-c", "feat/field-work")
	return w
}

// yamlQuote is how init writes a command that plain YAML would misread.
func yamlQuote(s string) string {
	if strings.ContainsAny(s, ":#'\"{}[],&*!|>%@`") {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}

// fieldQA runs the case's QA as an honest agent: the project's tests
// through sessiongate run, and its account of what they said.
func (w *world) fieldQA(c fieldCase) {
	w.t.Helper()
	argv := c.qa
	if argv == nil {
		argv = strings.Fields(c.wantCmd)
	}
	w.advOK("QA run", append([]string{"run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--"}, argv...)...)
	w.advOK("QA fix", "session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "the tests reported no failure")
}

// fieldCommit commits everything as the agent does, through the hooks.
func (w *world) fieldCommit(msg string) {
	w.t.Helper()
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", msg); r.code != 0 {
		w.t.Fatalf("the honest work's commit was refused (a false block): %s", r.text())
	}
}

// fieldSession is one honest session of the case from start to verify.
func fieldSession(t *testing.T, w *world, c fieldCase) {
	t.Helper()
	w.advStart("Field work: " + c.name)
	w.advStartPhases()
	c.work(w)
	if c.msg != "" {
		w.fieldCommit(c.msg)
	}
	if c.docsOnly {
		w.fieldDocsOnlyEnd(t)
		return
	}
	clean, said := w.advEndPhases(advEnd{qa: func() { w.fieldQA(c) }, handoffBody: c.handoffBody})
	switch {
	case !clean && c.knownGap != "":
		t.Skipf("known gap (%s): %s", c.knownGap, said)
	case !clean:
		_, violations := w.fieldRecorded()
		t.Fatalf("an honest session (%s) did not end clean with a passing verify (a false block)\n%s\nviolations: %v", c.name, said, violations)
	case c.knownGap != "":
		t.Logf("known gap %q no longer shows: remove it", c.knownGap)
	}
	failed, violations := w.fieldRecorded()
	if len(failed) > 0 {
		t.Errorf("an honest session (%s) recorded failed gates (a false FAIL): %v", c.name, failed)
	}
	if len(violations) > 0 {
		t.Errorf("an honest session (%s) recorded violations: %v", c.name, violations)
	}
}

// fieldRecorded are the phases whose latest gate result failed, and the
// session's violations.
func (w *world) fieldRecorded() (failed, violations []string) {
	w.t.Helper()
	w.out = outcome{}
	w.readViolations()
	return w.out.failedGates, w.out.violations
}

const fieldGoGreet = "package greet\n\n// Hello greets name.\nfunc Hello(name string) string { return \"hello \" + name }\n\n// Shout is unused since the CLI dropped --loud.\nfunc Shout(name string) string { return \"HELLO \" + name }\n"
const fieldGoGreetTest = "package greet\n\nimport \"testing\"\n\nfunc TestHello(t *testing.T) {\n\tif got := Hello(\"Ada\"); got != \"hello Ada\" {\n\t\tt.Fatalf(\"Hello = %q\", got)\n\t}\n}\n"
const fieldGoShoutTest = "package greet\n\nimport \"testing\"\n\nfunc TestShout(t *testing.T) {\n\tif got := Shout(\"Ada\"); got != \"HELLO Ada\" {\n\t\tt.Fatalf(\"Shout = %q\", got)\n\t}\n}\n"

const fieldNodeGreet = "exports.hello = (name) => `hello ${name}`;\n"
const fieldNodeGreetTest = "const test = require('node:test');\nconst assert = require('node:assert');\nconst { hello } = require('../greet');\n\ntest('hello', () => assert.strictEqual(hello('Ada'), 'hello Ada'));\n"
const fieldNodePackage = `{
  "name": "greet",
  "version": "1.0.0",
  "scripts": {"test": "node --test"},
  "devDependencies": {"left-pad": "1.2.0"}
}
`
const fieldNodeLock = `{
  "name": "greet",
  "version": "1.0.0",
  "lockfileVersion": 3,
  "packages": {
    "": {"name": "greet", "version": "1.0.0", "devDependencies": {"left-pad": "1.2.0"}},
    "node_modules/left-pad": {"version": "1.2.0", "dev": true}
  }
}
`

const fieldPyGreet = "def hello(name):\n    return 'hello ' + name\n"
const fieldPyGreetTest = "import unittest\n\nfrom greet import hello\n\n\nclass TestHello(unittest.TestCase):\n    def test_hello(self):\n        self.assertEqual(hello('Ada'), 'hello Ada')\n"
const fieldPyCI = "name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: python3 -m unittest discover -s tests -t .\n"

const fieldMakefile = "test:\n\tsh tests/run.sh\n"
const fieldMakeRun = "#!/bin/sh\nset -e\n[ \"$(sh scripts/greet.sh)\" = \"hello\" ] && echo ok\n"

// fieldCases are the honest pieces of work.
var fieldCases = []fieldCase{
	{
		name:    "go module: delete dead code and its test",
		files:   map[string]string{"go.mod": "module example.com/greet\n\ngo 1.21\n", "greet.go": fieldGoGreet, "greet_test.go": fieldGoGreetTest, "shout_test.go": fieldGoShoutTest, "README.md": "# greet\n", "tools/go.mod": "module example.com/greet/tools\n\ngo 1.21\n", "tools/tool.go": "package tools\n"},
		wantCmd: "go test ./...",
		work: func(w *world) {
			w.write("greet.go", strings.SplitAfter(fieldGoGreet, "\"hello \" + name }\n")[0])
			if err := os.Remove(filepath.Join(w.root, "shout_test.go")); err != nil {
				w.t.Fatal(err)
			}
		},
		msg: "refactor: drop the unused Shout and its test",
	},
	{
		name:    "go module: rename the package file",
		files:   map[string]string{"go.mod": "module example.com/greet\n\ngo 1.21\n", "greet.go": fieldGoGreet, "greet_test.go": fieldGoGreetTest, "README.md": "# greet\n"},
		wantCmd: "go test ./...",
		work: func(w *world) {
			w.git("mv", "greet.go", "hello.go")
			w.git("mv", "greet_test.go", "hello_test.go")
		},
		msg: "refactor: name the files after Hello",
	},
	{
		name:    "node: add a new test file",
		files:   map[string]string{"package.json": fieldNodePackage, "package-lock.json": fieldNodeLock, "greet.js": fieldNodeGreet, "README.md": "# greet\n"},
		wantCmd: "npm test",
		work: func(w *world) {
			w.write("test/greet.test.js", fieldNodeGreetTest)
		},
		msg: "test: cover hello",
	},
	{
		name:    "node: update a dependency (lockfile)",
		files:   map[string]string{"package.json": fieldNodePackage, "package-lock.json": fieldNodeLock, "greet.js": fieldNodeGreet, "test/greet.test.js": fieldNodeGreetTest, "README.md": "# greet\n"},
		wantCmd: "npm test",
		work: func(w *world) {
			w.write("package.json", strings.ReplaceAll(fieldNodePackage, "1.2.0", "1.3.0"))
			w.write("package-lock.json", strings.ReplaceAll(fieldNodeLock, "1.2.0", "1.3.0"))
		},
		msg: "build(deps): bump left-pad to 1.3.0",
	},
	{
		name:    "python: CI runs unittest; fix a bug",
		files:   map[string]string{"greet.py": "def hello(name):\n    return 'helo ' + name\n", "tests/__init__.py": "", "tests/test_greet.py": strings.Replace(fieldPyGreetTest, "'hello Ada')", "'helo Ada')", 1), ".github/workflows/ci.yml": fieldPyCI, "README.md": "# greet\n"},
		wantCmd: "python3 -m unittest discover -s tests -t .",
		work: func(w *world) {
			w.write("greet.py", fieldPyGreet)
			w.write("tests/test_greet.py", fieldPyGreetTest)
		},
		msg: "fix: spell hello",
	},
	{
		name:    "make: rename the script module",
		files:   map[string]string{"Makefile": fieldMakefile, "tests/run.sh": fieldMakeRun, "scripts/greet.sh": greetScript, "README.md": "# greet\n"},
		wantCmd: "make test",
		work: func(w *world) {
			w.git("mv", "scripts/greet.sh", "scripts/hello.sh")
			w.write("tests/run.sh", strings.Replace(fieldMakeRun, "scripts/greet.sh", "scripts/hello.sh", 1))
		},
		msg: "refactor: rename greet.sh to hello.sh",
	},
	{
		name:     "no tests at all: README typo",
		files:    map[string]string{"README.md": "# greet\n\nA tiny gretting script.\n", "scripts/greet.sh": greetScript},
		wantCmd:  "",
		docsOnly: true,
		work: func(w *world) {
			w.write("README.md", "# greet\n\nA tiny greeting script.\n")
		},
		msg: "docs: fix a typo in the README",
	},
	{
		name:    "tests exist: README typo only",
		files:   map[string]string{"README.md": "# greet\n\nA tiny gretting script.\n", "scripts/greet.sh": greetScript, "scripts/test.sh": "#!/bin/sh\n[ \"$(sh scripts/greet.sh)\" = hello ] && echo ok\n"},
		wantCmd: "sh scripts/test.sh",
		work: func(w *world) {
			w.write("README.md", "# greet\n\nA tiny greeting script.\n")
		},
		msg: "docs: fix a typo in the README",
	},
	{
		name:    "monorepo: go and node",
		files:   map[string]string{"go.mod": "module example.com/greet\n\ngo 1.21\n", "greet.go": fieldGoGreet, "greet_test.go": fieldGoGreetTest, "package.json": fieldNodePackage, "greet.js": fieldNodeGreet, "test/greet.test.js": fieldNodeGreetTest, "README.md": "# greet\n"},
		wantCmd: "go test ./... && npm test",
		qa:      []string{"sh", "-c", "go test ./... && npm test"},
		work: func(w *world) {
			w.write("greet.js", "// hello greets name.\n"+fieldNodeGreet)
		},
		msg: "docs: comment hello",
	},
	{
		name:    "shell: tests/run.sh is the project's test script",
		files:   map[string]string{"README.md": "# greet\n", "scripts/greet.sh": greetScript, "tests/run.sh": fieldMakeRun},
		wantCmd: "sh tests/run.sh",
		work: func(w *world) {
			w.write("scripts/greet.sh", fieldGreetComment)
		},
		msg: "docs(scripts): say what greet prints",
	},
	{
		name:          "default branch trunk",
		defaultBranch: "trunk",
		files:         map[string]string{"README.md": "# greet\n", "scripts/greet.sh": greetScript, "scripts/test.sh": "#!/bin/sh\n[ \"$(sh scripts/greet.sh)\" = hello ] && echo ok\n"},
		wantCmd:       "sh scripts/test.sh",
		work: func(w *world) {
			w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting.\necho hello\n")
		},
		msg: "style: unquote the greeting",
	},
}

// fieldScriptProject is a shell project whose tests are scripts/test.sh.
var fieldScriptProject = map[string]string{"README.md": "# greet\n", "scripts/greet.sh": greetScript, "scripts/test.sh": fieldScriptTest}

const fieldScriptTest = "#!/bin/sh\n[ \"$(sh scripts/greet.sh)\" = hello ] && echo ok\n"

// fieldGreetComment is the honest work of the git-shaped cases.
const fieldGreetComment = "#!/bin/sh\n# greet prints a greeting (hello).\necho \"hello\"\n"

// person makes a commit as a person in their own clone of origin and
// pushes it to branch: a colleague's work the agent's clone fetches.
func (w *world) person(branch, file, body, msg string) {
	w.t.Helper()
	dir := filepath.Join(filepath.Dir(w.root), "person")
	if _, err := os.Stat(dir); err != nil {
		w.gitIn(filepath.Dir(w.root), "clone", "-q", filepath.Join(filepath.Dir(w.root), "origin.git"), dir)
		if w.personHooks {
			if r := w.exec(dir, "", binary, "install"); r.code != 0 {
				w.t.Fatalf("sessiongate install in the colleague's clone: %s", r.text())
			}
		}
	}
	w.gitIn(dir, "fetch", "-q", "origin")
	w.gitIn(dir, "checkout", "-q", "-B", branch, "origin/main")
	if err := os.WriteFile(filepath.Join(dir, file), []byte(body), 0o644); err != nil {
		w.t.Fatal(err)
	}
	w.gitIn(dir, "add", "-A")
	w.gitIn(dir, "-c", "user.name=Dana", "-c", "user.email=dana@example.com", "commit", "-q", "-m", msg)
	w.gitIn(dir, "push", "-q", "-f", "origin", branch)
}

// gitOK runs a git command that makes commits through the installed hooks
// and fails the test when git (or a hook) refuses: a false block.
func (w *world) gitOK(args ...string) {
	w.t.Helper()
	if r := w.exec(w.root, "", "git", args...); r.code != 0 {
		w.t.Fatalf("git %s was refused in an honest session (a false block): %s", strings.Join(args, " "), r.text())
	}
}

// fieldOntoMain is the work of a session that commits, then takes a
// colleague's new commit on main with git args (a merge or a rebase).
func fieldOntoMain(args ...string) func(w *world) {
	return func(w *world) {
		w.write("scripts/greet.sh", fieldGreetComment)
		w.fieldCommit("docs(scripts): say what greet prints")
		w.person("main", "README.md", "# greet\n\nA greeting script.\n", "docs: describe the project")
		w.git("fetch", "-q", "origin")
		// The pull request's range starts at main's tip, as CI runs verify.
		w.base = w.git("rev-parse", "origin/main")
		w.gitOK(args...)
	}
}

// fieldGitCases are honest sessions whose work uses git's other ways of
// making commits: a merge or a rebase onto main, a revert, a cherry-pick.
var fieldGitCases = []fieldCase{
	{
		name:    "merge main in mid-session",
		files:   fieldScriptProject,
		wantCmd: "sh scripts/test.sh",
		work:    fieldOntoMain("merge", "--no-edit", "origin/main"),
	},
	{
		name:    "rebase onto main mid-session",
		files:   fieldScriptProject,
		wantCmd: "sh scripts/test.sh",
		work:    fieldOntoMain("rebase", "-q", "origin/main"),
	},
	{
		name:    "revert the session's own commit",
		files:   fieldScriptProject,
		wantCmd: "sh scripts/test.sh",
		work: func(w *world) {
			w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting.\necho \"hello!\"\n")
			w.fieldCommit("feat(scripts): greet with emphasis")
			w.gitOK("revert", "--no-edit", "HEAD")
			w.write("scripts/greet.sh", fieldGreetComment)
			w.fieldCommit("docs(scripts): say what greet prints")
		},
	},
	{
		name:    "cherry-pick from another branch",
		files:   fieldScriptProject,
		wantCmd: "sh scripts/test.sh",
		work: func(w *world) {
			// A colleague with sessiongate's hooks: her post-commit records
			// the commit as a person's and her push sends the record. A
			// copy is judged as its original: an unrecorded one fails under
			// verify.unsessioned: people (TestAdvPushedHooksOffReplay).
			w.personHooks = true
			w.person("fix/readme", "README.md", "# greet\n\nA greeting script.\n", "docs: describe the project")
			w.git("fetch", "-q", "origin")
			w.sgOK("records", "pull")
			w.gitOK("cherry-pick", "origin/fix/readme")
			w.write("scripts/greet.sh", fieldGreetComment)
			w.fieldCommit("docs(scripts): say what greet prints")
		},
	},
	{
		name:    "delete a script and its test",
		files:   map[string]string{"README.md": "# greet\n", "scripts/greet.sh": greetScript, "scripts/shout.sh": "#!/bin/sh\necho HELLO\n", "Makefile": "test:\n\tsh tests/greet_test.sh\n\tsh tests/shout_test.sh\n", "tests/greet_test.sh": "#!/bin/sh\nset -e\n[ \"$(sh scripts/greet.sh)\" = hello ]\necho ok\n", "tests/shout_test.sh": "#!/bin/sh\nset -e\n[ \"$(sh scripts/shout.sh)\" = HELLO ]\necho ok\n"},
		wantCmd: "make test",
		work: func(w *world) {
			w.git("rm", "-q", "scripts/shout.sh", "tests/shout_test.sh")
			w.write("Makefile", "test:\n\tsh tests/greet_test.sh\n")
		},
		msg: "refactor: drop the unused shout script and its test",
	},
}

// TestFieldHonestGit runs the git-shaped honest sessions.
func TestFieldHonestGit(t *testing.T) {
	for _, c := range fieldGitCases {
		t.Run(fieldName(c.name), func(t *testing.T) {
			t.Parallel()
			fieldSession(t, fieldWorld(t, c), c)
		})
	}
}

// TestFieldPersonBetweenSessions: after one honest session ends, a person
// commits in the same clone with no session (the hooks run and record a
// person's work); the next honest session starts after it. Both sessions
// and verify over the whole branch must be clean.
func TestFieldPersonBetweenSessions(t *testing.T) {
	t.Parallel()
	c := fieldCase{name: "first session", files: fieldScriptProject, wantCmd: "sh scripts/test.sh", msg: "docs(scripts): say what greet prints",
		work: func(w *world) { w.write("scripts/greet.sh", fieldGreetComment) }}
	w := fieldWorld(t, c)
	fieldSession(t, w, c)
	w.write("README.md", "# greet\n\nEdited by a person.\n")
	w.git("add", "-A")
	w.gitOK("-c", "user.name=Dana", "-c", "user.email=dana@example.com", "commit", "-q", "-m", "Reword the README")
	second := fieldCase{name: "second session", wantCmd: c.wantCmd, msg: "docs: say what greet prints",
		work: func(w *world) { w.write("README.md", "# greet\n\nPrints hello.\n") }}
	w.advStart("Field work: " + second.name)
	w.advStartPhases()
	second.work(w)
	w.fieldCommit(second.msg)
	clean, said := w.advEndPhases(advEnd{qa: func() { w.fieldQA(second) }, handoff: ".agents/handoffs/2026-08-20-02.md",
		handoffDone: "The README says what greet prints.\n\n## Next\n\nNothing planned."})
	if !clean {
		t.Fatalf("an honest session after a person's commit did not end clean with a passing verify (a false block)\n%s", said)
	}
	if failed, violations := w.fieldRecorded(); len(failed)+len(violations) > 0 {
		t.Errorf("the session after a person's commit recorded failed gates %v, violations %v", failed, violations)
	}
}

func fieldName(s string) string {
	return strings.NewReplacer(" ", "-", ":", "", "(", "", ")", "", ";", "", "'", "").Replace(s)
}

// TestFieldHonest runs each honest piece of work as one session.
func TestFieldHonest(t *testing.T) {
	for _, c := range fieldCases {
		t.Run(fieldName(c.name), func(t *testing.T) {
			t.Parallel()
			w := fieldWorld(t, c)
			fieldSession(t, w, c)
		})
	}
}

// TestFieldTwoSessionsInARow: two honest sessions on one branch, one
// after the other, each with its own handoff; verify checks both.
func TestFieldTwoSessionsInARow(t *testing.T) {
	t.Parallel()
	c := fieldCases[len(fieldCases)-1] // a scripts/test.sh project
	c.defaultBranch = ""
	w := fieldWorld(t, c)
	fieldSession(t, w, c)
	second := fieldCase{name: "second session: document the greeting", wantCmd: c.wantCmd, msg: "docs: say what greet prints",
		work: func(w *world) { w.write("README.md", "# greet\n\nPrints hello.\n") }}
	w.advStart("Field work: " + second.name)
	w.advStartPhases()
	second.work(w)
	w.fieldCommit(second.msg)
	clean, said := w.advEndPhases(advEnd{qa: func() { w.fieldQA(second) }, handoff: ".agents/handoffs/2026-08-20-02.md",
		handoffDone: "The README says what greet prints.\n\n## Next\n\nNothing planned."})
	if !clean {
		t.Fatalf("the second honest session in a row did not end clean with a passing verify (a false block)\n%s", said)
	}
	if failed, violations := w.fieldRecorded(); len(failed)+len(violations) > 0 {
		t.Errorf("the second honest session recorded failed gates %v, violations %v", failed, violations)
	}
}

// TestFieldInterruptedAndResumed: the agent's process dies after its
// work's commit; the restarted agent finds its session with session
// status (a second session start would supersede it, and says so:
// TestSessionStartSaysSuperseded) and finishes it.
func TestFieldInterruptedAndResumed(t *testing.T) {
	t.Parallel()
	c := fieldCases[len(fieldCases)-1]
	c.defaultBranch = ""
	w := fieldWorld(t, c)
	id := w.advStart("Field work: resumed")
	w.advStartPhases()
	c.work(w)
	w.fieldCommit(c.msg)
	if st := w.sgOK("session", "status"); !strings.Contains(st, id) {
		t.Fatalf("session status after an interruption does not show the session %s:\n%s", id, st)
	}
	clean, said := w.advEndPhases(advEnd{qa: func() { w.fieldQA(c) }})
	if !clean {
		t.Fatalf("a resumed honest session did not end clean with a passing verify (a false block)\n%s", said)
	}
}

// fieldDocsOnlyEnd is the end of a docs-only session in a project with no
// tests: into QA, whose gate names the run it owes; the handoff and the
// branch check; then session end --skip-qa, which sessiongate allows when
// every changed file is documentation.
func (w *world) fieldDocsOnlyEnd(t *testing.T) {
	t.Helper()
	w.advOK("enter the end protocol", "session", "advance")
	if gate := w.sg("session", "gate"); strings.Contains(gate.text(), "--requirement QA_VALIDATION.run-checks-cover-changed --type manual") {
		t.Errorf("the QA gate's fix asks for a manual claim where only an observed run counts:\n%s", gate.text())
	}
	handoff := ".agents/handoffs/2026-08-20-01.md"
	w.write(handoff, "# Handoff 2026-08-20-01\n\n## Done\n\nFixed a README typo.\n\n## Next\n\nNothing planned.\n")
	w.advOK("handoff", "session", "evidence", "--requirement", "HANDOFF.complete-handoff-from-handoff", "--type", filePath, "--value", handoff)
	w.advOK("re-verify the branch", "run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
	w.fieldCommit("docs(handoff): hand off the typo fix")
	end := w.sg("session", "end", "--skip-qa", "--summary", "README typo")
	v := w.sg("verify", w.base+"..HEAD")
	if end.code != 0 || !strings.Contains(end.text(), "COMPLETE: clean") || v.code != 0 {
		t.Fatalf("an honest docs-only session did not end clean with a passing verify (a false block)\nsession end: %s\nverify: %s", end.text(), v.text())
	}
}
