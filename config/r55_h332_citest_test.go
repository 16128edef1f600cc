package config

import (
	"os"
	"path/filepath"
	"testing"
)

func h332Detect(t *testing.T, file, wf string) TestCommand {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "m.go": "package m\n", "web/package.json": `{"scripts": {"test": "node --test"}}`, file: wf}
	for n, body := range files {
		p := filepath.Join(root, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return DetectTestCommand(root)
}

// TestR55H332CISubprojectLineTaken (helper 332): CI shapes that run npm test
// in web/ where init still writes npm test as the root's QA command.
// GitLab `extends: .web` (a hidden job holding `cd web`), open in round
// 55, is followed since round 56 (extendsSubfolder).
func TestR55H332CISubprojectLineTaken(t *testing.T) {
	for name, tc := range map[string]struct{ file, wf string }{
		"gitlab default before_script":    {".gitlab-ci.yml", "default:\n  before_script:\n    - cd web\n\ntest:\n  script:\n    - npm test\n"},
		"gitlab anchor merge":             {".gitlab-ci.yml", ".web: &web\n  before_script:\n    - cd web\n\ntest:\n  <<: *web\n  script:\n    - npm test\n"},
		"circleci step working_directory": {".circleci/config.yml", "version: 2.1\njobs:\n  test:\n    docker:\n      - image: cimg/node:20.0\n    steps:\n      - checkout\n      - run:\n          working_directory: web\n          command: npm test\n"},
		"circleci job working_directory":  {".circleci/config.yml", "version: 2.1\njobs:\n  test:\n    docker:\n      - image: cimg/node:20.0\n    working_directory: ~/project/web\n    steps:\n      - checkout\n      - run: npm test\n"},
		"travis before_install cd":        {".travis.yml", "language: node_js\nbefore_install:\n  - cd web\nscript:\n  - npm test\n"},
		"gitlab extends":                  {".gitlab-ci.yml", ".web:\n  before_script:\n    - cd web\n\ntest:\n  extends: .web\n  script:\n    - npm test\n"},
		"gitlab extends list, two levels": {".gitlab-ci.yml", ".base:\n  image: node:20\n.node:\n  extends: .web\n.web:\n  before_script:\n    - cd web\n\ntest:\n  extends: [.base, .node]\n  script:\n    - npm test\n"},
		"cd inside if":                    {".github/workflows/ci.yml", "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: |\n          if [ -d web ]; then cd web; fi\n          npm test\n"},
		"github env working dir":          {".github/workflows/ci.yml", "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: |\n          cd \"$GITHUB_WORKSPACE/web\"\n          npm test\n"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := h332Detect(t, tc.file, tc.wf); got.Command == "npm test" {
				t.Errorf("DetectTestCommand = %q (from %q): web/'s command taken for the root", got.Command, got.From)
			}
		})
	}
}

// TestR55H332CIRootLineLost (helper 332): the root's go test ./... after a
// cd that returns to the root, not found.
func TestR55H332CIRootLineLost(t *testing.T) {
	for name, tc := range map[string]struct{ file, wf string }{
		"gitlab extends without cd": {".gitlab-ci.yml", ".base:\n  image: golang:1.22\n  extends: .base\n\ntest:\n  extends: .base\n  script:\n    - go test ./...\n"},
		"cd toplevel":               {".github/workflows/ci.yml", "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: |\n          cd web && npm ci\n          cd \"$(git rev-parse --show-toplevel)\"\n          go test ./...\n"},
		"pushd quiet":               {".github/workflows/ci.yml", "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: |\n          pushd web > /dev/null\n          npm ci\n          popd > /dev/null\n          go test ./...\n"},
		"subshell cd":               {".github/workflows/ci.yml", "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: |\n          (cd web && npm ci)\n          go test ./...\n"},
		"cd dot slash":              {".gitlab-ci.yml", "test:\n  script:\n    - cd web\n    - npm ci\n    - cd ../\n    - go test ./...\n"},
		"cd project dir sub":        {".gitlab-ci.yml", "test:\n  script:\n    - cd web\n    - npm ci\n    - cd $CI_PROJECT_DIR\n    - go test ./...\n"},
		"working dir dot":           {".github/workflows/ci.yml", "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        working-directory: ./\n    steps:\n      - uses: actions/checkout@v4\n      - run: go test ./...\n"},
		"cd web then cd ~-":         {".gitlab-ci.yml", "test:\n  script:\n    - cd web; npm ci; cd ~-\n    - go test ./...\n"},
		"step cd to workspace var":  {".github/workflows/ci.yml", "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: |\n          cd web && npm ci\n          cd ${{ github.workspace }}\n          go test ./...\n"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := h332Detect(t, tc.file, tc.wf); got.Command != "go test ./..." || filepath.Base(got.From) == "go.mod" {
				t.Errorf("DetectTestCommand = %q (from %q): want the CI's root line go test ./...", got.Command, got.From)
			}
		})
	}
}
