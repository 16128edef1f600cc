package quietlint

import (
	"path/filepath"
	"testing"
)

// TestConfigCannotFail: the linters not installable here (ruff,
// golangci-lint, markdownlint) by their documented settings, the lookup
// rules (upwards to the work tree and no further, --isolated, --norc,
// --no-config), and honest twins a team writes.
func TestConfigCannotFail(t *testing.T) {
	for _, c := range []struct {
		name, file, body, line string
		found                  bool
	}{
		{"ruff.toml select []", "ruff.toml", "[lint]\nselect = []\n", "ruff check .", true},
		{"pyproject tool.ruff.lint ignore ALL", "pyproject.toml", "[tool.ruff.lint]\nignore = [\"ALL\"]\n", "uv run ruff check src", true},
		{"pyproject tool.ruff select multi-line empty", "pyproject.toml", "[tool.ruff]\nselect = [\n]\n", "ruff check .", true},
		{"honest: ruff select E,F", "ruff.toml", "[lint]\nselect = [\"E\", \"F\"]\nignore = [\"E501\"]\n", "ruff check .", false},
		{"honest: ruff ALL minus some", "pyproject.toml", "[tool.ruff.lint]\nselect = [\"ALL\"]\nignore = [\"D\"]\n", "ruff check .", false},
		{"ruff --isolated reads nothing", "ruff.toml", "[lint]\nselect = []\n", "ruff check --isolated .", false},
		{".golangci.yml issues-exit-code 0", ".golangci.yml", "run:\n  issues-exit-code: 0\n", "golangci-lint run ./...", true},
		{".golangci.yaml disable-all, nothing enabled", ".golangci.yaml", "linters:\n  disable-all: true\n", "golangci-lint run", true},
		{".golangci.yml v2 default none", ".golangci.yml", "version: \"2\"\nlinters:\n  default: none\n", "golangci-lint run", true},
		{"honest: golangci disable-all with enable", ".golangci.yml", "linters:\n  disable-all: true\n  enable:\n    - govet\n    - errcheck\n", "golangci-lint run", false},
		{"honest: golangci issues-exit-code 1", ".golangci.yml", "run:\n  issues-exit-code: 1\n  timeout: 5m\n", "golangci-lint run", false},
		{"golangci --no-config", ".golangci.yml", "run:\n  issues-exit-code: 0\n", "golangci-lint run --no-config", false},
		{".markdownlint.json default false", ".markdownlint.json", "{\"default\": false}\n", "markdownlint '**/*.md'", true},
		{".markdownlint.yaml default false, rules off", ".markdownlint.yaml", "default: false\nMD013: false\n", "npx markdownlint-cli2 '**/*.md'", true},
		{".markdownlint-cli2.jsonc config default false", ".markdownlint-cli2.jsonc", "{\n  // quiet\n  \"config\": {\"default\": false}\n}\n", "markdownlint-cli2 '**/*.md'", true},
		{"honest: markdownlint default false with rules on", ".markdownlint.json", "{\"default\": false, \"MD001\": true, \"MD013\": {\"line_length\": 120}}\n", "markdownlint .", false},
		{"honest: markdownlint one rule off", ".markdownlint.json", "{\"MD013\": false}\n", "markdownlint .", false},
		{"legacy .eslintrc.json {}", ".eslintrc.json", "{}\n", "eslint src", true},
		{"legacy .eslintrc root only", ".eslintrc", "{ \"root\": true }\n", "eslint src", true},
		{"legacy package.json eslintConfig {}", "package.json", "{\"name\": \"x\", \"eslintConfig\": {\"env\": {\"node\": true}}}\n", "eslint src", true},
		{"honest: legacy extends recommended", ".eslintrc.json", "{\"extends\": \"eslint:recommended\"}\n", "eslint src", false},
		{"honest: flat config importing a shared config", "eslint.config.js", "import js from \"@eslint/js\";\nexport default [js.configs.recommended];\n", "eslint src", false},
		{"honest: a rule named only in a string", "eslint.config.js", "export default [{files: ['**/*.js'], rules: {semi: 'error'}}];\n", "eslint src", false},
		{"eslint -c names a file with no rules", "empty.mjs", "export default [];\n", "eslint -c empty.mjs src", true},
		{"eslint comment mentioning rules does not count", "eslint.config.js", "// rules: none, plugins: none\nexport default [];\n", "eslint src", true},
		{"flake8 --isolated reads nothing", ".flake8", "[flake8]\nextend-ignore = E,W,F\n", "flake8 --isolated src", false},
		{"flake8 select X (no built-in code)", ".flake8", "[flake8]\nselect = X\n", "flake8 src", true},
		{"honest: flake8 select B,E (plugin and built-in)", ".flake8", "[flake8]\nselect = B,E\n", "flake8 src", false},
		{"honest: flake8 ignore some E and W", "setup.cfg", "[flake8]\nignore = E203,W503\nmax-line-length = 100\n", "flake8 src", false},
		{"flake8 --config names the file", "lint/flake8.cfg", "[flake8]\nextend-ignore = E,W,F\n", "flake8 --config lint/flake8.cfg src", true},
		{"honest: pylint section in setup.cfg of another tool", "setup.cfg", "[metadata]\nname = x\n[tool:pytest]\naddopts = -q\n", "pylint src", false},
		{"honest: pylint disable all then enable", ".pylintrc", "[MESSAGES CONTROL]\ndisable=all\nenable=unused-import,undefined-variable\n", "pylint src", false},
		{"pylint exit-zero in pyproject with other tools", "pyproject.toml", "[project]\nname = \"x\"\n[tool.black]\nline-length = 100\n[tool.pylint.\"messages control\"]\ndisable = [\"C0114\"]\n[tool.pylint.main]\nexit_zero = true\n", "pylint src", true},
		{"honest: exit-zero under another tool's table", "pyproject.toml", "[tool.pylint.main]\njobs = 2\n[tool.other]\nexit-zero = true\n", "pylint src", false},
		{"shellcheck --norc", ".shellcheckrc", "disable=all\n", "shellcheck --norc a.sh", false},
		{"honest: shellcheck some SC2 codes", ".shellcheckrc", "disable=SC2034,SC2086\nexternal-sources=true\n", "shellcheck a.sh", false},
		{"not a linter", ".pylintrc", "[MAIN]\nexit-zero=yes\n", "python3 -m pytest", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, filepath.FromSlash(c.file)), c.body)
			got := ConfigCannotFail(c.line, dir, dir, t.TempDir(), nil)
			if (len(got) > 0) != c.found {
				t.Fatalf("%s under %s %q: found %v, want found %v", c.line, c.file, c.body, got, c.found)
			}
		})
	}
}

// TestConfigLookup: a config in the run's folder or above it inside the
// work tree is read; one above the work tree is outsideconfig's
// business; PYLINTRC and the user's files are read when the project has
// none, and a project config hides them.
func TestConfigLookup(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "repo")
	sub := filepath.Join(root, "pkg", "sub")
	home := t.TempDir()
	write(t, filepath.Join(sub, "a.sh"), "echo\n")
	write(t, filepath.Join(top, ".flake8"), "[flake8]\nextend-ignore = E,W,F\n")
	if got := ConfigCannotFail("flake8 .", sub, root, home, nil); len(got) != 0 {
		t.Errorf("a .flake8 above the work tree was read: %v", got)
	}
	write(t, filepath.Join(root, ".flake8"), "[flake8]\nextend-ignore = E,W,F\n")
	if got := ConfigCannotFail("flake8 .", sub, root, home, nil); len(got) != 1 || got[0].File != filepath.Join(root, ".flake8") {
		t.Errorf("the work tree's .flake8 above the run's folder: %v", got)
	}
	// `cd pkg/sub && pylint .` reads pkg/sub's config; so does a run from
	// the root naming a file there (shellcheck looks beside the script).
	write(t, filepath.Join(sub, ".shellcheckrc"), "disable=all\n")
	for _, line := range []string{"cd pkg/sub && shellcheck a.sh", "shellcheck pkg/sub/a.sh"} {
		if got := ConfigCannotFail(line, root, root, home, nil); len(got) != 1 || got[0].File != filepath.Join(sub, ".shellcheckrc") {
			t.Errorf("%s: %v", line, got)
		}
	}
	// A legacy .eslintrc cascades: a sub-folder's globals-only file sits
	// under the root's rules (honest); with `root: true` it stands alone.
	write(t, filepath.Join(root, ".eslintrc.yml"), "extends: eslint:recommended\nrules:\n  curly: 2\n")
	write(t, filepath.Join(sub, ".eslintrc.yml"), "globals:\n  it: false\n")
	if got := ConfigCannotFail("eslint a.js", sub, root, home, nil); len(got) != 0 {
		t.Errorf("a cascading .eslintrc under the root's rules: %v", got)
	}
	write(t, filepath.Join(sub, ".eslintrc.yml"), "root: true\nglobals:\n  it: false\n")
	if got := ConfigCannotFail("eslint a.js", sub, root, home, nil); len(got) != 1 {
		t.Errorf("a root .eslintrc with no rules: %v", got)
	}
	write(t, filepath.Join(home, "lazy.rc"), "[MAIN]\nexit-zero=yes\n")
	env := func(k string) string {
		if k == "PYLINTRC" {
			return filepath.Join(home, "lazy.rc")
		}
		return ""
	}
	if got := ConfigCannotFail("pylint x.py", sub, root, home, env); len(got) != 1 || got[0].File != filepath.Join(home, "lazy.rc") {
		t.Errorf("PYLINTRC: %v", got)
	}
	write(t, filepath.Join(sub, ".pylintrc"), "[MAIN]\njobs=1\n")
	if got := ConfigCannotFail("pylint x.py", sub, root, home, env); len(got) != 0 {
		t.Errorf("a project .pylintrc hides PYLINTRC: %v", got)
	}
}
