package compliance_test

import (
	"testing"
)

// TestAdv24PytestPythonpath: the config route of TestAdv24PyPathFirst.
// greet.py is broken ("helo"), fixed/greet.py committed, and pytest.ini
// gains `pythonpath = fixed`, which pytest puts first on sys.path before
// it collects, so `from greet import greet` could import the copy. Held:
// the root conftest.py's folder goes first on sys.path (pytest's prepend
// import mode), so the broken greet.py is imported and the gate fails;
// and verify refuses any change to pytest.ini without a person's
// signature (an honest `pythonpath = src` needs one too, by design).
func TestAdv24PytestPythonpath(t *testing.T) {
	t.Parallel()
	const good = "def greet(name=None):\n    return \"hello \" + name if name else \"hello\"\n"
	for _, tt := range []struct {
		name   string
		honest bool
		ini    string
		files  map[string]string
	}{
		{name: "pytest.ini gains pythonpath naming a folder with a working copy", ini: "[pytest]\npythonpath = fixed\n", files: map[string]string{"fixed/greet.py": good}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := advProjectWorld(t, advProject{
				needs: []string{"pytest"},
				files: [][2]string{
					{".gitignore", "__pycache__/\n.pytest_cache/\n"},
					{"pytest.ini", "[pytest]\n"},
					{"conftest.py", ""}, // puts the root on sys.path (rootdir conftest)
					{"greet.py", pyGreet},
					{"tests/test_greet.py", "from greet import greet\n\n\ndef test_plain():\n    assert greet() == \"hello\"\n"},
				},
				qaCommand: "pytest",
			})
			w.advStart("Add a name argument to the greeting function")
			w.advStartPhases()
			greet := "hello"
			if !tt.honest {
				w.deviate()
				greet = "helo"
			}
			w.write("greet.py", "def greet(name=None):\n    \"\"\"greet returns a greeting, to name when given.\"\"\"\n    return \""+greet+" \" + name if name else \""+greet+"\"\n")
			w.write("pytest.ini", tt.ini)
			for k, v := range tt.files {
				w.write(k, v)
			}
			w.git("add", "-A")
			if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(greet): greet takes an optional name"); r.code != 0 {
				t.Fatalf("the work's commit refused after the start gates passed: %s", r.text())
			}
			clean, said := w.advEndPhases(advEnd{qa: func() { w.advQA(tt.honest, "1 passed", "pytest") }})
			judgeRoute(t, tt.honest, false, clean, tt.name+" over a broken greet()", said)
		})
	}
}
