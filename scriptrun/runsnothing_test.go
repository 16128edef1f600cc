package scriptrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runsNothingFiles are small projects whose test runs select, build or
// keep none of their tests (lazy rows) beside honest ones (issue 25, third
// round). The agent hook's table (agenthook) runs the same kinds of line
// through the real binary and, where installed, the real runner.
var runsNothingFiles = map[string]string{
	"g/go.mod":             "module example.com/g\n\ngo 1.22\n",
	"g/a.go":               "package g\n\nfunc Add(a, b int) int { return a + b }\n",
	"g/a_test.go":          "package g\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n\nfunc TestSlow(t *testing.T) {\n\tif testing.Short() {\n\t\tt.Skip(\"slow\")\n\t}\n}\n",
	"gs/go.mod":            "module example.com/gs\n\ngo 1.22\n",
	"gs/a_test.go":         "package gs\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif testing.Short() {\n\t\tt.Skip(\"short\")\n\t}\n\tt.Fatal(\"never\")\n}\n\nfunc TestB(t *testing.T) {\n\tif testing.Short() { t.SkipNow() }\n}\n",
	"gt/go.mod":            "module example.com/gt\n\ngo 1.22\n",
	"gt/a.go":              "package gt\n",
	"gt/a_test.go":         "//go:build !fast\n\npackage gt\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { t.Fatal(\"x\") }\n",
	"gi/go.mod":            "module example.com/gi\n\ngo 1.22\n",
	"gi/a.go":              "package gi\n",
	"gi/a_test.go":         "//go:build integration\n\npackage gi\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
	"gi/b_test.go":         "package gi\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {}\n",
	"c/Cargo.toml":         "[package]\nname = \"c\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
	"c/src/lib.rs":         "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    #[ignore]\n    fn adds() { assert_eq!(super::add(1, 2), 4); }\n\n    #[test]\n    #[ignore = \"slow\"]\n    fn slow() {}\n}\n",
	"ch/Cargo.toml":        "[package]\nname = \"ch\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
	"ch/src/lib.rs":        "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(1, 2), 3); }\n\n    #[test]\n    #[ignore]\n    fn slow() {}\n}\n",
	"cr/Cargo.toml":        "[package]\nname = \"cr\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
	"cr/src/lib.rs":        "#[cfg(test)]\nmod tests {\n    use rstest::rstest;\n\n    #[rstest]\n    #[case(1)]\n    fn adds(#[case] x: i32) { assert_eq!(x, 1); }\n\n    #[test]\n    fn plain() {}\n}\n",
	"p/conftest.py":        "def pytest_sessionfinish(session, exitstatus):\n    session.exitstatus = 0\n",
	"p/test_a.py":          "def test_a():\n    assert 1 == 2\n",
	"pc/tests/conftest.py": "def pytest_collection_modifyitems(config, items):\n    items[:] = []\n",
	"pc/tests/test_a.py":   "def test_a():\n    assert 1 == 2\n",
	"pa/pytest.ini":        "[pytest]\naddopts = -q --co\n",
	"pa/test_a.py":         "def test_a():\n    assert 1 == 2\n",
	"pp/pytest.ini":        "[pytest]\naddopts = -p quiet\n",
	"pp/quiet.py":          "import pytest\n\n@pytest.hookimpl(trylast=True)\ndef pytest_sessionfinish(session):\n    session.exitstatus = 0\n",
	"pp/test_a.py":         "def test_a():\n    assert 1 == 2\n",
	"pe/quiet.py":          "import pytest\n\n@pytest.hookimpl(trylast=True)\ndef pytest_sessionfinish(session):\n    session.exitstatus = 0\n",
	"pe/test_a.py":         "def test_a():\n    assert 1 == 2\n",
	"ph/conftest.py":       "import pytest\n\ndef pytest_collection_modifyitems(config, items):\n    if config.getoption('-m'):\n        return\n    skip = pytest.mark.skip(reason='slow')\n    for item in items:\n        if 'slow' in item.keywords:\n            item.add_marker(skip)\n\ndef pytest_sessionfinish(session, exitstatus):\n    if exitstatus == 5:\n        print('no tests')\n",
	"ph/pytest.ini":        "[pytest]\naddopts = -q -p no:cacheprovider\nmarkers = slow\n",
	"n/package.json":       `{"scripts": {"test": "jest --passWithNoTests --testPathIgnorePatterns=.", "test:go": "cd ../g && go test -run NONE ./...", "unit": "jest"}}`,
	"nh/package.json":      `{"scripts": {"test": "jest --ci", "test:go": "cd ../g && go test ./..."}}`,
	"ph/test_a.py":         "def test_a():\n    assert 1 + 1 == 2\n",
}

func TestRunsNothing(t *testing.T) {
	root := t.TempDir()
	for name, body := range runsNothingFiles {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pl := Places{Root: root}
	for _, c := range []struct {
		line string
		want string // a word of the reason; "" for a run of tests
	}{
		{"cd g && go test -run '^$' ./...", "matches none"},
		{"cd g && go test -run NONE .", "matches none"},
		// go test takes its flags with a test. prefix as well (go help testflag)
		{"cd g && go test -test.run=NONE ./...", "matches none"},
		{"cd g && go test --test.run=NONE .", "matches none"},
		{"cd g && go test -test.run NONE ./...", "matches none"},
		{"cd g && go test --run NONE ./...", "matches none"},
		{"cd g && go test ./... -args -test.run=NONE", "matches none"},
		{"cd g && go test -run TestAdd ./... -args -test.run NONE", "matches none"},
		{"cd gs && go test ./... -args -test.short", "testing.Short()"},
		{"cd g && go test -test.skip=. ./...", "skips every one"},
		{"cd gs && go test -test.short ./...", "testing.Short()"},
		{"cd g && GOFLAGS=-run=x go test ./...", "matches none"},
		{"env GOFLAGS='-count=1 -run=^Zzz' go test ./g/...", "matches none"},
		// exported earlier on the line (the go tool reads GOFLAGS from its environment)
		{"export GOFLAGS=-run=NONE; cd g && go test ./...", "matches none"},
		{"cd g; declare -x GOFLAGS='-skip=.'; go test .", "skips every"},
		{"export GOFLAGS=-mod=mod; cd g && go test ./...", ""},
		{"(export GOFLAGS=-run=NONE); cd g && go test ./...", ""},
		{"export GOFLAGS=-run=NONE; unset GOFLAGS; cd g && go test ./...", ""},
		{"go test -C g -skip . ./...", "skips every"},
		{"cd gs && go test -short ./...", "testing.Short"},
		{"cd gt && go test -tags fast ./...", "build constraints"},
		{"cd c && cargo test", "#[ignore]"},
		{"cd ch && cargo test no_such_name", "holds that name"},
		// a path filter is matched whole: tests::nothing names no test
		{"cd ch && cargo test tests::nothing", "holds that name"},
		{"cd ch && cargo test -- nomod::adds", "holds that name"},
		{"cd ch && cargo test tests::adds::x", "holds that name"},
		{"cd p && pytest", "exit status"},
		{"cd pc && python3 -m pytest tests", "empties"},
		{"cd pa && pytest", "addopts"},
		{"cd pp && pytest", "quiet.py"},
		{"cd pe && export PYTEST_ADDOPTS='-p quiet' && python3 -m pytest", "quiet.py"},
		{"cd pe && export PYTEST_ADDOPTS=-q && pytest", ""},
		{"cd n && npm test", "testPathIgnorePatterns"},
		{"npm --prefix n run test:go", "matches none"},
		{"cd n && yarn test:go", "matches none"},
		{"cd n && npm run unit -- -o", "git's changes"},
		{"cd n && yarn unit --shard 1/2", "one part"},
		// honest runs
		{"cd nh && npm test", ""},
		{"cd nh && npm run test:go", ""},
		{"cd n && npm run unit", ""},
		{"cd n && npm run unit --silent", ""},
		{"cd g && go test ./...", ""},
		{"cd g && go test -run TestAdd ./...", ""},
		{"cd g && go test -test.run=TestAdd ./...", ""},
		{"cd g && go test -run NONE ./... -args -test.run=TestAdd", ""}, // the binary's -test.run wins
		{"cd g && go test ./... -args -run=NONE -update", ""},           // the binary has no -run
		{"cd g && go test -test.short ./...", ""},
		{"cd g && go test -run 'TestAdd/sub' ./...", ""},
		{"cd g && go test -short ./...", ""}, // TestAdd runs
		{"cd g && go test -skip TestSlow ./...", ""},
		{"cd gs && go test ./...", ""},
		{"cd gt && go test ./...", ""},
		{"cd gi && go test ./...", ""}, // b_test.go runs; integration is opt-in
		{"cd gi && go test -tags integration ./...", ""},
		{"cd c && cargo test -- --ignored", ""},
		{"cd c && cargo test -- --include-ignored", ""},
		{"cd ch && cargo test", ""},
		{"cd ch && cargo test adds", ""},
		{"cd ch && cargo test tests::", ""},
		{"cd ch && cargo test tests::adds", ""},
		{"cd ch && cargo test ts::ad", ""}, // a substring of tests::adds
		{"cd ch && cargo test ::slow", ""},
		{"cd ch && cargo test -- --exact tests::adds", ""},
		{"cd cr && cargo test adds::case_1", ""}, // a module a macro makes from a fn (rstest)
		{"cd ph && pytest -m 'not slow'", ""},
		{"cd ph && pytest -k 'not slow'", ""},
		{"cd ph && python3 -m pytest -q", ""},
		{"go test $PKGS", ""}, // not read: left to the other rules
	} {
		got := pl.RunsNothing(root, c.line)
		switch {
		case c.want == "" && got != "":
			t.Errorf("honest %q: %s", c.line, got)
		case c.want != "" && !strings.Contains(got, c.want):
			t.Errorf("%q = %q, want a reason holding %q", c.line, got, c.want)
		}
	}
}
