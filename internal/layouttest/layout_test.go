// Package layouttest checks the repository's layout against README's
// package list ("Development"): every top-level package is named there
// with a line on what it is, so a newcomer finds a concern by its name.
package layouttest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestReadmeNamesEveryPackage: each top-level folder holding Go code (not
// only tests) is named in README's "Development" list as "`name/`:" with
// words after it. A package moved out of session/ without its line failed
// here (cachedrun/ before its README line).
func TestReadmeNamesEveryPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, dev, ok := strings.Cut(string(b), "\n## Development\n")
	if !ok {
		t.Fatal("README.md has no \"## Development\" section")
	}
	dev, _, _ = strings.Cut(dev, "\n## ")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") || name == "internal" || name == "cmd" || name == "testdata" || !hasGo(t, filepath.Join(root, name)) {
			continue
		}
		n++
		// "`name/`: words" (a line may name two packages).
		if !regexp.MustCompile("`" + regexp.QuoteMeta(name) + "/`:\\s*\\S").MatchString(dev) {
			t.Errorf("README.md's Development list does not name %s/: add \"  - `%s/`: what it is and why it exists\"", name, name)
		}
	}
	if n < 10 {
		t.Fatalf("found %d top-level packages: is the test reading the repository's root?", n)
	}
}

// hasGo reports whether dir holds a Go file that is not a test.
func hasGo(t *testing.T, dir string) bool {
	t.Helper()
	fs, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if !strings.HasSuffix(f, "_test.go") {
			return true
		}
	}
	return false
}
