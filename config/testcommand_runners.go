package config

import (
	"bufio"
	"bytes"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/testrun"
)

// Task runners a project names its test recipe in (pass 27 c5, issue 25
// item 10): init picked a language's runner beside them (`go test ./...`
// where the project runs `just test`, which also builds fixtures or
// starts a database), or nothing. Their recipes are judged at the gate
// like a Makefile target (testrun/recipes.go).
var recipeRunners = []struct{ tool, line string }{
	{"just", "just test"}, {"task", "task test"}, {"mise", "mise run test"}, {"pixi", "pixi run test"},
}

// recipeRunnerCommand is the first runner with a test recipe that runs
// something (not `true` or `echo`), its line and where it was found.
func recipeRunnerCommand(root string) (string, string) {
	for _, r := range recipeRunners {
		t := shellline.ScriptTarget{Tool: r.tool, Name: "test"}
		rel, b, err := testrun.ScriptFile(root, t)
		if err != nil || rel == "" {
			continue
		}
		body, ok := testrun.ScriptBody(t, b)
		if !ok || testrun.TrivialScript(t, b, body, 0) {
			continue
		}
		return r.line, rel + "'s test " + map[bool]string{true: "recipe", false: "task"}[r.tool == "just"]
	}
	return "", ""
}

// bazelCommand: a Bazel workspace (MODULE.bazel, WORKSPACE) tests every
// target with `bazel test //...`.
func bazelCommand(exists func(string) bool) (string, string) {
	for _, w := range []string{"MODULE.bazel", "WORKSPACE.bazel", "WORKSPACE"} {
		if exists(w) {
			return "bazel test //...", w
		}
	}
	return "", ""
}

// earthlyCommand: an Earthfile with a `test:` target (`earthly +test`).
func earthlyCommand(root string) (string, string) {
	b, err := boundedread.File(filepath.Join(root, "Earthfile"), boundedread.DefaultLimit)
	if err != nil {
		return "", ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if l := sc.Text(); strings.HasPrefix(l, "test:") && strings.TrimSpace(strings.TrimPrefix(l, "test:")) == "" {
			return "earthly +test", "the Earthfile's test target"
		}
	}
	return "", ""
}
