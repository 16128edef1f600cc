package outsideconfig

import (
	"strings"
	"testing"
	"time"

	"os"
	"path/filepath"
)

// TestRunners (round 19): config above the repository that go, mocha and
// jest take when the project has none of its own, made in the session
// (a `../go.work` replacing a module: gateenv drops GOWORK, but go still
// finds the file). A person's file from before, or the project's own,
// stays clean.
func TestRunners(t *testing.T) {
	const work = "go 1.22\n\nuse ./repo\n\nreplace example.com/dep => ./fake\n"
	pkg := "{\n  \"name\": \"p\"\n}\n"
	for _, tt := range []struct {
		name          string
		before, after map[string]string // relative to the folder above the repository
		want          string            // "runner: base name"; "" for none
	}{
		{"nothing above", map[string]string{"repo/go.mod": "module m\n"}, nil, ""},
		{"../go.work made in the session", map[string]string{"repo/go.mod": "module m\n"}, map[string]string{"go.work": work}, "go: go.work"},
		{"a person's ../go.work from before", map[string]string{"repo/go.mod": "module m\n", "go.work": work}, nil, ""},
		{"the repository's own go.work wins", map[string]string{"repo/go.mod": "module m\n", "repo/go.work": "go 1.22\n\nuse .\n"}, map[string]string{"go.work": work}, ""},
		{"go.work two levels up, the nearer one old", map[string]string{"go.work": work}, map[string]string{"../go.work": work}, ""},
		{"../.mocharc.yml made in the session", map[string]string{"repo/package.json": pkg}, map[string]string{".mocharc.yml": "grep: nothing\n"}, "mocha: .mocharc.yml"},
		{"the project's own .mocharc wins", map[string]string{"repo/package.json": pkg, "repo/.mocharc.json": "{}\n"}, map[string]string{".mocharc.yml": "grep: x\n"}, ""},
		{"../jest.config.js made, the project has no package.json", nil, map[string]string{"jest.config.js": "module.exports = {testPathIgnorePatterns: ['.']}\n"}, "jest: jest.config.js"},
		{"a go.work above a project that is no Go module", map[string]string{"repo/pyproject.toml": "[project]\n"}, map[string]string{"go.work": work}, ""},
		{"a .mocharc above a project with no package.json", nil, map[string]string{".mocharc.yml": "grep: x\n"}, ""},
		{"jest stops at the project's package.json", map[string]string{"repo/package.json": pkg}, map[string]string{"jest.config.js": "module.exports = {}\n"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			top := filepath.Join(t.TempDir(), "a", "b")
			repo := filepath.Join(top, "repo")
			if err := os.MkdirAll(repo, 0o755); err != nil {
				t.Fatal(err)
			}
			writeAll(t, top, tt.before)
			time.Sleep(20 * time.Millisecond) // ctime has the kernel's clock tick
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			writeAll(t, top, tt.after)
			got, err := Runners(repo, since)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if len(got) != 0 {
					t.Fatalf("want none, got %v", got)
				}
				return
			}
			runner, base, _ := strings.Cut(tt.want, ": ")
			if len(got) != 1 || !strings.HasPrefix(got[0], runner+": ") || filepath.Base(got[0]) != base || strings.Contains(got[0], repo+string(filepath.Separator)) {
				t.Fatalf("want %s above the repository, got %v", tt.want, got)
			}
		})
	}
}
