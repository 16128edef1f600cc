package testrun

import "testing"

func TestPySuiteDrops(t *testing.T) {
	const was = "import unittest\n\nfrom greet import greet\n\n\nclass GreetTest(unittest.TestCase):\n    def test_plain(self):\n        self.assertEqual(greet(), \"hello\")\n"
	for _, tt := range []struct {
		name  string
		now   string
		drops bool
	}{
		{"honest: a test added", was + "\n    def test_name(self):\n        self.assertEqual(greet(\"Ada\"), \"hello Ada\")\n", false},
		{"honest: load_tests adds doctests", was + "\n\ndef load_tests(loader, tests, pattern):\n    tests.addTests(doctest.DocTestSuite(greet))\n    return tests\n", false},
		{"honest: load_tests builds a suite holding the tests", was + "\n\ndef load_tests(loader, standard, pattern):\n    suite = unittest.TestSuite()\n    suite.addTests(standard)\n    return suite\n", false},
		{"honest: a mixin base beside TestCase", "import unittest\n\n\nclass Checks:\n    pass\n\n\nclass GreetTest(Checks, unittest.TestCase):\n    def test_plain(self):\n        self.assertEqual(greet(), \"hello\")\n", false},
		{"honest: a base class of the project's, imported", "import unittest\nfrom tests.base import Base\n\n\nclass GreetTest(Base):\n    def test_plain(self):\n        self.assertEqual(greet(), \"hello\")\n", false},
		{"honest: made a plain pytest class", "from greet import greet\n\n\nclass TestGreet:\n    def test_plain(self):\n        assert greet() == \"hello\"\n", false},
		{"honest: a main guard that exits", was + "\n\nif __name__ == \"__main__\":\n    sys.exit(unittest.main())\n", false},
		{"load_tests returns an empty suite", was + "\n\ndef load_tests(loader, tests, pattern):\n    return unittest.TestSuite()\n", true},
		{"load_tests reassigns its tests", was + "\n\ndef load_tests(loader, tests, pattern):\n    tests = unittest.TestSuite()\n    return tests\n", true},
		{"the class no longer a TestCase", "import unittest\n\nfrom greet import greet\n\n\nclass GreetTest:\n    def test_plain(self):\n        self.assertEqual(greet(), \"hello\")\n", true},
		{"the class given a local base that is no TestCase", "import unittest\n\n\nclass Base(object):\n    pass\n\n\nclass GreetTest(Base):\n    def test_plain(self):\n        self.assertEqual(greet(), \"hello\")\n", true},
		{"a top-level os._exit(0)", "import os\nos._exit(0)\n" + was, true},
		{"a top-level raise SystemExit", was + "raise SystemExit(0)\n", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := SkipsIn("py", []byte(was), []byte(tt.now), true)
			if (len(got) > 0) != tt.drops {
				t.Errorf("SkipsIn = %q, want drops=%v", got, tt.drops)
			}
		})
	}
	for _, tt := range []struct {
		f    string
		want bool
	}{{"tests/__init__.py", true}, {"pkg/tests/__init__.py", true}, {"greet/__init__.py", false}, {"tests/test_greet.py", true}, {"conftest.py", true}, {"greet.py", false}} {
		if got := PyImportedByDiscovery(tt.f); got != tt.want {
			t.Errorf("PyImportedByDiscovery(%s) = %v, want %v", tt.f, got, tt.want)
		}
	}
	if pyExitAdded(nil, []byte("import os\n\nos._exit(0)\n")) == "" {
		t.Error("a tests/__init__.py that exits 0 is not read as ending the run")
	}
}

// TestPyPycacheUnset: a file discovery imports that newly sets
// sys.pycache_prefix lets planted __pycache__ bytecode answer for the
// source (round 24 second review, TestAdvPycPrefixUnset); reading it, or
// a line already there at the start, is not.
func TestPyPycacheUnset(t *testing.T) {
	for _, tt := range []struct {
		was, now string
		want     bool
	}{
		{"", "import sys\n\nsys.pycache_prefix = None\n", true},
		{"", "import sys\nif True:\n    sys.pycache_prefix = ''\n", true},
		{"", "import sys\nsetattr(sys, 'pycache_prefix', None)\n", true},
		{"", "import sys\nprint(sys.pycache_prefix)\n", false},
		{"", "import sys\nassert sys.pycache_prefix == None\n", false},
		{"import sys\nsys.pycache_prefix = None\n", "import sys\nsys.pycache_prefix = None\n\nX = 1\n", false},
	} {
		if got := pyExitAdded([]byte(tt.was), []byte(tt.now)) != ""; got != tt.want {
			t.Errorf("%q: read %v, want %v", tt.now, got, tt.want)
		}
	}
}
