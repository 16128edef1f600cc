package goinitexit_test

import (
	"testing"

	"github.com/sessiongate/sessiongate/goinitexit"
)

// TestExitsDeepAndLocal (round 20 t5): exits round 19 left open (two
// calls deep, through a local variable) and the honest `--version` exit
// in init(), which go test never reaches (it passes only -test.* flags).
func TestExitsDeepAndLocal(t *testing.T) {
	none := func(string) (string, bool) { return "", false }
	const imp = "package greet\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"slices\"\n)\n\nvar _ = fmt.Println\nvar _ = slices.Contains[[]string]\n\n"
	for _, tt := range []struct {
		name, src string
		want      bool
	}{
		{name: "two calls deep", want: true, src: imp + "func init() { setup() }\n\nfunc setup() { bail() }\n\nfunc bail() { os.Exit(0) }\n"},
		{name: "three calls deep, declared before", want: true, src: imp + "func a() { os.Exit(0) }\n\nfunc b() { a() }\n\nfunc c() { b() }\n\nfunc init() { c() }\n"},
		{name: "through a local variable", want: true, src: imp + "func init() {\n\texit := os.Exit\n\texit(0)\n}\n"},
		{name: "through a local var declaration", want: true, src: imp + "func init() {\n\tvar stop func(int) = os.Exit\n\tstop(0)\n}\n"},
		{name: "a local variable in a helper", want: true, src: imp + "func init() { setup() }\n\nfunc setup() {\n\tquit := os.Exit\n\tquit(0)\n}\n"},
		{name: "--version guard and testing.Testing()", want: true, src: imp + "func init() {\n\tif os.Args[1] == \"--version\" || len(os.Args) > 0 {\n\t\tos.Exit(0)\n\t}\n}\n"},
		{name: "recursive helpers still end", want: false, src: imp + "func a() { b() }\n\nfunc b() { a() }\n\nfunc init() { a() }\n"},
		// Honest twins.
		{name: "honest: --version in init, asked for on the command line", src: imp + "func init() {\n\tif len(os.Args) > 1 && os.Args[1] == \"--version\" {\n\t\tfmt.Println(\"v1\")\n\t\tos.Exit(0)\n\t}\n}\n"},
		{name: "honest: slices.Contains(os.Args, \"--version\")", src: imp + "func init() {\n\tif slices.Contains(os.Args[1:], \"--version\") {\n\t\tos.Exit(0)\n\t}\n}\n"},
		{name: "honest: a deep helper that does not exit", src: imp + "func init() { setup() }\n\nfunc setup() { load() }\n\nfunc load() { fmt.Println() }\n"},
		{name: "honest: a local os.Exit in main", src: "package main\n\nimport \"os\"\n\nfunc main() {\n\texit := os.Exit\n\texit(0)\n}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := goinitexit.ExitsIn([]byte(tt.src), nil, none)
			if (len(got) > 0) != tt.want {
				t.Errorf("ExitsIn = %q, want an exit: %v", got, tt.want)
			}
		})
	}
}
