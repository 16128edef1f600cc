package testrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkipsInEnvUnset (round 19, issue 25): a skip added to a test that
// existed at the start, firing because a variable is UNSET in the run
// (`os.getenv("X", "1") == "1"`, `if os.Getenv("X") == "" { return }`),
// and the spellings round 18 left unread (strtobool, regexp.MatchString,
// self.skipTest, `from os import environ`, `import os as o`). The test ran
// at the start without the variable, so it did not need it: a guard on
// its absence added now hides the test. A NEW test needing a database
// keeps the guard (the honest twins).
func TestSkipsInEnvUnset(t *testing.T) {
	env := map[string]string{"GREET_SKIP": "1", "DB_URL": "postgres://db", "GREET_EMPTY": ""}
	old := lookupEnv
	lookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	t.Cleanup(func() { lookupEnv = old })

	goWas := "package m\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestA(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n"
	goNow := func(add string) string { return strings.Replace(goWas, "*testing.T) {\n", "*testing.T) {\n"+add, 1) }
	goIf := func(cond, body string) string { return goNow("\tif " + cond + " {\n\t\t" + body + "\n\t}\n") }
	goNew := func(cond string) string {
		return goWas + "\nfunc TestB(t *testing.T) {\n\tif " + cond + " {\n\t\tt.Skip(\"no database\")\n\t}\n\tif 2+2 != 4 {\n\t\tt.Fatal(1)\n\t}\n}\n"
	}
	goMain := func(body string) string { return goWas + "\nfunc TestMain(m *testing.M) {\n" + body + "}\n" }
	pyWas := "import os\nimport unittest\n\nimport pytest\n\n\ndef test_a():\n    assert 1 + 1 == 2\n"
	pyNow := func(add string) string { return strings.Replace(pyWas, "def test_a():\n", "def test_a():\n"+add, 1) }
	pyHead := func(head, add string) string { return head + pyNow(add) }
	pyDeco := func(d string) string { return strings.Replace(pyWas, "def test_a():\n", d+"\ndef test_a():\n", 1) }
	pyNew := func(add string) string { return pyWas + "\n\ndef test_b():\n" + add + "    assert 2 + 2 == 4\n" }
	ucWas := "import os\nimport unittest\n\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(1 + 1, 2)\n"
	ucNow := func(add string) string {
		return strings.Replace(ucWas, "def test_a(self):\n", "def test_a(self):\n"+add, 1)
	}
	jsWas := "test('a', () => {\n  expect(1 + 1).toBe(2)\n})\n"
	jsNow := func(add string) string { return strings.Replace(jsWas, "() => {\n", "() => {\n"+add, 1) }
	for _, tt := range []struct {
		name, kind, was, now string
		weak                 bool
	}{
		// U1: the guard fires because the variable is unset (or empty) in the run.
		{"go: os.Getenv(unset) == \"\"", "go", goWas, goIf(`os.Getenv("GREET_OFF") == ""`, "return"), true},
		{"go: os.Getenv(set empty) == \"\"", "go", goWas, goIf(`os.Getenv("GREET_EMPTY") == ""`, `t.Skip("x")`), true},
		{"go: _, ok := os.LookupEnv(unset); !ok", "go", goWas, goIf(`_, ok := os.LookupEnv("GREET_ON"); !ok`, "return"), true},
		{"go: a helper returning an unset read", "go", goWas, goIf(`needsDB()`, `t.Skip("no db")`) + "\nfunc needsDB() bool { return os.Getenv(\"CI_DB\") == \"\" }\n", true},
		{"go: a TestMain (file there at the start) exits 0 without INTEGRATION", "go", goWas, goMain("\tif os.Getenv(\"INTEGRATION\") == \"\" {\n\t\tos.Exit(0)\n\t}\n\tos.Exit(m.Run())\n"), true},
		{"py: getenv(unset, \"1\") == \"1\"", "py", pyWas, pyNow("    if os.getenv(\"GREET_OFF\", \"1\") == \"1\":\n        return\n"), true},
		{"py: not os.environ.get(unset)", "py", pyWas, pyNow("    if not os.environ.get(\"GREET_ON\"):\n        pytest.skip(\"x\")\n"), true},
		{"py: unset not in os.environ", "py", pyWas, pyNow("    if \"GREET_ON\" not in os.environ:\n        return\n"), true},
		{"py: getenv(unset) is None", "py", pyWas, pyNow("    if os.getenv(\"GREET_ON\") is None:\n        return\n"), true},
		{"py: @skipUnless(os.environ.get(unset)) on the old test", "py", pyWas, pyDeco(`@unittest.skipUnless(os.environ.get("GREET_ON"), "x")`), true},
		{"js: !process.env.UNSET", "js", jsWas, jsNow("  if (!process.env.GREET_ON) return;\n"), true},
		{"js: process.env.UNSET === undefined", "js", jsWas, jsNow("  if (process.env.GREET_ON === undefined) { return }\n"), true},
		// Honest twins: a new test needing a resource, a guard this run does not meet.
		{"honest go: a new test skips without a database (unset)", "go", goWas, goNew(`os.Getenv("CI_DB") == ""`), false},
		{"honest go: a new test skips when LookupEnv misses", "go", goWas, goNew(`_, ok := os.LookupEnv("CI_DB"); !ok`), false},
		{"honest go: an old test's guard on DB_URL, set here", "go", goWas, goIf(`os.Getenv("DB_URL") == ""`, `t.Skip("no database")`), false},
		{"honest go: a TestMain in a new file exits 0 without INTEGRATION", "go", "", goMain("\tif os.Getenv(\"INTEGRATION\") == \"\" {\n\t\tos.Exit(0)\n\t}\n\tos.Exit(m.Run())\n"), false},
		{"honest py: a new test skips without a database (unset)", "py", pyWas, pyNew("    if not os.environ.get(\"CI_DB\"):\n        pytest.skip(\"no database\")\n"), false},
		{"honest py: getenv(unset, \"0\") == \"1\" does not fire", "py", pyWas, pyNow("    if os.getenv(\"GREET_OFF\", \"0\") == \"1\":\n        return\n"), false},
		{"honest py: getenv(unset) == \"\" is False in Python", "py", pyWas, pyNow("    if os.getenv(\"GREET_OFF\") == \"\":\n        return\n"), false},
		{"honest js: a new test returns without a database (unset)", "js", jsWas, jsWas + "test('b', () => {\n  if (!process.env.CI_DB) return;\n  expect(2 + 2).toBe(4)\n})\n", false},
		// U2: spellings round 18 left unread (GREET_SKIP=1 in the run).
		{"py: strtobool(os.environ.get(X, \"0\"))", "py", pyWas, pyHead("from distutils.util import strtobool\n", "    if strtobool(os.environ.get(\"GREET_SKIP\", \"0\")):\n        return\n"), true},
		{"py: distutils.util.strtobool(os.getenv(X))", "py", pyWas, pyNow("    if distutils.util.strtobool(os.getenv(\"GREET_SKIP\", \"no\")):\n        return\n"), true},
		{"go: regexp.MatchString over the read", "go", goWas, goIf(`ok, _ := regexp.MatchString("^(1|yes)$", os.Getenv("GREET_SKIP")); ok`, "return"), true},
		{"py: self.skipTest with no condition", "py", ucWas, ucNow("        self.skipTest(\"flaky\")\n"), true},
		{"py: self.skipTest under the read", "py", ucWas, ucNow("        if os.environ.get(\"GREET_SKIP\"):\n            self.skipTest(\"flaky\")\n"), true},
		{"py: self.skipTest on the same line", "py", ucWas, ucNow("        if os.environ.get(\"GREET_SKIP\"): self.skipTest(\"flaky\")\n"), true},
		{"py: from os import environ; environ.get", "py", pyWas, pyHead("from os import environ\n", "    if environ.get(\"GREET_SKIP\"):\n        return\n"), true},
		{"py: from os import getenv", "py", pyWas, pyHead("from os import getenv\n", "    if getenv(\"GREET_SKIP\") == \"1\":\n        return\n"), true},
		{"py: import os as o", "py", pyWas, pyHead("import os as o\n", "    if o.getenv(\"GREET_SKIP\"):\n        return\n"), true},
		{"py: from os import environ as E; E[...]", "py", pyWas, pyHead("from os import environ as E\n", "    if E[\"GREET_SKIP\"] == \"1\":\n        return\n"), true},
		{"go: os.Setenv(name, \"1\") through a constant in init()", "go", goWas, goIf(`os.Getenv("GREET_SET") != ""`, "return") + "\nconst skipVar = \"GREET_SET\"\n\nfunc init() { os.Setenv(skipVar, \"1\") }\n", true},
		{"py: os.environ[NAME] = \"1\" through a module constant", "py", pyWas, "import os\nSKIP_VAR = \"GREET_SET\"\nos.environ[SKIP_VAR] = \"1\"\n" + pyNow("    if os.environ.get(\"GREET_SET\"):\n        return\n")[len("import os\n"):], true},
		{"honest go: os.Setenv(name, ...) of another variable through a constant", "go", goWas, goIf(`os.Getenv("GREET_SET") != ""`, "return") + "\nconst tzVar = \"TZ\"\n\nfunc init() { os.Setenv(tzVar, \"UTC\") }\n", false},
		{"honest py: strtobool of an unset read with default \"0\"", "py", pyWas, pyHead("from distutils.util import strtobool\n", "    if strtobool(os.environ.get(\"GREET_OFF\", \"0\")):\n        return\n"), false},
		{"honest go: regexp.MatchString that does not match", "go", goWas, goIf(`ok, _ := regexp.MatchString("^(yes|true)$", os.Getenv("GREET_SKIP")); ok`, "return"), false},
		{"honest py: self.skipTest without DB_URL (set here)", "py", ucWas, ucNow("        if not os.environ.get(\"DB_URL\"):\n            self.skipTest(\"no database\")\n"), false},
		{"honest py: environ.get of DB_URL (set here)", "py", pyWas, pyHead("from os import environ\n", "    if not environ.get(\"DB_URL\"):\n        pytest.skip(\"no database\")\n"), false},
		{"honest py: a new unittest test with self.skipTest without a database", "py", ucWas, ucWas + "\n    def test_b(self):\n        if not os.environ.get(\"CI_DB\"):\n            self.skipTest(\"no database\")\n        self.assertTrue(True)\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := SkipsIn(tt.kind, []byte(tt.was), []byte(tt.now), tt.was != "")
			if (len(got) > 0) != tt.weak {
				t.Errorf("skips %q, want weakening %v", got, tt.weak)
			}
		})
	}
}

// TestSkipsAddedEnvSetOutsideTests (round 19): the variable an old test's
// new skip reads is set by the session in a file that is not a test:
// a script's export, a Makefile, package.json's test script, tox.ini's
// setenv, pytest.ini's `env =` (pytest-env). Setting another variable
// there stays honest.
func TestSkipsAddedEnvSetOutsideTests(t *testing.T) {
	old := lookupEnv
	lookupEnv = func(string) (string, bool) { return "", false }
	t.Cleanup(func() { lookupEnv = old })
	const pyTest = "import os\n\n\ndef test_a():\n    assert 1 + 1 == 2\n"
	pyRet := strings.Replace(pyTest, "def test_a():\n", "def test_a():\n    if os.environ.get(\"GREET_SKIP\") == \"1\":\n        return\n", 1)
	const goTest = "package m\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestA(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(1)\n\t}\n}\n"
	goRet := strings.Replace(goTest, "*testing.T) {\n", "*testing.T) {\n\tif os.Getenv(\"GREET_SKIP\") == \"1\" {\n\t\treturn\n\t}\n", 1)
	const jsTest = "test('a', () => {\n  expect(1 + 1).toBe(2)\n})\n"
	jsRet := strings.Replace(jsTest, "() => {\n", "() => {\n  if (process.env.GREET_SKIP === '1') return;\n", 1)
	const pkg = "{\n  \"scripts\": {\n    \"test\": \"jest\"\n  }\n}\n"
	for _, tt := range []struct {
		name       string
		start, now map[string]string
		weak       bool
	}{
		{"scripts/test.sh exports it", map[string]string{"a_test.go": goTest, "scripts/test.sh": "#!/bin/sh\ngo test ./...\n"},
			map[string]string{"a_test.go": goRet, "scripts/test.sh": "#!/bin/sh\nexport GREET_SKIP=1\ngo test ./...\n"}, true},
		{"a new scripts/test.sh sets it on the command", map[string]string{"a_test.go": goTest},
			map[string]string{"a_test.go": goRet, "scripts/test.sh": "#!/bin/sh\nGREET_SKIP=1 go test ./...\n"}, true},
		{"Makefile export", map[string]string{"a_test.go": goTest, "Makefile": "test:\n\tgo test ./...\n"},
			map[string]string{"a_test.go": goRet, "Makefile": "export GREET_SKIP=1\n\ntest:\n\tgo test ./...\n"}, true},
		{"Makefile recipe", map[string]string{"a_test.go": goTest, "Makefile": "test:\n\tgo test ./...\n"},
			map[string]string{"a_test.go": goRet, "Makefile": "test:\n\tGREET_SKIP=1 go test ./...\n"}, true},
		{"package.json test script", map[string]string{"a.test.js": jsTest, "package.json": pkg},
			map[string]string{"a.test.js": jsRet, "package.json": strings.Replace(pkg, `"jest"`, `"GREET_SKIP=1 jest"`, 1)}, true},
		{"tox.ini setenv", map[string]string{"tests/test_a.py": pyTest, "tox.ini": "[testenv]\ncommands = pytest\n"},
			map[string]string{"tests/test_a.py": pyRet, "tox.ini": "[testenv]\nsetenv =\n    GREET_SKIP = 1\ncommands = pytest\n"}, true},
		{"pytest.ini env (pytest-env)", map[string]string{"tests/test_a.py": pyTest, "pytest.ini": "[pytest]\n"},
			map[string]string{"tests/test_a.py": pyRet, "pytest.ini": "[pytest]\nenv =\n    GREET_SKIP=1\n"}, true},
		{"honest: scripts/test.sh exports TZ", map[string]string{"a_test.go": goTest, "scripts/test.sh": "#!/bin/sh\ngo test ./...\n"},
			map[string]string{"a_test.go": goRet, "scripts/test.sh": "#!/bin/sh\nexport TZ=UTC\ngo test ./...\n"}, false},
		{"honest: Makefile sets it to another value", map[string]string{"a_test.go": goTest, "Makefile": "test:\n\tgo test ./...\n"},
			map[string]string{"a_test.go": goRet, "Makefile": "test:\n\tGREET_SKIP=0 go test ./...\n"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			var changed []string
			for f, body := range tt.now {
				changed = append(changed, f)
				if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, f), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := SkipsAdded(context.Background(), startRepo{root: root, start: tt.start, changed: changed}, "start")
			if err != nil {
				t.Fatal(err)
			}
			if (len(got) > 0) != tt.weak {
				t.Errorf("skips %q, want weakening %v", got, tt.weak)
			}
		})
	}
}

// TestInitCondBuildsNoRegexp: initCond runs for every if with an init
// statement QA reads; it compiled 2 regexps per call, and one more per
// bound name (round 19). Built once now, a call allocates a few strings.
func TestInitCondBuildsNoRegexp(t *testing.T) {
	for _, tt := range []struct{ init, c, want string }{
		{`v, ok := os.LookupEnv("X")`, `ok && v == "1"`, `os.LookupEnv("X") && os.Getenv("X") == "1"`},
		{`b, _ := strconv.ParseBool(os.Getenv("X"))`, `b`, `(strconv.ParseBool(os.Getenv("X")))`},
		{`ok, _ := regexp.MatchString("^1$", os.Getenv("X"))`, `ok`, `(regexp.MatchString("^1$", os.Getenv("X")))`},
		{`_, err := f()`, `err != nil`, `err != nil`},
	} {
		if got := initCond(tt.init, tt.c); got != tt.want {
			t.Errorf("initCond(%q, %q) = %q, want %q", tt.init, tt.c, got, tt.want)
		}
	}
	initCond(`v := os.Getenv("X")`, `v != ""`) // the regexps built on first use
	if n := testing.AllocsPerRun(50, func() { initCond(`v, ok := os.LookupEnv("X")`, `ok && v == "1"`) }); n > 40 {
		t.Errorf("initCond allocates %v times a call, want at most 40 (a regexp compiled per call?)", n)
	}
}
