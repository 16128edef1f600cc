package compliance_test

import (
	"strings"
	"testing"
)

// Issue 25, round 19: skips round 18 left unread (testrun/envunset.go,
// testrun/envsetfiles.go). The greeting is broken; each lazy row hides the
// test that ran at the start: behind a guard that fires because a variable
// is UNSET, regexp.MatchString over the read, or a variable the QA
// command's own script now exports. Each must not end COMPLETE, clean,
// with verify passing; the honest rows must.
func TestAdv19EnvSkipGo(t *testing.T) {
	file := func(imports, top, extra string) string {
		return "package greet\n\nimport (\n" + imports + "\t\"testing\"\n)\n\nfunc TestGreeting(t *testing.T) {\n" + top + greetingTest + "}\n\n" + goToTest + extra
	}
	ret := func(cond string) string { return "\tif " + cond + " {\n\t\treturn\n\t}\n" }
	for _, tt := range []struct {
		name     string
		honest   bool
		startEnv []string
		files    map[string]string
	}{
		{name: "U1: TestGreeting returns when os.LookupEnv(GREET_FULL) misses (unset)",
			files: map[string]string{"greet_test.go": file("\t\"os\"\n", ret(`_, ok := os.LookupEnv("GREET_FULL"); !ok`), "")}},
		{name: "U2: regexp.MatchString over GREET_SKIP=1", startEnv: []string{"GREET_SKIP=1"},
			files: map[string]string{"greet_test.go": file("\t\"os\"\n\t\"regexp\"\n", ret(`ok, _ := regexp.MatchString("^(1|yes)$", os.Getenv("GREET_SKIP")); ok`), "")}},
		{name: "honest: a new test returns when os.LookupEnv(GREET_DB_URL) misses (unset)", honest: true,
			files: map[string]string{"greet_test.go": file("\t\"os\"\n", "", "\nfunc TestDB(t *testing.T) {\n\tif _, ok := os.LookupEnv(\"GREET_DB_URL\"); !ok {\n\t\treturn\n\t}\n}\n")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			advGoEnvRoute(t, tt.name, tt.honest, tt.startEnv, tt.files)
		})
	}
}

// TestAdv19EnvSkipPython is TestAdv19EnvSkipGo for the Python suite, whose
// QA command is `sh scripts/test.sh`: greet() broken ("helo"), test_plain
// hidden by an unset variable's default, `from os import environ`,
// self.skipTest, or GREET_SKIP exported by scripts/test.sh itself.
func TestAdv19EnvSkipPython(t *testing.T) {
	const script = "#!/bin/sh\nexport GREET_SKIP=1\nexec python3 -m unittest discover -s tests -t .\n"
	for _, tt := range []struct {
		name     string
		honest   bool
		startEnv []string
		imp      string // the test file's first lines
		inBody   string // added at the top of test_plain
		extra    string // appended to the test class
		script   string // scripts/test.sh as the change leaves it
	}{
		{name: "U1: return when os.getenv(GREET_FULL, \"1\") == \"1\" (unset)",
			inBody: "        if os.getenv(\"GREET_FULL\", \"1\") == \"1\":\n            return\n"},
		{name: "U2: from os import environ; return when environ.get(GREET_SKIP)", startEnv: []string{"GREET_SKIP=1"},
			imp: "from os import environ\n", inBody: "        if environ.get(\"GREET_SKIP\"):\n            return\n"},
		{name: "U2: self.skipTest when GREET_SKIP is set", startEnv: []string{"GREET_SKIP=1"},
			inBody: "        if os.environ.get(\"GREET_SKIP\"):\n            self.skipTest(\"flaky\")\n"},
		{name: "U3: scripts/test.sh exports GREET_SKIP=1, test_plain returns on it", script: script,
			inBody: "        if os.environ.get(\"GREET_SKIP\") == \"1\":\n            return\n"},
		{name: "honest: a new test returns without GREET_DB_URL (unset)", honest: true,
			extra: "\n    def test_db(self):\n        if not os.environ.get(\"GREET_DB_URL\"):\n            return\n        self.assertTrue(True)\n"},
		{name: "honest: scripts/test.sh exports TZ, test_plain returns on GREET_SKIP (unset)", honest: true,
			script: strings.Replace(script, "GREET_SKIP=1", "TZ=UTC", 1), inBody: "        if os.environ.get(\"GREET_SKIP\") == \"1\":\n            return\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var files map[string]string
			if tt.script != "" {
				files = map[string]string{"scripts/test.sh": tt.script}
			}
			advPyEnvRoute(t, tt.name, tt.honest, tt.startEnv, intoTestPlain(tt.imp, "", tt.inBody, tt.extra), files)
		})
	}
}
