package gateenv

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// pytestScope keeps pytest to the work tree's own configuration. pytest
// looks for its ini file (pytest.ini, tox.ini [pytest], setup.cfg
// [tool:pytest], pyproject.toml [tool.pytest.ini_options]) in the folders
// above the one it runs in when the project has none, and pytest 7 loads
// every conftest.py above it: a pytest.ini written in the work tree's
// parent folder (`addopts = --co`: collecting is a pass) or a conftest.py
// there (`os._exit(0)`) passed a failing suite at the gate (round 26 c11,
// pytest 7.2). When such a file is above root, the gate's pytest runs
// with --confcutdir at root and, if root has no config of its own, with
// its rootdir and an empty ini (-c /dev/null). It returns the
// PYTEST_ADDOPTS to set ("" when nothing is above) and what it names.
func pytestScope(root string) (addopts, why string) {
	if root == "" || !filepath.IsAbs(root) {
		return "", ""
	}
	root = filepath.Clean(root)
	var found []string
	ini := false
	for d := filepath.Dir(root); ; d = filepath.Dir(d) {
		if fileExists(filepath.Join(d, "conftest.py")) {
			found = append(found, filepath.Join(d, "conftest.py"))
		}
		for _, n := range pytestConfigs {
			if p := filepath.Join(d, n); pytestConfig(p) {
				found, ini = append(found, p), true
			}
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	if len(found) == 0 {
		return "", ""
	}
	addopts = "--confcutdir=" + root
	if ini && !hasOwnPytestConfig(root) {
		addopts += " --rootdir=" + root + " -c " + os.DevNull
	}
	return addopts, "pytest files above the work tree (" + strings.Join(found, ", ") + ")"
}

var pytestConfigs = []string{"pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml"}

func hasOwnPytestConfig(root string) bool {
	for _, n := range pytestConfigs {
		if pytestConfig(filepath.Join(root, n)) {
			return true
		}
	}
	return false
}

// pytestConfig reports a file pytest takes as its ini file.
func pytestConfig(p string) bool {
	b, err := boundedread.File(p, boundedread.DefaultLimit)
	if err != nil {
		return false
	}
	s := string(b)
	switch filepath.Base(p) {
	case "pytest.ini", ".pytest.ini":
		return true
	case "tox.ini":
		return strings.Contains(s, "[pytest]")
	case "setup.cfg":
		return strings.Contains(s, "[tool:pytest]")
	}
	return strings.Contains(s, "[tool.pytest.ini_options]")
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
