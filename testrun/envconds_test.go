package testrun

import (
	"strings"
	"testing"
)

// TestSkipsInEnv (round 17): a skip or early return added to a test that
// ran at the start, behind a condition on an environment variable, is
// judged by the environment of the run: one that fires here skips the
// test in the run being judged (the lazy agent exported GREET_SKIP=1). A
// condition this run does not meet, and any such condition in a new test,
// stays a guard (the honest twins).
func TestSkipsInEnv(t *testing.T) {
	env := map[string]string{"GREET_SKIP": "1", "LANG": "C.UTF-8", "DB_URL": "postgres://db", "EMPTY": "", "QUOTED": `a"b`}
	old := lookupEnv
	lookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	t.Cleanup(func() { lookupEnv = old })

	goWas := "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n"
	goNow := func(add string) string { return strings.Replace(goWas, "*testing.T) {\n", "*testing.T) {\n"+add, 1) }
	goIf := func(cond, body string) string { return goNow("\tif " + cond + " {\n\t\t" + body + "\n\t}\n") }
	pyWas := "import os\nimport pytest\n\n\ndef test_a():\n    assert 1 + 1 == 2\n"
	pyNow := func(add string) string { return strings.Replace(pyWas, "def test_a():\n", "def test_a():\n"+add, 1) }
	jsWas := "test('a', () => {\n  expect(1 + 1).toBe(2)\n})\n"
	jsNow := func(add string) string { return strings.Replace(jsWas, "() => {\n", "() => {\n"+add, 1) }
	for _, tt := range []struct {
		name, kind, was, now string
		weak                 bool
	}{
		// Fire in this run: weakenings (each got through before).
		{"go: return when GREET_SKIP is set", "go", goWas, goIf(`os.Getenv("GREET_SKIP") != ""`, "return"), true},
		{"go: t.Skip when GREET_SKIP is 1", "go", goWas, goIf(`os.Getenv("GREET_SKIP") == "1"`, `t.Skip("flaky")`), true},
		{"go: return when LANG is set", "go", goWas, goIf(`os.Getenv("LANG") != ""`, "return"), true},

		{"go: return when len(GREET_SKIP) > 0", "go", goWas, goIf(`len(os.Getenv("GREET_SKIP")) > 0`, "return"), true},
		{"go: LookupEnv ok", "go", goWas, goIf(`_, ok := os.LookupEnv("GREET_SKIP"); ok`, "return"), true},
		{"go: one line", "go", goWas, goNow("\tif os.Getenv(\"GREET_SKIP\") != \"\" { return }\n"), true},
		{"py: return when GREET_SKIP is set", "py", pyWas, pyNow("    if os.environ.get(\"GREET_SKIP\"):\n        return\n"), true},
		{"py: pytest.skip when 'GREET_SKIP' in os.environ", "py", pyWas, pyNow("    if 'GREET_SKIP' in os.environ:\n        pytest.skip('flaky')\n"), true},
		{"py: return when GREET_SKIP not in os.environ is false", "py", pyWas, pyNow("    if not 'GREET_SKIP' not in os.environ:\n        return\n"), true},
		{"js: return when process.env.GREET_SKIP", "js", jsWas, jsNow("  if (process.env.GREET_SKIP) return\n"), true},
		{"go: the read kept in a variable first", "go", goWas, goNow("\tskip := os.Getenv(\"GREET_SKIP\") != \"\"\n\tif skip {\n\t\treturn\n\t}\n"), true},
		{"go: the value kept in a variable first", "go", goWas, goNow("\tv := os.Getenv(\"GREET_SKIP\")\n\tif v == \"1\" {\n\t\treturn\n\t}\n"), true},
		{"py: the read kept in a variable first", "py", pyWas, pyNow("    skip = os.environ.get('GREET_SKIP')\n    if skip:\n        return\n"), true},
		{"js: the read kept in a const first", "js", jsWas, jsNow("  const skip = process.env.GREET_SKIP\n  if (skip) return\n"), true},
		{"honest go: a variable holding an unset variable's read", "go", goWas, goNow("\tdb := os.Getenv(\"CI\")\n\tif db != \"\" {\n\t\treturn\n\t}\n"), false},
		{"honest go: a variable set twice is not read", "go", goWas, goNow("\tskip := os.Getenv(\"GREET_SKIP\") != \"\"\n\tskip = false\n\tif skip {\n\t\treturn\n\t}\n"), false},
		// Honest twins: conditions this run does not meet, and new tests.
		// A skip because a variable is missing stays a guard: it is how a
		// test that needs a resource skips (and the lazy "return unless
		// GREET_FULL" is left open with it).
		// round 19 (envunset.go): a guard added to an old test that fires because the variable is unset in the run hides it (the test ran at the start without it)
		{"round 19: return unless GREET_FULL is set (unset here)", "go", goWas, goIf(`os.Getenv("GREET_FULL") == ""`, "return"), true},
		{"js: an old test returns without DATABASE_URL (unset here; round 19)", "js", jsWas, jsNow("  if (!process.env.DATABASE_URL) return;\n"), true},
		{"honest go: skip without DB_URL (set here)", "go", goWas, goIf(`os.Getenv("DB_URL") == ""`, `t.Skip("no database")`), false},
		{"honest go: skip on CI (unset here)", "go", goWas, goIf(`os.Getenv("CI") != ""`, `t.Skip("flaky on CI")`), false},
		{"honest go: LookupEnv of an unset variable", "go", goWas, goIf(`_, ok := os.LookupEnv("CI"); ok`, "return"), false},
		{"honest go: a set-but-empty variable", "go", goWas, goIf(`os.Getenv("EMPTY") != ""`, "return"), false},
		// Round 18: a value with a quote is read too (envcalls.go); it was left unread.
		{"go: a value with a quote is read", "go", goWas, goIf(`os.Getenv("QUOTED") != ""`, "return"), true},
		{"honest go: a new test that skips without GREET_FULL", "go", goWas, goWas + "\nfunc TestB(t *testing.T) {\n\tif os.Getenv(\"GREET_FULL\") == \"\" {\n\t\tt.Skip(\"set GREET_FULL\")\n\t}\n}\n", false},
		{"honest py: skip without DB_URL (set here)", "py", pyWas, pyNow("    if not os.environ.get('DB_URL'):\n        pytest.skip('no database')\n"), false},
		{"honest js: return on CI (unset here)", "js", jsWas, jsNow("  if (process.env.CI) return\n"), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := SkipsIn(tt.kind, []byte(tt.was), []byte(tt.now), true)
			if (len(got) > 0) != tt.weak {
				t.Errorf("skips %q, want weakening %v", got, tt.weak)
			}
		})
	}
}
