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
		// its imports are followed, and the code is scanned as a script
		{"python3 -c 'print(1)'", []string{"python:<code>", "python:<code>"}},
		{"python3 -c 'import forge'", []string{"python:<code>", "python:<code>"}},
		{`node -e "require('child_process').execSync('a'+'b')"`, []string{"javascript:<code>"}},
		{"node --eval 'x()'", []string{"javascript:<code>"}},
		{`node -e "$CODE"`, nil}, // an expansion: the line rules' to judge
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
		{"bun add -g x@latest", nil},
		{"deno fmt", nil},
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
		{"go test ./...", []string{"go:."}}, // its packages' files, test files too (SuiteFiles)
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
		// joined with a hyphen (issue 25 review: a forged PreToolUse witness)
		{Node, "execFileSync('sessiongate', [['agent', 'hook'].join('-'), 'claude', 'PreToolUse'])", "sessiongate's agent hook built from pieces"},
		{Python, "subprocess.run(['sessiongate', '-'.join(['agent', 'hook']), 'claude'])", "sessiongate's agent hook built from pieces"},
		{Python, "subprocess.run(['git', '-'.join(('update', 'ref')), 'refs/heads/x', sha])", "`git update-ref` built from pieces"},
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
		{Node, "const agent = 'agent'; const hook = useHook('hook'); log('update', 'ref')", ""},
		{Node, `console.error("the hooks in .git/hooks are not installed yet");`, ""},
		{Python, `raise ValueError("do not edit .git/config by hand here")`, ""},
		{Python, "# don't touch .git\nif '.git' in dirs: dirs.remove('.git')\nopen('build/x', 'w')", ""},
		{Python, `"""Don't descend into .git."""` + "\nprint('ok')", ""},
		{Node, "// skip .git/hooks? no: this is a comment\nfs.writeFileSync('dist/a.js', s)", ""},
		{Python, `print(base64.b64decode("aGVsbG8gd29ybGQ="))`, ""},
		{Shell, "echo ${#x} # .git/hooks in a comment", ""},
		{Python, `subprocess.run(["git", "rev-parse", "HEAD"])`, ""},
		// A word that ends in a needle is not it: caniuse's "KeyboardEvent.key"
		// (honest corpus) is no event.key file; the file named by a glob, a
		// path or in pieces still is.
		{Node, `module.exports={A:"!J&&M",B:5,C:"KeyboardEvent.key",D:true};`, ""},
		{Node, "el.addEventListener('keydown', e => { if (e.key === 'Enter') go(); });", ""},
		{Python, `os.remove(glob.glob("**/event.key", recursive=True)[0])`, "the gate event key"},
		{Node, `fs.writeFileSync(dir + "event" + ".key", "")`, "the gate event key built from pieces"},
		{Python, `open("x/" + "Event.Key", "w")`, "the gate event key"},
		{Python, `os.remove("yek.tneve"[::-1])`, "the gate event key reversed"},
		// Reads of what honest tools read (the git config, the hooks
		// folder, core.hooksPath) pass; the same reference written to,
		// removed, or handed on is still found.
		{Node, "const fs = require('fs');\nconst url = fs.readFileSync('.git/config', 'utf8').match(/url = (.*)/)[1];", ""},
		{Node, "const cfg = path.join(process.cwd(), '.git', 'config');\nif (fs.existsSync(cfg)) {\n  const t = fs.readFileSync(cfg, 'utf8');\n}", ""},
		{Node, "fs.readFile(path.join(root, '.git', 'config'), 'utf8', (err, text) => {\n  console.log(text);\n});", ""},
		{Node, "const hooks = fs.readdirSync(path.join(root, '.git/hooks'));", ""},
		{Node, "const p = execFileSync('git', ['config', '--get', 'core.hooksPath']).toString();", ""},
		{Node, "const p = execSync('git config --get core.hooksPath 2>/dev/null').toString();", ""},
		{Python, "with open(os.path.join(root, '.git', 'config')) as f:\n    text = f.read()", ""},
		{Python, "cfg = Path(root) / '.git' / 'config'\nif cfg.exists():\n    url = cfg.read_text()", ""},
		{Python, "out = subprocess.run(['git', 'config', '--get', 'core.hooksPath'], capture_output=True, text=True)", ""},
		{Python, "hooks = subprocess.check_output('git config --get core.hooksPath'.split())", ""},
		{Python, "p = configparser.ConfigParser()\np.read('.git/config')", ""},
		{Python, "open('.git/config', 'rb').read()", ""},
		{Python, "print('hooks path:', out.stdout.strip() or '.git/hooks')", ""},
		{Node, "console.log(`no hooks in ${path.join(root, '.git/hooks')}`)", ""},
		// lazy: writes disguised as reads
		{Python, "print(open('.git/config', 'w'))", "the git config"},
		{Python, "print('x', file=open('.git/config', 'a'))", "the git config"},
		{Node, "fs.writeFileSync('.git/config', '[core]\\n\\thooksPath = /dev/null\\n');", "the git config"},
		{Node, "const cfg = path.join(root, '.git', 'config');\nconst t = fs.readFileSync(cfg, 'utf8');\nfs.writeFileSync(cfg, t + 'x');", "the git config built from pieces"},
		{Node, "fs.readFileSync('.git/config', {flag: 'w+'});", "the git config"},
		{Node, "const f = 'w';\nfs.readFileSync('.git/config', {flag: f});", "the git config"},
		{Node, "fs.openSync('.git/hooks/pre-commit', 'w');", "the git hooks"},
		{Node, "fs.rmSync('.git/hooks', {recursive: true});", "the git hooks"},
		{Node, "execFileSync('git', ['config', 'core.hooksPath', '/dev/null']);", "the git hooks path"},
		{Node, "execSync('git config --get core.hooksPath > .git/x');", "the git hooks path"},
		{Python, "open('.git/config', 'w').write('')", "the git config"},
		{Python, "open('.git/config', mode='a').write('x')", "the git config"},
		{Python, "m = 'w'\nopen('.git/config', m).write('')", "the git config"},
		{Python, "os.open('.git/config', os.O_WRONLY | os.O_TRUNC)", "the git config"},
		{Python, "p = '.git/hooks'\nshutil.rmtree(p)", "the git hooks"},
		{Python, "p = '.git/hooks'\nprint(os.listdir(p))\nos.remove(p + '/pre-commit')", "the git hooks"},
		{Python, "p = '.git/config'\nopen(globals()['p'], 'w')", "the git config"},
		{Python, "Path('.git/config').write_text('')", "the git config"},
		{Python, "Path('.git/config').open('w')", "the git config"},
		{Python, "subprocess.run(['git', 'config', 'core.hooksPath', 'x'])", "the git hooks path"},
		{Python, "subprocess.run(['git', 'config', '--unset', 'core.hooksPath'])", "the git hooks path"},
		{Python, "subprocess.run(['git', 'config', '--get', '--unset', 'core.hooksPath'])", "the git hooks path"},
		{Python, "subprocess.run('git config --get core.hooksPath; git config core.hooksPath x', shell=True)", "the git hooks path"},
		{Python, "subprocess.run(['git', '-c', 'a=b', 'config', '--get', 'core.hooksPath'])", "the git hooks path"},
		{Python, "shutil.copy('x', '.git/hooks/pre-commit')", "the git hooks"},
		{Python, "os.remove('.git/hooks/pre-commit')", "the git hooks"},
		{Python, "open('.git/sessiongate/event.key').read()", "sessiongate's database folder"},
		// a writer under a reader's name, or a write's text beside the path
		{Node, "const readFileSync = fs.writeFileSync;\nreadFileSync('.git/config', '[core]\\n');", "the git config"},
		{Node, "const { writeFileSync: readFileSync } = require('fs');\nreadFileSync('.git/config', 'x = y');", "the git config"},
		{Python, "from os import remove as exists\nexists('.git/hooks/pre-commit')", "the git hooks"},
		{Python, "def open(p):\n    os.remove(p)\nopen('.git/config')", "the git config"},
		{Python, "setattr(builtins, 'open', evil)\nopen('.git/config')", "the git config"},
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

// TestTaken: with literal arguments, the case items they do not take are
// blanked (lines kept); anything that could change the arguments or run
// the script again leaves every branch in.
func TestTaken(t *testing.T) {
	rel := "case \"$1\" in\n  test) go test ./... ;;\n  publish) git update-ref refs/heads/release HEAD ;;\n  *) echo usage ;;\nesac\n"
	for _, c := range []struct {
		name, text string
		args       []string
		kept       bool // the update-ref line is still judged
	}{
		{"test branch", rel, []string{"test"}, false},
		{"publish branch", rel, []string{"publish"}, true},
		{"default branch", rel, []string{"x"}, false},
		{"no argument", rel, []string{}, false},
		{"glob pattern", strings.Replace(rel, "test)", "te*)", 1), []string{"test"}, false},
		{"quoted pattern", strings.Replace(rel, "test)", "'test')", 1), []string{"test"}, false},
		{"alternatives", strings.Replace(rel, "test)", "check|test)", 1), []string{"test"}, false},
		// undecidable: every branch stays
		{"shift", "shift\n" + rel, []string{"x", "test"}, true},
		{"set --", "set -- publish\n" + rel, []string{"test"}, true},
		{"$0", strings.Replace(rel, "go test ./...", `sh "$0" publish`, 1), []string{"test"}, true},
		{"eval", "eval x\n" + rel, []string{"test"}, true},
		{"source", ". ./env.sh\n" + rel, []string{"test"}, true},
		{"fall-through", strings.Replace(rel, "go test ./... ;;", "go test ./... ;&", 1), []string{"test"}, true},
		{"variable word", strings.Replace(rel, `"$1"`, `"$MODE"`, 1), []string{"test"}, true},
		{"default word", strings.Replace(rel, `"$1"`, `"${1:-publish}"`, 1), []string{}, true},
		{"pattern from a variable", strings.Replace(rel, "test)", "$T)", 1), []string{"test"}, true},
		{"slash in the argument", rel, []string{"a/b"}, true},
		{"in a function", "f() {\n" + rel + "}\nf test\n", []string{"test"}, true},
	} {
		got := Taken(c.text, c.args)
		if kept := strings.Contains(got, "update-ref"); kept != c.kept {
			t.Errorf("%s: update-ref kept %v, want %v:\n%s", c.name, kept, c.kept, got)
		}
		if strings.Count(got, "\n") != strings.Count(c.text, "\n") {
			t.Errorf("%s: lines moved", c.name)
		}
	}
}

func TestRecipesOf(t *testing.T) {
	mk := "all: test\n\ntest: build\n\tgo test ./...\nbuild:\n\tgo build ./...\npublish: test\n\tgit update-ref refs/heads/release HEAD\n"
	for _, c := range []struct {
		goals []string
		want  []string // the recipes' commands
	}{
		{[]string{}, []string{"go test ./...", "go build ./..."}},
		{[]string{"test"}, []string{"go test ./...", "go build ./..."}},
		{[]string{"build"}, []string{"go build ./..."}},
		{[]string{"publish"}, []string{"go test ./...", "go build ./...", "git update-ref refs/heads/release HEAD"}},
		{[]string{"nope"}, []string{"go test ./...", "go build ./...", "git update-ref refs/heads/release HEAD"}},
	} {
		var got []string
		for _, st := range RecipesOf(mk, c.goals) {
			got = append(got, st.Text)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("RecipesOf(%v) = %q, want %q", c.goals, got, c.want)
		}
	}
	// Undecidable files give every recipe.
	for _, mk := range []string{
		"include x.mk\nall:\n\techo\npublish:\n\tgit update-ref refs/heads/r HEAD\n",
		"all:\n\t$(MAKE) publish\npublish:\n\tgit update-ref refs/heads/r HEAD\n",
		"T = publish\nall:\n\techo\n$(T):\n\tgit update-ref refs/heads/r HEAD\n",
		"all:\n\techo\n%:\n\tgit update-ref refs/heads/r HEAD\n",
		"all: nope\n\techo\n.DEFAULT:\n\tgit update-ref refs/heads/r HEAD\n",
		"all:\nifeq ($(X),1)\n\tgit update-ref refs/heads/r HEAD\nendif\n",
	} {
		n := 0
		for _, st := range RecipesOf(mk, []string{"all"}) {
			if strings.Contains(st.Text, "update-ref") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("RecipesOf(%q, all) dropped the undecided recipe", mk)
		}
	}
}

func TestFindArgs(t *testing.T) {
	for _, c := range []struct {
		line string
		args []string // nil: not known
	}{
		{"sh release.sh test", []string{"test"}},
		{"bash -e release.sh test x", []string{"test", "x"}},
		{"./release.sh publish", []string{"publish"}},
		{"sh release.sh", []string{}},
		{`sh release.sh "$X"`, nil},
		{"sh release.sh $(echo publish)", nil},
		{"source env.sh a", []string{"a"}},
		{"make -f x.mk test", []string{"test"}},
		{"make -f x.mk -j 4 V=1 test", []string{"test"}},
		{"make -f x.mk", []string{}},
		{`make -f x.mk "$T"`, nil},
		{"make -f x.mk --eval='test: publish' test", nil},
		{"make -E 'test: publish' -f x.mk test", nil},
		{"MAKEFILES=y.mk make -f x.mk test", nil},
		{"MAKEFLAGS=-e make -f x.mk test", nil},
	} {
		rs := Find(c.line)
		if len(rs) != 1 {
			t.Fatalf("Find(%q) = %v", c.line, rs)
		}
		if got := rs[0].ArgList(); !reflect.DeepEqual(got, c.args) {
			t.Errorf("Find(%q) args = %#v, want %#v", c.line, got, c.args)
		}
	}
}

// TestCommandLinesProse: prose that starts with "at" is no at(1) line
// (at refuses a garbled time); a time keeps it one.
func TestCommandLinesProse(t *testing.T) {
	for _, c := range []struct {
		code string
		want int
	}{
		{`throw new Error(" at new ")`, 0},
		{`throw new TypeError("at least one recipient must be added")`, 0},
		{`msg = " at line ${line}, column ${col}"`, 0},
		{`os.system("at now + 1 minute < job.txt")`, 1},
		{`os.system("at 23:00 -f job.sh")`, 1},
		{`os.system("at -f job.sh teatime")`, 1},
		{`os.system("at tomorrow")`, 1},
		// A list only tested for membership is a set of names, no argv
		// (source-map-support: ["node", "browser", "auto"].indexOf(env));
		// one stored, joined or handed on is still a command line.
		{`if env in ["node", "browser", "auto"]: pass`, 0},
		{`if env not in ['node', 'browser']: pass`, 0},
		{`ok = ["node", "browser", "auto"].index(env)`, 1},
		{`subprocess.run(["node", "browser", "auto"])`, 1},
		{`a = ["node", "browser"]` + "\nif env in a: subprocess.run(a)", 1},
		{`for c in ["node", "./run.js"]: subprocess.run(c)`, 1},
		{`[subprocess.run(c) for c in ['node', './run.js']]`, 1},
	} {
		if got := len(CommandLines(Python, c.code)); got != c.want {
			t.Errorf("CommandLines(%q) = %d lines, want %d", c.code, got, c.want)
		}
	}
}

// TestMakeRecipes: only the recipes a run's goals reach are judged, with
// the makefiles' variables expanded.
func TestCommandLinesMembership(t *testing.T) {
	for _, c := range []struct {
		code string
		want int
	}{
		{`if (["node", "browser", "auto"].indexOf(environment) === -1) {}`, 0},
		{`const ok = [ 'node', 'browser' ] .includes(env);`, 0},
		{`spawnSync(...["node", "browser", "auto"]);`, 1},
		{`execSync(["node", "browser"].join(" "));`, 1},
		{`const a = ["node", "browser"]; a.includes(x); spawnSync(a[0], a.slice(1));`, 1},
	} {
		if got := len(CommandLines(Node, c.code)); got != c.want {
			t.Errorf("CommandLines(%q) = %d lines, want %d", c.code, got, c.want)
		}
	}
}

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
	if got := MakeIncludesIn("include a.mk b.mk\n-include $(X).mk\nsinclude c.mk # x\n", nil, t.TempDir()); !reflect.DeepEqual(got, []string{"a.mk", "b.mk", "c.mk"}) {
		t.Errorf("MakeIncludesIn = %q", got)
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
