package cachedrun

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPythonShadows: which changed .py files Python imports from another
// file. A package folder of the module's name answers first (the lazy
// agent's greet/__init__.py, hidden in a nested repository, passed QA for
// a broken greet.py); a module deleted for a package of its name is a
// refactor, not a shadow.
func TestPythonShadows(t *testing.T) {
	for _, tt := range []struct {
		name    string
		files   []string // in the work tree
		changed []string
		want    []string
	}{
		{"no shadow", []string{"greet.py", "tests/test_greet.py"}, []string{"greet.py"}, nil},
		{"package folder beside the module", []string{"greet.py", "greet/__init__.py"}, []string{"greet.py"},
			[]string{"greet.py imports greet/__init__.py, not its source"}},
		{"compiled package beside the module", []string{"pkg/greet.py", "pkg/greet/__init__.cpython-311-x86_64-linux-gnu.so"}, []string{"pkg/greet.py"},
			[]string{"pkg/greet.py imports pkg/greet/__init__.cpython-311-x86_64-linux-gnu.so, not its source"}},
		{"a folder without __init__ is a namespace, the module wins", []string{"greet.py", "greet/data.txt"}, []string{"greet.py"}, nil},
		{"module turned into a package", []string{"greet/__init__.py"}, []string{"greet.py", "greet/__init__.py"}, nil},
		{"extension module", []string{"greet.py", "greet.so"}, []string{"greet.py"},
			[]string{"greet.py imports greet.so, not its source"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range tt.files {
				p := filepath.Join(root, filepath.FromSlash(f))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("x = 1\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := PythonShadows(root, tt.changed); !slices.Equal(got, tt.want) {
				t.Errorf("PythonShadows = %q, want %q", got, tt.want)
			}
		})
	}
}
