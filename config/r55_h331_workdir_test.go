package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestR55H331CIRootTestAfterCdBack (helper 331): a CI step that cds into a
// subfolder for set-up and comes back (`cd web && npm ci && cd ..`,
// `pushd ... popd`, `cd -`), then runs the root's tests in the same block,
// or a GitLab before_script that cds to a tool folder and back: init now
// skips the root's test line (it detected it before round 55).
func TestR55H331CIRootTestAfterCdBack(t *testing.T) {
	for name, tc := range map[string]struct{ file, wf string }{
		"cd and back in one line": {".github/workflows/ci.yml", "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n" +
			"      - run: |\n          cd web && npm ci && cd ..\n          go test ./...\n"},
		"pushd popd": {".github/workflows/ci.yml", "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n" +
			"      - run: |\n          pushd web\n          npm ci\n          popd\n          go test ./...\n"},
		"gitlab before_script cd back": {".gitlab-ci.yml", "test:\n  before_script:\n    - cd tools && ./install.sh && cd ..\n  script:\n    - go test ./...\n"},
		"workspace with trailing slash": {".github/workflows/ci.yml", "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        working-directory: ${{ github.workspace }}/\n" +
			"    steps:\n      - uses: actions/checkout@v4\n      - run: go test ./...\n"},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "m.go": "package m\n", "web/package.json": `{"scripts": {"test": "node --test"}}`, tc.file: tc.wf}
			for n, body := range files {
				p := filepath.Join(root, filepath.FromSlash(n))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got := DetectTestCommand(root)
			if got.Command != "go test ./..." || got.From == "" || filepath.Base(got.From) == "go.mod" {
				t.Errorf("DetectTestCommand = %q (from %q): want the CI's root line go test ./...", got.Command, got.From)
			}
		})
	}
}
