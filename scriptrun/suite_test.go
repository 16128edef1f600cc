package scriptrun

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
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
	// The line's CONF=ci wins, as on make's command line.
	vars = MakeVarsOf([]MakeFile{{Name: "Makefile", Text: mk}}, []string{"CONF=ci"})
	if got := MakeIncludesIn("include $(CONF).mk\n", vars, dir); !reflect.DeepEqual(got, []string{"ci.mk"}) {
		t.Errorf("MakeIncludesIn with CONF=ci = %q", got)
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
