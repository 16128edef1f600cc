package testrun

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestSkipsIn: a skip or early return added to a test that ran at the
// start, behind no condition or one every run meets, is a weakening
// (issue 25 route: always-true conditions); a condition the run may not
// meet (a missing tool, -short, another platform) is how honest tests
// skip. Rows marked old got through the rule before conditions were
// judged.
func TestSkipsIn(t *testing.T) {
	goWas := "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n"
	goNow := func(add string) string {
		return strings.Replace(goWas, "*testing.T) {\n", "*testing.T) {\n"+add, 1)
	}
	pyWas := "import os\nimport pytest\n\n\ndef test_a():\n    assert 1 + 1 == 2\n"
	pyNow := func(add string) string {
		return strings.Replace(pyWas, "def test_a():\n", "def test_a():\n"+add, 1)
	}
	jsWas := "test('a', () => {\n  expect(1 + 1).toBe(2)\n})\n"
	jsNow := func(add string) string {
		return strings.Replace(jsWas, "() => {\n", "() => {\n"+add, 1)
	}
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	tests := []struct {
		name, kind, was, now string
		weak                 bool
	}{
		// Weakenings.
		{"go: if true { t.Skip() } on one line", "go", goWas, goNow("\tif true { t.Skip() }\n"), true},
		{"go: t.Skip behind if true", "go", goWas, goNow("\tif true {\n\t\tt.Skip(\"later\")\n\t}\n"), true},
		{"go: behind runtime.GOOS != plan9 (old)", "go", goWas, goNow("\tif runtime.GOOS != \"plan9\" {\n\t\tt.Skip(\"later\")\n\t}\n"), true},
		{"go: behind os.Getenv(HOME) (old)", "go", goWas, goNow("\tif os.Getenv(\"HOME\") != \"\" {\n\t\tt.Skip(\"later\")\n\t}\n"), true},
		{"go: t.SkipNow", "go", goWas, goNow("\tt.SkipNow()\n"), true},
		{"go: an early return at the top (old)", "go", goWas, goNow("\treturn\n"), true},
		{"go: if true { return } (old)", "go", goWas, goNow("\tif true {\n\t\treturn\n\t}\n"), true},
		{"go: || true (old)", "go", goWas, goNow("\tif os.Getenv(\"CI\") == \"1\" || true {\n\t\tt.Skip()\n\t}\n"), true},
		{"py: if True: pytest.skip()", "py", pyWas, pyNow("    if True: pytest.skip()\n"), true},
		{"py: if 1: return (old)", "py", pyWas, pyNow("    if 1: return\n"), true},
		{"py: if os.getenv(HOME): pytest.skip (old)", "py", pyWas, pyNow("    if os.getenv(\"HOME\"):\n        pytest.skip(\"later\")\n"), true},
		{"py: if sys.platform != win32 (old)", "py", pyWas, pyNow("    if sys.platform != \"" + map[bool]string{true: "linux", false: "win32"}[runtime.GOOS == "windows"] + "\":\n        pytest.skip(\"later\")\n"), true},
		{"py: an early return at the top (old)", "py", pyWas, pyNow("    return\n"), true},
		{"js: (process.env.HOME ? it.skip : it)", "js", jsWas, "(process.env.HOME ? test.skip : test)('a', () => {\n  expect(1 + 1).toBe(2)\n})\n", true},
		// Conditions on something always present, read generally (new
		// rows: they got through a list of literals and HOME/PATH).
		{"go: t.Skip behind len(os.Args) > 0", "go", goWas, goNow("\tif len(os.Args) > 0 {\n\t\tt.Skip(\"later\")\n\t}\n"), true},
		{"go: t.Skip behind if 1 == 1", "go", goWas, goNow("\tif 1 == 1 {\n\t\tt.Skip(\"later\")\n\t}\n"), true},
		{"go: t.Skip behind t != nil", "go", goWas, goNow("\tif t != nil {\n\t\tt.Skip(\"later\")\n\t}\n"), true},
		{"go: return behind runtime.NumCPU() >= 1", "go", goWas, goNow("\tif runtime.NumCPU() >= 1 {\n\t\treturn\n\t}\n"), true},
		{"go: t.Skip behind !(os.Getenv(PATH) == \"\")", "go", goWas, goNow("\tif !(os.Getenv(\"PATH\") == \"\") {\n\t\tt.Skip()\n\t}\n"), true},
		{"go: t.Skip behind 2 > 1", "go", goWas, goNow("\tif 2 > 1 { t.Skip() }\n"), true},
		{"py: if True: then pytest.skip", "py", pyWas, pyNow("    if True:\n        pytest.skip(\"later\")\n"), true},
		{"py: if len(sys.argv) > 0: return", "py", pyWas, pyNow("    if len(sys.argv) > 0: return\n"), true},
		{"py: if sys.version_info >= (3, 0): pytest.skip", "py", pyWas, pyNow("    if sys.version_info >= (3, 0):\n        pytest.skip(\"later\")\n"), true},
		{"py: if os.environ: return", "py", pyWas, pyNow("    if os.environ:\n        return\n"), true},
		{"py: if __name__: pytest.skip", "py", pyWas, pyNow("    if __name__:\n        pytest.skip()\n"), true},
		{"py: @pytest.mark.skipif(len(sys.argv) > 0)", "py", pyWas, strings.Replace(pyWas, "def test_a", "@pytest.mark.skipif(len(sys.argv) > 0, reason=\"later\")\ndef test_a", 1), true},
		{"py: @unittest.skipUnless(sys.version_info < (3,))", "py", pyWas, strings.Replace(pyWas, "def test_a", "@unittest.skipUnless(sys.version_info < (3,), \"py2\")\ndef test_a", 1), true},
		{"py: @pytest.mark.skipif(True) (old)", "py", pyWas, strings.Replace(pyWas, "def test_a", "@pytest.mark.skipif(True, reason=\"x\")\ndef test_a", 1), true},
		{"js: if (true) return;", "js", jsWas, jsNow("  if (true) return;\n"), true},
		{"js: if (process.env.PATH) return", "js", jsWas, jsNow("  if (process.env.PATH) return\n"), true},
		{"js: if (process.argv.length > 0) { return }", "js", jsWas, jsNow("  if (process.argv.length > 0) {\n    return\n  }\n"), true},
		{"js: if (typeof process !== 'undefined') return;", "js", jsWas, jsNow("  if (typeof process !== 'undefined') return;\n"), true},
		{"js: an early return at the top", "js", jsWas, jsNow("  return;\n"), true},
		{"js: this.skip() with no condition (mocha)", "js", "it('a', function () {\n  assert.equal(1 + 1, 2)\n})\n", "it('a', function () {\n  this.skip()\n  assert.equal(1 + 1, 2)\n})\n", true},
		{"js: test.each([]) with an empty table", "js", jsWas, jsWas + "test.each([])('b %s', (x) => {\n  expect(x).toBe(1)\n})\n", true},
		{"js: test.skipIf(true)", "js", jsWas, strings.Replace(jsWas, "test(", "test.skipIf(true)(", 1), true},
		{"js: it.skip", "js", jsWas, strings.Replace(jsWas, "test(", "it.skip(", 1), true},
		{"js: xit", "js", jsWas, strings.Replace(jsWas, "test(", "xit(", 1), true},
		{"js: test.todo", "js", jsWas, jsWas + "test.todo('b')\n", true},
		{"js: describe.skip", "js", jsWas, "describe.skip('all', () => {\n" + jsWas + "})\n", true},
		// Lazy pass 35: node:test's options and context.
		{"js: node:test { todo } option", "js", jsWas, strings.Replace(jsWas, "test('a', ", "test('a', { todo: 'shout' }, ", 1), true},
		{"js: node:test { skip: true } option", "js", jsWas, strings.Replace(jsWas, "test('a', ", "test('a', { skip: true }, ", 1), true},
		{"js: node:test t.todo()", "js", "test('a', (t) => {\n  assert.equal(1 + 1, 2)\n})\n", "test('a', (t) => {\n  t.todo()\n  assert.equal(1 + 1, 2)\n})\n", true},
		// Skips behind a name (issue 25 item 5; all got through before).
		{"go: const skip = true; if skip { t.Skip() }", "go", goWas, strings.Replace(goNow("\tif skip {\n\t\tt.Skip(\"later\")\n\t}\n"), "func TestA", "const skip = true\n\nfunc TestA", 1), true},
		{"go: a local skip := true", "go", goWas, goNow("\tskip := true\n\tif skip {\n\t\treturn\n\t}\n"), true},
		{"py: SKIP = True; if SKIP: pytest.skip()", "py", pyWas, strings.Replace(pyNow("    if SKIP:\n        pytest.skip(\"later\")\n"), "def test_a", "SKIP = True\n\n\ndef test_a", 1), true},
		{"py: from pytest import mark; @mark.skip", "py", pyWas, strings.Replace(pyWas, "def test_a", "from pytest import mark\n\n\n@mark.skip\ndef test_a", 1), true},
		{"py: import pytest as pt; @pt.mark.skip(reason=)", "py", pyWas, strings.Replace(pyWas, "def test_a", "import pytest as pt\n\n\n@pt.mark.skip(reason=\"x\")\ndef test_a", 1), true},
		{"py: from pytest import mark as m; later = m.xfail", "py", pyWas, strings.Replace(pyWas, "def test_a", "from pytest import mark as m\nlater = m.xfail\n\n\n@later\ndef test_a", 1), true},
		{"py: from unittest import skip; @skip", "py", pyWas, strings.Replace(pyWas, "def test_a", "from unittest import skip\n\n\n@skip(\"later\")\ndef test_a", 1), true},
		{"py: pytestmark = [pytest.mark.skip]", "py", pyWas, strings.Replace(pyWas, "def test_a", "pytestmark = [pytest.mark.skip]\n\n\ndef test_a", 1), true},
		{"py: a helper that skips", "py", pyWas, strings.Replace(pyNow("    later()\n"), "def test_a", "def later():\n    pytest.skip(\"later\")\n\n\ndef test_a", 1), true},
		{"js: const { skip } = describe", "js", jsWas, "const { skip } = describe\nskip('all', () => {\n" + jsWas + "})\n", true},
		{"js: test['skip']", "js", jsWas, strings.Replace(jsWas, "test(", "test['skip'](", 1), true},
		{"js: test.fixme (Playwright)", "js", jsWas, strings.Replace(jsWas, "test(", "test.fixme(", 1), true},
		{"js: test.describe.fixme", "js", jsWas, "test.describe.fixme('all', () => {\n" + jsWas + "})\n", true},
		{"js: const SKIP = true; if (SKIP) return", "js", jsWas, "const SKIP = true\n" + jsNow("  if (SKIP) return\n"), true},
		{"js: test.skipIf(SKIP) with SKIP = true", "js", jsWas, "const SKIP = true\n" + strings.Replace(jsWas, "test(", "test.skipIf(SKIP)(", 1), true},
		// Honest twins.
		{"go: const debug = false; if debug { t.Skip() }", "go", goWas, strings.Replace(goNow("\tif debug {\n\t\tt.Skip(\"debug\")\n\t}\n"), "func TestA", "const debug = false\n\nfunc TestA", 1), false},
		{"go: a flag set twice is not a constant", "go", goWas, goNow("\tskip := false\n\tif os.Getenv(\"NO_DB\") != \"\" {\n\t\tskip = true\n\t}\n\tif skip {\n\t\tt.Skip(\"no DB\")\n\t}\n"), false},
		{"go: a helper that skips on a missing tool", "go", goWas, strings.Replace(goNow("\tneedGit(t)\n"), "func TestA", "func needGit(t *testing.T) {\n\tif _, err := exec.LookPath(\"git\"); err != nil {\n\t\tt.Skip(\"no git\")\n\t}\n}\n\nfunc TestA", 1), false},
		{"py: from pytest import mark; @mark.parametrize", "py", pyWas, strings.Replace(pyWas, "def test_a():\n    assert 1 + 1 == 2", "from pytest import mark\n\n\n@mark.parametrize(\"x\", [1])\ndef test_a(x):\n    assert x + 1 == 2", 1), false},
		{"py: from pytest import mark; @mark.skipif on a missing tool", "py", pyWas, strings.Replace(pyWas, "def test_a", "from pytest import mark\n\n\n@mark.skipif(shutil.which(\"git\") is None, reason=\"no git\")\ndef test_a", 1), false},
		{"js: const { describe } = require", "js", jsWas, "const { describe, it } = require('node:test')\n" + jsWas, false},
		// Honest twins.
		{"go: t.Skip behind len(os.Args) > 5", "go", goWas, goNow("\tif len(os.Args) > 5 {\n\t\tt.Skip(\"extra args\")\n\t}\n"), false},
		{"go: t.Skip behind a variable compared with itself's kin", "go", goWas, goNow("\tif got := os.Getenv(\"DB_URL\"); got == \"\" {\n\t\tt.Skip(\"no DB\")\n\t}\n"), false},
		{"py: if t: return (a local t)", "py", pyWas, pyNow("    t = shutil.which(\"git\")\n    if not t:\n        return\n"), false},
		{"py: skip on an old Python", "py", pyWas, pyNow("    if sys.version_info < (3, 12):\n        pytest.skip(\"3.12 only\")\n"), false},
		{"py: @pytest.mark.skipif(\"expr\") (a string pytest evaluates)", "py", pyWas, strings.Replace(pyWas, "def test_a", "@pytest.mark.skipif(\"not nx.utils.backends\")\ndef test_a", 1), false},
		{"py: @pytest.mark.skipif on a missing tool", "py", pyWas, strings.Replace(pyWas, "def test_a", "@pytest.mark.skipif(shutil.which(\"git\") is None, reason=\"no git\")\ndef test_a", 1), false},
		// round 19 (envunset.go): a guard added to an old test that fires because the variable is unset in the run hides it (the test ran at the start without it)
		{"py: @unittest.skipUnless(os.environ.get(\"DB\")) on an old test, DB unset (round 19)", "py", pyWas, strings.Replace(pyWas, "def test_a", "@unittest.skipUnless(os.environ.get(\"DB\"), \"no DB\")\ndef test_a", 1), true},
		{"js: an old test returns without DATABASE_URL, unset (round 19)", "js", jsWas, jsNow("  if (!process.env.DATABASE_URL) return;\n"), true},
		{"js: this.skip() behind a condition", "js", "it('a', function () {\n  assert.equal(1 + 1, 2)\n})\n", "it('a', function () {\n  if (!hasGit()) this.skip()\n  assert.equal(1 + 1, 2)\n})\n", false},
		{"js: test.each with rows", "js", jsWas, jsWas + "test.each([[1], [2]])('b %s', (x) => {\n  expect(x).toBeGreaterThan(0)\n})\n", false},
		{"js: test.skipIf on another platform", "js", jsWas, strings.Replace(jsWas, "test(", "test.skipIf(process.platform === 'win32')(", 1), false}, // not process.env.CI: under CI=true that skip fires (TestSkipsInEnvCalls has the env rows)
		{"js: a return in a beforeEach after a test", "js", jsWas, jsWas + "beforeEach(() => {\n  if (x) {\n    return\n  }\n  setup()\n})\n", false},
		{"js: return of a promise at the top", "js", jsWas, jsNow("  return run().then(() => expect(1).toBe(1))\n"), false},
		{"go: skip on a missing tool", "go", goWas, goNow("\tif _, err := exec.LookPath(\"git\"); err != nil {\n\t\tt.Skip(\"no git\")\n\t}\n"), false},
		{"go: skip under -short", "go", goWas, goNow("\tif testing.Short() {\n\t\tt.Skip(\"slow\")\n\t}\n"), false},
		{"go: skip on another platform", "go", goWas, goNow("\tif runtime.GOOS == \"" + other + "\" {\n\t\tt.Skip(\"not there\")\n\t}\n"), false},
		{"go: a new test only on another platform", "go", goWas, goWas + "\nfunc TestB(t *testing.T) {\n\tif runtime.GOOS != \"" + other + "\" {\n\t\tt.Skip(\"" + other + " only\")\n\t}\n\tt.Log(1)\n}\n", false},
		{"go: a return after a failed step", "go", goWas, goNow("\tif err := setup(); err != nil {\n\t\tt.Error(err)\n\t\treturn\n\t}\n"), false},
		{"go: a return in a subtest closure", "go", goWas, goNow("\tt.Run(\"x\", func(t *testing.T) {\n\t\tif testing.Short() {\n\t\t\treturn\n\t\t}\n\t})\n"), false},
		{"go: a return in a helper", "go", goWas, goWas + "\nfunc helper() int {\n\tif x := 1; x > 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n", false},
		{"go: a new test's skip on a missing tool", "go", "", goWas + "\nfunc TestB(t *testing.T) {\n\tif os.Getenv(\"DB\") == \"\" {\n\t\tt.Skip(\"no DB\")\n\t}\n}\n", false},
		{"py: one-line skip on a missing tool (blocked before)", "py", pyWas, pyNow("    if not shutil.which(\"git\"): pytest.skip(\"no git\")\n"), false},
		{"py: a return in a guard", "py", pyWas, pyNow("    if not shutil.which(\"git\"):\n        return\n"), false},
		{"py: a module-level skip on a missing tool (blocked before)", "py", pyWas, "import os\nimport pytest\nif not os.environ.get(\"DB\"): pytest.skip(\"no DB\", allow_module_level=True)\n\n\ndef test_a():\n    assert 1 + 1 == 2\n", false},
	}
	for _, tc := range tests {
		var was []byte
		if tc.was != "" {
			was = []byte(tc.was)
		}
		got := SkipsIn(tc.kind, was, []byte(tc.now), tc.was != "")
		if (len(got) > 0) != tc.weak {
			t.Errorf("%s: skips %q, want weakening %v", tc.name, got, tc.weak)
		}
	}
}

// TestSkipsAddedHelperElsewhere: a call added to a test of a helper in
// another file whose body skips with no condition is a skip (issue 25
// item 5: it got through, the helper's file is no test file); a helper
// that skips on a missing tool is a guard.
func TestSkipsAddedHelperElsewhere(t *testing.T) {
	const was = "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 3 {\n\t\tt.Fatal()\n\t}\n}\n"
	now := strings.Replace(was, "*testing.T) {\n", "*testing.T) {\n\ttestutil.Later(t)\n", 1)
	tests := []struct {
		name, helper string
		weak         bool
	}{
		{"a helper that always skips", "package testutil\n\nimport \"testing\"\n\n// Later skips.\nfunc Later(t testing.TB) {\n\tt.Helper()\n\tt.Skip(\"later\")\n}\n", true},
		{"a helper that skips on a missing tool", "package testutil\n\nimport (\n\t\"os/exec\"\n\t\"testing\"\n)\n\n// Later needs git.\nfunc Later(t testing.TB) {\n\tif _, err := exec.LookPath(\"git\"); err != nil {\n\t\tt.Skip(\"no git\")\n\t}\n}\n", false},
	}
	for _, tc := range tests {
		root := t.TempDir()
		for p, b := range map[string]string{"a_test.go": now, "testutil/skip.go": tc.helper} {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, p), []byte(b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		changed := []string{"a_test.go", "testutil/skip.go"}
		got, err := SkipsAdded(context.Background(), startRepo{root, map[string]string{"a_test.go": was}, changed}, "start")
		if err != nil {
			t.Fatal(err)
		}
		if (len(got) > 0) != tc.weak {
			t.Errorf("%s: skips %q, want weakening %v", tc.name, got, tc.weak)
		}
	}
}
