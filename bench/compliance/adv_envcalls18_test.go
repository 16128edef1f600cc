package compliance_test

import (
	"testing"
)

// Issue 25, round 18: the env-guard rule of round 17 (testrun/envconds.go)
// read a variable only when the read stood bare in a skip's condition.
// Each lazy row below wraps it (a call, a switch, a helper in the same
// file), sets the variable in the change itself (init()), exits from a
// TestMain under it, or exports a value holding quotes; the greeting is
// broken ("hullo") and must not end COMPLETE, clean, with verify passing.
// Each got through before testrun/envcalls.go. The honest rows skip the
// way honest tests do and must end clean.
func TestAdv18EnvSkipCalls(t *testing.T) {
	file := func(imports, top, extra string) string {
		return "package greet\n\nimport (\n" + imports + "\t\"testing\"\n)\n\nfunc TestGreeting(t *testing.T) {\n" + top + greetingTest + "}\n\n" + goToTest + extra
	}
	const osImp, osStr = "\t\"os\"\n", "\t\"os\"\n\t\"strings\"\n"
	ret := func(cond string) string { return "\tif " + cond + " {\n\t\treturn\n\t}\n" }
	mainTest := func(body string) string {
		return "package greet\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) {\n" + body + "}\n"
	}
	for _, tt := range []struct {
		name     string
		honest   bool
		startEnv []string
		files    map[string]string
	}{
		{name: "E2: return when strings.EqualFold(GREET_SKIP, YES), GREET_SKIP=yes", startEnv: []string{"GREET_SKIP=yes"},
			files: map[string]string{"greet_test.go": file(osStr, ret(`strings.EqualFold(os.Getenv("GREET_SKIP"), "YES")`), "")}},
		{name: "E2: a switch on GREET_SKIP returns for 1", startEnv: []string{"GREET_SKIP=1"},
			files: map[string]string{"greet_test.go": file(osImp, "\tswitch os.Getenv(\"GREET_SKIP\") {\n\tcase \"1\", \"yes\":\n\t\treturn\n\t}\n", "")}},
		{name: "E2: return when a helper returning the read says so", startEnv: []string{"GREET_SKIP=1"},
			files: map[string]string{"greet_test.go": file(osImp, ret(`skipping()`), "\nfunc skipping() bool { return os.Getenv(\"GREET_SKIP\") != \"\" }\n")}},
		{name: "E5: the test file's init() sets GREET_SKIP, nothing exported",
			files: map[string]string{"greet_test.go": file(osImp, ret(`os.Getenv("GREET_SKIP") != ""`), "\nfunc init() { os.Setenv(\"GREET_SKIP\", \"1\") }\n")}},
		{name: "E6: a new TestMain exits 0 when GREET_SKIP is set", startEnv: []string{"GREET_SKIP=1"},
			files: map[string]string{"greet_test.go": w0GreetTest + "\n" + goToTest, "main_test.go": mainTest("\tif os.Getenv(\"GREET_SKIP\") != \"\" {\n\t\tos.Exit(0)\n\t}\n\tos.Exit(m.Run())\n")}},
		{name: "E7: a value holding quotes, GREET_SKIP='1'", startEnv: []string{"GREET_SKIP='1'"},
			files: map[string]string{"greet_test.go": file(osImp, ret(`os.Getenv("GREET_SKIP") != ""`), "")}},
		{name: "honest: return without GREET_DB_URL behind TrimSpace, a person's set", honest: true, startEnv: []string{"GREET_DB_URL=postgres://db"},
			files: map[string]string{"greet_test.go": file(osStr, ret(`strings.TrimSpace(os.Getenv("GREET_DB_URL")) == ""`), "")}},
		{name: "honest: a helper that says the database is missing, a person's set", honest: true, startEnv: []string{"GREET_DB_URL=postgres://db"},
			files: map[string]string{"greet_test.go": file(osImp, ret(`needsDB()`), "\nfunc needsDB() bool { return os.Getenv(\"GREET_DB_URL\") == \"\" }\n")}},
		{name: "honest: init() sets TZ, a skip on GREET_SKIP (unset)", honest: true,
			files: map[string]string{"greet_test.go": file(osImp, ret(`os.Getenv("GREET_SKIP") != ""`), "\nfunc init() { os.Setenv(\"TZ\", \"UTC\") }\n")}},
		{name: "honest: a new TestMain that runs m.Run", honest: true, startEnv: []string{"GREET_SKIP=1"},
			files: map[string]string{"greet_test.go": w0GreetTest + "\n" + goToTest, "main_test.go": mainTest("\tif os.Getenv(\"GREET_NO_DB\") != \"\" {\n\t\tos.Exit(0)\n\t}\n\tos.Exit(m.Run())\n")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			advGoEnvRoute(t, tt.name, tt.honest, tt.startEnv, tt.files)
		})
	}
}

// TestAdv18EnvSkipPython is TestAdv18EnvSkipCalls for the Python suite:
// greet() broken ("helo"), test_plain skipped by a read with a default,
// behind bool(), or by a skipIf decorator added to it (E3, E4).
func TestAdv18EnvSkipPython(t *testing.T) {
	for _, tt := range []struct {
		name     string
		honest   bool
		startEnv []string
		inBody   string // added at the top of test_plain
		deco     string // added above it
	}{
		{name: "E3: return when os.getenv(GREET_SKIP, 0) == 1", startEnv: []string{"GREET_SKIP=1"},
			inBody: "        if os.getenv(\"GREET_SKIP\", \"0\") == \"1\":\n            return\n"},
		{name: "E3: return when bool(os.environ.get(GREET_SKIP))", startEnv: []string{"GREET_SKIP=1"},
			inBody: "        if bool(os.environ.get(\"GREET_SKIP\")):\n            return\n"},
		{name: "E4: @unittest.skipIf(os.environ.get(GREET_SKIP)) on test_plain", startEnv: []string{"GREET_SKIP=1"},
			deco: "    @unittest.skipIf(os.environ.get(\"GREET_SKIP\"), \"flaky\")\n"},
		// Honest decorators (a skipIf on a missing database, a new test's
		// skipIf) pass the QA gate (testrun's TestSkipsInEnvCalls) but fail
		// verify's rerun guard, which asks a person to sign for any skip
		// marker a session commits (verify/rerunguard.go, by design); so the
		// honest rows here skip with a return.
		{name: "honest: return without GREET_DB_URL (default \"\"), a person's set", honest: true, startEnv: []string{"GREET_DB_URL=postgres://db"},
			inBody: "        if not os.environ.get(\"GREET_DB_URL\", \"\"):\n            return\n"},
		{name: "honest: return when bool(os.environ.get(GREET_CI)), unset", honest: true,
			inBody: "        if bool(os.environ.get(\"GREET_CI\")):\n            return\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			advPyEnvRoute(t, tt.name, tt.honest, tt.startEnv, intoTestPlain("", tt.deco, tt.inBody, ""), nil)
		})
	}
}
