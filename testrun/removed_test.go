package testrun

import (
	"slices"
	"strings"
	"testing"
)

// TestTestNames: the names a runner collects and those it skips.
func TestTestNames(t *testing.T) {
	tests := []struct {
		kind, src string
		collected []string
		skipped   []string
	}{
		{"go", "func TestA(t *testing.T) {}\nfunc Test(t *testing.T) {}\nfunc Test_b(t *testing.T) {}\nfunc Testc(t *testing.T) {}\nfunc testD(t *testing.T) {}\nfunc helper(t *testing.T) {}\nfunc BenchmarkE(b *testing.B) {}\n", []string{"TestA", "Test", "Test_b"}, []string{"Testc", "testD"}},
		{"py", "def test_a():\n    pass\n\n\nclass TestB:\n    def test_b(self):\n        pass\n\n    def _test_c(self):\n        pass\n\n\ndef helper():\n    pass\n", []string{"test_a", "test_b"}, []string{"_test_c"}},
		{"js", "test('adds', () => {})\nit(\"subtracts\", () => {})\nxit('later', () => {})\n", []string{"adds", "subtracts"}, []string{"later"}},
	}
	for _, tc := range tests {
		c, s := testNames(tc.kind, []byte(tc.src))
		if !slices.Equal(c, tc.collected) || !slices.Equal(s, tc.skipped) {
			t.Errorf("%s: collected %q skipped %q, want %q and %q", tc.kind, c, s, tc.collected, tc.skipped)
		}
	}
}

// TestDeadCode: dead code deleted with its tests is honest (issue 25's
// field pass); a test deleted while its code stays is not.
func TestDeadCode(t *testing.T) {
	greet := "package greet\n\nfunc Hello(n string) string { return n }\n\n// Shout is unused.\nfunc Shout(n string) string { return n }\n\nfunc (g *G) Wave() {}\n"
	noShout := "package greet\n\nfunc Hello(n string) string { return n }\n\nfunc (g *G) Wave() {}\n"
	greet2 := "package greet\n\nfunc Hello(n string) string { return n }\n\n// Shout shouts.\nfunc Shout(n string) string {\n\tup := strings.ToUpper(n)\n\treturn up + \"!\"\n}\n\nfunc (g *G) Wave() {}\n"
	funcs := []struct {
		name     string
		lost     []string
		was, now string
		want     bool
	}{
		{"function deleted with its test", []string{"TestShout"}, greet, noShout, true},
		{"a case of it too", []string{"TestShout_loud", "TestShout"}, greet, noShout, true},
		{"function still here", []string{"TestHello"}, greet, noShout, false},
		{"one of two still here", []string{"TestShout", "TestHello"}, greet, noShout, false},
		{"method still here", []string{"TestWave"}, greet, noShout, false},
		{"never a function of the package", []string{"TestEverything"}, greet, noShout, false},
		{"no test named", nil, greet, noShout, false},
		// Renamed, not deleted: the code the test checked is still here.
		{"renamed with its body (one line)", []string{"TestShout"}, greet, noShout + "\nfunc Loud(n string) string { return n }\n", false},
		{"renamed with its body", []string{"TestShout"}, greet2, strings.Replace(greet2, "func Shout(", "func Loud(", 1), false},
		{"deleted, another function added", []string{"TestShout"}, greet2, noShout + "\nfunc Wave2() string {\n\treturn strings.Repeat(\"~\", 3)\n}\n", true},
	}
	for _, tc := range funcs {
		if got := GoFuncsGone(tc.lost, []byte(tc.was), []byte(tc.now)); got != tc.want {
			t.Errorf("GoFuncsGone %s: %v, want %v", tc.name, got, tc.want)
		}
	}
	// A deleted source file whose code an added file holds (verify's
	// reading of git mv greet.go text.go): its test was not dead.
	moves := []struct {
		name, f, was string
		nows         []string
		want         bool
	}{
		{"renamed file", "greet.go", greet2, []string{greet2}, true},
		{"renamed file, a function renamed too", "greet.go", greet2, []string{strings.Replace(greet2, "func Shout(", "func Loud(", 1)}, true},
		{"deleted, another file added", "greet.go", greet2, []string{"package greet\n\nfunc Wave() {}\n"}, false},
		{"deleted, nothing added", "greet.go", greet2, nil, false},
		{"python module renamed", "calc.py", "def add(a, b):\n    total = a + b\n    return total\n", []string{"def add(a, b):\n    total = a + b\n    return total\n"}, true},
		{"a file that defined nothing", "greet.go", "package greet\n", []string{"package greet\n"}, false},
	}
	for _, tc := range moves {
		var nows [][]byte
		for _, n := range tc.nows {
			nows = append(nows, []byte(n))
		}
		if got := CodeMoved(tc.f, []byte(tc.was), nows); got != tc.want {
			t.Errorf("CodeMoved %s: %v, want %v", tc.name, got, tc.want)
		}
	}
	gone := map[string]bool{"tests/shout_test.sh": true, "scripts/shout.sh": true, "tests/wave_test.sh": true}
	lines := []struct {
		line string
		want bool
	}{
		{"sh tests/shout_test.sh", true},
		{"bash ./tests/shout_test.sh", true},
		{"sh tests/wave_test.sh", false},  // scripts/wave.sh stays: a failing test deleted
		{"sh tests/greet_test.sh", false}, // still here
		{"go test ./...", false},          // not a script the line runs
		{"sh tests/shout_test.sh && sh tests/greet_test.sh", false},
	}
	for _, tc := range lines {
		if got := DeadTestLine(tc.line, gone); got != tc.want {
			t.Errorf("DeadTestLine(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
	for f, want := range map[string]string{"a_test.go": "a.go", "tests/test_a.py": "a.py", "a_test.py": "a.py", "src/a.test.js": "a.js", "a.spec.ts": "a.ts", "t/shout-test.sh": "shout.sh", "run.sh": ""} {
		if got := CodeFileFor(f); got != want {
			t.Errorf("CodeFileFor(%q) = %q, want %q", f, got, want)
		}
	}
}
