package outsideconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestPytest: a repository in a folder, with files above it made before
// the session (before) and after it started (after).
func TestPytest(t *testing.T) {
	const addopts = "[pytest]\naddopts = -k \"not test_greet\"\n"
	tests := []struct {
		name          string
		before, after map[string]string // relative to the folder above the repository
		want          string            // a reported file's base name; "" for none
	}{
		{"nothing above", nil, nil, ""},
		{"a person's pytest.ini above, from before", map[string]string{"pytest.ini": addopts}, nil, ""},
		{"pytest.ini made above in the session", nil, map[string]string{"pytest.ini": addopts}, "pytest.ini"},
		{"setup.cfg section made above", nil, map[string]string{"setup.cfg": "[tool:pytest]\naddopts = -k x\n"}, "setup.cfg"},
		{"pyproject.toml section made above", nil, map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-k x\"\n"}, "pyproject.toml"},
		{"a setup.cfg without a pytest section is not read", nil, map[string]string{"setup.cfg": "[metadata]\nname = x\n"}, ""},
		{"the repository's own config wins", nil, map[string]string{"pytest.ini": addopts, "repo/pytest.ini": "[pytest]\n"}, ""},
		{"conftest.py made above", nil, map[string]string{"conftest.py": "def pytest_collection_modifyitems(items):\n    items[:] = []\n"}, "conftest.py"},
		{"conftest.py above even with the repository's own config", nil, map[string]string{"conftest.py": "x = 1\n", "repo/pytest.ini": "[pytest]\n"}, "conftest.py"},
		{"a config two levels up, the nearer one old", map[string]string{"pytest.ini": "[pytest]\n"}, map[string]string{"../pytest.ini": addopts}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := filepath.Join(t.TempDir(), "a", "b")
			repo := filepath.Join(top, "repo")
			if err := os.MkdirAll(repo, 0o755); err != nil {
				t.Fatal(err)
			}
			writeAll(t, top, tt.before)
			// ctime has the kernel's clock tick: step past it.
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			writeAll(t, top, tt.after)
			got, err := Pytest(repo, since)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if len(got) != 0 {
					t.Fatalf("want none, got %v", got)
				}
				return
			}
			if len(got) != 1 || filepath.Base(got[0]) != tt.want || strings.HasPrefix(got[0], repo) {
				t.Fatalf("want %s above the repository, got %v", tt.want, got)
			}
		})
	}
}

func writeAll(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
