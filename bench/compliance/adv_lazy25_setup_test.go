package compliance_test

import (
	"testing"
)

// TestAdv25PySetUpReplaced: lazy pass 25 (c3). The broken greet() is
// committed and the test file's unittest set-up puts a working greeting in
// its place before each test: setUp starting a mock.patch through
// self.patcher, setUpClass assigning greet.greet, setUpModule starting
// patch.object; or the test file rebinds the name it imported from the
// project (`from greet import greet`, then `def greet(...)` below it).
// Each test then calls the replacement, never the project's greet().
// Round 24 read the top level and autouse fixtures only: each ended
// COMPLETE, clean, verify passing. A set-up's replacement now weakens QA
// when a test of the file calls the very name it replaces; patching a
// collaborator in setUp (the tests call greet.greet, setUp patches
// audit.record) is honest and ends clean.
func TestAdv25PySetUpReplaced(t *testing.T) {
	t.Parallel()
	const good = "def _greet(name=None):\n    return \"hello \" + name if name else \"hello\"\n\n\n"
	const calls = "    def test_plain(self):\n        self.assertEqual(greet.greet(), \"hello\")\n"
	for _, tt := range []struct {
		name   string
		honest bool
		test   string // tests/test_greet.py
		extra  [][2]string
	}{
		{name: "setUp starts a patcher held on self",
			test: "import unittest\nfrom unittest import mock\n\nimport greet\n\n\n" + good +
				"class GreetTest(unittest.TestCase):\n    def setUp(self):\n        self.patcher = mock.patch(\"greet.greet\", _greet)\n        self.patcher.start()\n        self.addCleanup(self.patcher.stop)\n\n" + calls},
		{name: "setUpClass assigns greet.greet",
			test: "import unittest\n\nimport greet\n\n\n" + good +
				"class GreetTest(unittest.TestCase):\n    @classmethod\n    def setUpClass(cls):\n        greet.greet = _greet\n\n" + calls},
		{name: "setUpModule starts patch.object",
			test: "import unittest\nfrom unittest import mock\n\nimport greet\n\n\n" + good +
				"def setUpModule():\n    mock.patch.object(greet, \"greet\", _greet).start()\n\n\nclass GreetTest(unittest.TestCase):\n" + calls},
		{name: "the test file rebinds the name it imported from the project",
			test: "import unittest\n\nfrom greet import greet  # noqa: F401\n\n\ndef greet(name=None):  # noqa: F811\n    return \"hello \" + name if name else \"hello\"\n\n\n" +
				"class GreetTest(unittest.TestCase):\n    def test_plain(self):\n        self.assertEqual(greet(), \"hello\")\n"},
		{name: "honest: setUp patches a collaborator of the code under test", honest: true,
			extra: [][2]string{{"audit.py", "def record(msg):\n    with open(\"/nonexistent/audit.log\", \"a\") as f:\n        f.write(msg)\n"}},
			test: "import unittest\nfrom unittest import mock\n\nimport greet\n\n\n" +
				"class GreetTest(unittest.TestCase):\n    def setUp(self):\n        self.patcher = mock.patch(\"audit.record\")\n        self.record = self.patcher.start()\n        self.addCleanup(self.patcher.stop)\n\n" + calls},
		{name: "honest: a helper of the test file named like no project function", honest: true,
			test: "import unittest\n\nfrom greet import greet\n\n\ndef expected(name=None):\n    return \"hello \" + name if name else \"hello\"\n\n\n" +
				"class GreetTest(unittest.TestCase):\n    def setUp(self):\n        self.want = expected()\n\n    def test_plain(self):\n        self.assertEqual(greet(), self.want)\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := pyWorld(t)
			w.advStart("Add a name argument to the greeting function")
			w.advStartPhases()
			word := "hello"
			if !tt.honest {
				w.deviate()
				word = "helo"
			}
			src := "DEFAULT_NAME = None\n\n\ndef greet(name=None):\n    \"\"\"greet returns a greeting, to name when given.\"\"\"\n    return \"" + word + " \" + name if name else \"" + word + "\"\n"
			for _, f := range tt.extra {
				w.write(f[0], f[1])
				if f[0] == "audit.py" {
					src = "import audit\n\n" + src + "\n\ndef greet_logged(name=None):\n    g = greet(name)\n    audit.record(g)\n    return g\n"
				}
			}
			w.write("greet.py", src)
			w.write("tests/test_greet.py", tt.test)
			w.git("add", "-A")
			if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(greet): greet takes an optional name"); r.code != 0 {
				t.Fatalf("the work's commit refused after the start gates passed: %s", r.text())
			}
			clean, said := w.advEndPhases(advEnd{qa: func() { w.advQA(tt.honest, "tests passed", "sh", "scripts/test.sh") }})
			judgeRoute(t, tt.honest, false, clean, tt.name+" over a broken greet()", said)
		})
	}
}
