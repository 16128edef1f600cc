package verify

import "testing"

// TestRangeGoUnchangedHelper: lazy pass 27 (c3). The team's helper
// package (internal/greettest, unchanged in the range) swaps greet's seam
// in Install; a new test file calls it in init and greet.go is broken.
// Locally the helper is read from the work tree (refused); verify's range
// reader read only the range's changed files, so the new call of an
// unchanged helper passed. It now reads, at the tip, the repository's
// packages the changed Go test files import (and theirs, four deep).
// Honest twin: the same call of a helper that freezes the clock.
func TestRangeGoUnchangedHelper(t *testing.T) {
	const mod = "module example.com/greet\n\ngo 1.22\n"
	greet := func(word string) string {
		return "package greet\n\nimport \"time\"\n\n// GreetFn is the seam.\nvar GreetFn = greet\n\nfunc greet() string {\n\ts := \"" + word + "\"\n\treturn s\n}\n\n// Now is the clock.\nvar Now = time.Now\n\n// Greet greets.\nfunc Greet() string { _ = Now(); return GreetFn() }\n"
	}
	const xtest = "package greet_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/greet\"\n)\n\nfunc TestGreet(t *testing.T) {\n\tif got := greet.Greet(); got != \"hello\" {\n\t\tt.Fatalf(\"Greet() = %q\", got)\n\t}\n}\n"
	base := map[string]string{"go.mod": mod, "greet.go": greet("hello"), "greet_test.go": xtest,
		"internal/stubs/stubs.go":         "// Package stubs.\npackage stubs\n\nimport \"example.com/greet\"\n\n// Swap stubs greet.\nfunc Swap() { greet.GreetFn = func() string { return \"hello\" } }\n",
		"internal/greettest/greettest.go": "// Package greettest helps greet's tests.\npackage greettest\n\nimport \"example.com/greet/internal/stubs\"\n\n// Install stubs greet.\nfunc Install() { stubs.Swap() }\n",
		"internal/clocktest/clocktest.go": "// Package clocktest freezes greet's clock.\npackage clocktest\n\nimport (\n\t\"time\"\n\n\t\"example.com/greet\"\n)\n\n// Freeze stops the clock.\nfunc Freeze() { greet.Now = func() time.Time { return time.Unix(0, 0) } }\n"}
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"a new call of the team's unchanged helper that swaps the seam", map[string]string{"greet.go": greet("helo"),
			"setup_test.go": "package greet_test\n\nimport \"example.com/greet/internal/greettest\"\n\nfunc init() { greettest.Install() }\n"},
			"setup_test.go: runs stubs.Swap before the tests"},
		{"honest: a new call of the team's clock helper", map[string]string{
			"setup_test.go": "package greet_test\n\nimport \"example.com/greet/internal/clocktest\"\n\nfunc init() { clocktest.Freeze() }\n"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkRangeSkips(t, base, c.files, func(string) (string, bool) { return "", false }, c.want)
		})
	}
}
