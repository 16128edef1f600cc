package quietlint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScripts reads what a runner's target runs (round 22).
func TestScripts(t *testing.T) {
	files := map[string]string{
		"package.json":            `{"scripts": {"lint": "eslint --quiet --max-warnings 99999 .", "prelint": "flake8 src"}}`,
		"Makefile":                "VAR = x\n\nall: build\n\nbuild:\n\tgo build ./...\n\nlint check: build\n\t@flake8 \\\n\t  --exit-zero src\n\t-shellcheck x.sh\n\nLINTFLAGS ?=\nfl:\n\tflake8 $(LINTFLAGS) ${SRC}\nSRC := src\nall-lint:\n\t$(MAKE) fl\nLINTMK = lint.mk\nlint-f:\n\t$(MAKE) -f $(LINTMK) lint\n",
		"tox.ini":                 "[tox]\nenvlist = py3\n\n[testenv:lint]\ndeps = flake8\ncommands =\n    flake8 --extend-ignore=E,W {posargs}\n    - pylint src\n",
		"lint.mk":                 "lint:\n\tflake8 --exit-zero src\n",
		"sub/ci.mk":               "lint:\n\tpylint src\n",
		"alt.yaml":                "repos:\n- repo: local\n  hooks:\n  - id: flake8\n    entry: flake8\n    language: system\n    args: [--exit-zero]\n",
		"other.ini":               "[testenv]\ncommands = flake8 --exit-zero {posargs:src}\n\n[testenv:lint]\ncommands = {[testenv]commands}\n    pylint src\n\n[testenv:inh]\ndeps = flake8\n",
		".pre-commit-config.yaml": "repos:\n- repo: https://github.com/PyCQA/flake8\n  rev: 7.0.0\n  hooks:\n  - id: flake8\n    args: [--disable-noqa, \"--extend-ignore=F401\"]\n- repo: local\n  hooks:\n  - id: check-yaml\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  hooks:\n  - id: ruff\n  - id: ruff-format\n",
	}
	root := t.TempDir()
	for f, b := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ line, want string }{
		{"npm run lint", "flake8 src && eslint --quiet --max-warnings 99999 ."},
		{"yarn lint", "flake8 src && eslint --quiet --max-warnings 99999 ."},
		{"pnpm run lint -- --fix", "flake8 src && eslint --quiet --max-warnings 99999 . --fix"},
		{"make fl", "flake8 src"},
		{"make fl LINTFLAGS=--exit-zero", "flake8 --exit-zero src"},
		{"LINTFLAGS=--exit-zero make fl", "flake8 --exit-zero src"},
		{"SRC=tests make fl", "flake8 src"},
		{"make all-lint", "make fl"}, // followed by the caller as a call of its own // SRC := in the Makefile overrides the environment
		{"make check", "go build ./... && flake8 --exit-zero src && shellcheck x.sh"},
		{"make", "go build ./..."},
		{"tox -e lint", "flake8 --extend-ignore=E,W && pylint src"},
		{"pre-commit run --all-files", "flake8 --disable-noqa --extend-ignore=F401 && ruff check"},
		{"pre-commit run check-yaml", ""},
		{"yarn eslint src", ""},
		{"npm test", ""},
		// Round 22: what the call adds to the script.
		{"npm run lint -- --exit-zero", "flake8 src && eslint --quiet --max-warnings 99999 . --exit-zero"},
		{"yarn lint --no-config-lookup", "flake8 src && eslint --quiet --max-warnings 99999 . --no-config-lookup"},
		{"make lint LINTFLAGS=--exit-zero", "go build ./... && flake8 --exit-zero src && shellcheck x.sh"},
		// Round 23: a file named on the line is the one run; tox's
		// substitutions and inherited [testenv].
		{"make -f lint.mk lint", "flake8 --exit-zero src"},
		{"make --file=lint.mk", "flake8 --exit-zero src"},
		{"make -C sub -f ci.mk lint", "pylint src"},
		{"make -f missing.mk lint", ""},
		{"pre-commit run -c alt.yaml --all-files", "flake8 --exit-zero"},
		{"pre-commit run --config=alt.yaml flake8", "flake8 --exit-zero"},
		{"tox -c other.ini -e lint", "flake8 --exit-zero src && pylint src"},
		{"tox -c other.ini -e inh", "flake8 --exit-zero src"},
		{"tox -c other.ini -e inh -- tests", "flake8 --exit-zero tests"},
		{"tox -e lint -- --exit-zero", "flake8 --extend-ignore=E,W --exit-zero && pylint src"},
		// Round 24: the -f file named through a variable.
		{"F=lint.mk make -f $F lint", "flake8 --exit-zero src"},
		{"F=lint.mk; make -f \"$F\" lint", "flake8 --exit-zero src"},
		{"export F=lint.mk && make --file=${F} lint", "flake8 --exit-zero src"},
		{"make lint-f", "make -f lint.mk lint"},
		{"F=sub/ci.mk make -f $F lint", "pylint src"},
		{"make -f $F lint", ""}, // unset here: Unread (TestScriptsUnread)
	} {
		var got []string
		for _, s := range Scripts(tc.line, root, root) {
			got = append(got, s.Lines...)
		}
		if g := strings.Join(got, " && "); g != tc.want {
			t.Errorf("%s: runs %q, want %q", tc.line, g, tc.want)
		}
	}
}

// TestScriptsUnread: a make file named by a variable the line does not
// set is not read as the folder's Makefile (round 24); one the line sets
// is read.
func TestScriptsUnread(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "lint.mk"), []byte("lint:\n\tflake8 --exit-zero src\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		line   string
		unread bool
	}{
		{"make -f $F lint", true},
		{"make --file=${LINTMK} lint", true},
		{"make -f \"$F\" lint", true},
		{"F=lint.mk make -f $F lint", false},
		{"make -f lint.mk lint", false},
		{"make lint", false},
	} {
		unread := false
		for _, s := range Scripts(tc.line, root, root) {
			unread = unread || s.Unread != ""
		}
		if unread != tc.unread {
			t.Errorf("%s: unread=%v, want %v", tc.line, unread, tc.unread)
		}
	}
}

// TestLoosened: a lint script changed to let more pass is looser; a
// tightening pass is not.
func TestLoosened(t *testing.T) {
	for _, tc := range []struct {
		start, now string
		loose      bool
	}{
		{"eslint --max-warnings 0 .", "eslint --quiet --max-warnings 99999 .", true},
		{"eslint --max-warnings 0 .", "eslint .", true},
		{"flake8 src", "flake8 --extend-ignore=E,W,F src", true},
		{"flake8 src tests", "flake8 src", true},
		{"pylint --fail-under=9 src", "pylint --fail-under=5 src", true},
		{"flake8 src && pylint src", "flake8 src", true},
		{"shellcheck *.sh", "shellcheck -S error *.sh", true},
		// Honest: tightening.
		{"eslint .", "eslint --max-warnings 0 .", false},
		{"flake8 src", "flake8 --max-line-length 79 --extend-select B src tests", false},
		{"pylint --fail-under=5 src", "pylint --fail-under=9 src", false},
		{"flake8 src", "flake8 src && pylint src", false},
		{"ruff check src", "ruff check --select ALL src", false},
		{"flake8 src", "flake8 .", false},
		{"flake8 src/a src/b", "flake8 src", false},
		{"eslint src", "eslint", false},
		{"flake8 src", "ruff check src", false}, // pallets/flask 54e05a2: a tool swapped, not dropped
	} {
		if got := Loosened([]string{tc.start}, strings.Split(tc.now, " && ")); (got != "") != tc.loose {
			t.Errorf("%q -> %q: loosened %q, want %v", tc.start, tc.now, got, tc.loose)
		}
	}
}
