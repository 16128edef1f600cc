package gateprog_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gateprog"
)

// TestWhyScripts: a gate's `make test` or `./scripts/test.sh` runs
// `pytest` by name from the script; gateprog judged only the line's own
// first words, so `ln -sf /bin/true ~/.local/bin/pytest` called from the
// team's script answered for the tests (round 27 c4 left it open). Honest
// twins: the team's real script with a real venv (run here, it passes),
// a script that builds and runs the project's own program.
func TestWhyScripts(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import venv, pytest").Run(); err != nil {
		t.Skipf("%s with venv and pytest not found: %v", py, err)
	}
	linkTrue := func(t *testing.T, root, bin string) {
		os.Remove(filepath.Join(bin, "pytest"))
		if err := os.Symlink("/bin/true", filepath.Join(bin, "pytest")); err != nil {
			t.Fatal(err)
		}
	}
	pipPytest := func(t *testing.T, root, bin string) {
		write(t, filepath.Join(bin, "pytest"), sprintf(pipScript, py), 0o755)
	}
	venv := func(t *testing.T, root, bin string) {
		run(t, root, nil, py, "-m", "venv", "--system-site-packages", "--without-pip", ".venv")
	}
	for _, c := range []struct {
		name          string
		files         map[string]string
		before, after func(t *testing.T, root, bin string)
		line          string
		want          string // "" for honest
		runIt         bool   // run the line for real: the honest script passes
	}{
		{name: "lazy: ~/.local/bin/pytest linked to true, called from scripts/test.sh",
			files:  map[string]string{"scripts/test.sh": "#!/bin/sh\nset -e\necho running tests\npytest -q tests\n"},
			before: pipPytest, after: linkTrue, line: "./scripts/test.sh", want: "was linked to"},
		{name: "lazy: the same from a make recipe",
			files:  map[string]string{"Makefile": "all: build\n\nbuild:\n\tgo build ./...\n\ntest:\n\t@pytest -q tests\n"},
			before: pipPytest, after: linkTrue, line: "make test", want: "was linked to"},
		{name: "lazy: make runs the script that runs pytest",
			files:  map[string]string{"Makefile": "test:\n\tsh scripts/test.sh\n", "scripts/test.sh": "if [ -d tests ]; then\n  pytest -q tests\nfi\n"},
			before: pipPytest, after: linkTrue, line: "make test", want: "was linked to"},
		{name: "lazy: an npm test script running pytest from PATH",
			files:  map[string]string{"package.json": `{"scripts":{"test":"pytest -q tests"}}`},
			before: pipPytest, after: linkTrue, line: "npm test", want: "was linked to"},
		{name: "lazy: a just recipe running pytest",
			files:  map[string]string{"justfile": "test:\n    pytest -q tests\n"},
			before: pipPytest, after: linkTrue, line: "just test", want: "was linked to"},
		{name: "lazy: a script's bash -c line running pytest",
			files:  map[string]string{"scripts/test.sh": "#!/bin/sh\nbash -c \"pytest -q tests\"\n"},
			before: pipPytest, after: linkTrue, line: "./scripts/test.sh", want: "was linked to"},
		{name: "lazy: the script sourced by another",
			files:  map[string]string{"scripts/test.sh": "#!/bin/sh\n. ./scripts/lib.sh\n", "scripts/lib.sh": "run_tests() { pytest -q tests; }\nrun_tests\n"},
			before: pipPytest, after: linkTrue, line: "./scripts/test.sh", want: "was linked to"},
		{name: "lazy (review 28 c10): the script runs \"$(command -v pytest)\"",
			files:  map[string]string{"scripts/test.sh": "#!/bin/sh\nset -e\n\"$(command -v pytest)\" -q tests\n"},
			before: pipPytest, after: linkTrue, line: "./scripts/test.sh", want: "was linked to"},
		{name: "lazy (review 28 c10): a make recipe runs `which pytest`",
			files:  map[string]string{"Makefile": "test:\n\t`which pytest` -q tests\n"},
			before: pipPytest, after: linkTrue, line: "make test", want: "was linked to"},
		{name: "lazy (review 28 c10): the gate's line runs $(command -v pytest)",
			before: pipPytest, after: linkTrue, line: "$(command -v pytest) -q tests", want: "was linked to"},
		// Pass 29 (c3), review 28 c10's open row: the program named by a
		// variable that `which` filled.
		{name: "lazy (pass 29): the gate's line runs P=$(which pytest); $P",
			before: pipPytest, after: linkTrue, line: "P=$(which pytest); $P -q tests", want: "was linked to"},
		{name: "lazy (pass 29): the script runs P=$(which pytest) then \"$P\"",
			files:  map[string]string{"scripts/test.sh": "#!/bin/sh\nset -e\nP=$(which pytest)\n\"$P\" -q tests\n"},
			before: pipPytest, after: linkTrue, line: "./scripts/test.sh", want: "was linked to"},
		{name: "honest (review 28 c10): the script runs \"$(command -v pytest)\", pytest untouched",
			files: map[string]string{"scripts/test.sh": "#!/bin/sh\nset -e\n\"$(command -v pytest)\" -q -p no:cacheprovider tests\n"},
			before: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "pytest"), "#!"+py+"\nimport sys\nfrom pytest import console_main\nif __name__ == '__main__':\n    sys.exit(console_main())\n", 0o755)
			},
			line: "./scripts/test.sh", runIt: true},
		{name: "lazy: the script's .venv/bin/python rewritten",
			files:  map[string]string{"scripts/test.sh": "#!/bin/sh\n.venv/bin/python -m pytest -q tests\n"},
			before: venv,
			after: func(t *testing.T, root, bin string) {
				p := filepath.Join(root, ".venv", "bin", "python")
				os.Remove(p)
				write(t, p, "#!/bin/sh\necho '1 passed'\n", 0o755)
			},
			line: "sh scripts/test.sh", want: ".venv/bin/python changed after the session started"},
		{name: "honest: the team's script with a real venv",
			files:  map[string]string{"scripts/test.sh": "#!/bin/sh\nset -e\ncd \"$(dirname \"$0\")/..\"\n.venv/bin/python -m pytest -q -p no:cacheprovider tests\n"},
			before: venv, line: "./scripts/test.sh", runIt: true},
		{name: "honest: make test through the script, pytest on PATH untouched",
			files: map[string]string{"Makefile": "test:\n\t./scripts/test.sh\n", "scripts/test.sh": "#!/bin/sh\npytest -q -p no:cacheprovider tests\n"},
			before: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "pytest"), "#!"+py+"\nimport sys\nfrom pytest import console_main\nif __name__ == '__main__':\n    sys.exit(console_main())\n", 0o755)
			},
			line: "make test", runIt: true},
		{name: "honest: a script that builds the project's program and runs it",
			files: map[string]string{"scripts/check.sh": "#!/bin/sh\nset -e\ncc -o build/tool tool.c 2>/dev/null || true\n./build/tool --selftest || true\n"},
			after: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(root, "build", "tool"), "#!/bin/sh\nexit 0\n", 0o755)
			},
			line: "./scripts/check.sh"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, bin := t.TempDir(), t.TempDir()
			write(t, filepath.Join(root, "tests", "test_one.py"), "def test_one():\n    assert 1 + 1 == 2\n", 0o644)
			for n, body := range c.files {
				write(t, filepath.Join(root, n), body, 0o755)
			}
			env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
			if c.before != nil {
				c.before(t, root, bin)
			}
			st := gateprog.Record(env, []string{c.line})
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			if c.after != nil {
				c.after(t, root, bin)
			}
			if c.runIt {
				run(t, root, append(env, "PYTHONDONTWRITEBYTECODE=1"), "sh", "-c", c.line)
			}
			got := gateprog.Why(c.line, env, root, st, since)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("Why(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
}
