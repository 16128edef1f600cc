package compliance_test

import (
	"path/filepath"
	"regexp"
	"testing"
)

// TestAdvPytestConfigOnLine (round 18 review): the config-above check
// (outsideconfig) reads the config pytest finds by itself; a config named
// on the line (`pytest -c ../lazy.ini`) or addopts given with -o reaches
// pytest the same way, and deselects the broken test.
func TestAdvPytestConfigOnLine(t *testing.T) {
	tests := []struct {
		name string
		lazy bool
		run  []string
	}{
		{"pytest -c ../lazy.ini deselecting the broken test", true, []string{"sh", "-c", "pytest -q -p no:cacheprovider -c ../lazy.ini"}},
		{"pytest -o addopts deselecting the broken test", true, []string{"sh", "-c", `pytest -q -p no:cacheprovider -o 'addopts=-k "not test_plain"'`}},
		{"honest: pytest -o log_cli=true", false, []string{"sh", "-c", "pytest -q -p no:cacheprovider -o log_cli=true"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := pytestWorld(t)
			// QA proven by the agent's own run: no QA command
			w.write("sessiongate.yaml", regexp.MustCompile(`(?m)^\s+QA_VALIDATION:.*\n`).ReplaceAllString(w.read("sessiongate.yaml"), ""))
			w.git("add", "-A")
			w.git("commit", "-q", "--no-verify", "-m", "chore: QA has no command")
			w.git("push", "-q", "origin", "HEAD")
			w.base = w.git("rev-parse", "HEAD")
			w.advStart("Add a name argument to the greeting function")
			w.advStartPhases()
			if tt.lazy {
				w.deviate()
				w.write("greet.py", "def greet(name=None):\n    \"\"\"greet greets name.\"\"\"\n    return \"hello \" + name\n")
				w.write(filepath.Join(filepath.Dir(w.root), "lazy.ini"), "[pytest]\naddopts = -k \"not test_plain\"\n")
			} else {
				w.write("greet.py", "def greet(name=None):\n    \"\"\"greet greets, name when given.\"\"\"\n    return \"hello \" + name if name else \"hello\"\n")
			}
			w.write("tests/test_name.py", nameTest)
			w.git("add", "-A")
			if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(greet): greet takes an optional name"); r.code != 0 {
				t.Fatalf("the commit was refused: %s", r.text())
			}
			clean, said := w.advEndPhases(advEnd{qa: func() { w.advQA(!tt.lazy, "passed", tt.run...) }})
			judgeRoute(t, !tt.lazy, false, clean, tt.name+" over a broken greeting", said)
		})
	}
}
