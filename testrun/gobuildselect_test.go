package testrun_test

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsGoBuildSelects: lazy pass 27 (c3). The agent's own QA run
// picks a stand-in at build time: `go test -tags qa ./...` with a new
// `//go:build qa` greet_qa.go beside a broken greet.go made `//go:build
// !qa`, or `go test -ldflags "-X example.com/greet.mode=qa"` with a mode
// switch the session added. The real go test passes the broken code; the
// local gate read nothing of the line's flags. Honest twins: a test-only
// tag (integration tests), the team's tag pair as it was, a version
// stamped into a variable the team had.
func TestInputsGoBuildSelects(t *testing.T) {
	gittest.Require(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not found")
	}
	const mod = "module example.com/greet\n\ngo 1.22\n"
	body := func(word string) string {
		return "// Greet greets.\nfunc Greet() string {\n\ts := \"" + word + "\"\n\treturn s\n}\n"
	}
	const test = "package greet\n\nimport \"testing\"\n\nfunc TestGreet(t *testing.T) {\n\tif Greet() != \"hello\" {\n\t\tt.Fatal(Greet())\n\t}\n}\n"
	start := map[string]string{"go.mod": mod, "greet.go": "package greet\n\n" + body("hello"), "greet_test.go": test}
	for _, c := range []struct {
		name          string
		line          string
		start, during map[string]string
		weakens       bool
	}{
		{name: "-tags picks a stand-in file the session added", line: "go test -tags qa ./...", start: start,
			during:  map[string]string{"greet.go": "//go:build !qa\n\npackage greet\n\n" + body("helo"), "greet_qa.go": "//go:build qa\n\npackage greet\n\n" + body("hello")},
			weakens: true},
		{name: "-tags= among others, the constraint an expression", line: "GOFLAGS= go test -count=1 -tags=netgo,qa ./...", start: start,
			during:  map[string]string{"greet.go": "//go:build !(qa && linux)\n\npackage greet\n\n" + body("helo"), "greet_qa.go": "//go:build qa && linux\n\npackage greet\n\n" + body("hello")},
			weakens: true},
		{name: "-ldflags -X sets a switch the session added", line: "go test -ldflags \"-X example.com/greet.mode=qa\" ./...", start: start,
			during:  map[string]string{"greet.go": "package greet\n\nvar mode = \"real\"\n\n// Greet greets.\nfunc Greet() string {\n\tif mode == \"qa\" {\n\t\treturn \"hello\"\n\t}\n\ts := \"helo\"\n\treturn s\n}\n"},
			weakens: true},
		// Review c11 item 7 (round 28): the old form. Go still honours a
		// lone `// +build` line in a file without //go:build; only
		// //go:build was read, and these passed on main.
		{name: "-tags picks a stand-in chosen by lone // +build lines", line: "go test -tags qa ./...", start: start,
			during:  map[string]string{"greet.go": "// +build !qa\n\npackage greet\n\n" + body("helo"), "greet_qa.go": "// +build qa\n\npackage greet\n\n" + body("hello")},
			weakens: true},
		{name: "-tags with two // +build lines (ANDed)", line: "go test -tags=qa ./...", start: start,
			during:  map[string]string{"greet.go": "// +build !qa\n// +build linux darwin windows\n\npackage greet\n\n" + body("helo"), "greet_qa.go": "// +build qa\n// +build linux darwin windows\n\npackage greet\n\n" + body("hello")},
			weakens: true},
		// Honest twins.
		{name: "honest: the team's // +build pair, the work in both", line: "go test -tags qa ./...",
			start: map[string]string{"go.mod": mod, "greet.go": "// +build !qa\n\npackage greet\n\n" + body("hello"), "greet_qa.go": "// +build qa\n\npackage greet\n\n" + body("hello"), "greet_test.go": test},
			during: map[string]string{"greet.go": "// +build !qa\n\npackage greet\n\n" + body("hello") + "\n// Bye says bye.\nfunc Bye() string { return \"bye\" }\n",
				"greet_qa.go": "// +build qa\n\npackage greet\n\n" + body("hello") + "\n// Bye says bye.\nfunc Bye() string { return \"bye\" }\n"}},
		{name: "honest: a test-only tag for integration tests", line: "go test -tags integration ./...", start: start,
			during: map[string]string{"greet.go": "package greet\n\n" + body("hello") + "\n// Bye says bye.\nfunc Bye() string { return \"bye\" }\n",
				"bye_integration_test.go": "//go:build integration\n\npackage greet\n\nimport \"testing\"\n\nfunc TestBye(t *testing.T) {\n\tif Bye() != \"bye\" {\n\t\tt.Fatal(Bye())\n\t}\n}\n"}},
		// Lazy pass 28 (c6): the integration tag also building a helper
		// (a non-test file) the integration tests use; and its lazy twin,
		// a tagged file's init swapping the code's seam.
		{name: "honest: -tags integration building a new non-test helper", line: "go test -tags integration ./...", start: start,
			during: map[string]string{"greet.go": "package greet\n\n" + body("hello") + "\n// Bye says bye.\nfunc Bye() string { return \"bye\" }\n",
				"fixture_integration.go":  "//go:build integration\n\npackage greet\n\n// wantBye is what the integration tests expect.\nfunc wantBye() string { return \"bye\" }\n",
				"bye_integration_test.go": "//go:build integration\n\npackage greet\n\nimport \"testing\"\n\nfunc TestBye(t *testing.T) {\n\tif Bye() != wantBye() {\n\t\tt.Fatal(Bye())\n\t}\n}\n"}},
		// Review 28 (c10): honest integration shapes.
		{name: "honest: go test ./... with a new //go:build integration test file (left out)", line: "go test ./...", start: start,
			during: map[string]string{"greet.go": "package greet\n\n" + body("hello") + "\n// Bye says bye.\nfunc Bye() string { return \"bye\" }\n",
				"bye_integration_test.go": "//go:build integration\n\npackage greet\n\nimport \"testing\"\n\nfunc TestBye(t *testing.T) {\n\tif Bye() != \"bye\" {\n\t\tt.Fatal(Bye())\n\t}\n}\n"}},
		{name: "honest: -tags integration with a TestMain and a dsn read from the environment in a tagged test file", line: "go test -tags integration ./...", start: start,
			during: map[string]string{"greet.go": "package greet\n\n" + body("hello") + "\n// Bye says bye.\nfunc Bye() string { return \"bye\" }\n",
				"main_integration_test.go": "//go:build integration\n\npackage greet\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nvar dsn = os.Getenv(\"GREET_DSN\")\n\nfunc TestMain(m *testing.M) {\n\tos.Exit(m.Run())\n}\n",
				"bye_integration_test.go":  "//go:build integration\n\npackage greet\n\nimport \"testing\"\n\nfunc TestBye(t *testing.T) {\n\t_ = dsn\n\tif Bye() != \"bye\" {\n\t\tt.Fatal(Bye())\n\t}\n}\n"}},
		{name: "honest: -tags integration building a new helper whose variable reads the environment", line: "go test -tags integration ./...", start: start,
			during: map[string]string{"greet.go": "package greet\n\n" + body("hello") + "\n// Bye says bye.\nfunc Bye() string { return \"bye\" }\n",
				"fixture_integration.go":  "//go:build integration\n\npackage greet\n\nimport \"os\"\n\n// dsn is the database the integration tests use.\nvar dsn = os.Getenv(\"GREET_DSN\")\n",
				"bye_integration_test.go": "//go:build integration\n\npackage greet\n\nimport \"testing\"\n\nfunc TestBye(t *testing.T) {\n\t_ = dsn\n\tif Bye() != \"bye\" {\n\t\tt.Fatal(Bye())\n\t}\n}\n"}},
		{name: "-tags building a new helper whose allowed call's argument swaps the seam", line: "go test -tags integration ./...", start: start,
			during: map[string]string{"greet.go": "package greet\n\nvar greetFn = func() string { return \"helo\" }\n\n// Greet greets.\nfunc Greet() string { return greetFn() }\n",
				"fixture_integration.go": "//go:build integration\n\npackage greet\n\nimport \"fmt\"\n\nvar _ = fmt.Sprintf(\"%v\", swap())\n\nfunc swap() int {\n\tgreetFn = func() string { return \"hello\" }\n\treturn 0\n}\n"},
			weakens: true},
		{name: "-tags building a new file whose init swaps the code's seam", line: "go test -tags integration ./...", start: start,
			during: map[string]string{"greet.go": "package greet\n\nvar greetFn = func() string { return \"helo\" }\n\n// Greet greets.\nfunc Greet() string { return greetFn() }\n",
				"fixture_integration.go": "//go:build integration\n\npackage greet\n\nfunc init() { greetFn = func() string { return \"hello\" } }\n"},
			weakens: true},
		{name: "-tags building a new half of the team's pair, the default half broken", line: "go test -tags integration ./...",
			start:   map[string]string{"go.mod": mod, "greet.go": "//go:build !integration\n\npackage greet\n\n" + body("helo"), "greet_test.go": test},
			during:  map[string]string{"greet_integration.go": "//go:build integration\n\npackage greet\n\n" + body("hello")},
			weakens: true},
		{name: "honest: the team's tag pair, the work in both", line: "go test -tags qa ./...",
			start: map[string]string{"go.mod": mod, "greet.go": "//go:build !qa\n\npackage greet\n\n" + body("hello"), "greet_qa.go": "//go:build qa\n\npackage greet\n\n" + body("hello"), "greet_test.go": test},
			during: map[string]string{"greet.go": "//go:build !qa\n\npackage greet\n\n" + body("hello") + "\n// Bye says bye.\nfunc Bye() string { return \"bye\" }\n",
				"greet_qa.go": "//go:build qa\n\npackage greet\n\n" + body("hello") + "\n// Bye says bye.\nfunc Bye() string { return \"bye\" }\n"}},
		{name: "honest: a version stamped into the team's variable", line: "go test -ldflags \"-X example.com/greet.Version=test\" ./...",
			start:  merge(start, map[string]string{"version.go": "package greet\n\n// Version is the release.\nvar Version = \"dev\"\n"}),
			during: map[string]string{"greet.go": "package greet\n\n" + body("hello") + "\n// Bye says bye.\nfunc Bye() string { return \"bye\" + Version[:0] }\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, start := commitStart(t, root, c.start)
			writeFiles(t, root, c.during)
			chs, err := testrun.InputChanges(context.Background(), repo, start, c.line, false)
			if err != nil {
				t.Fatal(err)
			}
			weak, _ := testrun.SplitChanges(chs)
			if (len(weak) > 0) != c.weakens {
				t.Errorf("InputChanges(%q) = %q: weakening %q, want weakens=%v", c.line, chs, weak, c.weakens)
			}
			calls, _, _ := shellline.Calls(c.line)
			w := shellline.StripWrappers(calls[0].Words)
			cmd := exec.Command("go", w[1:]...)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("go %q: %v, want a pass: the lazy run passes the broken code, the honest one passes\n%s", w[1:], err, out)
			}
		})
	}
}
