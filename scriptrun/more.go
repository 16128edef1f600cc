package scriptrun

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
)

// The routes below run files the line does not name as a script (issue 25
// items 6 and 9): plain `make` reads the default makefile, `python3 -c
// 'import forge'` a module of the repository, `python3 -i` the file
// PYTHONSTARTUP names, pytest every conftest.py, `awk -f`/`sed -f` a
// program file (sed's `w FILE` writes), `go run ./cmd/x` a package.

// exports records `export X=Y` (literal values) in env: the programs after
// it on the line see X.
func exports(st *syntax.Stmt, env map[string]string) {
	d, ok := st.Cmd.(*syntax.DeclClause)
	if !ok || d.Variant == nil || d.Variant.Value != "export" {
		return
	}
	for _, a := range d.Args {
		if a.Name == nil || a.Value == nil {
			continue
		}
		if v, ok := shellline.Literal(a.Value); ok {
			env[a.Name.Value] = v
		}
	}
}

// callEnv is the environment a call adds to the line's: its assignments
// (`X=Y cmd`) and an `env X=Y` wrapper's (the first n words stripped).
func callEnv(c *syntax.CallExpr, raw []string, n int, lineEnv map[string]string) map[string]string {
	env := map[string]string{}
	for k, v := range lineEnv {
		env[k] = v
	}
	for _, a := range c.Assigns {
		if a.Name == nil || a.Value == nil {
			continue
		}
		if v, ok := shellline.Literal(a.Value); ok {
			env[a.Name.Value] = v
		}
	}
	for _, w := range raw[:max(0, min(n, len(raw)))] {
		if k, v, ok := strings.Cut(w, "="); ok && envName.MatchString(k) {
			env[k] = v
		}
	}
	return env
}

var envName = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// projectRunners run their operand in the project's environment: `uv run
// pytest` runs pytest.
var projectRunners = map[string]bool{"uv": true, "poetry": true, "pipenv": true, "pdm": true, "rye": true, "hatch": true}

// unwrapRunner strips `uv run [options]` and its kind from w.
func unwrapRunner(w []string) []string {
	if len(w) < 3 || !projectRunners[shellline.CommandName(w[0])] || w[1] != "run" {
		return w
	}
	w = w[2:]
	for len(w) > 0 && strings.HasPrefix(w[0], "-") {
		opt := w[0]
		w = w[1:]
		if !strings.Contains(opt, "=") && slices.Contains([]string{"--with", "--extra", "--group", "--python", "-p", "--package", "--directory", "--project", "--env-file", "--with-requirements", "--index", "-e", "--env"}, opt) && len(w) > 0 {
			w = w[1:]
		}
	}
	return w
}

// moreRuns are the runs of the routes above; done says the command is
// none of the interpreters stmtRuns handles after it.
func moreRuns(name string, w []string, env map[string]string) (out []Run, done bool) {
	args := w[1:]
	switch name {
	case "awk", "gawk", "mawk", "nawk":
		return progFiles(Awk, name, args, "f"), true
	case "sed", "gsed":
		return progFiles(Sed, name, args, "f"), true
	case "go":
		if len(args) > 0 && args[0] == "run" {
			return goRun(args[1:]), true
		}
		if len(args) > 0 && args[0] == "test" {
			return goTestRuns(args[1:]), true
		}
		if len(args) > 0 && args[0] == "generate" {
			// the packages' //go:generate directives: commands it runs
			rs := goTestRuns(args[1:])
			rs[0].Suite, rs[0].Via = "go generate", "go generate"
			return rs, true
		}
		return nil, true
	case "pytest", "py.test":
		return pytestRuns(name, args), true
	case "jest", "vitest", "mocha", "_mocha":
		return jsRunner(strings.TrimPrefix(name, "_"), args), true
	case "npx", "pnpx", "bunx":
		// npx [options] jest ...: the runner npx starts
		for i, a := range args {
			if !strings.HasPrefix(a, "-") {
				if r := shellline.CommandName(a); r == "jest" || r == "vitest" || r == "mocha" {
					return jsRunner(r, args[i+1:]), true
				}
				break
			}
		}
		return nil, true
	case "npm", "yarn", "pnpm":
		out := npmScriptRuns(name, args)
		// yarn jest, pnpm vitest, npm exec jest: a runner of the package's
		for i, a := range args {
			if a == "exec" || a == "x" || a == "dlx" || (name != "npm" && i == 0) {
				rest := args[i:]
				if a == "exec" || a == "x" || a == "dlx" {
					rest = args[i+1:]
				}
				for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
					rest = rest[1:]
				}
				if len(rest) > 0 && (rest[0] == "jest" || rest[0] == "vitest" || rest[0] == "mocha") {
					out = append(out, jsRunner(rest[0], rest[1:])...)
				}
				break
			}
		}
		return out, true
	case "bun":
		if len(args) > 0 && args[0] == "test" {
			return jsRunner("bun test", args[1:]), true
		}
		if rs := npmScriptRuns(name, args); len(rs) > 0 {
			return rs, true
		}
	}
	lang, ok := interpreterLang(name)
	if !ok || lang != Python {
		return nil, false
	}
	pp := env["PYTHONPATH"]
	if p := env["PYTHONSTARTUP"]; p != "" {
		out = append(out, Run{Lang: Python, Path: p, Via: name, By: "the PYTHONSTARTUP file, which " + name + " runs at start", PyPath: pp})
	}
	for i, a := range args {
		switch {
		case a == "-c" && i+1 < len(args):
			if args[i+1] != "" {
				out = append(out, Run{Lang: Python, Code: args[i+1], Imports: true, Via: name + " -c", PyPath: pp})
			}
			return out, false
		case a == "-m" && i+1 < len(args):
			if args[i+1] == "pytest" || args[i+1] == "py.test" {
				out = append(out, pytestRuns(name+" -m pytest", args[i+2:])...)
			}
			if args[i+1] == "unittest" {
				out = append(out, unittestRuns(name+" -m unittest", args[i+2:])...)
			}
			return out, false
		case !strings.HasPrefix(a, "-"):
			return out, false
		}
	}
	return out, false
}

// progFiles are the program files of `awk -f F` and `sed -f F` (also
// -fF, --file=F, --file F and sed's -nf F).
func progFiles(lang Lang, name string, args []string, flag string) []Run {
	var out []Run
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return out
		case strings.HasPrefix(a, "--file="):
			out = append(out, Run{Lang: lang, Path: a[len("--file="):], Via: name + " -f"})
		case a == "--file" && i+1 < len(args):
			out = append(out, Run{Lang: lang, Path: args[i+1], Via: name + " -f"})
			i++
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, flag):
			// -f F, -nf F, -fF
			j := strings.Index(a, flag)
			if rest := a[j+1:]; rest != "" {
				out = append(out, Run{Lang: lang, Path: rest, Via: name + " -f"})
			} else if i+1 < len(args) {
				out = append(out, Run{Lang: lang, Path: args[i+1], Via: name + " -f"})
				i++
			}
		}
	}
	return out
}

// goRun is what `go run` builds: its .go files, or a package folder named
// by a path (`./cmd/x`, `.`); a module path (`golang.org/x/...@v1`) is no
// file here.
func goRun(args []string) []Run {
	valued := map[string]bool{"-C": true, "-tags": true, "-exec": true, "-ldflags": true, "-gcflags": true, "-asmflags": true, "-mod": true, "-modfile": true, "-o": true, "-p": true, "-overlay": true, "-pkgdir": true, "-toolexec": true, "-covermode": true, "-coverpkg": true}
	var out []Run
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case valued[a]:
			i++
		case strings.HasPrefix(a, "-"):
		case strings.HasSuffix(a, ".go"):
			out = append(out, Run{Lang: Go, Path: a, Via: "go run"})
		default:
			if len(out) == 0 && (a == "." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") || path.IsAbs(a)) {
				out = append(out, Run{Lang: Go, Path: strings.TrimSuffix(a, "/..."), GoPackage: true, Via: "go run"})
			}
			return out // the rest are the program's arguments
		}
	}
	return out
}

// pytestRuns: pytest imports every conftest.py from its folder down (and
// those above it to the repository root), and the plugins `-p NAME` names.
func pytestRuns(via string, args []string) []Run {
	valued := map[string]bool{"-k": true, "-m": true, "-c": true, "-o": true, "--rootdir": true, "--confcutdir": true, "--basetemp": true, "-W": true, "--junitxml": true, "--junit-xml": true, "--tb": true, "-n": true, "--maxfail": true, "--deselect": true, "--ignore": true, "--cov": true, "--durations": true, "-r": true, "--log-level": true, "--override-ini": true, "--import-mode": true}
	var more []Run
	var paths []string
	anyPy := false // the line names its own test files or ini: every .py read
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-o" || a == "--override-ini") && i+1 < len(args):
			i++
			k, _, _ := strings.Cut(args[i], "=")
			anyPy = anyPy || k == "python_files" || k == "testpaths"
		case strings.HasPrefix(a, "--override-ini=") || strings.HasPrefix(a, "-opython_files") || strings.HasPrefix(a, "-otestpaths"):
			k, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "--override-ini="), "-o"), "=")
			anyPy = anyPy || k == "python_files" || k == "testpaths"
		case (a == "-c" || a == "--config-file") && i+1 < len(args):
			i++
			anyPy = true
		case strings.HasPrefix(a, "--config-file="):
			anyPy = true
		case a == "-p" && i+1 < len(args):
			if !strings.HasPrefix(args[i+1], "no:") {
				more = append(more, Run{Lang: Python, Code: "import " + args[i+1], Imports: true, Via: via + " -p " + args[i+1]})
			}
			i++
		case valued[a]:
			i++
		case strings.HasPrefix(a, "-") || a == "":
		default:
			p, _, _ := strings.Cut(a, "::")
			paths = append(paths, p)
		}
	}
	r := Run{Lang: Python, Path: ".", Conftest: true, Via: via, Paths: strings.Join(paths, " ")}
	if anyPy {
		r.Suite = "pytest " + anyPython
	}
	return append([]Run{r}, more...)
}

// defaultMakefile is plain `make`'s run: the default makefile in the
// folder -C names (else the line's), the goals and variables the line gives.
func defaultMakefile(name string, args []string) Run {
	r := Run{Lang: Make, Path: ".", DefaultMakefile: true, Via: name}
	r.Goals, r.MakeVars, r.Path = makeArgs(args, r.Path)
	return r
}

// makeArgs reads make's goals, VAR=value overrides and -C folder.
func makeArgs(args []string, dir string) (goals, vars, outDir string) {
	valued := map[string]bool{"-C": true, "--directory": true, "-I": true, "--include-dir": true, "-o": true, "--old-file": true, "-W": true, "--what-if": true, "-f": true, "--file": true, "--makefile": true, "-l": true}
	var g, v []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "--directory":
			if i+1 < len(args) && args[i+1] != "" {
				dir = path.Join(dir, args[i+1])
			}
			i++
		case strings.HasPrefix(a, "--directory="):
			dir = path.Join(dir, a[len("--directory="):])
		case strings.HasPrefix(a, "-C") && len(a) > 2:
			dir = path.Join(dir, a[2:])
		case valued[a]:
			i++
		case a == "-j" || a == "--jobs":
			if i+1 < len(args) && args[i+1] != "" && strings.Trim(args[i+1], "0123456789") == "" {
				i++
			}
		case strings.HasPrefix(a, "-"):
		case strings.Contains(a, "="):
			v = append(v, a)
		case a != "":
			g = append(g, a)
		}
	}
	return strings.Join(g, " "), strings.Join(v, "\n"), dir
}

// MakeFile is one makefile of a make run, with the name shown in messages.
type MakeFile struct {
	Name, Text string
}

// DefaultMakefiles are what plain make reads, in its order.
var DefaultMakefiles = []string{"GNUmakefile", "makefile", "Makefile"}

var (
	makeInclude = lazyregexp.New(`(?m)^[ ]*(?:-include|sinclude|include)[ \t]+(.+)$`)
	makeAssign  = lazyregexp.New(`^\s*(?:(?:export|override)\s+)*([A-Za-z_][A-Za-z0-9_.-]*)\s*(?:::=|:::=|:=|\+=|\?=|!=|=)\s*(.*)$`)
	makeVarRef  = lazyregexp.New(`\$[({]([A-Za-z_][A-Za-z0-9_.-]*)[)}]`)
	makeShell   = lazyregexp.New(`\$[({]shell[ \t]+([^)}]+)[)}]`)
	makeBang    = lazyregexp.New(`^\s*[A-Za-z_][A-Za-z0-9_.-]*\s*!=\s*(.+)$`)
)

var makeWildcard = lazyregexp.New(`\$[({]wildcard[ \t]+([^)}]+)[)}]`)

// makeComputed is a $(...) left after expansion, spaces and all: one
// unknown piece of a name.
var makeComputed = lazyregexp.New(`\$(?:\([^()]*(?:\([^()]*\)[^()]*)*\)|\{[^{}]*\})`)

// maxMakeCandidates bounds the files a computed include could name.
const maxMakeCandidates = 64

// makeCandidates are the files (relative to dir, or absolute) an include
// word with unknown pieces ($$(?)) could name: its literal pieces in
// order, and a make-like name (x.mk, Makefile.x) when the word has no
// literal piece. They are looked for three levels down (hidden folders
// and node_modules left out) from the folder the word's literal start
// names (`../shared/$(X).mk`: ../shared, outside the make folder too),
// else from dir and, when the word's folder is computed as well
// (`$(shell git rev-parse --show-toplevel)/x.mk`), from the repository's
// top (issue 25, the closing note: both were walked only under dir).
func makeCandidates(word, dir string) []string {
	rest, base, abs := word, dir, false
	lead := word[:strings.Index(word+"$$(?)", "$$(?)")]
	if j := strings.LastIndexByte(lead, '/'); j >= 0 {
		if pd := lead[:j+1]; path.IsAbs(pd) || strings.HasPrefix(path.Clean(pd), "..") {
			rest, abs = word[j+1:], path.IsAbs(pd)
			base = filepath.Join(dir, filepath.FromSlash(pd))
			if abs {
				base = filepath.Clean(filepath.FromSlash(pd))
			}
		}
	}
	bases := []string{base}
	if base == dir && !strings.Contains(lead, "/") && strings.HasPrefix(word, "$$(?)") {
		if top := repoTop(dir); top != "" && top != dir {
			bases = append(bases, top)
		}
	}
	var b strings.Builder
	b.WriteString("^")
	lit := false
	for i, part := range strings.Split(rest, "$$(?)") {
		if i > 0 {
			if p, ok := strings.CutPrefix(part, "/"); ok {
				b.WriteString("(?:.*/)?") // $(TOP)/x.mk: TOP may be the walk's own folder
				part = p
			} else {
				b.WriteString(".*")
			}
		}
		if strings.Trim(part, "/") != "" {
			lit = true
		}
		b.WriteString(regexp.QuoteMeta(strings.TrimPrefix(part, "./")))
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	var out []string
	for _, from := range bases {
		_ = filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
			if err != nil || len(out) >= maxMakeCandidates {
				return filepath.SkipDir
			}
			rel, _ := filepath.Rel(from, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || strings.Count(rel, "/") >= 2) {
					return filepath.SkipDir
				}
				return nil
			}
			n := d.Name()
			makeLike := strings.HasSuffix(n, ".mk") || strings.HasSuffix(n, ".make") || strings.HasSuffix(n, ".mak") || strings.HasPrefix(strings.ToLower(n), "makefile") || n == "GNUmakefile"
			if !re.MatchString(rel) || !(lit || makeLike) || !d.Type().IsRegular() {
				return nil
			}
			name := p
			if !abs {
				r, err := filepath.Rel(dir, p)
				if err != nil {
					return nil
				}
				name = filepath.ToSlash(r)
			}
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
			return nil
		})
	}
	return out
}

// repoTop is the nearest folder at or above dir that holds .git, "" when
// none does.
func repoTop(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// MakeIncludesIn are the files a makefile includes with its variables
// expanded as make would (vars: MakeVarsOf the makefiles and the line),
// `$(wildcard P)` and bare glob patterns matched in dir (relative to
// it): `include $(CONF).mk` with `CONF = local` reads local.mk. A name
// still holding a reference make computes (`$(SRCS:.c=.d)`, `$(shell
// ...)`) is left out: its file is not known before make runs.
func MakeIncludesIn(text string, vars map[string]string, dir string) []string {
	out, _ := MakeIncludesOf(text, vars, dir)
	return out
}

// MakeIncludesOf is MakeIncludesIn and whether a name was computed at run
// time (then the candidates are listed, and which of them make reads, so
// which goal comes first, is not known).
func MakeIncludesOf(text string, vars map[string]string, dir string) (out []string, computed bool) {
	for _, m := range makeInclude.FindAllStringSubmatch(text, -1) {
		line := m[1]
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = expandMake(line, vars)
		line = makeWildcard.ReplaceAllString(line, "$1")
		for _, f := range strings.Fields(makeComputed.ReplaceAllLiteralString(line, "$$(?)")) {
			switch {
			case strings.Contains(f, "$"):
				// computed at run time ($(shell ...), a variable the
				// environment sets): every file the name could be
				for _, c := range makeCandidates(f, dir) {
					if !slices.Contains(out, c) {
						out = append(out, c)
					}
				}
				computed = true
			case strings.ContainsAny(f, "*?["):
				ms, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(f)))
				for _, g := range ms {
					if rel, err := filepath.Rel(dir, g); err == nil {
						out = append(out, filepath.ToSlash(rel))
					}
				}
			default:
				out = append(out, f)
			}
		}
	}
	return out, computed
}

// MakeVarsOf are the simple variables of makefiles (as MakeRecipes reads
// them) with the line's VAR=value overrides.
func MakeVarsOf(files []MakeFile, lineVars []string) map[string]string {
	vars := map[string]string{"MAKE": "make"}
	for _, f := range files {
		for _, l := range strings.Split(f.Text, "\n") {
			if strings.HasPrefix(l, "\t") {
				continue
			}
			if m := makeAssign.FindStringSubmatch(l); m != nil && !strings.Contains(strings.SplitN(l, "=", 2)[0], ": ") {
				if _, set := vars[m[1]]; !set || !strings.Contains(l, "?=") {
					if strings.Contains(l, "+=") {
						vars[m[1]] = strings.TrimSpace(vars[m[1]] + " " + m[2])
					} else {
						vars[m[1]] = strings.TrimSpace(m[2])
					}
				}
			}
		}
	}
	for _, kv := range lineVars {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	return vars
}

// makeRule is an explicit rule's prerequisites and recipe lines.
type makeRule struct {
	prereqs []string
	recipe  []Stmt
}

// MakeRecipes are the recipe lines a make run with goals executes: the
// goals' rules (the default goal when none is given) and their
// prerequisites' in turn, and every pattern rule's, with the makefiles'
// simple variables (and the line's VAR=value) expanded. A goal no rule
// names makes every recipe count. A setup target the run never reaches
// (`hooks: ; git config core.hooksPath .githooks`) is not the run's.
func MakeRecipes(files []MakeFile, goals []string, lineVars []string) []Stmt {
	vars := map[string]string{"MAKE": "make"}
	rules := map[string]*makeRule{}
	var always []Stmt // pattern rules and computed targets
	var all []Stmt
	first := ""
	for _, f := range files {
		lines := strings.Split(f.Text, "\n")
		var cur []*makeRule
		curAlways := false
		for i := 0; i < len(lines); i++ {
			l := lines[i]
			if strings.HasPrefix(l, "\t") && (cur != nil || curAlways) {
				n := i + 1
				cmd := strings.TrimSpace(l)
				for strings.HasSuffix(cmd, `\`) && i+1 < len(lines) {
					i++
					cmd = strings.TrimSuffix(cmd, `\`) + " " + strings.TrimSpace(lines[i])
				}
				cmd = strings.TrimLeft(cmd, "@-+ ")
				if cmd == "" {
					continue
				}
				st := Stmt{Line: n, Text: cmd, File: f.Name}
				all = append(all, st)
				if curAlways {
					always = append(always, st)
				}
				for _, r := range cur {
					r.recipe = append(r.recipe, st)
				}
				continue
			}
			t := strings.TrimSpace(l)
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			cur, curAlways = nil, false
			// $(shell CMD) and VAR != CMD run when make reads the file,
			// whatever the goals.
			for _, m := range makeShell.FindAllStringSubmatch(l, -1) {
				always = append(always, Stmt{Line: i + 1, Text: m[1], File: f.Name})
			}
			if m := makeBang.FindStringSubmatch(l); m != nil {
				always = append(always, Stmt{Line: i + 1, Text: m[1], File: f.Name})
			}
			if m := makeAssign.FindStringSubmatch(l); m != nil && !strings.Contains(strings.SplitN(l, "=", 2)[0], ": ") {
				if _, set := vars[m[1]]; !set || !strings.Contains(l, "?=") {
					if strings.Contains(l, "+=") {
						vars[m[1]] = strings.TrimSpace(vars[m[1]] + " " + m[2])
					} else {
						vars[m[1]] = m[2]
					}
				}
				continue
			}
			tg, rest, ok := strings.Cut(t, ":")
			if !ok || strings.HasPrefix(t, "include") || strings.HasPrefix(t, "-include") || strings.HasPrefix(t, "ifeq") || strings.HasPrefix(t, "ifneq") || strings.HasPrefix(t, "define") {
				continue
			}
			rest = strings.TrimPrefix(rest, ":")
			inline := ""
			if pre, cmd, ok := strings.Cut(rest, ";"); ok {
				rest, inline = pre, strings.TrimSpace(cmd)
			}
			if strings.Contains(rest, "=") {
				continue // a target-specific variable
			}
			for _, name := range strings.Fields(tg) {
				if strings.ContainsAny(name, "%$") {
					curAlways = true
					continue
				}
				r := rules[name]
				if r == nil {
					r = &makeRule{}
					rules[name] = r
				}
				r.prereqs = append(r.prereqs, strings.Fields(strings.ReplaceAll(rest, "|", " "))...)
				cur = append(cur, r)
				if first == "" && (!strings.HasPrefix(name, ".") || strings.Contains(name, "/")) {
					first = name
				}
			}
			if inline != "" {
				st := Stmt{Line: i + 1, Text: inline, File: f.Name}
				all = append(all, st)
				if curAlways {
					always = append(always, st)
				}
				for _, r := range cur {
					r.recipe = append(r.recipe, st)
				}
			}
		}
	}
	for _, kv := range lineVars {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	if len(goals) == 0 {
		if g := strings.TrimSpace(vars[".DEFAULT_GOAL"]); g != "" {
			goals = strings.Fields(g)
		} else if first != "" {
			goals = []string{first}
		}
	}
	// The goals and what they need, and `$(MAKE) other` in a recipe.
	var out []Stmt
	seen := map[string]bool{}
	todo := append([]string{}, goals...)
	for len(todo) > 0 {
		g := expandMake(todo[0], vars)
		todo = todo[1:]
		if seen[g] {
			continue
		}
		seen[g] = true
		r := rules[g]
		if r == nil {
			if slices.Contains(goals, g) {
				out = all // a goal no rule names: judge every recipe
				break
			}
			continue // a prerequisite that is a file
		}
		todo = append(todo, r.prereqs...)
		for _, st := range r.recipe {
			out = append(out, st)
			if w := strings.Fields(expandMake(st.Text, vars)); len(w) > 1 && (w[0] == "make" || w[0] == "gmake") {
				for _, a := range w[1:] {
					if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
						todo = append(todo, a)
					}
				}
			}
		}
	}
	if len(goals) == 0 {
		out = all
	}
	out = append(out, always...)
	res := make([]Stmt, 0, len(out))
	dup := map[Stmt]bool{}
	for _, st := range out {
		if dup[st] {
			continue
		}
		dup[st] = true
		st.Text = strings.ReplaceAll(expandMake(st.Text, vars), "$$", "$")
		res = append(res, st)
	}
	return res
}

// expandMake expands $(VAR) and ${VAR} of the makefile's variables, a few
// rounds deep; a variable it does not know is left as written.
func expandMake(s string, vars map[string]string) string {
	for range 5 {
		n := makeVarRef.ReplaceAllStringFunc(s, func(m string) string {
			if v, ok := vars[m[2:len(m)-1]]; ok {
				return v
			}
			return m
		})
		if n == s {
			break
		}
		s = n
	}
	return s
}

var (
	pyImport  = lazyregexp.New(`(?m)(?:^|;)[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)`)
	pyFrom    = lazyregexp.New(`(?m)(?:^|;)[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?[ \t]*([\w, \t]+)`)
	pyDynamic = lazyregexp.New(`(?:__import__|import_module)\(\s*['"]([\w.]+)['"]`)
	pyPlugins = lazyregexp.New(`(?m)^pytest_plugins\s*=\s*([^\n]+)`)
	pyQuoted  = lazyregexp.New(`['"]([\w.]+)['"]`)
)

// PythonImports are the modules Python code imports, as dotted names (a
// leading dot is relative to the file's package); `from a import b` gives
// a and a.b (b may be a module). pytest_plugins' modules are imports too.
func PythonImports(code string) []string {
	var out []string
	add := func(m string) {
		if m != "" && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	for _, m := range pyImport.FindAllStringSubmatch(code, -1) {
		for _, part := range strings.Split(m[1], ",") {
			if f := strings.Fields(part); len(f) > 0 {
				add(f[0])
			}
		}
	}
	for _, m := range pyFrom.FindAllStringSubmatch(code, -1) {
		add(m[1])
		for _, part := range strings.Split(m[2], ",") {
			if f := strings.Fields(part); len(f) > 0 && f[0] != "*" {
				sep := "."
				if strings.HasSuffix(m[1], ".") {
					sep = ""
				}
				add(m[1] + sep + f[0])
			}
		}
	}
	for _, m := range pyDynamic.FindAllStringSubmatch(code, -1) {
		add(m[1])
	}
	for _, m := range pyPlugins.FindAllStringSubmatch(code, -1) {
		for _, q := range pyQuoted.FindAllStringSubmatch(m[1], -1) {
			add(q[1])
		}
	}
	return out
}

// ModuleFiles are the files importing mod runs, relative to a folder on
// the search path (or, for a relative import, the file's folder): each
// package's __init__.py on the way, and the module's file.
func ModuleFiles(mod string) []string {
	mod = strings.TrimLeft(mod, ".")
	if mod == "" {
		return []string{"__init__.py"}
	}
	var out []string
	parts := strings.Split(mod, ".")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		out = append(out, p+"/__init__.py", p+".py")
	}
	return out
}

// conftestSkip are folders pytest does not collect (norecursedirs'
// defaults) or that hold installed code.
var conftestSkip = map[string]bool{"node_modules": true, "__pycache__": true, "venv": true, "build": true, "dist": true, "site-packages": true, "CVS": true, "_darcs": true}

// MaxConftestDirs bounds the folders searched for conftest.py at one call.
const MaxConftestDirs = 4000

// Conftests are the conftest.py files pytest started in dir imports when
// it collects args (paths relative to dir; none: dir itself): in each
// path and its folders below (hidden ones and conftestSkip left out, at
// most MaxConftestDirs in all), and in the folders above it up to the
// repository root. Only within the repository.
func (pl Places) Conftests(dir string, args []string) []string {
	dir = filepath.Clean(dir)
	if len(args) == 0 {
		args = []string{"."}
	}
	var out []string
	seen := map[string]bool{}
	budget := MaxConftestDirs
	for _, a := range args {
		p := filepath.Join(dir, filepath.FromSlash(a))
		if filepath.IsAbs(a) {
			p = filepath.Clean(a)
		}
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			p = filepath.Dir(p)
		}
		for _, f := range pl.conftestsAt(p, &budget) {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

func (pl Places) conftestsAt(dir string, budget *int) []string {
	if _, in, ok := pl.where(dir); !ok || !in {
		return nil
	}
	var out []string
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if _, in, ok := pl.where(d); !ok || !in {
			break
		}
		if st, err := os.Stat(filepath.Join(d, "conftest.py")); err == nil && st.Mode().IsRegular() {
			out = append(out, filepath.Join(d, "conftest.py"))
		}
		if d == filepath.Clean(pl.Root) || d == filepath.Dir(d) {
			break
		}
	}
	queue := []string{dir}
	for ; len(queue) > 0 && *budget > 0; *budget-- {
		d := queue[0]
		queue = queue[1:]
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			name := e.Name()
			switch {
			case e.IsDir():
				if !strings.HasPrefix(name, ".") && !conftestSkip[name] {
					queue = append(queue, filepath.Join(d, name))
				}
			case name == "conftest.py":
				out = append(out, filepath.Join(d, name))
			}
		}
	}
	return out
}

// MaxGoFiles bounds the files of one `go run` package that are read.
const MaxGoFiles = 64

// GoFiles are the .go files `go run` builds from a package folder (tests
// left out), at most MaxGoFiles.
func GoFiles(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") && len(out) < MaxGoFiles {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}

// Has reports whether abs is a regular file in one of the places.
func (pl Places) Has(abs string) bool {
	if _, _, ok := pl.where(abs); !ok {
		return false
	}
	st, err := os.Stat(abs)
	return err == nil && st.Mode().IsRegular()
}
