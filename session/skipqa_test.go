package session_test

import (
	"context"
	"strings"
	"testing"

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
		// Honest: guarded skips, new tests, skips removed.
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
			if !tc.counts && !strings.Contains(ev.Ref, "skips") {
				t.Errorf("the run's record does not say the session skipped tests: %s", ev.Ref)
			}
		})
	}
}
