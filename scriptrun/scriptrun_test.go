package scriptrun

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string // "lang:path" or "lang:<code>" or "lang:<input>"
	}{
		{"python3 forge.py", []string{"python:forge.py"}},
		{"python3 -u -W error forge.py --x", []string{"python:forge.py"}},
		{"python3 -m pkg.tool", []string{"python:pkg/tool.py"}},
		{"python3 -c 'print(1)'", []string{"python:<code>"}}, // its imports are followed
		{"python3 -c 'import forge'", []string{"python:<code>"}},
		{"PYTHONSTARTUP=s.py python3 -i", []string{"python:s.py"}},
		{"export PYTHONSTARTUP=s.py; python3 -i", []string{"python:s.py"}},
		{"env PYTHONSTARTUP=s.py python3", []string{"python:s.py"}},
		{"sh tidy.sh", []string{"shell:tidy.sh"}},
		{"bash -e -o pipefail tidy.sh a b", []string{"shell:tidy.sh"}},
		{"bash -ec 'echo'", nil},
		{"./x.sh", []string{":./x.sh"}},
		{"scripts/run", []string{":scripts/run"}},
		{"source env.sh", []string{"shell:env.sh"}},
		{". ./env.sh && make", []string{"shell:./env.sh", "make:."}},
		{"make -f x.mk all", []string{"make:x.mk"}},
		{"make --file=x.mk", []string{"make:x.mk"}},
		{"make test", []string{"make:."}}, // the default makefile
		{"make -C sub -j 4 test", []string{"make:sub"}},
		{"cd sub && make", []string{"make:sub"}},
		{"make -C sub -f x.mk", []string{"make:sub/x.mk"}},
		{"awk -f prog.awk data", []string{"awk:prog.awk"}},
		{"awk '{print}' data", nil},
		{"sed -n -f w.sed x", []string{"sed:w.sed"}},
		{"sed --file=w.sed x", []string{"sed:w.sed"}},
		{"sed -i s/a/b/ x", nil},
		{"go run ./cmd/x -v", []string{"go:./cmd/x"}},
		{"go run main.go util.go", []string{"go:main.go", "go:util.go"}},
		{"go run golang.org/x/tools/cmd/stringer@latest", nil},
		{"lua x.lua", []string{"lua:x.lua"}},
		{"Rscript x.R", []string{"r:x.R"}},
		{"tclsh x.tcl", []string{"tcl:x.tcl"}},
		{"pytest tests", []string{"python:."}},
		{"cd sub && uv run pytest -q", []string{"python:sub"}},
		{"python3 -m pytest -p helpers.plug", []string{"python:.", "python:<code>", "python:pytest.py"}},
		{"pytest -k x tests/unit::T", []string{"python:."}},
		// `cd DIR` moves the line: the file run is DIR's.
		{"cd tools && python3 gen.py", []string{"python:tools/gen.py"}},
		{"cd scripts; ./build.sh", []string{":scripts/build.sh"}},
		{"cd a && cd b && sh x.sh", []string{"shell:a/b/x.sh"}},
		{"cd /opt/x && sh x.sh", []string{"shell:/opt/x/x.sh"}},
		{"cd \"$D\" && sh x.sh", []string{"shell:x.sh"}},
		{"node build.js", []string{"javascript:build.js"}},
		{"node -r ts-node/register build.ts", []string{"javascript:build.ts"}},
		{"deno run -A x.ts", []string{"javascript:x.ts"}},
		{"bun x.ts", []string{"javascript:x.ts"}},
		{"perl -I lib x.pl", []string{"perl:x.pl"}},
		{"ruby x.rb", []string{"ruby:x.rb"}},
		{"php -f x.php", []string{"php:x.php"}},
		{"timeout 60 nice -n 5 env A=1 python3 x.py", []string{"python:x.py"}},
		{"echo a.sh | xargs sh", []string{"shell:a.sh"}},
		{"ls *.sh | xargs sh", []string{"shell:<input>"}},
		{"cat f.sh | bash", []string{"shell:f.sh"}},
		{"sh < f.sh", []string{"shell:f.sh"}},
		{`bash -c "$(cat f.sh)"`, []string{"shell:f.sh"}},
		{`eval "$(< f.sh)"`, []string{"shell:f.sh"}},
		{"python3 - <<'EOF'\nprint(1)\nEOF", []string{"python:<code>"}},
		{"go test ./...", nil},
		{"git status", nil},
		{`python3 "$X"`, nil},
	} {
		var got []string
		for _, r := range Find(c.line) {
			s := string(r.Lang) + ":" + r.Path
			if r.Code != "" {
				s = string(r.Lang) + ":<code>"
			}
			if r.FromInput {
				s = string(r.Lang) + ":<input>"
			}
			got = append(got, s)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Find(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestScan(t *testing.T) {
	for _, c := range []struct {
		lang Lang
		code string
		want string // the first finding's What and How, "" for none
	}{
		{Python, "sqlite3.connect('.git/sessiongate/sessiongate.db')", "sessiongate's database folder"},
		{Python, `d = os.path.join("." + "git", "session" + "gate")`, "sessiongate's database folder built from pieces"},
		{Python, `p = Path(".git") / "hooks" / "pre-commit"`, "the git hooks built from pieces"},
		{Python, `os.remove("yek.tneve/etagnoisses/tig."[::-1])`, "sessiongate's database folder reversed"},
		{Python, `codecs.decode(".tvg/ubbxf", "rot13")`, "the git hooks rot13"},
		{Python, `b64decode("LmdpdC9ob29rcw==")`, "the git hooks base64"},
		{Python, `bytes.fromhex("2e6769742f686f6f6b73")`, "the git hooks hex"},
		{Python, `open("\x2egit/hooks/x", "w")`, "the git hooks escaped"},
		{Python, `k = chr(46) + "git/hooks"`, "the git hooks built from pieces"},
		{Node, `String.fromCharCode(46,103,105,116) + "/hooks"`, "the git hooks built from pieces"},
		{Perl, `my $p = "." . "git/config";`, "the git config built from pieces"},
		{Python, `exec(base64.b64decode("aW1wb3J0IG9z"))`, "code it decodes runs code it decodes"},
		{Python, `subprocess.run(["git", "update-ref", "-d", "x"])`, "`git update-ref`"},
		// Prose is skipped only where it is a message or a docstring, and
		// not when the script reads its docstring back.
		{Python, `import shutil` + "\n" + `exec("import shutil; shutil.rmtree('.git/sessiongate')")`, "sessiongate's database folder"},
		{Python, `p = "remove the folder at .git/sessiongate today".split()[4]`, "sessiongate's database folder"},
		{Python, `"""Remove the folder at .git/sessiongate today."""` + "\nshutil.rmtree(__doc__.split()[4])", "sessiongate's database folder"},
		{Python, `os.system("rm -rf .git/sessiongate")`, "sessiongate's database folder"},
		// honest
		{Python, `"""Setup: hooks live in .git/hooks; run sessiongate install."""` + "\nprint('ok')", ""},
		{Python, `print('never commit with --no-verify')`, ""},
		{Node, `console.error("the hooks in .git/hooks are not installed yet");`, ""},
		{Python, `raise ValueError("do not edit .git/config by hand here")`, ""},
		{Python, "# don't touch .git\nif '.git' in dirs: dirs.remove('.git')\nopen('build/x', 'w')", ""},
		{Python, `"""Don't descend into .git."""` + "\nprint('ok')", ""},
		{Node, "// skip .git/hooks? no: this is a comment\nfs.writeFileSync('dist/a.js', s)", ""},
		{Python, `print(base64.b64decode("aGVsbG8gd29ybGQ="))`, ""},
		{Shell, "echo ${#x} # .git/hooks in a comment", ""},
		{Python, `subprocess.run(["git", "rev-parse", "HEAD"])`, ""},
	} {
		fs := Scan(c.lang, c.code, DefaultTargets)
		got := ""
		if len(fs) > 0 {
			got = strings.TrimSpace(fs[0].What + " " + fs[0].How)
		}
		if got != c.want {
			t.Errorf("Scan(%s, %q) = %q (%v), want %q", c.lang, c.code, got, fs, c.want)
		}
	}
}

func TestStatementsAndRecipes(t *testing.T) {
	sh := "set -e\nif true; then\n  echo a\nfi\ncat <<EOF > x\nbody\nEOF\nrm -rf .git/x\n"
	var lines []int
	for _, s := range Statements(sh) {
		lines = append(lines, s.Line)
	}
	if want := []int{1, 2, 5, 8}; !reflect.DeepEqual(lines, want) {
		t.Errorf("Statements lines = %v, want %v", lines, want)
	}
	if st := Statements(sh)[2]; !strings.Contains(st.Text, "body") {
		t.Errorf("the here-document's body left its command: %q", st.Text)
	}
	mk := "all: b\n\t@echo $$HOME \\\n\t  more\nb:\n\t-rm -f x\n"
	got := Recipes(mk)
	want := []Stmt{{Line: 2, Text: "echo $HOME  more"}, {Line: 5, Text: "rm -f x"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Recipes = %v, want %v", got, want)
	}
}

func TestLangOf(t *testing.T) {
	for _, c := range []struct {
		name, head string
		want       Lang
	}{
		{"x", "#!/usr/bin/env python3\n", Python},
		{"x", "#!/usr/bin/env -S node --x\n", Node},
		{"x.sh", "#!/bin/bash\n", Shell},
		{"x", "echo hi\n", Shell},
		{"x.py", "print(1)\n", Python},
		{"x", "#!/usr/bin/awk -f\n", Unknown},
	} {
		if got := LangOf(c.name, []byte(c.head)); got != c.want {
			t.Errorf("LangOf(%q, %q) = %s, want %s", c.name, c.head, got, c.want)
		}
	}
}

func TestRead(t *testing.T) {
	root, other := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.sh"), []byte("echo a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bin"), []byte("\x7fELF\x00\x01"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "big.js"), []byte(strings.Repeat("x", MaxRead+10)), 0o644); err != nil {
		t.Fatal(err)
	}
	pl := Places{Root: root}
	f, ok, err := pl.Read(root, "a.sh")
	if err != nil || !ok || f.Rel != "a.sh" || f.Lang != Shell || len(f.SHA256) != 64 || !f.InRepo {
		t.Errorf("a.sh: %+v %v %v", f, ok, err)
	}
	if _, _, err := pl.Read(root, "missing.sh"); !errors.Is(err, ErrNotThere) {
		t.Errorf("missing.sh: %v, want ErrNotThere", err)
	}
	if _, _, err := pl.Read(root, "bin"); !errors.Is(err, ErrBinary) {
		t.Errorf("bin: %v, want ErrBinary", err)
	}
	if f, _, err := pl.Read(root, "big.js"); err != nil || !f.Truncated || len(f.Text) != MaxRead {
		t.Errorf("big.js: truncated %v len %d %v", f != nil && f.Truncated, len(f.Text), err)
	}
	// Outside the repository and the temp folders: not read.
	if f, ok, err := pl.Read(root, filepath.Join(other, "x.sh")); f != nil || ok || err != nil {
		t.Errorf("outside: %+v %v %v", f, ok, err)
	}
	// A link in the repository to a script elsewhere is read: it is what runs.
	if err := os.WriteFile(filepath.Join(other, "y.sh"), []byte("echo y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(other, "y.sh"), filepath.Join(root, "y.sh")); err != nil {
		t.Fatal(err)
	}
	if f, ok, err := pl.Read(root, "y.sh"); err != nil || !ok || f.Text != "echo y\n" {
		t.Errorf("link: %+v %v %v", f, ok, err)
	}
}

// TestReadNotText: a file with a NUL that is no compiled program is
// ErrNotText (bash runs one with the NUL on line 2, node and perl one in
// a comment, python3 a .pyc); compiled programs stay ErrBinary.
func TestReadNotText(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct {
		name, body string
		want       error
	}{
		{"nul.sh", "#!/bin/sh\n# \x00\nrm -rf .git/sessiongate\n", ErrNotText},
		{"nul.js", "// \x00\nrequire('fs').rmSync('.git/sessiongate')\n", ErrNotText},
		{"x.pyc", "\xcb\r\r\n\x00\x00\x00\x00", ErrNotText},
		{"elf", "\x7fELF\x02\x01\x01\x00", ErrBinary},
		{"macho", "\xcf\xfa\xed\xfe\x07\x00\x00\x01", ErrBinary},
		{"sessiongate.db", "SQLite format 3\x00\x10\x00\x02\x02", ErrBinary}, // data no interpreter runs
	} {
		if err := os.WriteFile(filepath.Join(root, c.name), []byte(c.body), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, _, err := (Places{Root: root}).Read(root, c.name); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestMakeRecipes: only the recipes a run's goals reach are judged, with
// the makefiles' variables expanded.
func TestMakeRecipes(t *testing.T) {
	mk := "PY ?= python3\nD = .git/hooks\n.PHONY: test hooks\ntest: build\n\t$(PY) -m unittest\nbuild:\n\tmkdir -p build\nhooks:\n\tgit config core.hooksPath .githooks\nwipe:\n\trm -rf $(D)\nsub:\n\t$(MAKE) wipe\n%.o: %.c\n\tcc -c $<\n"
	for _, c := range []struct {
		goals, vars []string
		want        []string
	}{
		{nil, nil, []string{"python3 -m unittest", "mkdir -p build", "cc -c $<"}},
		{[]string{"test"}, []string{"PY=pypy3"}, []string{"pypy3 -m unittest", "mkdir -p build", "cc -c $<"}},
		{[]string{"wipe"}, nil, []string{"rm -rf .git/hooks", "cc -c $<"}},
		{[]string{"sub"}, nil, []string{"make wipe", "rm -rf .git/hooks", "cc -c $<"}},
		{[]string{"nosuch"}, nil, []string{"python3 -m unittest", "mkdir -p build", "git config core.hooksPath .githooks", "rm -rf .git/hooks", "make wipe", "cc -c $<"}},
	} {
		var got []string
		for _, st := range MakeRecipes([]MakeFile{{Name: "Makefile", Text: mk}}, c.goals, c.vars) {
			got = append(got, st.Text)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("MakeRecipes(%v, %v) = %q, want %q", c.goals, c.vars, got, c.want)
		}
	}
	// $(shell ...) and != run at parse time, whatever the goal.
	parse := "V := $(shell rm -rf .git/sessiongate)\nW != git update-ref -d refs/x\nall:\n\techo ok\n"
	var got []string
	for _, st := range MakeRecipes([]MakeFile{{Name: "Makefile", Text: parse}}, nil, nil) {
		got = append(got, st.Text)
	}
	if want := []string{"echo ok", "rm -rf .git/sessiongate", "git update-ref -d refs/x"}; !reflect.DeepEqual(got, want) {
		t.Errorf("MakeRecipes(parse-time shell) = %q, want %q", got, want)
	}
	if got := MakeIncludes("include a.mk b.mk\n-include $(X).mk\nsinclude c.mk # x\n"); !reflect.DeepEqual(got, []string{"a.mk", "b.mk", "c.mk"}) {
		t.Errorf("MakeIncludes = %q", got)
	}
}

func TestPythonImports(t *testing.T) {
	for _, c := range []struct {
		code string
		want []string
	}{
		{"import forge", []string{"forge"}},
		{"import os, a.b as c; x = 1", []string{"os", "a.b"}},
		{"from pkg import x, y as z", []string{"pkg", "pkg.x", "pkg.y"}},
		{"from . import m0\nfrom .util import f", []string{".", ".m0", ".util", ".util.f"}},
		{"m = __import__('forge')\nimportlib.import_module(\"a.b\")", []string{"forge", "a.b"}},
		{"pytest_plugins = ['helpers.wipe', \"x\"]", []string{"helpers.wipe", "x"}},
		{"print('import nothing')", nil},
	} {
		if got := PythonImports(c.code); !reflect.DeepEqual(got, c.want) {
			t.Errorf("PythonImports(%q) = %q, want %q", c.code, got, c.want)
		}
	}
	if got := ModuleFiles("a.b"); !reflect.DeepEqual(got, []string{"a/__init__.py", "a.py", "a/b/__init__.py", "a/b.py"}) {
		t.Errorf("ModuleFiles = %q", got)
	}
}
