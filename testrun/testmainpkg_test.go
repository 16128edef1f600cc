package testrun

import (
	"context"
	"strings"
	"testing"
)

// TestTestMainHelperInAnotherFile (round 21 c1): a TestMain handing m (or
// m.Run) to a helper defined in another file of its package. Round 20 read
// only the TestMain's own file: a new TestMain with its helper in
// helpers_test.go was refused whether the helper ran the tests or not (a
// false block on the honest rows), and an unchanged TestMain whose helper
// the session emptied in helpers_test.go passed (the lazy rows).
func TestTestMainHelperInAnotherFile(t *testing.T) {
	const head = "package greet\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n"
	const mainRun = head + "func TestMain(m *testing.M) {\n\tos.Exit(run(m.Run))\n}\n"
	const mainM = head + "func TestMain(m *testing.M) {\n\tos.Exit(setup(m))\n}\n"
	const honestRun = "package greet\n\nimport \"os\"\n\nfunc run(f func() int) int {\n\tdefer os.RemoveAll(\"tmp\")\n\treturn f()\n}\n"
	const honestM = "package greet\n\nimport \"testing\"\n\nfunc setup(m *testing.M) int {\n\tcode := m.Run()\n\treturn code\n}\n"
	const lazyRun = "package greet\n\nfunc run(f func() int) int {\n\tf()\n\treturn 0\n}\n"
	const lazyM = "package greet\n\nimport \"testing\"\n\nfunc setup(m *testing.M) int { return 0 }\n"
	const greetTest = "package greet\n\nimport \"testing\"\n\nfunc TestHello(t *testing.T) {\n\tif Hello() != \"hello\" {\n\t\tt.Fatal(1)\n\t}\n}\n"
	for _, tt := range []struct {
		name         string
		start, now   map[string]string // main_test.go and helpers_test.go ("" absent)
		refused      bool
		wantInReason string
	}{
		{"helper emptied in helpers_test.go, TestMain unchanged",
			map[string]string{"main_test.go": mainRun, "helpers_test.go": honestRun}, map[string]string{"main_test.go": mainRun, "helpers_test.go": lazyRun}, true, "helpers_test.go"},
		{"new TestMain handing m to a helper that never runs it",
			map[string]string{"helpers_test.go": lazyM}, map[string]string{"main_test.go": mainM, "helpers_test.go": lazyM}, true, "setup"},
		{"new TestMain and new lazy helper",
			map[string]string{}, map[string]string{"main_test.go": mainRun, "helpers_test.go": lazyRun}, true, "run"},
		{"helper that returns 0 drops its m",
			map[string]string{"main_test.go": mainM, "helpers_test.go": honestM}, map[string]string{"main_test.go": mainM, "helpers_test.go": lazyM}, true, "never calls"},
		{"helper is a func variable in another file (not read: the file's own rule refuses)",
			map[string]string{}, map[string]string{"main_test.go": mainRun, "helpers_test.go": "package greet\n\nvar run = func(f func() int) int { return 0 }\n"}, true, "never calls"},
		// Honest twins.
		{"honest: new TestMain, helper in helpers_test.go returns f()",
			map[string]string{}, map[string]string{"main_test.go": mainRun, "helpers_test.go": honestRun}, false, ""},
		{"honest: new TestMain, helper given m keeps m.Run's code",
			map[string]string{"helpers_test.go": honestM}, map[string]string{"main_test.go": mainM, "helpers_test.go": honestM}, false, ""},
		{"honest: helper file edited, still runs the tests",
			map[string]string{"main_test.go": mainRun, "helpers_test.go": honestRun}, map[string]string{"main_test.go": mainRun, "helpers_test.go": honestRun + "\nfunc other() {}\n"}, false, ""},
		{"honest: a lazy helper from before the session, another test edited",
			map[string]string{"main_test.go": mainRun, "helpers_test.go": lazyRun}, map[string]string{"main_test.go": mainRun, "helpers_test.go": lazyRun + "\n// note\n"}, false, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, root, "go.mod", "module example.com/app\n\ngo 1.22\n")
			writeFile(t, root, "greet/greet.go", "package greet\n\nfunc Hello() string { return \"hello\" }\n")
			writeFile(t, root, "greet/greet_test.go", greetTest)
			start := map[string]string{"greet/greet.go": "package greet\n\nfunc Hello() string { return \"hello\" }\n", "greet/greet_test.go": greetTest}
			var changed []string
			for f, b := range tt.start {
				start["greet/"+f] = b
			}
			for f, b := range tt.now {
				writeFile(t, root, "greet/"+f, b)
				if tt.start[f] != b {
					changed = append(changed, "greet/"+f)
				}
			}
			repo := startRepo{root: root, start: start, changed: changed}
			got, err := SkipsAddedIn(context.Background(), repo, "start", func(string) (string, bool) { return "", false })
			if err != nil {
				t.Fatal(err)
			}
			if (len(got) > 0) != tt.refused || tt.refused && !strings.Contains(strings.Join(got, "\n"), tt.wantInReason) {
				t.Errorf("SkipsAddedIn = %q, want refused %v (naming %q)", got, tt.refused, tt.wantInReason)
			}
		})
	}
}
