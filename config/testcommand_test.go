package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestDetectTestCommand(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"nothing", map[string]string{"README.md": "# x\n"}, ""},
		{"go with tests", map[string]string{"go.mod": "module x\n", "pkg/a_test.go": "package pkg\n"}, "go test ./..."},
		{"go without tests", map[string]string{"go.mod": "module x\n", "main.go": "package main\n", "testdata/x_test.go": "package x\n"}, ""},
		{"npm placeholder", map[string]string{"package.json": `{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`}, ""},
		{"npm", map[string]string{"package.json": `{"scripts": {"test": "vitest run"}}`}, "npm test"},
		{"pnpm", map[string]string{"package.json": `{"scripts": {"test": "jest"}}`, "pnpm-lock.yaml": ""}, "pnpm test"},
		{"yarn", map[string]string{"package.json": `{"scripts": {"test": "jest"}}`, "yarn.lock": ""}, "yarn test"},
		{"package.json without scripts", map[string]string{"package.json": `{"devDependencies": {"markdownlint-cli2": "0.18.1"}}`}, ""},
		{"cargo", map[string]string{"Cargo.toml": "[package]\n"}, "cargo test"},
		{"pytest in pyproject", map[string]string{"pyproject.toml": "[project]\nname='x'\n\n[tool.pytest.ini_options]\n"}, "python3 -m pytest"},
		{"pyproject without pytest", map[string]string{"pyproject.toml": "[project]\nname='x'\n"}, ""},
		{"conftest", map[string]string{"conftest.py": ""}, "python3 -m pytest"},
		{"test script", map[string]string{"scripts/test.sh": "#!/bin/sh\n"}, "sh scripts/test.sh"},
		{"test folder's runner", map[string]string{"tests/run.sh": "#!/bin/sh\n"}, "sh tests/run.sh"},
		{"makefile wins", map[string]string{"Makefile": "build:\n\tgo build\n\ntest: build\n\tgo test ./...\n", "go.mod": "module x\n", "a_test.go": ""}, "make test"},
		{"makefile variable is not a target", map[string]string{"Makefile": "test := 1\n"}, ""},
		// Round 16 field pass (t7): shapes init found no command for, or
		// the wrong one.
		{"lowercase makefile", map[string]string{"makefile": "test:\n\tsh t.sh\n"}, "make test"},
		{"GNUmakefile", map[string]string{"GNUmakefile": "test:\n\tsh t.sh\n"}, "make test"},
		{"makefile check target", map[string]string{"Makefile": "all:\n\tcc x.c\ncheck: all\n\tsh t.sh\n"}, "make check"},
		{"makefile test wins over check", map[string]string{"Makefile": "check:\n\tsh lint.sh\ntest:\n\tsh t.sh\n"}, "make test"},
		{"makefile double-colon rule", map[string]string{"Makefile": "test::\n\tsh t.sh\n"}, "make test"},
		{"makefile CRLF", map[string]string{"Makefile": "test:\r\n\tsh t.sh\r\n"}, "make test"},
		{"makefile tests target is not test", map[string]string{"Makefile": "tests:\n\tsh t.sh\ncheckout:\n\tgit pull\n"}, ""},
		{"makefile check variable is not a target", map[string]string{"Makefile": "check := 1\n"}, ""},
		{"tox", map[string]string{"tox.ini": "[tox]\nenv_list = py312\n\n[testenv]\ndeps = pytest\ncommands = pytest {posargs}\n"}, "tox"},
		{"tox wins over its pytest section", map[string]string{"tox.ini": "[testenv]\ncommands = pytest\n\n[pytest]\naddopts = -q\n"}, "tox"},
		{"tox in pyproject", map[string]string{"pyproject.toml": "[tool.tox]\nenv_list = [\"py312\"]\n\n[tool.pytest.ini_options]\n"}, "tox"},
		{"tox.ini holding only other tools' sections", map[string]string{"tox.ini": "[flake8]\nmax-line-length = 100\n\n[pytest]\naddopts = -q\n"}, "python3 -m pytest"},
		{"nox", map[string]string{"noxfile.py": "import nox\n", "pyproject.toml": "[tool.pytest.ini_options]\n"}, "nox"},
		{"maven", map[string]string{"pom.xml": "<project/>\n"}, "mvn -B test"},
		{"maven wrapper", map[string]string{"pom.xml": "<project/>\n", "mvnw": "#!/bin/sh\n"}, "./mvnw -B test"},
		{"gradle wrapper", map[string]string{"build.gradle.kts": "", "gradlew": "#!/bin/sh\n"}, "./gradlew test"},
		{"gradle", map[string]string{"settings.gradle": ""}, "gradle test"},
		{"gradlew alone is no build", map[string]string{"gradlew": "#!/bin/sh\n"}, ""},
		{"several", map[string]string{"go.mod": "module x\n", "a_test.go": "", "package.json": `{"scripts": {"test": "jest"}}`}, "go test ./... && npm test"},
		{"pytest under uv", map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\n", "uv.lock": ""}, "uv run pytest"},
		{"pytest under poetry", map[string]string{"conftest.py": "", "poetry.lock": ""}, "poetry run pytest"},
		// The CI's own test step wins over every guess from files.
		{"github workflow", map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\n", ".github/workflows/ci.yml": "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: uv sync\n      - run: uv run ruff check .\n      - run: |\n          uv run pytest -q tests/\n"}, "uv run pytest -q tests/"},
		{"gitlab script list", map[string]string{"go.mod": "module x\n", "a_test.go": "", ".gitlab-ci.yml": "test:\n  script:\n    - go vet ./...\n    - go test -race ./...\n"}, "go test -race ./..."},
		{"workflow line with shell logic is no command", map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: pytest || true\n      - run: npm test -- --watch=false | tee out\n"}, ""},
		// The standard library's runner: a CI step running it was passed
		// over, and the project got no QA command at all.
		{"workflow runs unittest", map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: pip install -e .\n      - run: python3 -m unittest discover -s tests -t .\n"}, "python3 -m unittest discover -s tests -t ."},
		{"workflow runs a module named like unittest", map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: python -m unittest_report build\n"}, ""},
		{"workflow expression is no command", map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: go test ${{ matrix.pkg }}\n"}, ""},
		{"workflow with only a build falls back to files", map[string]string{"Cargo.toml": "[package]\n", ".github/workflows/ci.yml": "jobs:\n  b:\n    steps:\n      - run: cargo build --release\n"}, "cargo test"},
		{"broken workflow is skipped", map[string]string{"Cargo.toml": "[package]\n", ".github/workflows/ci.yml": "jobs: [\n"}, "cargo test"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, body := range tc.files {
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got := DetectTestCommand(root)
			if got.Command != tc.want {
				t.Fatalf("DetectTestCommand = %q (from %q), want %q", got.Command, got.From, tc.want)
			}
			if got.Command != "" && got.From == "" {
				t.Fatal("a command without what it was found from")
			}
		})
	}
}

// TestCITestCommandWhereAndTimeout: the command says where it was found,
// and the CI's timeout-minutes around it comes along.
func TestCITestCommandWhereAndTimeout(t *testing.T) {
	root := t.TempDir()
	wf := "on: push\njobs:\n  test:\n    timeout-minutes: 30\n    steps:\n      - run: make lint\n      - name: tests\n        run: make test\n"
	if err := os.MkdirAll(filepath.Join(root, ".github", "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".github", "workflows", "ci.yml"), []byte(wf), 0o644); err != nil {
		t.Fatal(err)
	}
	got := DetectTestCommand(root)
	if got.Command != "make test" || got.From != "the CI's own step, .github/workflows/ci.yml:8" || got.CITimeout != 30*time.Minute {
		t.Fatalf("got %+v", got)
	}
}
