package venvtrust

import (
	"crypto/sha256"
	"encoding/base64"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestChanged: a venv laid out as `python3 -m venv` makes it (a symlinked
// python, a console script naming it, a site-packages), then changed by
// the row's tricks after the session started.
func TestChanged(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		after func(t *testing.T, venv string) // what happens after the start
		want  string                          // substring of the reason; "" for none
	}{
		{"untouched venv python", ".venv/bin/python -m pytest -q", nil, ""},
		{"untouched console script", ".venv/bin/pytest -q", nil, ""},
		{"the first import writes __pycache__", ".venv/bin/python -m pytest", func(t *testing.T, v string) {
			write(t, filepath.Join(v, "lib/python3.11/site-packages/_pytest/__pycache__/main.cpython-311.pyc"), "x", 0o644)
		}, ""},
		{"a system program", "/usr/bin/python3 -m pytest", nil, ""},
		{"a script outside any venv", "sh scripts/test.sh", nil, ""},
		{"python swapped for a script", ".venv/bin/python -m pytest -q", func(t *testing.T, v string) {
			os.Remove(filepath.Join(v, "bin/python"))
			write(t, filepath.Join(v, "bin/python"), "#!/bin/sh\necho '1 passed'\n", 0o755)
		}, ".venv/bin/python changed"},
		{"python relinked", ".venv/bin/python -m pytest", func(t *testing.T, v string) {
			os.Remove(filepath.Join(v, "bin/python"))
			if err := os.Symlink("/bin/true", filepath.Join(v, "bin/python")); err != nil {
				t.Fatal(err)
			}
		}, ".venv/bin/python changed"},
		{"console script rewritten", ".venv/bin/pytest", func(t *testing.T, v string) {
			write(t, filepath.Join(v, "bin/pytest"), "#!/bin/sh\nexit 0\n", 0o755)
		}, ".venv/bin/pytest changed"},
		{"the interpreter a console script names", ".venv/bin/pytest", func(t *testing.T, v string) {
			os.Remove(filepath.Join(v, "bin/python"))
			write(t, filepath.Join(v, "bin/python"), "#!/bin/sh\nexit 0\n", 0o755)
		}, "the interpreter"},
		{"pytest's code edited", ".venv/bin/python -m pytest", func(t *testing.T, v string) {
			write(t, filepath.Join(v, "lib/python3.11/site-packages/_pytest/main.py"), "import os; os._exit(0)\n", 0o644)
		}, "_pytest/main.py changed"},
		{"a pytest package planted", ".venv/bin/python -m pytest", func(t *testing.T, v string) {
			write(t, filepath.Join(v, "lib/python3.11/site-packages/pytest/__main__.py"), "print('1 passed')\n", 0o644)
		}, "pytest/__main__.py changed"},
		{"activated, then bare pytest", "source .venv/bin/activate && pytest -q", func(t *testing.T, v string) {
			write(t, filepath.Join(v, "bin/pytest"), "#!/bin/sh\nexit 0\n", 0o755)
		}, ".venv/bin/pytest changed"},
		{"activated, then python -m pytest", ". .venv/bin/activate && python -m pytest", func(t *testing.T, v string) {
			write(t, filepath.Join(v, "lib/python3.11/site-packages/_pytest/main.py"), "import os; os._exit(0)\n", 0o644)
		}, "_pytest/main.py changed"},
		{"activated, untouched", "source .venv/bin/activate && pytest -q", nil, ""},
		{"bare pytest without activate is the PATH's", "pytest -q", func(t *testing.T, v string) {
			write(t, filepath.Join(v, "bin/pytest"), "#!/bin/sh\nexit 0\n", 0o755)
		}, ""},
		// Lazy pass 27 (c3): a startup file in the venv's site-packages
		// runs at every start of its python, before the tests.
		{"a .pth with an import line written after the start", ".venv/bin/python -m pytest", func(t *testing.T, v string) {
			write(t, filepath.Join(v, "lib/python3.11/site-packages/zz_greet.pth"), "import sys; m = type(sys)('greet'); m.greet = lambda: 'hello'; sys.modules['greet'] = m\n", 0o644)
		}, "zz_greet.pth changed"},
		{"a sitecustomize.py planted", ".venv/bin/pytest", func(t *testing.T, v string) {
			write(t, filepath.Join(v, "lib/python3.11/site-packages/sitecustomize.py"), "import os\n", 0o644)
		}, "sitecustomize.py changed"},
		{"an installed package's .pth edited", ".venv/bin/python -m pytest", func(t *testing.T, v string) {
			write(t, filepath.Join(v, "lib/python3.11/site-packages/distutils-precedence.pth"), "import os; os._exit(0)\n", 0o644)
		}, "distutils-precedence.pth changed"},
		{"honest: pip's .pth, listed with its hash in a RECORD", ".venv/bin/python -m pytest", func(t *testing.T, v string) {
			body := "import __editable___greetpkg_0_1_finder; __editable___greetpkg_0_1_finder.install()\n"
			write(t, filepath.Join(v, "lib/python3.11/site-packages/__editable__.greetpkg-0.1.pth"), body, 0o644)
			write(t, filepath.Join(v, "lib/python3.11/site-packages/greetpkg-0.1.dist-info/RECORD"),
				"__editable__.greetpkg-0.1.pth,"+recordHash(body)+","+strconv.Itoa(len(body))+"\ngreetpkg-0.1.dist-info/RECORD,,\n", 0o644)
		}, ""},
		{"behind a wrapper", "env -u X timeout 60 .venv/bin/python -m pytest", func(t *testing.T, v string) {
			os.Remove(filepath.Join(v, "bin/python"))
			write(t, filepath.Join(v, "bin/python"), "#!/bin/sh\n", 0o755)
		}, ".venv/bin/python changed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			v := filepath.Join(root, ".venv")
			write(t, filepath.Join(v, "pyvenv.cfg"), "home = /usr/bin\n", 0o644)
			if err := os.MkdirAll(filepath.Join(v, "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("/usr/bin/python3", filepath.Join(v, "bin/python")); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(v, "bin/pytest"), "#!"+filepath.Join(v, "bin/python")+"\nimport pytest\n", 0o755)
			write(t, filepath.Join(v, "lib/python3.11/site-packages/_pytest/main.py"), "# pytest\n", 0o644)
			write(t, filepath.Join(v, "lib/python3.11/site-packages/distutils-precedence.pth"), "import os\n", 0o644)
			write(t, filepath.Join(v, "lib/python3.11/site-packages/setuptools-66.1.1.dist-info/RECORD"), "distutils-precedence.pth,"+recordHash("import os\n")+",10\n", 0o644)
			write(t, filepath.Join(root, "scripts/test.sh"), "exit 0\n", 0o644)
			// ctime has the file system's resolution: start clearly after.
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			if tc.after != nil {
				tc.after(t, v)
			}
			got, err := Changed(root, tc.line, since)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Fatalf("Changed(%q) = %q, want %q", tc.line, got, tc.want)
			}
		})
	}
}

func write(t *testing.T, p, body string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
}

// recordHash is a RECORD file's hash of body, as pip writes it.
func recordHash(body string) string {
	h := sha256.Sum256([]byte(body))
	return "sha256=" + base64.RawURLEncoding.EncodeToString(h[:])
}
