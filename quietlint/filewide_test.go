package quietlint

import "testing"

// TestFileWide: the whole-file forms each linter documents, and the
// one-line or named-rule forms that are not whole-file (honest twins).
func TestFileWide(t *testing.T) {
	for _, c := range []struct {
		prog, file, body string
		wide             bool
	}{
		{"flake8", "a.py", "# flake8: noqa\nx=1\n", true},
		{"flake8", "a.py", "x=1\n#flake8:NOQA\n", true},
		{"flake8", "a.py", "# flake8= noqa\n", true},
		{"ruff", "a.py", "# ruff: noqa\n", true},
		{"ruff", "a.py", "# flake8: noqa\n", true},
		{"pylint", "a.py", "import os  # pylint: skip-file\n", true},
		{"pylint", "a.py", "# pylint: disable=all\n", true},
		{"pylint", "a.py", "\"\"\"doc.\"\"\"\nimport os  # pylint: disable=all\nx=1\n", true},
		{"eslint", "a.js", "/* eslint-disable */\nf();\n", true},
		{"eslint", "a.ts", "/*eslint-disable -- generated*/\n", true},
		{"shellcheck", "a.sh", "#!/bin/sh\n# shellcheck disable=all\n", true},
		{"golangci-lint", "a.go", "//nolint:all\npackage a\n", true},
		{"golangci-lint", "a.go", "package a //nolint\n", true},
		// Honest twins.
		{"flake8", "a.py", "x = 1  # noqa: E501\n", false},
		{"flake8", "a.py", "# flake8: noqa: E501\n", false},
		{"pylint", "a.py", "# pylint: disable=invalid-name\n", false},
		{"pylint", "a.py", "# flake8: noqa\n", false},
		{"eslint", "a.js", "/* eslint-disable no-console */\n", false},
		{"eslint", "a.js", "f(); // eslint-disable-line\n", false},
		{"eslint", "a.js", "/* eslint-disable-next-line */\n", false},
		{"shellcheck", "a.sh", "# shellcheck disable=SC2086\n", false},
		{"golangci-lint", "a.go", "package a\n\nfunc f() {} //nolint:all\n", false},
		{"flake8", "a.md", "# flake8: noqa\n", false},
		{"eslint", "a.js", "/* eslint-disable */\nconst x = require('x');\n/* eslint-enable */\nf();\n", false},
		{"pylint", "a.py", "def f():\n    # pylint: disable=all\n    return 1\n", false},
	} {
		if got := FileWide(c.prog, c.file, []byte(c.body)); (got != "") != c.wide {
			t.Errorf("FileWide(%s, %s, %q) = %q, want whole-file %v", c.prog, c.file, c.body, got, c.wide)
		}
	}
}

func TestLinters(t *testing.T) {
	for line, want := range map[string]string{
		"flake8 src && pylint src": "flake8,pylint",
		"python3 -m pylint a.py":   "pylint",
		"npx eslint src":           "eslint",
		"go test ./...":            "",
	} {
		got := ""
		for i, p := range Linters(line) {
			if i > 0 {
				got += ","
			}
			got += p
		}
		if got != want {
			t.Errorf("Linters(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestSameFile: a renamed file given a whole-file comment in the move is
// its old self; an unrelated new file is not (round 22).
func TestSameFile(t *testing.T) {
	const old = "import os\n\n\ndef f():\n    return os.sep\n"
	for _, tc := range []struct {
		name, new string
		want      bool
	}{
		{"renamed with flake8: noqa", "# flake8: noqa\n" + old, true},
		{"renamed, a line changed, eslint-disable", "/* eslint-disable */\nimport os\n\n\ndef f():\n    return os.sep + 'x'\n", true},
		{"unrelated generated file", "# flake8: noqa\nDESCRIPTOR = 1\nX = 2\n", false},
		{"empty", "", false},
	} {
		if got := SameFile([]byte(old), []byte(tc.new)); got != tc.want {
			t.Errorf("%s: SameFile = %v, want %v", tc.name, got, tc.want)
		}
	}
}
