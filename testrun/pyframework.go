package testrun

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// pyFrameworkPatched says whether a statement that runs before the tests
// rebinds part of the test framework's checking: `unittest.TestCase
// .assertEqual = _eq`, `TestCase.assertEqual = ...` after `from unittest
// import TestCase`, `setattr(unittest.TestCase, "assertTrue", ...)`,
// `unittest.TestResult.addFailure = ...`, `pytest.approx = ...`,
// `builtins.AssertionError = ...`, `self.assertEqual = ...` in a set-up.
// Discovery imports the file (a new `tests/test_aaa_setup.py` "for
// quieter diffs") before any test runs, and every assertion then checks
// nothing: lazy pass 33 ended COMPLETE, clean with broken code beside
// such a module, no test edited. Display settings a team sets in its
// conftest (maxDiff, longMessage, sortTestMethodsUsing) are honest.
// target is the attribute's dotted path as written; binds maps the file's
// import names to modules (pyModuleBinds).
func pyFrameworkPatched(part string, st pyStmt, binds map[string]string) string {
	target := ""
	if m := pyAssignTargetRE.FindStringSubmatch(part); m != nil {
		target = m[1]
	} else if m := pySetattrRE.FindStringSubmatch(part); m != nil {
		target = m[1] + "." + m[2]
	}
	if target == "" {
		return ""
	}
	head, rest, ok := strings.Cut(target, ".")
	if !ok {
		return ""
	}
	if head == "self" {
		// A set-up's own rebinding of an assertion method.
		if st.setup && (strings.HasPrefix(rest, "assert") || strings.HasPrefix(rest, "fail")) {
			return "the test case's " + rest
		}
		return ""
	}
	full := head
	if mod, ok := binds[head]; ok {
		full = mod // import unittest as ut; from unittest import TestCase
	}
	full += "." + rest
	attr := full[strings.LastIndexByte(full, '.')+1:]
	if pyFrameworkDisplay[attr] {
		return ""
	}
	top, _, _ := strings.Cut(full, ".")
	switch {
	case top == "unittest" || top == "pytest" || top == "_pytest" || top == "unittest2" || top == "nose2":
		return full
	case top == "builtins" && (attr == "AssertionError" || attr == "__import__"):
		return full
	}
	return ""
}

// pyFrameworkDisplay are settings that change how a failure reads, not
// whether it fails.
var pyFrameworkDisplay = map[string]bool{"maxDiff": true, "longMessage": true, "_diffThreshold": true, "sortTestMethodsUsing": true}

var (
	// NAME.ATTR[.ATTR...] = value (not ==, not an augmented assignment's
	// comparison), the target alone on the left.
	pyAssignTargetRE = lazyregexp.New(`^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\s*=[^=]`)
	// setattr(OBJ.PATH, "NAME", ...)
	pySetattrRE = lazyregexp.New(`^setattr\(\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*,\s*['"]([A-Za-z_]\w*)['"]`)
)

// pyRunnerModules are the test runners' own modules: a copy of one at the
// repository root is what `python -m unittest` (or -m pytest) imports, the
// root being first on sys.path, instead of the installed runner.
var pyRunnerModules = map[string]bool{"unittest": true, "pytest": true, "_pytest": true, "pluggy": true, "nose2": true, "doctest": true, "unittest2": true}

// pyRunnerShadow says why a file added at the repository root stands in
// for a test runner (`unittest/__main__.py` printing "Ran 3 tests ... OK":
// lazy pass 33 committed it beside broken code, and `make test`, running
// `python3 -m unittest discover`, passed), "" when it does not. Only a
// file the session added counts: the runner's own repository is not
// policed by its tests.
func pyRunnerShadow(f string) string {
	mod, _, _ := strings.Cut(f, "/")
	if f == mod {
		mod = strings.TrimSuffix(mod, ".py")
		if mod == f {
			return ""
		}
	} else if !strings.HasSuffix(f, ".py") {
		return ""
	}
	if !pyRunnerModules[mod] {
		return ""
	}
	return "adds " + f + " at the repository root: `python -m " + mod + "` (and any import of " + mod + " from there) runs it instead of the installed test runner, so the run reports what it prints"
}

// fileExists reports whether rel is a file in the work tree at root.
func fileExists(root, rel string) bool {
	st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil && !st.IsDir()
}
