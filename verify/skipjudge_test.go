package verify

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestRangeSkips: the rerun guard judges skips as the local QA rule does
// (testrun), over base..tip in the environment CI ran with (CI=true, no
// DB_URL). Honest rows failed verify before round 19 (the marker regexp
// flagged every skip); lazy rows still fail.
func TestRangeSkips(t *testing.T) {
	const goOld = "package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nvar _ = os.Getenv\n\nfunc TestAdd(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n"
	const pyOld = "import os\n\nimport pytest\n\n\ndef test_add():\n    assert 1 + 1 == 2\n"
	const jsOld = "import { test, expect } from 'vitest'\n\ntest('adds', () => {\n  expect(1 + 1).toBe(2)\n})\n"
	goNew := func(guard string) string {
		return goOld + "\nfunc TestStore(t *testing.T) {\n" + guard + "\tif 2*2 != 4 {\n\t\tt.Fatal(\"store\")\n\t}\n}\n"
	}
	intoOld := func(guard string) string {
		return strings.Replace(goOld, "func TestAdd(t *testing.T) {\n", "func TestAdd(t *testing.T) {\n"+guard, 1)
	}
	dbSkip := "\tif os.Getenv(\"DB_URL\") == \"\" {\n\t\tt.Skip(\"no database\")\n\t}\n"
	base := map[string]string{"calc_test.go": goOld, "tests/test_calc.py": pyOld, "src/calc.test.js": jsOld, "calc.go": "package calc\n"}
	cases := []struct {
		name  string
		files map[string]string
		want  string // "" honest: no finding; else a substring of one
	}{
		// honest: a new test that needs a database skips without one
		{"go new test, no DB_URL", map[string]string{"calc_test.go": goNew(dbSkip)}, ""},
		{"py new test skipif no DB_URL", map[string]string{"tests/test_calc.py": pyOld + "\n\n@pytest.mark.skipif(not os.environ.get(\"DB_URL\"), reason=\"no database\")\ndef test_store():\n    assert 2 * 2 == 4\n"}, ""},
		{"js new test.skipIf no DB_URL", map[string]string{"src/calc.test.js": jsOld + "\ntest.skipIf(!process.env.DB_URL)('stores', () => {\n  expect(2 * 2).toBe(4)\n})\n"}, ""},
		{"go new file with a build tag", map[string]string{"store_test.go": "//go:build integration\n\npackage calc\n\nimport \"testing\"\n\nfunc TestStore(t *testing.T) {}\n"}, ""},
		{"go old test, guard not firing in CI", map[string]string{"calc_test.go": intoOld("\tif os.Getenv(\"SLOW_ONLY\") != \"\" {\n\t\tt.Skip(\"slow\")\n\t}\n")}, ""},
		// lazy
		{"go old test, no DB_URL", map[string]string{"calc_test.go": intoOld(dbSkip)}, `adds "t.Skip(\"no database\")": a skip no condition guards`},
		{"go old test, fires under CI", map[string]string{"calc_test.go": intoOld("\tif os.Getenv(\"CI\") != \"\" {\n\t\tt.Skip(\"flaky on CI\")\n\t}\n")}, "a skip no condition guards"},
		{"go new test, unconditional", map[string]string{"calc_test.go": goNew("\tt.Skip(\"later\")\n")}, "a skip no condition guards"},
		{"go build ignore on an old file", map[string]string{"calc_test.go": "//go:build ignore\n\n" + goOld}, "a build constraint"},
		{"go helper in the package always skips", map[string]string{"calc_test.go": goNew("\tneedDB(t)\n"), "helpers.go": "package calc\n\nimport \"testing\"\n\nfunc needDB(t testing.TB) {\n\tt.Skip(\"no database\")\n}\n"}, "a call of needDB"},
		{"go helper in the file always returns true", map[string]string{"calc_test.go": goNew("\tif dbMissing() {\n\t\tt.Skip(\"no database\")\n\t}\n") + "\nfunc dbMissing() bool {\n\treturn true\n}\n"}, "a skip no condition guards"},
		{"py helper always returns True", map[string]string{"tests/test_calc.py": pyOld + "\n\ndef no_db():\n    return True\n\n\n@pytest.mark.skipif(no_db(), reason=\"no database\")\ndef test_store():\n    assert 2 * 2 == 4\n"}, "condition holds in every run"},
		{"go helper in the file returns false", map[string]string{"calc_test.go": goNew("\tif dbMissing() {\n\t\tt.Skip(\"no database\")\n\t}\n") + "\nfunc dbMissing() bool { return false }\n"}, ""},
		{"go old test renamed, no DB_URL", map[string]string{"calc_test.go": strings.Replace(intoOld(dbSkip), "TestAdd(", "TestAddition(", 1)}, "a skip no condition guards"},
		{"py old test renamed, skipif", map[string]string{"tests/test_calc.py": strings.Replace(pyOld, "def test_add", "@pytest.mark.skipif(not os.environ.get(\"DB_URL\"), reason=\"no database\")\ndef test_addition", 1)}, "condition holds in every run"},
		{"go old test deleted, unrelated new test, no DB_URL", map[string]string{"calc_test.go": strings.Replace(goNew(dbSkip), "func TestAdd(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n", "", 1)}, ""},
		{"py old test skipif", map[string]string{"tests/test_calc.py": strings.Replace(pyOld, "def test_add", "@pytest.mark.skipif(not os.environ.get(\"DB_URL\"), reason=\"no database\")\ndef test_add", 1)}, "condition holds in every run"},
		{"py unconditional mark", map[string]string{"tests/test_calc.py": pyOld + "\n\n@pytest.mark.skip(reason=\"later\")\ndef test_store():\n    assert 2 * 2 == 4\n"}, "a skip or xfail marker"},
		{"js xit", map[string]string{"src/calc.test.js": strings.Replace(jsOld, "test('adds'", "xit('adds'", 1)}, "a skip, todo or only"},
		{"js only", map[string]string{"src/calc.test.js": jsOld + "\ntest.only('stores', () => {\n  expect(2 * 2).toBe(4)\n})\n"}, "a skip, todo or only"},
	}
	ciEnv := func(name string) (string, bool) {
		if name == "CI" {
			return "true", true
		}
		return "", false
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkRangeSkips(t, base, c.files, ciEnv, c.want)
		})
	}
}

// checkRangeSkips commits files over base and checks what rangeSkips finds
// in that range under env: a finding containing want, or none for want "".
func checkRangeSkips(t *testing.T, base, files map[string]string, env func(string) (string, bool), want string) {
	t.Helper()
	dir := gittest.New(t, base)
	baseSHA := gittest.Git(t, dir, "rev-parse", "HEAD")
	tip := gittest.Commit(t, dir, "work", files)
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	changed, err := repo.TreeDiff(ctx, baseSHA, tip)
	if err != nil {
		t.Fatal(err)
	}
	got, err := rangeSkips(ctx, repo, baseSHA, tip, changed, nil, testrun.StrictEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, w := range got {
		all = append(all, w.path+": "+w.what)
	}
	switch {
	case want == "" && len(all) > 0:
		t.Fatalf("honest change flagged: %q", all)
	case want != "" && !strings.Contains(strings.Join(all, "\n"), want):
		t.Fatalf("got %q, want a finding containing %q", all, want)
	}
}

// TestLinkWeakenings: a test file made a symbolic link is named as a
// link, not as the tests its link text lacks (round 18 said "removes the
// test test_plain"); a new link and an unchanged one are not findings.
func TestLinkWeakenings(t *testing.T) {
	dir := gittest.New(t, map[string]string{"tests/test_greet.py": "def test_plain():\n    assert 1\n", "tests/copy.py": "def test_plain():\n    assert 1\n"})
	ctx := context.Background()
	baseSHA := gittest.Git(t, dir, "rev-parse", "HEAD")
	if err := os.Remove(filepath.Join(dir, "tests", "test_greet.py")); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"tests/test_greet.py": "copy.py", "tests/test_new.py": "copy.py"} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Skipf("symbolic links unavailable here: %v", err)
		}
	}
	tip := gittest.Commit(t, dir, "link", nil)
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	status := []gitrepo.PathChange{{Status: "T", Path: "tests/test_greet.py"}, {Status: "A", Path: "tests/test_new.py"}}
	links, got, err := linkWeakenings(ctx, repo, baseSHA, tip, status)
	if err != nil {
		t.Fatal(err)
	}
	if !links["tests/test_greet.py"] || !links["tests/test_new.py"] {
		t.Errorf("links = %v, want both files", links)
	}
	if len(got) != 1 || got[0].path != "tests/test_greet.py" || !strings.Contains(got[0].what, "replaces this test file by a symbolic link to copy.py") {
		t.Fatalf("got %+v, want one finding naming the link to copy.py", got)
	}
}
