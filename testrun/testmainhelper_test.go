package testrun

import "testing"

// TestTestMainSameFileHelper (round 20 t5): a TestMain handing m.Run (or
// m) to a helper of its own file is read through the helper, one level:
// honest when the helper calls it and uses its code, lazy when it never
// calls it or drops the result. Before, every such TestMain read as
// "never calls m.Run()" (a false block on the honest rows).
func TestTestMainSameFileHelper(t *testing.T) {
	const head = "package greet\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n"
	tm := head + "func TestMain(m *testing.M) {\n\tos.Exit(run(m.Run))\n}\n\n"
	for _, tt := range []struct {
		name, now string
		hides     bool
	}{
		{"helper returns 0, never calls f", tm + "func run(f func() int) int { return 0 }\n", true},
		{"helper calls f, drops its code", tm + "func run(f func() int) int {\n\tf()\n\treturn 0\n}\n", true},
		{"helper assigns f's code to _", tm + "func run(f func() int) int {\n\t_ = f()\n\treturn 0\n}\n", true},
		{"helper given m never runs it", head + "func TestMain(m *testing.M) {\n\tos.Exit(setup(m))\n}\n\nfunc setup(m *testing.M) int { return 0 }\n", true},
		// Honest twins.
		{"honest: helper returns f()", tm + "func run(f func() int) int {\n\tdefer os.RemoveAll(\"tmp\")\n\treturn f()\n}\n", false},
		{"honest: helper keeps the code past teardown", tm + "func run(f func() int) int {\n\tcode := f()\n\tos.RemoveAll(\"tmp\")\n\treturn code\n}\n", false},
		{"honest: helper given m returns m.Run()", head + "func TestMain(m *testing.M) {\n\tos.Exit(setup(m))\n}\n\nfunc setup(m *testing.M) int {\n\tos.Setenv(\"TZ\", \"UTC\")\n\treturn m.Run()\n}\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := testMainHides(nil, []byte(tt.now)); (got != "") != tt.hides {
				t.Errorf("testMainHides = %q, want hides=%v", got, tt.hides)
			}
		})
	}
}
