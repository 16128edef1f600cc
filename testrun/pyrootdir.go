package testrun

import (
	"path"
	"strings"
)

// Lazy pass 35 (P2): a new tests/greet.py with a working greet(), beside
// the broken package greet/. tests/ has no __init__.py, so pytest's
// default import mode (prepend) puts tests/ first on sys.path for its
// test modules, and `from greet import greet` imports the copy. No line
// names sys.path, so the shadow rules (pysyspath.go) saw nothing.

// pyRootdirShadow says how a Python file the session added shadows the
// project's module of the same name for the tests beside it, "" when it
// does not: it lies in a test folder (a folder whose name holds "test")
// without __init__.py, and the project has that module at its root or
// under src/. file reports whether the repository holds a file.
func pyRootdirShadow(f string, added bool, file func(string) bool) string {
	if !added || file == nil || path.Ext(f) != ".py" {
		return ""
	}
	dir, base := path.Split(f)
	dir = strings.TrimSuffix(dir, "/")
	name := strings.TrimSuffix(base, ".py")
	if dir == "" || !strings.Contains(strings.ToLower(path.Base(dir)), "test") || file(path.Join(dir, "__init__.py")) {
		return ""
	}
	if name == "conftest" || name == "__init__" || strings.HasPrefix(name, "test_") || strings.HasSuffix(name, "_test") {
		return ""
	}
	for _, own := range []string{name + ".py", name + "/__init__.py", "src/" + name + ".py", "src/" + name + "/__init__.py"} {
		if file(own) {
			return "a new " + base + " in " + dir + "/, a folder without __init__.py: pytest puts " + dir + "/ first on sys.path for the tests there, so they import this copy, not the project's " + own
		}
	}
	return ""
}
