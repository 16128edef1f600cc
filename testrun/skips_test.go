package testrun

import (
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
		// Honest twins.
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
