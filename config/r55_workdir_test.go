package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestR55CIStepWorkingDirectory (round 55, helper 329): a monorepo's CI runs
// each subproject's tests in its own folder (`defaults: run:
// working-directory: web` on the job, or `working-directory: api` on the
// step). init took the step's line bare, "npm test" or "pytest", as
// QA_VALIDATION's command; the gate runs it in the repository root, where
// no package.json (or pytest configuration) is: the gate fails on every
// honest session (npm exits 254) and the agent's own run in the subproject
// "proves nothing" (the gate wants `npm test`). A line that runs in another
// folder is not the root's test command: skip it (or run it there).
func TestR55CIStepWorkingDirectory(t *testing.T) {
	webJob := "on: [push]\njobs:\n  web:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        working-directory: web\n" +
		"    steps:\n      - uses: actions/checkout@v4\n      - run: npm test\n"
	apiStep := "on: [push]\njobs:\n  api:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n" +
		"      - run: pip install pytest\n      - run: pytest\n        working-directory: api\n"
	wfDefaults := "on: [push]\ndefaults:\n  run:\n    working-directory: ./web\njobs:\n  web:\n    runs-on: ubuntu-latest\n" +
		"    steps:\n      - uses: actions/checkout@v4\n      - run: npm test\n"
	cdBlock := "on: [push]\njobs:\n  web:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n" +
		"      - run: |\n          cd web\n          npm ci\n          npm test\n"
	gitlabBefore := "web:\n  before_script:\n    - cd web\n  script:\n    - npm test\n"
	for name, tc := range map[string]struct{ wf, dir string }{
		"run block that cds first": {cdBlock, "web"},
		"gitlab before_script cd":  {gitlabBefore, "web"},
		"job defaults":             {webJob, "web"},
		"step":                     {apiStep, "api"},
		"workflow defaults":        {wfDefaults, "web"},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{
				"README.md":          "# mono\n",
				"web/package.json":   `{"scripts": {"test": "node --test"}}`,
				"api/pyproject.toml": "[project]\nname = \"api\"\n\n[tool.pytest.ini_options]\npythonpath = [\"src\"]\n",
			}
			ci := ".github/workflows/ci.yml"
			if strings.HasPrefix(name, "gitlab") {
				ci = ".gitlab-ci.yml"
			}
			files[ci] = tc.wf
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
			if got.Command != "" && !strings.Contains(got.Command, tc.dir) {
				t.Fatalf("DetectTestCommand = %q (from %q): the CI runs it in %s/, the gate would run it in the root", got.Command, got.From, tc.dir)
			}
		})
	}
}
