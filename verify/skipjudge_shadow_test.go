package verify

import "testing"

// TestRangeUnchangedShadows: lazy pass 25 (c3). The base's
// tests/__init__.py puts vendor/ first on sys.path; the range breaks
// greet.py and adds a working vendor/greet.py, changing no test file. The
// rerun guard read only the range's test files: clean. It now reads the
// tip's unchanged test files and pytest configs when the range added such
// a copy; vendoring a new library there stays clean.
func TestRangeUnchangedShadows(t *testing.T) {
	base := map[string]string{
		"greet.py":            "def greet():\n    return \"hello\"\n",
		"vendor/textcase.py":  "def upper(s):\n    return s.upper()\n",
		"tests/__init__.py":   "import os\nimport sys\n\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), \"..\", \"vendor\"))\n",
		"tests/test_greet.py": "import unittest\n\nfrom greet import greet\n\n\nclass T(unittest.TestCase):\n    def test_plain(self):\n        self.assertEqual(greet(), \"hello\")\n",
	}
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"a copy of greet.py in vendor/", map[string]string{"greet.py": "def greet():\n    return \"helo\"\n", "vendor/greet.py": base["greet.py"]}, "tests/__init__.py: unchanged, holds"},
		{"honest: a new library vendored", map[string]string{"greet.py": "import slugs\n\n\ndef greet():\n    return \"hello\"\n", "vendor/slugs.py": "def slug(s):\n    return s.lower()\n"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkRangeSkips(t, base, c.files, func(string) (string, bool) { return "", false }, c.want)
		})
	}
}
