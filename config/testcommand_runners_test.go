package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestDetectRecipeRunners: projects that test through a task runner, a
// build system or another CI (pass 27 c5, issue 25 item 10). Shapes from
// real projects (a justfile recipe with a parameter and uv, a Taskfile
// test task that only depends on another, pixi inline tables, mise
// tables, CircleCI's run: {command:}, Buildkite's commands:); each got a
// language guess beside the runner, or nothing, before.
func TestDetectRecipeRunners(t *testing.T) {
	goMod := map[string]string{"go.mod": "module x\n", "a_test.go": "package x\n"}
	with := func(m map[string]string, k, v string) map[string]string {
		out := map[string]string{k: v}
		for a, b := range m {
			out[a] = b
		}
		return out
	}
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"justfile recipe with a parameter", map[string]string{"Justfile": "lint:\n    uv run ruff check .\n\ntest python='':\n    uv run --group test pytest -x tests/\n", "pyproject.toml": "[tool.pytest.ini_options]\n"}, "just test"},
		{"justfile wins over go.mod", with(goMod, "justfile", "default:\n    @just --list\n\n# run the tests\ntest: build\n    go test -race ./...\n\nbuild:\n    go build ./...\n"), "just test"},
		{"justfile whose test recipe echoes", with(goMod, "justfile", "test:\n    @echo no tests yet\n"), "go test ./..."},
		{"justfile without a test recipe", with(goMod, "justfile", "build:\n    go build ./...\n"), "go test ./..."},
		{"taskfile test task", with(goMod, "Taskfile.yml", "version: '3'\n\ntasks:\n  deps:\n    cmds:\n      - go mod tidy\n  test:\n    desc: Run unit tests\n    cmds:\n      - go test -race ./...\n"), "task test"},
		{"taskfile test task through deps", with(goMod, "Taskfile.yaml", "version: '3'\ntasks:\n  test:\n    deps:\n      - go-test\n  go-test:\n    cmds:\n      - go test ./...\n"), "task test"},
		{"taskfile test task with no commands at all", with(goMod, "Taskfile.yml", "version: '3'\ntasks:\n  test:\n    deps: [noop]\n  noop:\n    cmds:\n      - echo ok\n"), "go test ./..."},
		{"mise task table", with(goMod, "mise.toml", "[tools]\ngo = \"1.23\"\n\n[tasks.test]\ndescription = \"run the tests\"\nrun = \"go test ./...\"\n"), "mise run test"},
		{"mise task string in .mise.toml", map[string]string{".mise.toml": "[tasks]\ntest = \"cargo test --workspace\"\n", "Cargo.toml": "[package]\n"}, "mise run test"},
		{"pixi inline task", map[string]string{"pixi.toml": "[workspace]\nname = \"x\"\nchannels = [\"conda-forge\"]\nplatforms = [\"linux-64\"]\n\n[tasks]\nconfigure = \"cmake -B build\"\nbuild = { cmd = \"cmake --build build\", depends-on = [\"configure\"] }\ntest = { cmd = \"ctest --test-dir build\", depends-on = [\"build\"] }\n"}, "pixi run test"},
		{"pixi tasks in pyproject", map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n\n[tool.pixi.tasks]\ntest = \"pytest -v\"\n\n[tool.pytest.ini_options]\n"}, "pixi run test"},
		{"pyproject without pixi tasks", map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n\n[tool.pytest.ini_options]\n"}, "python3 -m pytest"},
		{"bazel module", map[string]string{"MODULE.bazel": "module(name = \"x\")\n", "BUILD.bazel": ""}, "bazel test //..."},
		{"bazel workspace", map[string]string{"WORKSPACE": "", "BUILD": ""}, "bazel test //..."},
		{"earthfile test target", map[string]string{"Earthfile": "VERSION 0.8\nFROM golang:1.23\n\nbuild:\n    RUN go build ./...\n\ntest:\n    FROM +build\n    RUN go test ./...\n"}, "earthly +test"},
		// Other CI systems: their test step wins, as GitHub's does.
		{"circleci run with command", with(goMod, ".circleci/config.yml", "version: 2.1\njobs:\n  test:\n    docker:\n      - image: cimg/go:1.23\n    steps:\n      - checkout\n      - run:\n          name: Run tests\n          command: gotestsum -- ./...\n      - run: make test\n"), "make test"},
		{"buildkite commands", with(goMod, ".buildkite/pipeline.yml", "steps:\n  - label: \":go: test\"\n    commands:\n      - go vet ./...\n      - go test -race ./...\n    timeout_in_minutes: 45\n"), "go test -race ./..."},
		{"gitlab job names nox's session", map[string]string{"noxfile.py": "import nox\n", ".gitlab-ci.yml": "tests:\n  image: python:3.12\n  script:\n    - pip install nox\n    - nox -s tests-3.12\n"}, "nox -s tests-3.12"},
		{"workflow runs just test", map[string]string{"justfile": "test:\n    cargo test\n", ".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - uses: extractions/setup-just@v2\n      - run: just test\n"}, "just test"},
		{"workflow runs mise run test", map[string]string{"mise.toml": "[tasks.test]\nrun = \"pytest\"\n", ".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: mise run test\n"}, "mise run test"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := DetectTestCommand(writeTree(t, tc.files))
			if got.Command != tc.want {
				t.Fatalf("DetectTestCommand = %q (from %q), want %q", got.Command, got.From, tc.want)
			}
			if got.Command != "" && got.From == "" {
				t.Fatal("a command without what it was found from")
			}
		})
	}
}

// TestCITimeoutOtherCI: the timeout around the test step comes from
// GitLab's `timeout:` and Buildkite's `timeout_in_minutes:` too, so init
// warns when the suite may outlive command_timeout.
func TestCITimeoutOtherCI(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  time.Duration
	}{
		{"gitlab job timeout", map[string]string{".gitlab-ci.yml": "test:\n  timeout: 1h 30m\n  script:\n    - go test ./...\n"}, 90 * time.Minute},
		{"gitlab timeout in words", map[string]string{".gitlab-ci.yml": "test:\n  timeout: 3 hours\n  script:\n    - pytest\n"}, 3 * time.Hour},
		{"buildkite step timeout", map[string]string{".buildkite/pipeline.yml": "steps:\n  - command: just test\n    timeout_in_minutes: 45\n"}, 45 * time.Minute},
		{"no timeout", map[string]string{".gitlab-ci.yml": "test:\n  script:\n    - go test ./...\n"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := DetectTestCommand(writeTree(t, tc.files))
			if got.Command == "" || got.CITimeout != tc.want {
				t.Fatalf("got %+v, want a command with CITimeout %s", got, tc.want)
			}
		})
	}
}
