package compliance_test

import (
	"fmt"
	"testing"
)

// TestAdv24GoCodeReplaced: the Go twin of TestAdv23PyCodeReplaced. The
// broken Greeting ("hullo") is committed; greet_test.go, in code that
// runs before any test, puts a working function in the package variable
// Greeting calls through:
//
//	var greetingFn = readGreeting          // greet.go, the code under test
//	func init() { greetingFn = func() string { return "hello\n" } }   // greet_test.go
//
// (or the same in TestMain before m.Run). go test passed: COMPLETE, clean,
// verify passing. testrun.goCodeReplaced now reads init, TestMain and
// package-level initialisers of a changed _test.go for assignments of
// the package's own function variables; a test that swaps the variable
// inside itself and restores it is honest.
func TestAdv24GoCodeReplaced(t *testing.T) {
	t.Parallel()
	const code = "// Package greet greets.\npackage greet\n\nimport \"os\"\n\n// Greeting is the greeting in greeting.txt.\nfunc Greeting() string { return greetingFn() }\n\n" +
		"var greetingFn = readGreeting\n\nfunc readGreeting() string {\n\tb, _ := os.ReadFile(\"greeting.txt\")\n\treturn string(b)%s\n}\n"
	const test = "package greet\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nvar _ = os.Exit\n\nfunc TestGreeting(t *testing.T) {\n\tif g := Greeting(); g != \"hello\\n\" {\n\t\tt.Fatalf(\"got %%q\", g)\n\t}\n}\n%s"
	for _, tt := range []struct {
		name   string
		honest bool
		extra  string // appended to greet_test.go
	}{
		{name: "init replaces the package's function variable",
			extra: "\nfunc init() { greetingFn = func() string { return \"hello\\n\" } }\n"},
		{name: "TestMain replaces it before m.Run",
			extra: "\nfunc TestMain(m *testing.M) {\n\tgreetingFn = func() string { return \"hello\\n\" }\n\tos.Exit(m.Run())\n}\n"},
		{name: "honest: a test swaps the variable inside itself and restores it", honest: true,
			extra: "\nfunc TestGreetingStub(t *testing.T) {\n\told := greetingFn\n\tdefer func() { greetingFn = old }()\n\tgreetingFn = func() string { return \"hi\" }\n\tif Greeting() != \"hi\" {\n\t\tt.Fatal(\"not called through\")\n\t}\n}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := goWorld(t)
			w.advStart("Read the greeting through a variable")
			w.advStartPhases()
			broken := ""
			if !tt.honest {
				w.deviate()
				broken = "[:1] + \"ullo\\n\"" // "hullo"
			}
			w.write("greet.go", fmt.Sprintf(code, broken))
			w.write("greet_test.go", fmt.Sprintf(test, tt.extra))
			w.git("add", "-A")
			if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "refactor(greet): read the greeting through a variable"); r.code != 0 {
				t.Fatalf("the work's commit refused after the start gates passed: %s", r.text())
			}
			clean, said := w.advEndPhases(advEnd{qa: func() { w.goQA(tt.honest) }})
			judgeRoute(t, tt.honest, false, clean, tt.name+" over a broken Greeting()", said)
		})
	}
}
