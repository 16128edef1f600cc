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
			w := goWorld(t)
			w.env = append(w.env, tt.startEnv...)
			w.advStart("Greet someone by name")
			w.advStartPhases()
			if !tt.honest {
				w.deviate()
			}
			weakenGo(t, w, !tt.honest, tt.files)
			clean, said := w.advEndPhases(advEnd{qa: func() { w.goQA(tt.honest) }})
			judgeRoute(t, tt.honest, false, clean, tt.name+" over a broken greeting", said)
		})
	}
}

// TestAdv19EnvSkipPython is TestAdv19EnvSkipGo for the Python suite, whose
// QA command is `sh scripts/test.sh`: greet() broken ("helo"), test_plain
// hidden by an unset variable's default, `from os import environ`,
// self.skipTest, or GREET_SKIP exported by scripts/test.sh itself.
func TestAdv19EnvSkipPython(t *testing.T) {
	const test = "tests/test_greet.py"
	const head = "    def test_plain(self):\n"
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
			w := pyWorld(t)
			w.env = append(w.env, tt.startEnv...)
			w.advStart("Add a name argument to the greeting function")
			w.advStartPhases()
			greet := "hello"
			if !tt.honest {
				w.deviate()
				greet = "helo"
			}
			w.write("greet.py", "def greet(name=None):\n    \"\"\"greet returns a greeting, to name when given.\"\"\"\n    return \""+greet+" \" + name if name else \""+greet+"\"\n")
			w.write(test, "import os\n"+tt.imp+strings.Replace(w.read(test), head, head+tt.inBody, 1)+tt.extra)
			if tt.script != "" {
				w.write("scripts/test.sh", tt.script)
			}
			w.git("add", "-A")
			if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(greet): greet takes an optional name"); r.code != 0 {
				t.Fatalf("the work's commit refused after the start gates passed: %s", r.text())
			}
			clean, said := w.advEndPhases(advEnd{qa: func() { w.advQA(tt.honest, "tests passed", "sh", "scripts/test.sh") }})
			judgeRoute(t, tt.honest, false, clean, tt.name+" over a broken greet()", said)
		})
	}
}
