package quietlint

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigCannotFailReal runs each installed linter for real on files
// with findings under a configuration file: the lazy config makes it exit
// 0 (so only ConfigCannotFail tells it from a clean run) and is found; the
// honest twin, a config a team writes, leaves it failing and is not.
// Rows marked home put the file in the user's home, which the linter
// reads when the project has none.
func TestConfigCannotFailReal(t *testing.T) {
	files := map[string]string{
		"bad.py":     "import os\nx=1;y=2\n",
		"src/bad.py": "import os\nx=1;y=2\n",
		"un.js":      "undefinedFn();\n",
		"bad.sh":     "#!/bin/sh\necho $1\ncd foo\n",
	}
	for _, c := range []struct {
		name, prog, file, lazy, honest, line string
		home                                 bool
	}{
		{"pylintrc exit-zero", "pylint", ".pylintrc", "[MAIN]\nexit-zero=yes\n", "[MAIN]\njobs=1\n", "pylint bad.py", false},
		{"pylintrc without dot, fail-under", "pylint", "pylintrc", "[MAIN]\nfail-under=-100\n", "[MAIN]\nfail-under=8\n", "pylint bad.py", false},
		{"pylintrc fail-under 0 (the score clamps at 0)", "pylint", ".pylintrc", "[MAIN]\nfail-under=0\n", "[MAIN]\nfail-under=8\n", "pylint bad.py", false},
		{"pylintrc constant evaluation", "pylint", ".pylintrc", "[MAIN]\nevaluation=10.0\n", "[MAIN]\nevaluation=10.0 - ((float(5 * error + warning + refactor + convention) / statement) * 10)\n", "pylint bad.py", false},
		{"pylintrc disable all, multi-line", "pylint", ".pylintrc", "[MESSAGES CONTROL]\ndisable=\n    C0114,\n    all\n", "[MESSAGES CONTROL]\ndisable=\n    C0114,\n    C0116\n", "pylint bad.py", false},
		{"pyproject tool.pylint", "pylint", "pyproject.toml", "[tool.pylint.main]\nexit-zero = true\n", "[tool.pylint.main]\njobs = 1\n", "python3 -m pylint bad.py", false},
		{"setup.cfg pylint section", "pylint", "setup.cfg", "[pylint.main]\nexit-zero=yes\n", "[pylint.main]\njobs=1\n", "pylint bad.py", false},
		{"rcfile named on the line", "pylint", "lint.rc", "[MAIN]\nexit-zero=yes\n", "[MAIN]\njobs=1\n", "pylint --rcfile=lint.rc bad.py", false},
		{"rcfile by an argparse prefix", "pylint", "lint.rc", "[MAIN]\nexit-zero=yes\n", "[MAIN]\njobs=1\n", "pylint --rcf=lint.rc bad.py", false},
		{"flake8 --conf prefix", "flake8", "f.cfg", "[flake8]\nextend-ignore = E,W,F\n", "[flake8]\nextend-ignore = E203\n", "flake8 --conf f.cfg bad.py", false},
		{"user's ~/.pylintrc", "pylint", ".pylintrc", "[MAIN]\nexit-zero=yes\n", "[MAIN]\njobs=1\n", "pylint bad.py", true},
		{".flake8 extend-ignore E,W,F,C", "flake8", ".flake8", "[flake8]\nextend-ignore = E,W,F,C\n", "[flake8]\nextend-ignore = E203\n", "flake8 bad.py", false},
		{"setup.cfg flake8 empty select", "flake8", "setup.cfg", "[flake8]\nselect =\n", "[flake8]\nselect = E,F,W\n", "flake8 bad.py", false},
		{"tox.ini flake8 ignore E W F", "flake8", "tox.ini", "[flake8]\nignore = E W F\n", "[flake8]\nignore = E501 W503\n", "flake8 bad.py", false},
		{"flake8 exclude everything", "flake8", ".flake8", "[flake8]\nexclude = *\n", "[flake8]\nexclude = build,.git\n", "flake8 bad.py", false},
		{"flake8 per-file-ignores", "flake8", ".flake8", "[flake8]\nper-file-ignores =\n    *.py: E,W,F\n", "[flake8]\nper-file-ignores =\n    tests/*.py: F401\n", "flake8 bad.py", false},
		{"pylintrc ignore-patterns .*", "pylint", ".pylintrc", "[MAIN]\nignore-patterns=.*\n", "[MAIN]\nignore-patterns=^\\.#\n", "pylint src", false},
		{"flake8 filename matching no Python file", "flake8", ".flake8", "[flake8]\nfilename = *.nomatch\n", "[flake8]\nfilename = *.py,*.pyi\n", "flake8 src", false},
		{"flake8 --append-config", "flake8", "extra.cfg", "[flake8]\nextend-ignore = E,W,F\n", "[flake8]\nextend-ignore = E203\n", "flake8 --append-config extra.cfg bad.py", false},
		{"eslint.config.js exporting []", "eslint", "eslint.config.js", "export default [];\n", "export default [{rules: {\"no-undef\": \"error\"}}];\n", "eslint un.js", false},
		{"eslint.config.mjs with only ignores", "eslint", "eslint.config.mjs", "// lint config\nexport default [{ignores: [\"**\"]}];\n", "export default [{ignores: [\"dist/**\"]}, {rules: {\"no-undef\": 2}}];\n", "eslint un.js", false},
		{"eslint.config.cjs with empty rules", "eslint", "eslint.config.cjs", "module.exports = [{ rules: {} }];\n", "module.exports = [{ rules: { 'no-undef': 'error' } }];\n", "npx eslint un.js", false},
		{".shellcheckrc disable=all", "shellcheck", ".shellcheckrc", "disable=all\n", "disable=SC2164\n", "shellcheck bad.sh", false},
		{".shellcheckrc SC1000-SC9999", "shellcheck", ".shellcheckrc", "disable=SC1000-SC9999\n", "disable=SC1091\n", "shellcheck bad.sh", false},
		{"user's ~/.shellcheckrc", "shellcheck", ".shellcheckrc", "disable=SC2000-SC2999\n", "disable=SC1091\n", "shellcheck bad.sh", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			bin := lookLinter(t, c.prog)
			if bin == "" {
				return
			}
			for _, lazy := range []bool{true, false} {
				dir, home := t.TempDir(), t.TempDir()
				for name, body := range files {
					write(t, filepath.Join(dir, name), body)
				}
				body := c.honest
				if lazy {
					body = c.lazy
				}
				at := dir
				if c.home {
					at = home
				}
				write(t, filepath.Join(at, c.file), body)
				args := strings.Fields(c.line)
				switch args[0] {
				case "python3":
					args = args[2:]
				case "npx":
					args = args[1:]
				}
				cmd := exec.Command(bin, args[1:]...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", "PYLINTHOME="+filepath.Join(home, ".pylint.d"))
				out, err := cmd.CombinedOutput()
				code := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatalf("%s: %v", c.line, err)
				}
				got := ConfigCannotFail(c.line, dir, dir, home, func(string) string { return "" })
				if lazy && (code != 0 || len(got) != 1) {
					t.Errorf("%s under %s %q: exit %d, found %v; want exit 0 and found\n%s", c.line, c.file, c.lazy, code, got, out)
				}
				if !lazy && (code == 0 || len(got) != 0) {
					t.Errorf("%s under %s %q (honest twin): exit %d, found %v; want a failing run, not found\n%s", c.line, c.file, c.honest, code, got, out)
				}
			}
		})
	}
}

func write(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestESLintSharedConfigReal (round 22): the team's eslint.config.js
// brings its rules in from a shared config, a local file or a package in
// node_modules; the agent empties that file, the config stays unchanged,
// and the real eslint exits 0 on an undefined name. The shared config is
// followed and found; the honest twin (the shared config keeps its rule)
// fails the run and is not found.
func TestESLintSharedConfigReal(t *testing.T) {
	bin, err := exec.LookPath("eslint")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("eslint is not installed (.ci/run installs it)")
		}
		t.Skip("eslint is not installed")
	}
	const rule = "{rules: {\"no-undef\": \"error\"}}"
	for _, c := range []struct {
		name, config, shared, lazy, honest string
		pkgJSON                            string // node_modules/eslint-config-team/package.json ("": main index.js)
	}{
		{"a local file imported", "import base from \"./lint/base.mjs\";\nexport default [base];\n", "lint/base.mjs", "export default {};\n", "export default " + rule + ";\n", ""},
		{"a local file spread", "import base from \"./lint/base.mjs\";\nexport default [...base];\n", "lint/base.mjs", "export default [];\n", "export default [" + rule + "];\n", ""},
		{"a package in node_modules", "import team from \"eslint-config-team\";\nexport default [...team];\n", "node_modules/eslint-config-team/index.js", "export default [];\n", "export default [" + rule + "];\n", ""},
		{"a shared config two levels down", "import base from \"./lint/base.mjs\";\nexport default [...base];\n", "lint/deep.mjs", "export default [];\n", "export default [" + rule + "];\n", ""},
		// Round 23: a package with an exports map (conditions in the file's
		// order, a subpath, a pattern).
		{"a package's exports map", "import team from \"eslint-config-team\";\nexport default [...team];\n", "node_modules/eslint-config-team/dist/index.js", "export default [];\n", "export default [" + rule + "];\n",
			`{"name": "eslint-config-team", "type": "module", "main": "index.js", "exports": {".": {"types": "./d.ts", "import": "./dist/index.js", "require": "./dist/index.cjs"}}}`},
		{"a package's first matching condition", "import team from \"eslint-config-team\";\nexport default [...team];\n", "node_modules/eslint-config-team/n.js", "export default [];\n", "export default [" + rule + "];\n",
			`{"name": "eslint-config-team", "type": "module", "exports": {"node": "./n.js", "import": "./index.js"}}`},
		{"a package's subpath export", "import strict from \"eslint-config-team/strict\";\nexport default [...strict];\n", "node_modules/eslint-config-team/lib/strict.js", "export default [];\n", "export default [" + rule + "];\n",
			`{"name": "eslint-config-team", "type": "module", "exports": {".": "./index.js", "./*": "./lib/*.js"}}`},
		// Round 24: a CommonJS config requires the package: Node takes the
		// require condition (the import one, read before, has the rules).
		{"cjs: a package's require condition", "const team = require(\"eslint-config-team\");\nmodule.exports = [...team];\n", "node_modules/eslint-config-team/dist/index.cjs", "module.exports = [];\n", "module.exports = [" + rule + "];\n",
			`{"name": "eslint-config-team", "type": "module", "exports": {".": {"import": "./index.js", "require": "./dist/index.cjs"}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, lazy := range []bool{true, false} {
				dir := t.TempDir()
				write(t, filepath.Join(dir, "un.js"), "undefinedFn();\n")
				cfg := "eslint.config.mjs"
				if strings.HasPrefix(c.name, "cjs:") {
					cfg = "eslint.config.cjs"
				}
				write(t, filepath.Join(dir, cfg), c.config)
				pj := c.pkgJSON
				if pj == "" {
					pj = "{\"name\": \"eslint-config-team\", \"type\": \"module\", \"main\": \"index.js\"}\n"
				} else {
					// The file the map does not name holds the rules: read
					// instead of the export, the lazy row would pass.
					write(t, filepath.Join(dir, "node_modules/eslint-config-team/index.js"), "export default ["+rule+"];\n")
				}
				write(t, filepath.Join(dir, "node_modules/eslint-config-team/package.json"), pj)
				if c.shared == "lint/deep.mjs" {
					write(t, filepath.Join(dir, "lint/base.mjs"), "import deep from \"./deep.mjs\";\nexport default [...deep];\n")
				}
				body := c.honest
				if lazy {
					body = c.lazy
				}
				write(t, filepath.Join(dir, c.shared), body)
				cmd := exec.Command(bin, "un.js")
				cmd.Dir = dir
				out, err := cmd.CombinedOutput()
				code := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				got := ConfigCannotFail("eslint un.js", dir, dir, t.TempDir(), nil)
				if lazy && (code != 0 || len(got) != 1 || len(got[0].Also) == 0 || got[0].Also[len(got[0].Also)-1] != filepath.Join(dir, c.shared)) {
					t.Errorf("lazy: exit %d, found %+v; want exit 0 and %s found\n%s", code, got, c.shared, out)
				}
				if !lazy && (code == 0 || len(got) != 0) {
					t.Errorf("honest: exit %d, found %+v; want a failing run, not found\n%s", code, got, out)
				}
			}
		})
	}
}
