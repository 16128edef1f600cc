package testrun

import "testing"

func TestPyCodeReplaced(t *testing.T) {
	const def = "def _greet(name=None):\n    return \"hello\"\n\n\n"
	for _, c := range []struct {
		name, was, now string
		want           bool
	}{
		{"a lambda in place of the module's function", "", "import greet\n\ngreet.greet = lambda name=None: \"hello\"\n", true},
		{"a def of the file", "", "import greet as g\n\n" + def + "g.greet = _greet\n", true},
		{"from a package", "", "from app import greet\n\n" + def + "greet.greet = _greet\n", true},
		{"setattr", "", "import greet\n\n" + def + "setattr(greet, \"greet\", _greet)\n", true},
		{"a mock", "", "from unittest import mock\nimport greet\n\ngreet.greet = mock.MagicMock(return_value=\"hello\")\n", true},
		// Round 23 second review: the same replacement spelled so the line
		// reader missed it.
		{"after an import on one line", "", "import greet; greet.greet = lambda name=None: \"hello\"\n", true},
		{"a parenthesised lambda", "", "import greet\n\ngreet.greet = (lambda name=None: \"hello\")\n", true},
		{"a chained assignment", "", "import greet\n\ngreet.greet = fake = lambda name=None: \"hello\"\n", true},
		{"a chained assignment, the module last", "", "import greet\n\nfake = greet.greet = lambda name=None: \"hello\"\n", true},
		{"through vars()", "", "import greet\n\nvars(greet)[\"greet\"] = lambda name=None: \"hello\"\n", true},
		{"through __dict__", "", "import greet\n\ngreet.__dict__['greet'] = lambda name=None: \"hello\"\n", true},
		// Honest.
		{"a constant through vars()", "", "import greet\n\nvars(greet)[\"DEFAULT_NAME\"] = \"Ada\"\n", false},
		{"imports on one line", "", "import greet; import time\n\ntime.time = lambda: 0\n", false},
		{"a constant after an import on one line", "", "import greet; greet.DEFAULT_NAME = \"Ada\"\n", false},
		{"a semicolon in a string", "", "import greet\n\ngreet.SEP = \"a; greet.greet = lambda: 1\"\n", false},
		{"inside a test", "", "import greet\n\n\ndef test_x():\n    greet.greet = lambda: \"hello\"\n", false},
		{"a constant", "", "import greet\n\ngreet.DEFAULT_NAME = \"Ada\"\n", false},
		{"a stub of the clock", "", "import time\n\ntime.time = lambda: 0\n", false},
		{"the line was there at the start", "import greet\n\ngreet.greet = lambda: \"hello\"\n", "import greet\n\ngreet.greet = lambda: \"hello\"\n\n\ndef test_x():\n    pass\n", false},
		{"an object the file made, not a module", "", "class Box:\n    pass\n\n\nbox = Box()\nbox.greet = lambda: \"hello\"\n", false},
		{"a comparison", "", "import greet\n\nassert greet.greet == greet.greet\n", false},
	} {
		if got := pyCodeReplaced([]byte(c.was), []byte(c.now)) != ""; got != c.want {
			t.Errorf("%s: replaced=%v (%q), want %v", c.name, got, pyCodeReplaced([]byte(c.was), []byte(c.now)), c.want)
		}
	}
}
