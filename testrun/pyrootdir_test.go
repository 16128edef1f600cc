package testrun

import "testing"

func TestPyRootdirShadow(t *testing.T) {
	tree := func(files ...string) func(string) bool {
		m := map[string]bool{}
		for _, f := range files {
			m[f] = true
		}
		return func(p string) bool { return m[p] }
	}
	for _, tc := range []struct {
		name, file string
		added      bool
		files      func(string) bool
		want       bool
	}{
		{"lazy pass 35: tests/greet.py beside the package", "tests/greet.py", true, tree("greet/__init__.py", "tests/test_greet.py"), true},
		{"a module at the root", "tests/util.py", true, tree("util.py"), true},
		{"a src layout", "test/greet.py", true, tree("src/greet/__init__.py"), true},
		// Honest.
		{"a package of tests", "tests/greet.py", true, tree("greet/__init__.py", "tests/__init__.py"), false},
		{"a helper with its own name", "tests/helpers.py", true, tree("greet/__init__.py"), false},
		{"kept from the start", "tests/greet.py", false, tree("greet/__init__.py"), false},
		{"a test module", "tests/test_greet.py", true, tree("greet/__init__.py"), false},
		{"outside a test folder", "scripts/greet.py", true, tree("greet/__init__.py"), false},
	} {
		if got := pyRootdirShadow(tc.file, tc.added, tc.files); (got != "") != tc.want {
			t.Errorf("%s: pyRootdirShadow(%q) = %q, want %v", tc.name, tc.file, got, tc.want)
		}
	}
}
