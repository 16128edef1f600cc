package cmdoutput

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestNothingCheckedQuietShapes (issue 25, t5 item 4): the outputs of
// tools that exit 0 having checked nothing, copied from real runs (eslint
// 9.39.5, pytest 7.2.1), and their honest twins: the same tools having
// checked something.
func TestNothingCheckedQuietShapes(t *testing.T) {
	const eslintIgnored = "\n/tmp/h5/js/vendor/x.js\n  0:0  warning  File ignored because of a matching ignore pattern. Use \"--no-ignore\" to disable file ignore settings or use \"--no-warn-ignored\" to suppress this warning\n\n✖ 1 problem (0 errors, 1 warning)\n\n"
	for _, c := range []struct {
		name, out, tool string // tool "" = something was checked
	}{
		{"eslint: the only file given is ignored", eslintIgnored, "eslint"},
		{"eslint: two ignored files", "\n/w/vendor/a.js\n  0:0  warning  File ignored because of a matching ignore pattern. Use \"--no-ignore\" to override\n\n/w/vendor/b.js\n  0:0  warning  File ignored by default. Use \"--no-ignore\" to override\n\n✖ 2 problems (0 errors, 2 warnings)\n", "eslint"},
		{"pytest --co", "============================= test session starts ==============================\nplatform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0+repack\nrootdir: /tmp/h5/py\ncollected 2 items\n\n<Module test_x.py>\n  <Function test_a>\n  <Function test_b>\n\n========================== 2 tests collected in 0.19s ==========================\n", "pytest"},
		{"pytest --co -q", "test_x.py::test_a\ntest_x.py::test_b\n\n2 tests collected in 0.01s\n", "pytest"},
		// Honest twins.
		{"eslint: an ignored file beside a linted one with a warning", "\n/w/vendor/a.js\n  0:0  warning  File ignored because of a matching ignore pattern. Use \"--no-ignore\" to override\n\n/w/src/b.js\n  1:7  warning  'x' is assigned a value but never used  no-unused-vars\n\n✖ 2 problems (0 errors, 2 warnings)\n", ""},
		{"eslint: clean run prints nothing", "", ""},
		{"pytest run", "============================= test session starts ==============================\ncollected 2 items\n\ntest_x.py ..                                                             [100%]\n\n============================== 2 passed in 0.01s ===============================\n", ""},
		{"pytest -q run", "..                                                                       [100%]\n2 passed in 0.01s\n", ""},
		{"a sentence about collecting", "The 2 tests collected in CI are gone.\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			reason, tool := NothingChecked(protocolspec.Check{Kind: protocolspec.CheckCommand}, []byte(c.out))
			if tool != c.tool || (reason == "") != (c.tool == "") {
				t.Errorf("NothingChecked = %q, %q; want tool %q", reason, tool, c.tool)
			}
		})
	}
}

// TestNothingCheckedRealPytest runs the real pytest: --collect-only checked
// nothing; the same tests run are a check.
func TestNothingCheckedRealPytest(t *testing.T) {
	py, err := exec.LookPath("pytest")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pytest is required under CI=true (python3-pytest): %v", err)
		}
		t.Skip("pytest not found: install python3-pytest to run the real-output test")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "test_x.py"), []byte("def test_a():\n    assert 1\n\ndef test_b():\n    assert 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args    []string
		nothing bool
	}{
		{[]string{"--co"}, true},
		{[]string{"--collect-only", "-q"}, true},
		{[]string{"-q"}, false},
		{nil, false},
	} {
		cmd := exec.Command(py, append([]string{"-p", "no:cacheprovider"}, c.args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("pytest %v: %v\n%s", c.args, err, out)
		}
		if reason, _ := NothingChecked(protocolspec.Check{Kind: protocolspec.CheckCommand}, out); (reason != "") != c.nothing {
			t.Errorf("pytest %v: NothingChecked = %q, want nothing checked: %v\n%s", c.args, reason, c.nothing, out)
		}
	}
}

// TestNothingCheckedRealMake runs GNU make (lazy pass 33): a folder named
// like a target the Makefile does not mark .PHONY makes `make test` exit
// 0 saying "'test' is up to date", no test run; the same Makefile with
// .PHONY, or without the folder, runs its recipe.
func TestNothingCheckedRealMake(t *testing.T) {
	mk, err := exec.LookPath("make")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("make is required under CI=true: %v", err)
		}
		t.Skip("make not found: install make to run the real-output test")
	}
	const recipe = "test:\n\t@echo 'Ran 2 tests in 0.001s'\n\t@echo OK\n"
	for _, c := range []struct {
		name, makefile string
		folder         bool
		tool           string
	}{
		{"a test/ folder, no .PHONY", recipe, true, MakeIdle},
		{"a test/ folder, .PHONY", ".PHONY: test\n" + recipe, true, ""},
		{"no folder", recipe, false, ""},
		{"no recipe at all", "all:\ntest: all\n", false, MakeIdle},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte(c.makefile), 0o644); err != nil {
				t.Fatal(err)
			}
			if c.folder {
				if err := os.MkdirAll(filepath.Join(dir, "test", "fixtures"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(mk, "test")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "LC_ALL=C")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("make test: %v\n%s", err, out)
			}
			if _, tool := NothingChecked(protocolspec.Check{Kind: protocolspec.CheckCommand, Arg: "make test"}, out); tool != c.tool {
				t.Errorf("NothingChecked tool %q, want %q\n%s", tool, c.tool, out)
			}
		})
	}
}
