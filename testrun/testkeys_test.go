package testrun

import (
	"strings"
	"testing"
)

// TestSkipsInEditedHeader (issue 25 round 18, E0): a test that ran at the
// start keeps its name when its header line is edited (spacing, a
// comment, a parameter renamed), and an env-guarded return added to it is
// judged as in any test that ran before; a test with a new name keeps the
// new-test leniency.
func TestSkipsInEditedHeader(t *testing.T) {
	old := lookupEnv
	lookupEnv = func(k string) (string, bool) { v, ok := map[string]string{"GREET_SKIP": "1"}[k]; return v, ok }
	t.Cleanup(func() { lookupEnv = old })

	goWas := "package m\n\nimport \"testing\"\n\nfunc TestGreet(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n"
	goGuard := "\tif os.Getenv(\"GREET_SKIP\") != \"\" {\n\t\treturn\n\t}\n"
	goNow := func(header string) string {
		return strings.Replace(goWas, "func TestGreet(t *testing.T) {\n", header+"\n"+goGuard, 1)
	}
	pyWas := "import os\nimport unittest\n\n\nclass GreetTest(unittest.TestCase):\n    def test_plain(self):\n        self.assertEqual(1 + 1, 2)\n"
	pyGuard := "        if os.environ.get('GREET_SKIP'):\n            return\n"
	pyNow := func(header string) string {
		return strings.Replace(pyWas, "    def test_plain(self):\n", header+"\n"+pyGuard, 1)
	}
	jsWas := "test('greets', () => {\n  expect(1 + 1).toBe(2)\n})\n"
	jsNow := func(header string) string {
		return strings.Replace(jsWas, "test('greets', () => {\n", header+"\n  if (process.env.GREET_SKIP) return\n", 1)
	}
	for _, tt := range []struct {
		name, kind, was, now string
		weak                 bool
	}{
		{"go: header unchanged", "go", goWas, goNow("func TestGreet(t *testing.T) {"), true},
		{"go: spacing and a comment", "go", goWas, goNow("func TestGreet(t *testing.T)  { // x"), true},
		{"go: parameter renamed", "go", goWas, strings.ReplaceAll(goNow("func TestGreet(tt *testing.T) {"), "t.Fatal", "tt.Fatal"), true},
		{"py: a comment on the def", "py", pyWas, pyNow("    def test_plain(self):  # x"), true},
		{"py: parameter renamed", "py", pyWas, pyNow("    def test_plain(me):"), true},
		{"js: quotes changed", "js", jsWas, jsNow("test(\"greets\", () => {"), true},
		{"js: async added", "js", jsWas, jsNow("test('greets', async () => {"), true},
		// honest twins: a test with a new name is new (its renaming away
		// of the old test is removed.go's).
		{"honest go: a new test beside it", "go", goWas, goWas + "\nfunc TestGreetDB(t *testing.T) {\n" + goGuard + "}\n", false},
		{"honest py: the same def name in a new class", "py", pyWas, pyWas + "\n\nclass DBTest(unittest.TestCase):\n    def test_plain(self):\n" + pyGuard + "        self.assertTrue(True)\n", false},
		{"honest js: a new title", "js", jsWas, jsWas + "test('greets from the db', () => {\n  if (process.env.GREET_SKIP) return\n  expect(1).toBe(1)\n})\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := SkipsIn(tt.kind, []byte(tt.was), []byte(tt.now), true)
			if (len(got) > 0) != tt.weak {
				t.Errorf("skips %q, want weakening %v", got, tt.weak)
			}
		})
	}
}
