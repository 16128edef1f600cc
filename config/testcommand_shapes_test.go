package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDetectTestCommandShapes: round-17 field pass (issue 25 item 10). Each
// row but the twins got no command, or one that fails honest QA, before.
func TestDetectTestCommandShapes(t *testing.T) {
	venv := map[string]string{".venv/pyvenv.cfg": "home = /usr/bin\n", "pyproject.toml": "[tool.pytest.ini_options]\n"}
	tests := []struct {
		name     string
		files    map[string]string
		want     string
		wantNote string // a substring of Note ("" for no note)
	}{
		// The gate's python3 is not the venv's: it lacks the packages.
		{"pytest in a venv", venv, "", "virtualenv"},
		{"pytest in a venv named venv", map[string]string{"venv/pyvenv.cfg": "", "conftest.py": ""}, "", "venv/"},
		{"venv under uv keeps uv run", map[string]string{".venv/pyvenv.cfg": "", "pyproject.toml": "[tool.pytest.ini_options]\n", "uv.lock": ""}, "uv run pytest", ""},
		{"a .venv folder without pyvenv.cfg is no venv", map[string]string{".venv/README": "", "conftest.py": ""}, "python3 -m pytest", ""},
		{"hatch environments", map[string]string{"pyproject.toml": "[tool.hatch.envs.default]\ndependencies = [\"pytest\"]\n\n[tool.pytest.ini_options]\n"}, "hatch test", ""},
		{"hatchling build only is not hatch", map[string]string{"pyproject.toml": "[tool.hatch.build.targets.wheel]\n\n[tool.pytest.ini_options]\n"}, "python3 -m pytest", ""},
		// pytest-only: tests and pytest in the requirements, no configuration.
		{"pytest-only with requirements", map[string]string{"requirements-dev.txt": "pytest==8.3\n", "tests/test_app.py": "def test_x(): pass\n"}, "python3 -m pytest", ""},
		{"pytest-only at the root", map[string]string{"pyproject.toml": "[project]\noptional-dependencies = {test = [\"pytest\"]}\n", "app_test.py": ""}, "python3 -m pytest", ""},
		{"test files without pytest named", map[string]string{"requirements.txt": "requests\n", "tests/test_app.py": ""}, "", ""},
		{"pytest named without test files", map[string]string{"requirements.txt": "pytest\n", "app.py": ""}, "", ""},
		{"go module in a subfolder", map[string]string{"svc/go.mod": "module x\n", "svc/a_test.go": "", "README.md": ""}, "go -C svc test ./...", ""},
		{"go module in a subfolder without tests", map[string]string{"svc/go.mod": "module x\n", "svc/main.go": ""}, "", ""},
		{"two go modules below: ambiguous", map[string]string{"a/go.mod": "module a\n", "a/a_test.go": "", "b/go.mod": "module b\n", "b/b_test.go": ""}, "", ""},
		{"pnpm workspace", map[string]string{"pnpm-workspace.yaml": "packages:\n  - packages/*\n", "package.json": `{"private": true}`, "pnpm-lock.yaml": ""}, "pnpm -r test", ""},
		{"pnpm workspace with a root test script", map[string]string{"pnpm-workspace.yaml": "packages: []\n", "package.json": `{"scripts": {"test": "vitest"}}`, "pnpm-lock.yaml": ""}, "pnpm test", ""},
		{"yarn berry", map[string]string{".yarnrc.yml": "nodeLinker: node-modules\n", "yarn.lock": "", "package.json": `{"scripts": {"test": "jest"}}`}, "yarn test", ""},
		{"deno", map[string]string{"deno.json": `{"tasks": {}}`}, "deno test", ""},
		{"deno jsonc", map[string]string{"deno.jsonc": "{}\n"}, "deno test", ""},
		{"elixir mix", map[string]string{"mix.exs": "defmodule X.MixProject do\nend\n"}, "mix test", ""},
		{"swift package", map[string]string{"Package.swift": "// swift-tools-version:5.9\n"}, "swift test", ""},
		{"dotnet solution", map[string]string{"App.sln": ""}, "dotnet test", ""},
		{"ruby rspec under bundler", map[string]string{"Gemfile": "source 'https://rubygems.org'\n", "spec/greet_spec.rb": ""}, "bundle exec rspec", ""},
		{"ruby rake test task", map[string]string{"Rakefile": "require 'rake/testtask'\nRake::TestTask.new(:test)\n"}, "rake test", ""},
		{"rakefile without a test task", map[string]string{"Rakefile": "task :build do\nend\n"}, "", ""},
		{"composer test script", map[string]string{"composer.json": `{"scripts": {"test": "phpunit"}}`, "phpunit.xml": ""}, "composer test", ""},
		{"phpunit from composer", map[string]string{"composer.json": `{"require-dev": {"phpunit/phpunit": "^10"}}`, "phpunit.xml.dist": ""}, "vendor/bin/phpunit", ""},
		{"phpunit from the system", map[string]string{"phpunit.xml": ""}, "phpunit", ""},
		{"two languages", map[string]string{"go.mod": "module x\n", "a_test.go": "", "mix.exs": ""}, "go test ./... && mix test", ""},
		// The CI's own step, in the shapes projects write it.
		{"workflow uv run with flags", map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: uv run --frozen pytest -q\n"}, "uv run --frozen pytest -q", ""},
		{"workflow poetry python -m pytest", map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: poetry run python -m pytest\n"}, "poetry run python -m pytest", ""},
		{"workflow deno", map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: deno test --allow-read\n"}, "deno test --allow-read", ""},
		{"workflow phpunit", map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: composer install\n      - run: vendor/bin/phpunit --testdox\n"}, "vendor/bin/phpunit --testdox", ""},
		{"workflow pnpm recursive", map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: pnpm -r test\n"}, "pnpm -r test", ""},
		{"workflow go in a subfolder", map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: go -C svc test ./...\n"}, "go -C svc test ./...", ""},
		{"workflow uv run with a value flag falls back", map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: uv run --with x pytest\n"}, "", ""},
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
			if tc.wantNote == "" && got.Note != "" || !strings.Contains(got.Note, tc.wantNote) {
				t.Fatalf("Note = %q, want one holding %q", got.Note, tc.wantNote)
			}
		})
	}
}
