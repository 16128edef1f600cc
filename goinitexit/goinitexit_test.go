package goinitexit_test

import (
	"os"
	"testing"

	"github.com/sessiongate/sessiongate/goinitexit"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

const head = "package greet\n\nimport (\n\t\"os\"\n\t\"strings\"\n\t\"testing\"\n)\n\nvar _ = strings.HasSuffix\nvar _ = testing.Testing\n"

func TestAdded(t *testing.T) {
	for _, tt := range []struct {
		name, was, now string
		want           bool
	}{
		{name: "init exits 0 in a test binary", now: head + "func init() {\n\tif strings.HasSuffix(os.Args[0], \".test\") {\n\t\tos.Exit(0)\n\t}\n}\n", want: true},
		{name: "init exits when testing.Testing()", now: head + "func init() {\n\tif testing.Testing() {\n\t\tos.Exit(0)\n\t}\n}\n", want: true},
		{name: "init exits with a variable's code", now: head + "func init() {\n\tc := 0\n\tos.Exit(c)\n}\n", want: true},
		{name: "init calls a helper of the file that exits", now: head + "func bail() { os.Exit(0) }\n\nfunc init() { bail() }\n", want: true},
		{name: "a variable's initialiser runs a function that exits", now: head + "var _ = func() int { os.Exit(0); return 0 }()\n", want: true},
		{name: "os imported under another name", now: "package greet\n\nimport o \"os\"\n\nfunc init() { o.Exit(0) }\n", want: true},
		{name: "syscall.Exit", now: "package greet\n\nimport \"syscall\"\n\nfunc init() { syscall.Exit(0) }\n", want: true},
		{name: "a second exit added beside one the file had", was: head + "func init() { os.Exit(0) }\n", now: head + "func init() { os.Exit(0) }\n\nfunc init() { os.Exit(0) }\n", want: true},
		{name: "init appends -test.skip to os.Args in a test binary", now: head + "func init() {\n\tif testing.Testing() {\n\t\tos.Args = append(os.Args, \"-test.skip=TestGreeting\")\n\t}\n}\n", want: true},
		{name: "a package variable's initialiser sets an element of os.Args", now: head + "var _ = func() int { os.Args[0] = \"x\"; return 0 }()\n", want: true},
		// Honest twins.
		{name: "honest: main() rewrites os.Args", now: "package main\n\nimport \"os\"\n\nfunc main() { os.Args = os.Args[1:] }\n"},
		{name: "honest: init reads os.Args", now: head + "var prog string\n\nfunc init() { prog = os.Args[0] }\n"},
		{name: "honest: the exit was there at the start", was: head + "func init() { os.Exit(0) }\n", now: head + "// kept\nfunc init() { os.Exit(0) }\n"},
		{name: "honest: init exits non-zero (the run fails)", now: head + "func init() {\n\tif os.Getenv(\"X\") == \"\" {\n\t\tos.Exit(2)\n\t}\n}\n"},
		{name: "honest: os.Exit(0) in main", now: "package main\n\nimport \"os\"\n\nfunc main() { os.Exit(0) }\n"},
		{name: "honest: init sets flag.Usage to a function that exits", now: "package main\n\nimport (\n\t\"flag\"\n\t\"os\"\n)\n\nfunc init() {\n\tflag.Usage = func() { os.Exit(0) }\n}\n"},
		{name: "honest: a package variable holding a function that exits", now: head + "var stop = func() { os.Exit(0) }\n"},
		{name: "honest: an Exit method of another package", now: "package greet\n\nimport \"example.com/app\"\n\nfunc init() { app.Exit(0) }\n"},
		{name: "honest: init sets a default", now: head + "var name string\n\nfunc init() {\n\tif os.Getenv(\"N\") == \"\" {\n\t\tname = \"world\"\n\t}\n}\n"},
		{name: "honest: a file that does not parse", now: "package greet\n\nfunc init() { os.Exit(0) \n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := goinitexit.Added([]byte(tt.was), []byte(tt.now))
			if (got != "") != tt.want {
				t.Errorf("Added = %q, want an exit: %v", got, tt.want)
			}
		})
	}
}

// TestAddedWithPackageHelpers: an init() read through the helpers of the
// package's other files (Helpers), and a package variable holding os.Exit.
func TestAddedWithPackageHelpers(t *testing.T) {
	other := goinitexit.Helpers([]byte("package greet\n\nimport \"os\"\n\nfunc bail() { os.Exit(0) }\n\nvar osExit = os.Exit\n"))
	for _, tt := range []struct {
		name, was, now string
		helpers        map[string]string
		want           bool
	}{
		{name: "init calls a helper of another file that exits", now: "package greet\n\nfunc init() { bail() }\n", helpers: other, want: true},
		{name: "init calls a variable of another file holding os.Exit", now: "package greet\n\nfunc init() { osExit(0) }\n", helpers: other, want: true},
		{name: "init calls a variable of its own file holding os.Exit", now: "package greet\n\nimport \"os\"\n\nvar exit = os.Exit\n\nfunc init() { exit(0) }\n", want: true},
		{name: "honest: a variable holding os.Exit, for tests to stub", now: "package greet\n\nimport \"os\"\n\nvar osExit = os.Exit\n\nfunc main() { osExit(0) }\n"},
		{name: "honest: init calls a helper that does not exit", now: "package greet\n\nfunc init() { setup() }\n", helpers: map[string]string{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := goinitexit.AddedWith([]byte(tt.was), []byte(tt.now), tt.helpers)
			if (got != "") != tt.want {
				t.Errorf("AddedWith = %q, want an exit: %v", got, tt.want)
			}
		})
	}
}

// TestExitsInHelperProcess: the helper-process idiom (a test re-runs its
// own binary with a sentinel set; init() answers and exits) is honest when
// the run does not set the sentinel; the lazy guards are not exempt.
func TestExitsInHelperProcess(t *testing.T) {
	none := func(string) (string, bool) { return "", false }
	set := func(n string) (string, bool) {
		if n == "GO_HELPER" {
			return "v1", true
		}
		return "", false
	}
	const imp = "package greet\n\nimport (\n\t\"os\"\n\t\"strings\"\n\t\"testing\"\n)\n\nvar _ = strings.HasSuffix\nvar _ = testing.Testing\n\n"
	for _, tt := range []struct {
		name, src string
		env       goinitexit.Env
		want      bool
	}{
		{name: "honest: switch on a sentinel the run does not set", env: none,
			src: imp + "func init() {\n\tswitch os.Getenv(\"GO_HELPER\") {\n\tcase \"\":\n\t\treturn\n\tcase \"v1\":\n\t\tos.Exit(0)\n\t}\n}\n"},
		{name: "honest: if on a sentinel the run does not set", env: none,
			src: imp + "func init() {\n\tif os.Getenv(\"GO_HELPER\") == \"v1\" {\n\t\tos.Exit(0)\n\t}\n}\n"},
		{name: "honest: os.Args[1] names a helper", env: none,
			src: imp + "func init() {\n\tif len(os.Args) == 3 && os.Args[1] == \"TESTMISUSE\" {\n\t\tos.Exit(0)\n\t}\n}\n"},
		{name: "the run sets the sentinel", env: set, want: true,
			src: imp + "func init() {\n\tif os.Getenv(\"GO_HELPER\") == \"v1\" {\n\t\tos.Exit(0)\n\t}\n}\n"},
		{name: "!= \"\" is no sentinel", env: none, want: true,
			src: imp + "func init() {\n\tif os.Getenv(\"GO_HELPER\") != \"x\" {\n\t\tos.Exit(0)\n\t}\n}\n"},
		{name: "== \"\" is no sentinel", env: none, want: true,
			src: imp + "func init() {\n\tif os.Getenv(\"GO_HELPER\") == \"\" {\n\t\tos.Exit(0)\n\t}\n}\n"},
		{name: "os.Args[1] compared with a -test flag", env: none, want: true,
			src: imp + "func init() {\n\tif os.Args[1] == \"-test.paniconexit0\" {\n\t\tos.Exit(0)\n\t}\n}\n"},
		{name: "an else branch of the sentinel", env: none, want: true,
			src: imp + "func init() {\n\tif os.Getenv(\"GO_HELPER\") == \"v1\" {\n\t\treturn\n\t} else {\n\t\tos.Exit(0)\n\t}\n}\n"},
		{name: "sentinel || testing.Testing()", env: none, want: true,
			src: imp + "func init() {\n\tif os.Getenv(\"GO_HELPER\") == \"v1\" || testing.Testing() {\n\t\tos.Exit(0)\n\t}\n}\n"},
		{name: "the exit after the guarded block", env: none, want: true,
			src: imp + "func init() {\n\tif os.Getenv(\"GO_HELPER\") == \"v1\" {\n\t\treturn\n\t}\n\tos.Exit(0)\n}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := goinitexit.ExitsIn([]byte(tt.src), nil, tt.env)
			if (len(got) > 0) != tt.want {
				t.Errorf("ExitsIn = %q, want an exit: %v", got, tt.want)
			}
		})
	}
}
