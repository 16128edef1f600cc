package config

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// pythonPytest is the command DetectTestCommand picks for a pytest project
// with no environment manager.
const pythonPytest = "python3 -m pytest"

// ResolvePytest checks a picked `python3 -m pytest` against the machine:
// the python3 first on PATH may not import pytest where a pytest program
// is installed (a pyenv shim in front of Debian's python3-pytest), and the
// QA gate then failed every honest run the agent's own `pytest` passed
// (lazy-agent pass 23). Such a command becomes `pytest`; with neither,
// Warning says so. path is the PATH to look in. The probe imports pytest
// in isolated mode (-I) from a temporary folder: nothing in the repository
// is run.
func ResolvePytest(tc TestCommand, path string) TestCommand {
	parts := strings.Split(tc.Command, " && ")
	i := -1
	for j, p := range parts {
		if p == pythonPytest {
			i = j
		}
	}
	if i < 0 || importsPytest(path) {
		return tc
	}
	if lookIn(path, "pytest") != "" {
		parts[i] = "pytest"
		tc.Command = strings.Join(parts, " && ")
		tc.From += " (python3 on PATH cannot import pytest; the pytest program on PATH runs it)"
		return tc
	}
	tc.Warning = "python3 on PATH cannot import pytest and no pytest program is on PATH: QA_VALIDATION's command " + pythonPytest + " fails until pytest is installed where the gate runs it (or set commands.QA_VALIDATION in sessiongate.yaml)"
	return tc
}

// importsPytest reports whether the python3 first on path imports pytest.
func importsPytest(path string) bool {
	py := lookIn(path, "python3")
	if py == "" {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "-I", "-c", "import pytest")
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "PATH="+path)
	return cmd.Run() == nil
}

// lookIn finds an executable named name in the folders of path ("" when none).
func lookIn(path, name string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // a relative PATH entry would find the repository's own files
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}
