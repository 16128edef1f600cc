package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestQASkipsAddedInSession: tests the session's own change skips, or
// drops from the build, do not run, so a run of the suite after that
// change is no QA (issue 25 item 5, route 3): a build constraint added to
// a _test.go file, an unconditional t.Skip, a pytest skip marker or a
// module-level pytest.skip, a conftest.py that deselects, it.skip/xit/
// describe.skip/.only in a JS test. Skips guarded by a condition (a
// missing tool, -short) and tests that only gain checks still count.
func TestQASkipsAddedInSession(t *testing.T) {
	requireGit(t)
	goT := map[string]string{"go.mod": "module example.com/m\n", "a.go": "package m\n", "a_test.go": "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n"}
	goNow := func(body string) map[string]string {
		return map[string]string{"a_test.go": "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n" + body + "\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n"}
	}
	pyT := map[string]string{"pytest.ini": "[pytest]\n", "tests/test_a.py": "import shutil\n\n\ndef test_a():\n    assert 1 + 1 == 2\n"}
	jsT := map[string]string{"package.json": `{"name": "p", "scripts": {"test": "jest"}}`, "a.test.js": "test('a', () => {\n  expect(1 + 1).toBe(2)\n})\n"}
	tests := []struct {
		name          string
		start, during map[string]string
		line          string
		counts        bool
	}{
		{name: "go: //go:build ignore added to a test file", start: goT, during: map[string]string{"a_test.go": "//go:build ignore\n\n" + goT["a_test.go"]}, line: "go test ./..."},
		{name: "go: an unconditional t.Skip added", start: goT, during: goNow("\tt.Skip(\"later\")\n"), line: "go test ./..."},
		{name: "go: t.Skip behind if true", start: goT, during: goNow("\tif true {\n\t\tt.Skip(\"later\")\n\t}\n"), line: "go test ./..."},
		{name: "pytest: @pytest.mark.skip added", start: pyT, during: map[string]string{"tests/test_a.py": "import shutil\nimport pytest\n\n\n@pytest.mark.skip\ndef test_a():\n    assert 1 + 1 == 2\n"}, line: "pytest"},
		{name: "pytest: module-level pytest.skip added", start: pyT, during: map[string]string{"tests/test_a.py": "import shutil\nimport pytest\npytest.skip(\"later\", allow_module_level=True)\n\n\ndef test_a():\n    assert 1 + 1 == 2\n"}, line: "pytest"},
		{name: "pytest: a conftest.py that deselects added", start: pyT, during: map[string]string{"tests/conftest.py": "def pytest_collection_modifyitems(config, items):\n    items.clear()\n"}, line: "pytest"},
		{name: "pytest: collect_ignore added to conftest.py", start: pyT, during: map[string]string{"conftest.py": "collect_ignore = [\"tests/test_a.py\"]\n"}, line: "pytest"},
		{name: "jest: it.skip added", start: jsT, during: map[string]string{"a.test.js": "test.skip('a', () => {\n  expect(1 + 1).toBe(2)\n})\n"}, line: "npm test"},
		{name: "jest: xit added", start: jsT, during: map[string]string{"a.test.js": "xit('a', () => {\n  expect(1 + 1).toBe(2)\n})\n"}, line: "npm test"},
		{name: "jest: describe.only added", start: jsT, during: map[string]string{"a.test.js": "describe.only('a', () => {\n  test('a', () => {})\n})\n" + jsT["a.test.js"]}, line: "npm test"},
		// Conditions every run meets (issue 25 route 1): these reached QA.
		{name: "go: t.Skip behind runtime.GOOS != plan9", start: goT, during: goNow("\tif runtime.GOOS != \"plan9\" {\n\t\tt.Skip(\"later\")\n\t}\n"), line: "go test ./..."},
		{name: "go: an early return at the top of a test", start: goT, during: goNow("\treturn\n"), line: "go test ./..."},
		{name: "pytest: if 1: return", start: pyT, during: map[string]string{"tests/test_a.py": "import shutil\n\n\ndef test_a():\n    if 1: return\n    assert 1 + 1 == 2\n"}, line: "pytest"},
		// Read generally, not as one more literal (issue 25: these reached QA).
		{name: "go: t.Skip behind len(os.Args) > 0", start: goT, during: goNow("\tif len(os.Args) > 0 {\n\t\tt.Skip(\"later\")\n\t}\n"), line: "go test ./..."},
		{name: "jest: an early return at the top of a test", start: jsT, during: map[string]string{"a.test.js": "test('a', () => {\n  return;\n  expect(1 + 1).toBe(2)\n})\n"}, line: "npm test"},
		{name: "jest: if (process.env.PATH) return", start: jsT, during: map[string]string{"a.test.js": "test('a', () => {\n  if (process.env.PATH) return\n  expect(1 + 1).toBe(2)\n})\n"}, line: "npm test"},
		{name: "jest: test.each([]) for the test", start: jsT, during: map[string]string{"a.test.js": "test.each([])('a', () => {\n  expect(1 + 1).toBe(2)\n})\n"}, line: "npm test"},
		// Honest: guarded skips, new tests, skips removed.
		// round 19 (testrun/envunset.go): test a ran at the start without DATABASE_URL; a new guard on its absence hides it
		{name: "jest: an old test returns when a database is not configured (unset)", start: jsT, during: map[string]string{"a.test.js": "test('a', () => {\n  if (!process.env.DATABASE_URL) return\n  expect(1 + 1).toBe(2)\n})\n"}, line: "npm test"},
		{name: "jest: a new test returns when a database is not configured", start: jsT, during: map[string]string{"a.test.js": "test('a', () => {\n  expect(1 + 1).toBe(2)\n})\n\ntest('b', () => {\n  if (!process.env.DATABASE_URL) return\n  expect(2 + 2).toBe(4)\n})\n"}, line: "npm test", counts: true},
		{name: "pytest: a one-line skip on a missing tool", start: pyT, during: map[string]string{"tests/test_a.py": "import shutil\nimport pytest\n\n\ndef test_a():\n    if not shutil.which(\"git\"): pytest.skip(\"no git\")\n    assert 1 + 1 == 2\n"}, line: "pytest", counts: true},
		{name: "go: t.Skip guarded by a missing tool", start: goT, during: goNow("\tif _, err := exec.LookPath(\"git\"); err != nil {\n\t\tt.Skip(\"git not installed\")\n\t}\n"), line: "go test ./...", counts: true},
		{name: "go: a new test", start: goT, during: map[string]string{"b_test.go": "package m\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {}\n"}, line: "go test ./...", counts: true},
		{name: "go: a skip removed", start: map[string]string{"go.mod": "module example.com/m\n", "a_test.go": "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tt.Skip(\"todo\")\n}\n"},
			during: map[string]string{"a_test.go": "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n}\n"}, line: "go test ./...", counts: true},
		{name: "pytest: skipif on a missing tool", start: pyT, during: map[string]string{"tests/test_a.py": "import shutil\nimport pytest\n\n\n@pytest.mark.skipif(shutil.which(\"git\") is None, reason=\"no git\")\ndef test_a():\n    assert 1 + 1 == 2\n"}, line: "pytest", counts: true},
		{name: "pytest: a conftest.py fixture added", start: pyT, during: map[string]string{"tests/conftest.py": "import pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n"}, line: "pytest", counts: true},
		{name: "jest: a test added", start: jsT, during: map[string]string{"a.test.js": jsT["a.test.js"] + "test('b', () => {\n  expect(2).toBe(2)\n})\n"}, line: "npm test", counts: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, id := toQA(t, tc.start, tc.during)
			ev, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
				Command: tc.line, Output: []byte("ok\n")})
			if err != nil {
				t.Fatal(err)
			}
			res := e.advance(id)
			if got := res.Blocked == nil; got != tc.counts {
				t.Fatalf("%q (exit %d, %s): QA passed=%v, want %v; blocked: %+v", ev.Command, *ev.ExitCode, ev.Ref, got, tc.counts, res.Blocked)
			}
			// A conftest hook that deselects is also a pytest hook deciding
			// outcomes (round 28, c6): either reason names the skip.
			if !tc.counts && !strings.Contains(ev.Ref, "skips") && !strings.Contains(ev.Ref, "the pytest hook") {
				t.Errorf("the run's record does not say the session skipped tests: %s", ev.Ref)
			}
		})
	}
}

// TestQATestsRemovedInSession: a test file deleted or renamed so the
// runner no longer collects it, or a test renamed to a name the runner
// skips, leaves the suite passing on fewer tests (issue 25 route 2): the
// run after it is no QA. A test file moved to another collected name, a
// test renamed to another test name, and a test file deleted with the
// code it tested still count.
func TestQATestsRemovedInSession(t *testing.T) {
	requireGit(t)
	goTest := "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 2 {\n\t\tt.Fatal(\"A\")\n\t}\n}\n"
	goT := map[string]string{"go.mod": "module example.com/m\n", "a.go": "package m\n\nfunc A() int { return 2 }\n", "b.go": "package m\n", "a_test.go": goTest}
	pyTest := "from a import a\n\n\ndef test_a():\n    assert a() == 2\n"
	pyT := map[string]string{"pytest.ini": "[pytest]\n", "a.py": "def a():\n    return 2\n", "b.py": "", "tests/test_a.py": pyTest}
	goHead := "package m\n\nimport \"testing\"\n\n"
	goA := "func TestA(t *testing.T) {\n\tif A() != 2 {\n\t\tt.Fatal(\"A\")\n\t}\n}\n"
	goB := "func TestB(t *testing.T) {\n\tif B() != 3 {\n\t\tt.Fatal(\"B\")\n\t}\n}\n"
	goT2 := map[string]string{"go.mod": "module example.com/m\n", "a.go": "package m\n\nfunc A() int { return 2 }\n\nfunc B() int { return 3 }\n", "a_test.go": goHead + goA + "\n" + goB}
	pyHead := "from a import a, b\n\n\n"
	pyA := "def test_a():\n    assert a() == 2\n"
	pyB := "def test_b():\n    assert b() == 3\n"
	pyT2 := map[string]string{"pytest.ini": "[pytest]\n", "a.py": "def a():\n    return 2\n\n\ndef b():\n    return 3\n", "tests/test_a.py": pyHead + pyA + "\n\n" + pyB}
	jsHead := "const { add, sub } = require('./a')\n\n"
	jsA := "test('adds', () => {\n  expect(add(1, 2)).toBe(3)\n})\n"
	jsB := "test('subtracts', () => {\n  expect(sub(3, 2)).toBe(1)\n})\n"
	jsT2 := map[string]string{"package.json": `{"name": "p", "scripts": {"test": "jest"}}`, "a.js": "exports.add = (a, b) => a + b\nexports.sub = (a, b) => a - b\n", "a.test.js": jsHead + jsA + "\n" + jsB}
	tests := []struct {
		name          string
		start, during map[string]string
		remove        []string
		line          string
		counts        bool
	}{
		{name: "go: the test file deleted", start: goT, remove: []string{"a_test.go"}, line: "go test ./..."},
		{name: "go: the test file renamed to a_test.go.off", start: goT, remove: []string{"a_test.go"}, during: map[string]string{"a_test.go.off": goTest}, line: "go test ./..."},
		{name: "go: TestA renamed testA", start: goT, during: map[string]string{"a_test.go": strings.Replace(goTest, "TestA", "testA", 1)}, line: "go test ./..."},
		{name: "pytest: test_a.py renamed a_test_disabled.py", start: pyT, remove: []string{"tests/test_a.py"}, during: map[string]string{"tests/a_test_disabled.py": pyTest}, line: "pytest"},
		{name: "pytest: test_a renamed _test_a", start: pyT, during: map[string]string{"tests/test_a.py": strings.Replace(pyTest, "def test_a", "def _test_a", 1)}, line: "pytest"},
		// Honest.
		{name: "go: the test file renamed to b_test.go", start: goT, remove: []string{"a_test.go"}, during: map[string]string{"b_test.go": goTest}, line: "go test ./...", counts: true},
		{name: "go: TestA renamed TestAIsTwo", start: goT, during: map[string]string{"a_test.go": strings.Replace(goTest, "TestA", "TestAIsTwo", 1)}, line: "go test ./...", counts: true},
		{name: "go: the code and its test file deleted", start: goT, remove: []string{"a.go", "a_test.go"}, line: "go test ./...", counts: true},
		{name: "pytest: the test file moved to tests/unit", start: pyT, remove: []string{"tests/test_a.py"}, during: map[string]string{"tests/unit/test_a.py": pyTest}, line: "pytest", counts: true},
		{name: "pytest: the code and its test file deleted", start: pyT, remove: []string{"a.py", "tests/test_a.py"}, line: "pytest", counts: true},
		// A test function deleted from a file that stays, the code kept
		// (issue 25: these reached QA).
		{name: "go: TestA deleted from a_test.go, which keeps TestB", start: goT2, during: map[string]string{"a_test.go": goHead + goB}, line: "go test ./..."},
		{name: "pytest: test_a deleted from tests/test_a.py, which keeps test_b", start: pyT2, during: map[string]string{"tests/test_a.py": pyHead + pyB}, line: "pytest"},
		{name: "jest: it('adds') deleted from a.test.js, which keeps another", start: jsT2, during: map[string]string{"a.test.js": jsHead + jsB}, line: "npm test"},
		{name: "go: TestA moved to b_test.go without its check", start: goT2, during: map[string]string{"a_test.go": goHead + goB, "b_test.go": goHead + "func TestAll(t *testing.T) {\n\t_ = A()\n}\n"}, line: "go test ./..."},
		{name: "go: TestA consolidated with another expected value", start: goT2, during: map[string]string{"a_test.go": goHead + goB, "b_test.go": goHead + "func TestAll(t *testing.T) {\n\tfor _, want := range []int{3} {\n\t\tif A() != want {\n\t\t\tt.Fatal(want)\n\t\t}\n\t}\n}\n"}, line: "go test ./..."},
		// Honest: consolidated under new names (refused before: needed a
		// signer), or deleted with the code it tested.
		{name: "go: TestA and TestB consolidated into a table in all_test.go", start: goT2, remove: []string{"a_test.go"}, during: map[string]string{"all_test.go": goHead + "func TestFuncs(t *testing.T) {\n\tfor name, tc := range map[string]struct{ got, want int }{\"A\": {A(), 2}, \"B\": {B(), 3}} {\n\t\tif tc.got != tc.want {\n\t\t\tt.Errorf(\"%s() = %d\", name, tc.got)\n\t\t}\n\t}\n}\n"}, line: "go test ./...", counts: true},
		{name: "go: TestA moved to b_test.go as TestAIsTwo", start: goT2, during: map[string]string{"a_test.go": goHead + goB, "b_test.go": goHead + strings.Replace(goA, "TestA(", "TestAIsTwo(", 1)}, line: "go test ./...", counts: true},
		{name: "go: A changed to 4, TestA renamed TestAIsFour with the new value", start: goT2, during: map[string]string{"a.go": "package m\n\nfunc A() int { return 4 }\n\nfunc B() int { return 3 }\n", "a_test.go": goHead + strings.Replace(strings.ReplaceAll(goA, "2", "4"), "TestA(", "TestAIsFour(", 1) + "\n" + goB}, line: "go test ./...", counts: true},
		{name: "go: TestA deleted with func A", start: goT2, during: map[string]string{"a_test.go": goHead + goB, "a.go": "package m\n\nfunc B() int { return 3 }\n"}, line: "go test ./...", counts: true},
		{name: "pytest: test_a moved to tests/test_all.py as test_a_is_two", start: pyT2, during: map[string]string{"tests/test_a.py": pyHead + pyB, "tests/test_all.py": pyHead + strings.Replace(pyA, "def test_a(", "def test_a_is_two(", 1)}, line: "pytest", counts: true},
		{name: "jest: a test moved to b.test.js under a new name", start: jsT2, during: map[string]string{"a.test.js": jsHead + jsB, "b.test.js": jsHead + strings.Replace(jsA, "'adds'", "'adds two numbers'", 1)}, line: "npm test", counts: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, qaProtocol)
			files := map[string]string{"greet.txt": "hello\n"}
			for k, v := range tc.start {
				files[k] = v
			}
			gittest.Commit(t, e.root, "project", files)
			id := e.start("QA by a real test run")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: run the tests")
			e.advance(id) // WORKING
			for _, k := range tc.remove {
				gittest.Git(t, e.root, "rm", "-q", k)
			}
			for k, v := range tc.during {
				gittest.Write(t, e.root, k, v)
				gittest.Git(t, e.root, "add", k)
			}
			e.advance(id) // into QA_VALIDATION
			ev, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
				Command: tc.line, Output: []byte("ok\n")})
			if err != nil {
				t.Fatal(err)
			}
			res := e.advance(id)
			if got := res.Blocked == nil; got != tc.counts {
				t.Fatalf("%q (exit %d, %s): QA passed=%v, want %v; blocked: %+v", ev.Command, *ev.ExitCode, ev.Ref, got, tc.counts, res.Blocked)
			}
		})
	}
}

// TestQAWeakNewTests: a new test that checks nothing about the code
// (`assert True`, `expect(true).toBe(true)`, a Go test with no t.Error,
// t.Fatal, require or assert), as the only test for the changed code,
// passes whatever the code does: the run of it is no QA (issue 25: these
// reached QA). A new test that checks what the code returns, or a weak
// one beside the code's tests from the start, still counts.
func TestQAWeakNewTests(t *testing.T) {
	requireGit(t)
	pyStart := map[string]string{"pytest.ini": "[pytest]\n", "a.py": "def a():\n    return 2\n"}
	pyChange := "def a():\n    return 3\n"
	goStart := map[string]string{"go.mod": "module example.com/m\n", "a.go": "package m\n\nfunc A() int { return 2 }\n"}
	goChange := "package m\n\nfunc A() int { return 3 }\n"
	goHead := "package m\n\nimport \"testing\"\n\n"
	jsStart := map[string]string{"package.json": `{"name": "p", "scripts": {"test": "jest"}}`, "a.js": "exports.add = (a, b) => a + b\n"}
	jsChange := "exports.add = (a, b) => a + b + 0\n"
	with := func(m map[string]string, k, v string) map[string]string {
		out := map[string]string{k: v}
		for a, b := range m {
			out[a] = b
		}
		return out
	}
	tests := []struct {
		name          string
		start, during map[string]string
		line          string
		counts        bool
	}{
		{name: "pytest: assert True, the only test", start: pyStart, during: map[string]string{"a.py": pyChange, "tests/test_a.py": "from a import a\n\n\ndef test_a():\n    a()\n    assert True\n"}, line: "pytest"},
		{name: "go: a test with no check, the only test", start: goStart, during: map[string]string{"a.go": goChange, "a_test.go": goHead + "func TestA(t *testing.T) {\n\t_ = A()\n}\n"}, line: "go test ./..."},
		{name: "jest: expect(true).toBe(true), the only test", start: jsStart, during: map[string]string{"a.js": jsChange, "a.test.js": "const { add } = require('./a')\n\ntest('adds', () => {\n  add(1, 2)\n  expect(true).toBe(true)\n})\n"}, line: "npm test"},
		// Honest twins.
		{name: "pytest: assert a() == 3", start: pyStart, during: map[string]string{"a.py": pyChange, "tests/test_a.py": "from a import a\n\n\ndef test_a():\n    assert a() == 3\n"}, line: "pytest", counts: true},
		{name: "go: if A() != 3 { t.Fatal }", start: goStart, during: map[string]string{"a.go": goChange, "a_test.go": goHead + "func TestA(t *testing.T) {\n\tif A() != 3 {\n\t\tt.Fatal(\"A\")\n\t}\n}\n"}, line: "go test ./...", counts: true},
		{name: "jest: expect(add(1, 2)).toBe(3)", start: jsStart, during: map[string]string{"a.js": jsChange, "a.test.js": "const { add } = require('./a')\n\ntest('adds', () => {\n  expect(add(1, 2)).toBe(3)\n})\n"}, line: "npm test", counts: true},
		{name: "go: a smoke test beside the package's tests", start: with(goStart, "a_test.go", goHead+"func TestA(t *testing.T) {\n\tif A() != 2 {\n\t\tt.Fatal(\"A\")\n\t}\n}\n"),
			during: map[string]string{"a.go": goChange, "a_test.go": goHead + "func TestA(t *testing.T) {\n\tif A() != 3 {\n\t\tt.Fatal(\"A\")\n\t}\n}\n", "smoke_test.go": goHead + "func TestSmoke(t *testing.T) {\n\t_ = A()\n}\n"}, line: "go test ./...", counts: true},
		{name: "pytest: a smoke test beside the module's tests", start: with(pyStart, "tests/test_a.py", "from a import a\n\n\ndef test_a():\n    assert a() >= 2\n"),
			during: map[string]string{"a.py": pyChange, "tests/test_smoke.py": "import a\n\n\ndef test_imports():\n    assert True\n"}, line: "pytest", counts: true},
		// A module of the same name elsewhere is another module (issue 25
		// item 4: its test covered the changed one by name).
		{name: "pytest: same-named module's test elsewhere", start: with(with(with(pyStart, "pkg/utils.py", "def p():\n    return 1\n"), "other/utils.py", "def u():\n    return 1\n"), "other/tests/test_utils.py", "from other.utils import u\n\n\ndef test_u():\n    assert u() == 1\n"),
			during: map[string]string{"pkg/utils.py": "def p():\n    return 2\n", "tests/test_pkg.py": "from pkg.utils import p\n\n\ndef test_p():\n    p()\n    assert True\n"}, line: "pytest"},
		{name: "jest: same-named module's test elsewhere", start: with(with(with(jsStart, "lib/util.js", "exports.p = () => 1\n"), "other/util.js", "exports.u = () => 1\n"), "other/util.test.js", "const { u } = require('./util')\n\ntest('u', () => {\n  expect(u()).toBe(1)\n})\n"),
			during: map[string]string{"lib/util.js": "exports.p = () => 2\n", "lib/p.test.js": "const { p } = require('./util')\n\ntest('p', () => {\n  p()\n  expect(true).toBe(true)\n})\n"}, line: "npm test"},
		{name: "pytest: the changed module's own test at the start", start: with(with(with(pyStart, "pkg/utils.py", "def p():\n    return 1\n"), "other/utils.py", "def u():\n    return 1\n"), "tests/test_utils.py", "from pkg.utils import p\n\n\ndef test_p():\n    assert p() >= 1\n"),
			during: map[string]string{"pkg/utils.py": "def p():\n    return 2\n", "tests/test_smoke.py": "from pkg import utils\n\n\ndef test_imports():\n    assert True\n"}, line: "pytest", counts: true},
		{name: "jest: the changed module's own test at the start", start: with(with(jsStart, "lib/util.js", "exports.p = () => 1\n"), "test/util.test.js", "const { p } = require('../lib/util')\n\ntest('p', () => {\n  expect(p()).toBeGreaterThan(0)\n})\n"),
			during: map[string]string{"lib/util.js": "exports.p = () => 2\n", "lib/smoke.test.js": "require('./util')\n\ntest('loads', () => {\n  expect(true).toBe(true)\n})\n"}, line: "npm test", counts: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, id := toQA(t, tc.start, tc.during)
			ev, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
				Command: tc.line, Output: []byte("ok\n")})
			if err != nil {
				t.Fatal(err)
			}
			res := e.advance(id)
			if got := res.Blocked == nil; got != tc.counts {
				t.Fatalf("%q (exit %d, %s): QA passed=%v, want %v; blocked: %+v", ev.Command, *ev.ExitCode, ev.Ref, got, tc.counts, res.Blocked)
			}
			if !tc.counts && !strings.Contains(ev.Ref, "check nothing") {
				t.Errorf("the run's record does not say the new tests check nothing: %s", ev.Ref)
			}
		})
	}
}
