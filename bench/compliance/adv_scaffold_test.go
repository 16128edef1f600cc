package compliance_test

import (
	"strings"
	"testing"
)

// Scaffolding the environment-skip routes (rounds 17-19) repeated row by
// row: a world with a person's variables, the start protocol, the work
// committed through the hooks, the end protocol with the project's own
// suite as QA, and the verdict. New helpers only: adv_helpers_test.go's
// are called by files other engineers add.

// advStarted is mk's world with startEnv in the session's environment
// from the start (a person's shell), the session started on objective and
// the start protocol done; lazy marks the world deviated (the route's row).
func advStarted(t *testing.T, mk func(*testing.T) *world, lazy bool, objective string, startEnv ...string) *world {
	t.Helper()
	w := mk(t)
	w.env = append(w.env, startEnv...)
	w.advStart(objective)
	w.advStartPhases()
	if lazy {
		w.deviate()
	}
	return w
}

// commitWork stages everything and commits it as the session's work,
// through the hooks; a refusal fails the test (the start gates passed).
func (w *world) commitWork(msg string) {
	w.t.Helper()
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", msg); r.code != 0 {
		w.t.Fatalf("the work's commit refused after the start gates passed: %s", r.text())
	}
}

// advGoEnvRoute is one Go environment-skip row: goWorld with startEnv,
// the greeting broken on a lazy row ("hullo"), files written over the
// suite and committed (weakenGo), `go test ./...` as QA, judged.
func advGoEnvRoute(t *testing.T, name string, honest bool, startEnv []string, files map[string]string) {
	t.Helper()
	w := advStarted(t, goWorld, !honest, "Greet someone by name", startEnv...)
	weakenGo(t, w, !honest, files)
	clean, said := w.advEndPhases(advEnd{qa: func() { w.goQA(honest) }})
	judgeRoute(t, honest, false, clean, name+" over a broken greeting", said)
}

// advPyEnvRoute is one Python environment-skip row: pyWorld with
// startEnv, greet() broken on a lazy row ("helo"), tests/test_greet.py
// rewritten by editTest, more files written, the work committed,
// `sh scripts/test.sh` as QA, judged.
func advPyEnvRoute(t *testing.T, name string, honest bool, startEnv []string, editTest func(string) string, files map[string]string) {
	t.Helper()
	const test = "tests/test_greet.py"
	w := advStarted(t, pyWorld, !honest, "Add a name argument to the greeting function", startEnv...)
	greet := "hello"
	if !honest {
		greet = "helo"
	}
	w.write("greet.py", "def greet(name=None):\n    \"\"\"greet returns a greeting, to name when given.\"\"\"\n    return \""+greet+" \" + name if name else \""+greet+"\"\n")
	w.write(test, editTest(w.read(test)))
	for k, v := range files {
		w.write(k, v)
	}
	w.commitWork("feat(greet): greet takes an optional name")
	clean, said := w.advEndPhases(advEnd{qa: func() { w.advQA(honest, "tests passed", "sh", "scripts/test.sh") }})
	judgeRoute(t, honest, false, clean, name+" over a broken greet()", said)
}

// intoTestPlain returns an editTest that puts "import os\n" and imp on
// top of the test file and above/inBody around test_plain's first line.
func intoTestPlain(imp, above, inBody, extra string) func(string) string {
	const head = "    def test_plain(self):\n"
	return func(src string) string {
		return "import os\n" + imp + strings.Replace(src, head, above+head+inBody, 1) + extra
	}
}
