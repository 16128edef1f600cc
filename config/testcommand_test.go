package config

import (
	"os"
	"path/filepath"
	"testing"
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
		{"makefile wins", map[string]string{"Makefile": "build:\n\tgo build\n\ntest: build\n\tgo test ./...\n", "go.mod": "module x\n", "a_test.go": ""}, "make test"},
		{"makefile variable is not a target", map[string]string{"Makefile": "test := 1\n"}, ""},
		{"several", map[string]string{"go.mod": "module x\n", "a_test.go": "", "package.json": `{"scripts": {"test": "jest"}}`}, "go test ./... && npm test"},
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
