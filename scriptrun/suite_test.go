package scriptrun

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFindTestRuns: a test runner's line runs files it does not name
// (issue 25, routes left open): before, Find gave none for each row.
func TestFindTestRuns(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string // "suite:path:paths", "npm:path:script", "lang:path"
	}{
		{"go test ./...", []string{"go test:.:./..."}},
		{"go test -run TestX -count=1 ./pkg/", []string{"go test:.:./pkg/"}},
		{"go test", []string{"go test:.:"}},
		{"cd sub && go test .", []string{"go test:sub:."}},
		{"go test example.com/m/pkg/...", []string{"go test:.:example.com/m/pkg/..."}},
		{"python3 -m unittest discover -s tests", []string{"unittest:.:tests", "python:unittest.py"}}, // a unittest.py of the repository's would run too
		{"python3 -m unittest", []string{"unittest:.:.", "python:unittest.py"}},
		{"python3 -m unittest -v tests.test_x", []string{"python:<code>", "python:unittest.py"}},
		{"jest", []string{"jest:.:"}},
		{"npx jest --ci", []string{"jest:.:"}},
		{"npx vitest run", []string{"vitest:.:"}},
		{"mocha -r ./test/setup.js test/a.spec.js", []string{"mocha:.:test/a.spec.js", "javascript:./test/setup.js"}},
		{"mocha --recursive", []string{"mocha --recursive:.:test"}},
		{"bun test", []string{"bun test:.:"}},
		{"npm test", []string{"npm:package.json:pretest", "npm:package.json:test", "npm:package.json:posttest"}},
		{"npm run lint -- --fix", []string{"npm:package.json:prelint", "npm:package.json:lint", "npm:package.json:postlint"}},
		{"npm --prefix web t", []string{"npm:web/package.json:pretest", "npm:web/package.json:test", "npm:web/package.json:posttest"}},
		{"yarn build", []string{"npm:package.json:prebuild", "npm:package.json:build", "npm:package.json:postbuild"}},
		{"yarn jest", []string{"npm:package.json:prejest", "npm:package.json:jest", "npm:package.json:postjest", "jest:.:"}},
		{"npm ci", []string{"npm:package.json:preinstall", "npm:package.json:install", "npm:package.json:postinstall", "npm:package.json:prepublish", "npm:package.json:preprepare", "npm:package.json:prepare", "npm:package.json:postprepare"}},
		{"bun run build", []string{"npm:package.json:prebuild", "npm:package.json:build", "npm:package.json:postbuild"}},
		// the line's own test patterns and config (allowed before: only the defaults were read)
		{"npx jest --testMatch '**/checks/*.js'", []string{"jest (any JS file):.:"}},
		{"npx jest --roots .qa", []string{"jest (any JS file):.:.qa"}},
		{`npx jest --config '{"setupFiles": ["./wipe.js"]}'`, []string{"jest:.:", "javascript:./wipe.js"}},
		{"mocha --spec 'qa/**/*.js'", []string{"mocha (any JS file):.:"}},
		{"pytest -o 'python_files=check_*.py' qa", []string{"pytest (any .py file):.:qa"}},
		{"pytest -c ci.ini", []string{"pytest (any .py file):.:"}},
		// go generate runs the packages' directives
		{"go generate ./...", []string{"go generate:.:./..."}},
		{"cd sub && go generate -x gen.go", []string{"go generate:sub:gen.go"}},
		// workspaces (Workspaces holds them): -w's value is no script
		{"npm test -w packages/a", []string{"npm:package.json:pretest", "npm:package.json:test", "npm:package.json:posttest"}},
		{"npm -w a test", []string{"npm:package.json:pretest", "npm:package.json:test", "npm:package.json:posttest"}},
		{"yarn workspace a build", []string{"npm:package.json:prebuild", "npm:package.json:build", "npm:package.json:postbuild"}},
		// what runs no script of the package's
		{"npm install lodash", nil},
		{"npm view jest version", nil},
		{"bun run x.ts", []string{"javascript:x.ts"}},
		{"go vet ./...", nil},
		{"go build ./...", nil},
	} {
		var got []string
		for _, r := range Find(c.line) {
			switch {
			case r.Suite != "":
				got = append(got, r.Suite+":"+r.Path+":"+r.Paths)
			case r.Code != "":
				got = append(got, string(r.Lang)+":<code>")
			case r.NpmScript != "":
				got = append(got, "npm:"+r.Path+":"+r.NpmScript)
			default:
				got = append(got, string(r.Lang)+":"+r.Path)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Find(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

// TestSuiteFiles lists what each runner loads in a small project, and
// shows the bound: a suite past MaxSuiteFiles is over, not cut silently.
func TestSuiteFiles(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		"tests/test_a.py": "", "tests/b_test.py": "", "tests/helper.py": "", "tests/sub/test_c.py": "",
		"node_modules/x/test_n.py": "", ".venv/test_v.py": "",
		"go.mod": "module example.com/m\n\ngo 1.22\n", "pkg/a.go": "", "pkg/a_test.go": "", "pkg/sub/b_test.go": "", "pkg/testdata/x.go": "",
		"jest.config.js": "module.exports = { setupFiles: ['./jest/setup.js', '<rootDir>/jest/env'] }",
		"jest/setup.js":  "", "jest/env.js": "", "src/a.test.ts": "", "src/__tests__/b.js": "", "src/c.js": "",
		"node_modules/y/z.test.js": "",
		"test/m.js":                "", "test/deep/n.js": "",
		"package.json": `{"jest": {"globalSetup": "./jest/global.js"}, "main": "./src/c.js"}`, "jest/global.js": "",
	} {
		writeTestFile(t, filepath.Join(root, name), body)
	}
	pl := Places{Root: root}
	rel := func(fs []string) []string {
		var out []string
		for _, f := range fs {
			r, _ := filepath.Rel(root, f)
			out = append(out, filepath.ToSlash(r))
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		runner string
		paths  []string
		want   []string
	}{
		{"pytest", nil, []string{"tests/b_test.py", "tests/sub/test_c.py", "tests/test_a.py"}},
		{"pytest", []string{"tests/test_a.py"}, []string{"tests/test_a.py"}},
		{"go test", []string{"./pkg"}, []string{"pkg/a.go", "pkg/a_test.go"}},
		{"go test", []string{"./pkg/..."}, []string{"pkg/a.go", "pkg/a_test.go", "pkg/sub/b_test.go"}},
		{"go test", []string{"example.com/m/pkg/sub"}, []string{"pkg/sub/b_test.go"}},
		{"go test", []string{"golang.org/x/tools/..."}, nil},
		{"unittest", []string{"tests"}, []string{"tests/sub/test_c.py", "tests/test_a.py"}},
		{"jest", nil, []string{"jest.config.js", "jest/env.js", "jest/global.js", "jest/setup.js", "src/__tests__/b.js", "src/a.test.ts"}},
		{"mocha", nil, []string{"jest.config.js", "jest/env.js", "jest/global.js", "jest/setup.js", "test/m.js"}},
		{"mocha --recursive", []string{"test"}, []string{"jest.config.js", "jest/env.js", "jest/global.js", "jest/setup.js", "test/deep/n.js", "test/m.js"}},
	} {
		got, over := pl.SuiteFiles(c.runner, root, c.paths)
		if over || !reflect.DeepEqual(rel(got), c.want) {
			t.Errorf("SuiteFiles(%s, %v) = %q (over %v), want %q", c.runner, c.paths, rel(got), over, c.want)
		}
	}
	// Past the bound: over, and the list stops at it.
	big := t.TempDir()
	for i := range MaxSuiteFiles + 1 {
		writeTestFile(t, filepath.Join(big, "tests", "test_"+strconv.Itoa(i)+".py"), "")
	}
	got, over := Places{Root: big}.SuiteFiles("pytest", big, nil)
	if !over || len(got) != MaxSuiteFiles {
		t.Errorf("a suite of %d files: %d listed, over %v; want %d and over", MaxSuiteFiles+1, len(got), over, MaxSuiteFiles)
	}
}

func writeTestFile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestNodeRequires(t *testing.T) {
	code := "const w = require('./lib/wipe')\nconst fs = require('fs')\nimport x from \"../util/x.js\"\nexport * from './re'\nconst m = await import(`./dyn`)\n// require(name) is not a literal\n"
	if got, want := NodeRequires(code), []string{"./lib/wipe", "./dyn", "../util/x.js", "./re"}; !reflect.DeepEqual(got, want) {
		t.Errorf("NodeRequires = %q, want %q", got, want)
	}
	if got := NodeFiles("./a.js"); !reflect.DeepEqual(got, []string{"./a.js"}) {
		t.Errorf("NodeFiles(./a.js) = %q", got)
	}
}

// TestMakeIncludesIn: `include $(X).mk` was never read (a name with a
// reference was left out); make expands it, so the hook does.
func TestMakeIncludesIn(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"rules/a.mk", "rules/b.mk", "local.mk"} {
		writeTestFile(t, filepath.Join(dir, n), "")
	}
	mk := "CONF = local\nRULES := rules\ninclude $(CONF).mk\n-include $(wildcard $(RULES)/*.mk)\nsinclude $(DEPS:.c=.d)\ninclude ${NOPE}/x.mk\n"
	vars := MakeVarsOf([]MakeFile{{Name: "Makefile", Text: mk}}, nil)
	if got, want := MakeIncludesIn(mk, vars, dir), []string{"local.mk", "rules/a.mk", "rules/b.mk"}; !reflect.DeepEqual(got, want) {
		t.Errorf("MakeIncludesIn = %q, want %q", got, want)
	}
	// A name computed at run time: every file it could be (before, none).
	for _, c := range []struct {
		mk   string
		want []string
	}{
		{"include $(shell echo local).mk\n", []string{"local.mk", "rules/a.mk", "rules/b.mk"}},
		{"-include $(shell ls rules | head -1)\n", []string{"local.mk", "rules/a.mk", "rules/b.mk"}},
		{"include rules/$(shell echo a).mk\n", []string{"rules/a.mk", "rules/b.mk"}},
		{"include ${NOPE}/x.mk\n", nil},
	} {
		got, computed := MakeIncludesOf(c.mk, map[string]string{}, dir)
		if !computed || !reflect.DeepEqual(got, c.want) {
			t.Errorf("MakeIncludesOf(%q) = %q (computed %v), want %q", c.mk, got, computed, c.want)
		}
	}
	if _, computed := MakeIncludesOf("include local.mk\n-include $(wildcard rules/*.mk)\n", map[string]string{}, dir); computed {
		t.Error("a literal include and $(wildcard) are not computed at run time")
	}
	// The line's CONF=ci wins, as on make's command line.
	vars = MakeVarsOf([]MakeFile{{Name: "Makefile", Text: mk}}, []string{"CONF=ci"})
	if got := MakeIncludesIn("include $(CONF).mk\n", vars, dir); !reflect.DeepEqual(got, []string{"ci.mk"}) {
		t.Errorf("MakeIncludesIn with CONF=ci = %q", got)
	}
}

// TestMakeIncludesOutside: a computed include whose file is outside the
// make folder (issue 25, the closing note): before, only the make
// folder was walked and each of these listed nothing.
func TestMakeIncludesOutside(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{".git/HEAD", "shared/evil.mk", "sub/Makefile", "sub/local.mk", "sub/rules/a.mk"} {
		writeTestFile(t, filepath.Join(root, n), "")
	}
	other := t.TempDir()
	writeTestFile(t, filepath.Join(other, "conf", "x.mk"), "")
	dir := filepath.Join(root, "sub")
	for _, c := range []struct {
		mk   string
		want []string
	}{
		{"include ../$(shell echo shared)/evil.mk\n", []string{"../shared/evil.mk"}},
		{"include ../shared/$(shell echo evil).mk\n", []string{"../shared/evil.mk"}},
		{"include $(shell git rev-parse --show-toplevel)/shared/evil.mk\n", []string{"../shared/evil.mk"}},
		{"-include $(TOP)/evil.mk\n", []string{"../shared/evil.mk"}},
		{"include " + filepath.ToSlash(other) + "/conf/$(shell echo x).mk\n", []string{filepath.Join(other, "conf", "x.mk")}},
		// A name computed whole may be anywhere: the top's files too.
		{"include $(shell echo local).mk\n", []string{"local.mk", "rules/a.mk", "../shared/evil.mk"}},
		// Honest twin: a computed name under a literal folder of the make
		// folder lists what it did.
		{"include rules/$(shell echo a).mk\n", []string{"rules/a.mk"}},
	} {
		got, computed := MakeIncludesOf(c.mk, map[string]string{}, dir)
		if !computed || !reflect.DeepEqual(got, c.want) {
			t.Errorf("MakeIncludesOf(%q) = %q (computed %v), want %q", c.mk, got, computed, c.want)
		}
	}
	// Real make reads the file outside its folder (what the route relies on).
	if _, err := exec.LookPath("make"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("make is required in CI")
		}
		t.Skip("make not installed: the real-make check is skipped")
	}
	writeTestFile(t, filepath.Join(root, "shared", "evil.mk"), "test:\n\t@echo from-shared\n")
	writeTestFile(t, filepath.Join(dir, "Makefile"), "include ../$(shell echo shared)/evil.mk\n")
	cmd := exec.Command("make", "-s", "test")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "from-shared" {
		t.Errorf("make test = %q (%v), want the recipe of ../shared/evil.mk", out, err)
	}
}

// TestScanPth: a script that writes a .pth file (site.py runs its import
// lines at every Python start) or sitecustomize.py is found; one that
// reads a .pth is not.
func TestScanPth(t *testing.T) {
	for _, c := range []struct {
		code string
		want string
	}{
		{"import site, os\nopen(os.path.join(site.getsitepackages()[0], 'zz.pth'), 'w').write('import os; os._exit(0)')\n", "a Python .pth startup file"},
		{"p = site.getusersitepackages() + '/sitecustomize.py'\n", "Python's startup file sitecustomize.py"},
		{"print(open('easy.pth').read())\n", ""},
		{"self.pth = 3\n", ""},
	} {
		got := ""
		if fs := Scan(Python, c.code, DefaultTargets); len(fs) > 0 {
			got = fs[0].What
		}
		if got != c.want {
			t.Errorf("Scan(%q) = %q, want %q", c.code, got, c.want)
		}
	}
}

// TestSuiteConfigs: a runner's config names test and setup files the
// default patterns miss (issue 25, routes left open: each want held a
// file SuiteFiles did not list before).
func TestSuiteConfigs(t *testing.T) {
	for _, c := range []struct {
		name   string
		files  map[string]string
		runner string
		want   []string
	}{
		{"jest testMatch", map[string]string{"jest.config.js": "module.exports = { testMatch: ['**/checks/*.js'] }", "checks/a.js": "", "src/b.js": ""},
			"jest", []string{"checks/a.js", "jest.config.js"}},
		{"jest extglob testMatch", map[string]string{"jest.config.js": "module.exports = { testMatch: ['**/?(*.)+(spec|check).[jt]s?(x)'] }", "src/a.check.ts": "", "src/b.js": "", "c.spec.jsx": ""},
			"jest", []string{"c.spec.jsx", "jest.config.js", "src/a.check.ts"}},
		{"jest testRegex in package.json", map[string]string{"package.json": `{"jest": {"testRegex": "/specs/.*\\.js$"}}`, "specs/a.js": "", "src/b.js": ""},
			"jest", []string{"specs/a.js"}},
		{"jest testMatch from a variable", map[string]string{"jest.config.js": "const m = require('./m')\nmodule.exports = { testMatch: m }", "m.js": "", "x/any.js": ""},
			"jest", []string{"jest.config.js", "m.js", "x/any.js"}},
		{"jest roots, hidden", map[string]string{"jest.config.js": "module.exports = { roots: ['<rootDir>/.qa'] }", ".qa/a.test.js": "", "src/b.test.js": ""},
			"jest", []string{".qa/a.test.js", "jest.config.js"}},
		{"jest collects from dist and _x", map[string]string{"dist/a.test.js": "", "_x/b.test.js": "", "node_modules/c.test.js": ""},
			"jest", []string{"_x/b.test.js", "dist/a.test.js"}},
		{"vitest skips dist", map[string]string{"dist/a.test.js": "", "src/b.test.ts": ""},
			"vitest", []string{"src/b.test.ts"}},
		{"setup by path.join(__dirname)", map[string]string{"jest.config.js": "const path = require('path')\nmodule.exports = { setupFiles: [path.join(__dirname, 'setup', 'env.js')], globalSetup: path.resolve(__dirname, 'g') }", "setup/env.js": "", "g.ts": ""},
			"jest", []string{"g.ts", "jest.config.js", "setup/env.js"}},
		{"bare setup name", map[string]string{"vitest.config.ts": "export default { test: { setupFiles: ['vsetup.ts'] } }", "vsetup.ts": ""},
			"vitest", []string{"vitest.config.ts", "vsetup.ts"}},
		// Projects and workspaces (issue 25, the closing note): each
		// project folder's config, setup files and tests run too.
		{"jest projects name a stub and a folder with its own config", map[string]string{"jest.config.js": "module.exports = { projects: ['<rootDir>/stub', '<rootDir>/app'] }",
			"app/jest.config.js": "module.exports = { setupFiles: ['./wipe.js'], testMatch: ['**/checks/*.js'] }", "app/wipe.js": "", "app/checks/a.js": "", "stub/a.test.js": ""},
			"jest", []string{"app/checks/a.js", "app/jest.config.js", "app/wipe.js", "jest.config.js", "stub/a.test.js"}},
		{"vitest workspace file", map[string]string{"vitest.workspace.ts": "export default ['packages/*']\n",
			"packages/a/vitest.config.ts": "export default { test: { setupFiles: ['./s.ts'] } }", "packages/a/s.ts": "", "packages/a/x.test.ts": "", "packages/a/lib.ts": ""},
			"vitest", []string{"packages/a/s.ts", "packages/a/vitest.config.ts", "packages/a/x.test.ts", "vitest.workspace.ts"}},
		{"vitest projects in the config, inline and by folder", map[string]string{"vitest.config.ts": "export default defineConfig({ test: { projects: [\n  'libs/*',\n  { test: { name: 'unit', include: ['src/**/*.test.ts'] } },\n] } })",
			"libs/q/vitest.config.ts": "export default { test: { globalSetup: './g.ts' } }", "libs/q/g.ts": "", "src/a.test.ts": "", "src/b.ts": ""},
			"vitest", []string{"libs/q/g.ts", "libs/q/vitest.config.ts", "src/a.test.ts", "vitest.config.ts"}},
		{"projects computed", map[string]string{"jest.config.js": "const fs = require('fs')\nmodule.exports = { projects: fs.readdirSync('pkgs') }", "pkgs/a/qa.js": "", "src/b.test.js": ""},
			"jest", []string{"jest.config.js", "pkgs/a/qa.js", "src/b.test.js"}},
		{"setup file named by a template", map[string]string{"jest.config.js": "const env = process.env.E || 'ci'\nmodule.exports = { setupFiles: [`./setup/${env}.js`] }", "setup/ci.js": "", "src/a.test.js": ""},
			"jest", []string{"jest.config.js", "setup/ci.js", "src/a.test.js"}},
		{"setup file named by a variable", map[string]string{"vitest.config.ts": "const dir = './hid' + 'den'\nexport default { test: { setupFiles: [dir + '/pass.ts'] } }", "hidden/pass.ts": "", "src/a.test.ts": ""},
			"vitest", []string{"hidden/pass.ts", "src/a.test.ts", "vitest.config.ts"}},
		// Honest twin: literal names only, nothing read past them.
		{"literal setup, environment and reporters", map[string]string{"jest.config.js": "module.exports = {\n  testEnvironment: 'node',\n  setupFilesAfterEnv: ['<rootDir>/jest.setup.js'],\n  reporters: ['default', ['jest-junit', { outputDirectory: 'out' }]],\n}", "jest.setup.js": "", "src/a.test.js": "", "src/b.js": ""},
			"jest", []string{"jest.config.js", "jest.setup.js", "src/a.test.js"}},
		{"mocha spec", map[string]string{".mocharc.yml": "spec: 'qa/**/*.js'\n", "qa/deep/a.js": "", "test/b.js": ""},
			"mocha", []string{".mocharc.yml", "qa/deep/a.js", "test/b.js"}}, // test/ read too: more than mocha runs, never less
		{"pytest.ini python_files", map[string]string{"pytest.ini": "[pytest]\npython_files = check_*.py\n", "tests/check_a.py": "", "tests/test_b.py": "", "tests/c.py": ""},
			"pytest", []string{"tests/check_a.py", "tests/test_b.py"}},
		{"pyproject testpaths, hidden", map[string]string{"pyproject.toml": "[project]\nname = 'x'\n\n[tool.pytest.ini_options]\ntestpaths = [\n  \".qa\",\n]\n", ".qa/test_a.py": "", ".qa/conftest.py": "", "tests/test_b.py": ""},
			"pytest", []string{".qa/conftest.py", ".qa/test_a.py"}},
		{"setup.cfg", map[string]string{"setup.cfg": "[metadata]\nname = x\n\n[tool:pytest]\npython_files = *_check.py\ntestpaths = qa\n", "qa/a_check.py": "", "other/b_check.py": ""},
			"pytest", []string{"qa/a_check.py"}},
		{"tox.ini", map[string]string{"tox.ini": "[tox]\nenvlist = py3\n\n[pytest]\npython_files = verify.py\n", "verify.py": ""},
			"pytest", []string{"verify.py"}},
		{"tox.ini without pytest's section", map[string]string{"tox.ini": "[tox]\npython_files = verify.py\n", "verify.py": "", "test_a.py": ""},
			"pytest", []string{"test_a.py"}},
		{"pytest collects from _t and testdata", map[string]string{"_t/test_a.py": "", "testdata/test_b.py": "", "build/test_c.py": ""},
			"pytest", []string{"_t/test_a.py", "testdata/test_b.py"}},
		{"go generate reads files with directives", map[string]string{"go.mod": "module example.com/m\n", "a.go": "package m\n\n//go:generate stringer -type=X\n", "b.go": "package m\n", "c_test.go": "package m\n//go:generate sh x.sh\n"},
			"go generate", []string{"a.go", "c_test.go"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			for n, b := range c.files {
				writeTestFile(t, filepath.Join(root, n), b)
			}
			got, over := Places{Root: root}.SuiteFiles(c.runner, root, nil)
			var rel []string
			for _, f := range got {
				r, _ := filepath.Rel(root, f)
				rel = append(rel, filepath.ToSlash(r))
			}
			slices.Sort(rel)
			if over || !reflect.DeepEqual(rel, c.want) {
				t.Errorf("SuiteFiles = %q (over %v), want %q", rel, over, c.want)
			}
		})
	}
}

// TestSuiteProjectOutside: a jest project in a folder beside the run's
// (../lib) is walked too; before, only the run's folder was.
func TestSuiteProjectOutside(t *testing.T) {
	root := t.TempDir()
	for n, b := range map[string]string{"web/jest.config.js": "module.exports = { projects: ['<rootDir>', '<rootDir>/../lib'] }",
		"web/a.test.js": "", "lib/b.test.js": "", "lib/jest.config.js": "module.exports = { setupFiles: ['./env.js'] }", "lib/env.js": "", "other/c.test.js": ""} {
		writeTestFile(t, filepath.Join(root, n), b)
	}
	got, _ := Places{Root: root}.SuiteFiles("jest", filepath.Join(root, "web"), nil)
	var rel []string
	for _, f := range got {
		r, _ := filepath.Rel(root, f)
		rel = append(rel, filepath.ToSlash(r))
	}
	slices.Sort(rel)
	if want := []string{"lib/b.test.js", "lib/env.js", "lib/jest.config.js", "web/a.test.js", "web/jest.config.js"}; !reflect.DeepEqual(rel, want) {
		t.Errorf("SuiteFiles = %q, want %q", rel, want)
	}
}

// TestGoGenerateLines: a directive is a command; -command makes an alias.
func TestGoGenerateLines(t *testing.T) {
	text := "package m\n\n//go:generate stringer -type=X\n// go:generate not a directive\n//go:generate -command wipe sh -c\n//go:generate wipe \"rm -rf .git/sessiongate\"\n"
	var got []string
	for _, st := range GoGenerateLines(text) {
		got = append(got, strconv.Itoa(st.Line)+":"+st.Text)
	}
	if want := []string{"3:stringer -type=X", `6:sh -c "rm -rf .git/sessiongate"`}; !reflect.DeepEqual(got, want) {
		t.Errorf("GoGenerateLines = %q, want %q", got, want)
	}
}

// TestWorkspaces: npm -w/--workspaces and pnpm -r run each workspace's
// own script (before, only the root's package.json was read).
func TestWorkspaces(t *testing.T) {
	root := t.TempDir()
	for n, b := range map[string]string{
		"package.json":            `{"workspaces": ["packages/*", "tools/cli"]}`,
		"packages/a/package.json": `{"name": "@x/a"}`, "packages/b/package.json": `{"name": "b"}`,
		"tools/cli/package.json": `{"name": "cli"}`, "other/package.json": `{"name": "other"}`,
		"p/package.json": `{}`, "p/pnpm-workspace.yaml": "packages:\n  - 'libs/*'\n", "p/libs/l/package.json": `{"name": "l"}`,
	} {
		writeTestFile(t, filepath.Join(root, n), b)
	}
	pl := Places{Root: root}
	for _, c := range []struct {
		pj   string
		want []string
		ws   []string
	}{
		{"package.json", []string{"*"}, []string{"packages/a/package.json", "packages/b/package.json", "tools/cli/package.json"}},
		{"package.json", []string{"@x/a"}, []string{"packages/a/package.json"}},
		{"package.json", []string{"packages/b"}, []string{"packages/b/package.json"}},
		{"package.json", []string{"other"}, []string{"other/package.json"}}, // -w DIR: npm runs there
		{"p/package.json", []string{"*"}, []string{"p/libs/l/package.json"}},
	} {
		var got []string
		for _, f := range pl.Workspaces(filepath.Join(root, c.pj), c.want) {
			r, _ := filepath.Rel(root, f)
			got = append(got, filepath.ToSlash(r))
		}
		slices.Sort(got)
		if !reflect.DeepEqual(got, c.ws) {
			t.Errorf("Workspaces(%s, %q) = %q, want %q", c.pj, c.want, got, c.ws)
		}
	}
	for line, want := range map[string]string{"npm test --workspaces": "*", "npm run x -w a -w b": "a\nb", "pnpm -r test": "*", "pnpm --filter=a test": "a", "npm test": ""} {
		if rs := Find(line); len(rs) == 0 || rs[0].Workspaces != want {
			t.Errorf("Find(%q) = %+v, want workspaces %q", line, rs, want)
		}
	}
}
