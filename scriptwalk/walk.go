// Package scriptwalk judges the script files a shell line runs, read at
// the agent hook before the line runs (issue 25: `sh tidy.sh`, `python3
// forge.py` or `bash -c "$(cat f)"` ran files the hook never read). It
// walks what a line runs (package scriptrun finds it): a shell script or a
// makefile's recipes statement by statement, an npm script, the modules a
// Python or JS file imports, the files a test runner loads, a go run
// package; each is scanned for the things sessiongate protects, and each
// line a script runs goes back to the caller's Judge, the rules of a typed
// line. It needs no session: session/scriptwalk.go binds Judge to the
// engine's agentPreTool with the bound session and policy.
package scriptwalk

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/scriptrun"
)

// The hook judged each line the agent ran, but `sh tidy.sh`, `python3
// forge.py` or `bash -c "$(cat f)"` ran files it never read: such a script
// wrote the session database, re-sealed the gate events with event.key,
// rewrote the hooks or the records ref (issue 25). Now the files a line
// runs are read at the hook (package scriptrun): a shell script's
// statements go through the same rules as a typed line, any other
// language is scanned for the things sessiongate protects, and a denial
// names the file and the line.

// maxScriptDepth bounds scripts that run scripts (a.sh runs b.sh ...).
const maxScriptDepth = 4

// maxFollowed bounds the files one line's runs lead to (imported modules,
// conftest.py files, a go run package's files, included makefiles) that
// are judged in full: a hook answers every tool call, and an honest test
// suite imports much of its project. Imports are followed to any depth
// (two levels let conftest -> h1 -> h2 -> h3 run h3 unread); the files
// past maxFollowed are checked for the plain names of what sessiongate
// protects (scriptrun.Mentions), their imports followed too, up to
// scriptrun.MaxSuiteFiles, past which a line is denied during a session.
const maxFollowed = 48

// maxSuiteJudged bounds the files of a test run (test modules, _test.go
// files, a JS runner's config, setup and test files) judged in full at one
// line; the rest, up to scriptrun.MaxSuiteFiles, are checked for the plain
// names of what sessiongate protects (scriptrun.Mentions), and a suite
// past that is denied during a session rather than run unread.
const maxSuiteJudged = 64

// Read is a script file an allowed shell call runs, as read at the hook:
// where (repository-relative, or absolute in a temp folder) and the sha256
// of its bytes, never its text.
type Read struct {
	Path   string
	SHA256 string
	InRepo bool
}

// Verdict is what a walk, or a line its Judge judged, says: denied and why
// (Reason) with what to do instead (Next), and the scripts read.
type Verdict struct {
	Deny         bool
	Reason, Next string
	Scripts      []Read
}

// Line is a shell line a script runs (or a whole shell script), to be
// judged with the rules of a line the agent typed.
type Line struct {
	Text string
	Dir  string // the folder it runs in
	// Within is where it stands: a statement of a shell script's text, a
	// command line in a string (or list of strings) of another language's.
	Within scriptrun.Within
	Depth  int // scripts run by scripts: the walk's Depth + 1
}

// Judge is the caller's side of a walk: the policy check of each line a
// script runs, with the bound session and the rules of a typed line. An
// error is a line that could not be judged; the walk denies it.
type Judge interface {
	JudgeLine(ctx context.Context, l Line) (Verdict, error)
}

// Walk is one shell call's walk of the scripts its lines run.
type Walk struct {
	Root string
	// Dir is the call's folder; relative or "": Root.
	Dir string
	// Command is the call's whole command: a line is a statement of its
	// own call's shell script when Within names none.
	Command string
	// Within is where the call's lines stand (a script's line judged
	// again: its text, string or list).
	Within scriptrun.Within
	// Active: a session is active (what cannot be read is denied only
	// then).
	Active bool
	// Targets are what a script may not name.
	Targets []scriptrun.Target
	// Depth is how deep in scripts run by scripts the call is.
	Depth int
	Judge Judge
}

// Lines judges the scripts the lines of a shell call run. It returns an
// allowing verdict listing the scripts read when none is denied.
func (w *Walk) Lines(ctx context.Context, lines []string) (*Verdict, error) {
	v := &Verdict{}
	active := w.Active
	root, depth := w.Root, w.Depth
	dir := root
	if w.Dir != "" && filepath.IsAbs(w.Dir) {
		dir = w.Dir
	}
	places := scriptrun.Places{Root: root, Temp: scriptrun.DefaultTemp()}
	targets := w.Targets
	deny := func(reason, next string) (*Verdict, error) {
		v.Deny, v.Reason, v.Next = true, reason, next
		return v, nil
	}
	for _, line := range lines {
		runs := scriptrun.Find(line)
		if len(runs) == 0 {
			continue
		}
		// What the line hands the script (an argument, a variable set on
		// the line: `P=.git/hooks python3 x.py` with os.environ["P"]),
		// checked once a file is to be read: `python3 -c "..."` whose
		// imports are all installed modules runs no script of the agent's.
		argsChecked := false
		argsDenied := func() bool {
			if argsChecked {
				return false
			}
			argsChecked = true
			fs := scriptrun.Scan(scriptrun.Unknown, scriptrun.QuotedWords(line, runs), targets)
			if len(fs) > 0 {
				v.Deny, v.Reason, v.Next = true, fmt.Sprintf("the line gives %s to the script it runs%s", fs[0].What, scriptrun.HowNote(fs[0].How)),
					"leave sessiongate's files, the hooks and the records to sessiongate"
			}
			return len(fs) > 0
		}
		// Runs found on the way (the modules a script imports, the
		// conftest.py files pytest imports, a package's .go files) join
		// the list; followed counts them against maxFollowed.
		seen := map[string]bool{}
		followed := 0
		level := make([]int, len(runs))
		var past []scriptrun.Run // followed past maxFollowed: checked cheaply
		follow := func(r scriptrun.Run, lvl int, abs string) {
			if seen[abs] {
				return
			}
			seen[abs] = true
			r.Path, r.Optional, r.Dir = abs, true, ""
			if followed >= maxFollowed {
				past = append(past, r)
				return
			}
			followed++
			runs = append(runs, r)
			level = append(level, lvl)
		}
		// suite adds the files a test run loads (the first maxSuiteJudged
		// of the line in full) and checks the rest; "" or the denial.
		suiteJudged := 0
		suite := func(r scriptrun.Run, runner, sdir string, paths []string) string {
			files, over := places.SuiteFiles(runner, sdir, paths)
			for _, abs := range files {
				if seen[abs] {
					continue
				}
				seen[abs] = true
				if suiteJudged < maxSuiteJudged {
					suiteJudged++
					runs = append(runs, scriptrun.Run{Lang: scriptrun.SuiteLang(abs), Path: abs, Optional: true, Via: r.Via, By: "which " + runner + " loads", PyPath: r.PyPath})
					level = append(level, 0)
					continue
				}
				f, ok, err := places.Read(dir, abs)
				if err != nil || !ok {
					continue // a compiled file, or one gone: nothing the runner loads as code here
				}
				if fd, found := scriptrun.Mentions(f.Text, targets); found {
					return fmt.Sprintf("`%s` runs %s (which %s loads), whose line %d names %s: a test the agent runs may not touch what polices the session", r.Via, f.Rel, runner, fd.Line, fd.What)
				}
				v.Scripts = append(v.Scripts, Read{Path: f.Rel, SHA256: f.SHA256, InRepo: f.InRepo})
			}
			if over && active {
				return fmt.Sprintf("`%s` loads more than %d test files (%d MiB) at once, more than the hook reads before a command runs", r.Via, scriptrun.MaxSuiteFiles, scriptrun.MaxSuiteBytes>>20)
			}
			return ""
		}
		for i := 0; i < len(runs); i++ {
			r := runs[i]
			rdir := dir
			if r.Dir != "" {
				rdir = filepath.Join(dir, filepath.FromSlash(r.Dir))
			}
			if r.Dir != "" && filepath.IsAbs(r.Dir) {
				rdir = filepath.FromSlash(r.Dir)
			}
			switch {
			case r.Imports:
				for _, abs := range scriptrun.PyModuleFiles(places, scriptrun.PythonImports(r.Code), rdir, "", r.PyPath) {
					follow(scriptrun.Run{Lang: scriptrun.Python, Via: r.Via, By: "which it imports", PyPath: r.PyPath}, level[i]+1, abs)
				}
				continue
			case r.Conftest:
				for _, abs := range places.Conftests(filepath.Join(dir, filepath.FromSlash(r.Path)), strings.Fields(r.Paths)) {
					follow(scriptrun.Run{Lang: scriptrun.Python, Via: r.Via, By: "which pytest imports", PyPath: r.PyPath}, level[i], abs)
				}
				// and every test module it collects
				runner := "pytest"
				if r.Suite != "" {
					runner = r.Suite // the line's own test files or ini
				}
				if why := suite(r, runner, filepath.Join(dir, filepath.FromSlash(r.Path)), strings.Fields(r.Paths)); why != "" {
					return deny(why, "leave sessiongate's files, the hooks and the records to sessiongate; run the tests on narrower paths if the suite is too big to read")
				}
				continue
			case r.Suite != "":
				sdir := filepath.Join(dir, filepath.FromSlash(r.Path))
				if filepath.IsAbs(r.Path) {
					sdir = filepath.FromSlash(r.Path)
				}
				if why := suite(r, r.Suite, sdir, strings.Fields(r.Paths)); why != "" {
					return deny(why, "leave sessiongate's files, the hooks and the records to sessiongate; run the tests on narrower paths if the suite is too big to read")
				}
				continue
			case r.NpmScript != "" && r.Workspaces != "":
				// each workspace's own script, as npm runs it there
				pj := filepath.Join(dir, filepath.FromSlash(r.Path)) // Path holds the line's cd
				for _, w := range places.Workspaces(pj, strings.Split(r.Workspaces, "\n")) {
					wr := r
					wr.Path, wr.Workspaces, wr.Dir = w, "", ""
					runs = append(runs, wr)
					level = append(level, level[i])
				}
				continue
			case r.NpmScript != "":
				why, read, err := w.npmScript(ctx, places, dir, r)
				if err != nil {
					return nil, err
				}
				v.Scripts = append(v.Scripts, read...)
				if why != "" {
					return deny(why, "leave sessiongate's files, the hooks and the records to sessiongate; a person who wants that change makes it")
				}
				continue
			case r.GoPackage:
				for _, abs := range scriptrun.GoFiles(filepath.Join(dir, filepath.FromSlash(r.Path))) {
					follow(scriptrun.Run{Lang: scriptrun.Go, Via: "go run " + r.Path, By: "a file of the package"}, level[i], abs)
				}
				continue
			case r.Lang == scriptrun.Make && (r.DefaultMakefile || strings.HasPrefix(r.Via, "make") || strings.HasPrefix(r.Via, "gmake")):
				if argsDenied() {
					return v, nil
				}
				why, read, err := w.make(ctx, places, dir, rdir, r)
				if err != nil {
					return nil, err
				}
				v.Scripts = append(v.Scripts, read...)
				if why != "" {
					return deny(why, "leave sessiongate's files, the hooks and the records to sessiongate; a person who wants that change makes it")
				}
				continue
			}
			switch {
			case r.FromInput:
				if !active {
					continue
				}
				return deny(fmt.Sprintf("`%s` runs script files named by its input, which the hook cannot read", r.Via),
					"run each script by its name (`sh scripts/x.sh`), so it can be read")
			case r.Code != "":
				if argsDenied() {
					return v, nil
				}
				name := "the here-document"
				if r.OnLine {
					name = codeOnLine
				}
				if why := w.code(ctx, dir, r.Lang, r.Code, name, nil); why != "" {
					return deny(fmt.Sprintf("`%s` runs %s", r.Via, why), "leave sessiongate's files, the hooks and the records to sessiongate")
				}
				continue
			}
			if !r.Imports && !r.Conftest && !r.GoPackage && argsDenied() {
				return v, nil
			}
			within := w.Within
			if within.Shell == "" {
				// The line is its own shell script: a program it compiles
				// (`go build -o bin/app && ./bin/app`) or a virtual
				// environment it makes is not there until it runs, as in a
				// script file. A compiled program is not read either way
				// (a binary is skipped when it exists).
				within.Shell = w.Command
			}
			f, why, err := scriptrun.ReadRun(places, dir, r, active, within)
			if err != nil {
				return nil, err
			}
			if why != "" {
				return deny(why, "write the script in one call and run it by its name in another, so it can be read; a script may not touch what polices the session")
			}
			if f == nil {
				continue
			}
			v.Scripts = append(v.Scripts, Read{Path: f.Rel, SHA256: f.SHA256, InRepo: f.InRepo})
			if depth >= maxScriptDepth {
				if active {
					return deny(fmt.Sprintf("`%s` runs %s, scripts nested deeper than %d", r.Via, f.Rel, maxScriptDepth), "run the innermost script by its name")
				}
				continue
			}
			lang := r.Lang
			if lang == "" {
				lang = f.Lang
			}
			name := f.Rel
			if r.By != "" {
				name += " (" + r.By + ")"
			}
			jdir := dir
			if lang == scriptrun.Go {
				jdir = filepath.Dir(f.Abs) // go test and go generate run in the package's folder
			}
			if why := w.code(ctx, jdir, lang, f.Text, name, r.ArgList()); why != "" {
				return deny(fmt.Sprintf("`%s` runs %s", scriptrun.ViaText(r, f), why), "leave sessiongate's files, the hooks and the records to sessiongate; a person who wants that change makes it")
			}
			// A Python file's imports of the repository's modules run too
			// (`python3 t.py` whose `import forge` deletes the database).
			if lang == scriptrun.Python {
				for _, abs := range scriptrun.PyModuleFiles(places, scriptrun.PythonImports(f.Text), rdir, filepath.Dir(f.Abs), r.PyPath) {
					follow(scriptrun.Run{Lang: scriptrun.Python, Via: scriptrun.ViaText(r, f), By: "which " + f.Rel + " imports", PyPath: r.PyPath}, level[i]+1, abs)
				}
			}
			// So do a JS file's local requires and imports (`node t.js`
			// whose require('./lib/wipe') deletes the database); not an
			// installed package's own (under node_modules, wherever it is
			// linked from): following those in bundles timed the hook out
			// on the honest corpus (docs/benchmarks.md).
			if lang == scriptrun.Node && !scriptrun.InstalledJS(f.Abs) {
				for _, spec := range scriptrun.NodeRequires(f.Text) {
					for _, c := range scriptrun.NodeFiles(spec) {
						if abs := filepath.Join(filepath.Dir(f.Abs), filepath.FromSlash(c)); places.Has(abs) {
							follow(scriptrun.Run{Lang: scriptrun.Node, Via: scriptrun.ViaText(r, f), By: "which " + f.Rel + " requires"}, level[i]+1, abs)
							break
						}
					}
				}
			}
		}
		// The imports past maxFollowed: plain names, and their own imports.
		for j := 0; j < len(past); j++ {
			r := past[j]
			if j >= scriptrun.MaxSuiteFiles {
				if active {
					return deny(fmt.Sprintf("`%s` imports more than %d files of the repository, more than the hook reads before a command runs", r.Via, maxFollowed+scriptrun.MaxSuiteFiles),
						"run a narrower script or test path")
				}
				break
			}
			f, ok, err := places.Read(dir, r.Path)
			if err != nil || !ok {
				continue
			}
			if fd, found := scriptrun.Mentions(f.Text, targets); found {
				return deny(fmt.Sprintf("`%s` runs %s (%s), whose line %d names %s: a script the agent runs may not touch what polices the session", r.Via, f.Rel, r.By, fd.Line, fd.What),
					"leave sessiongate's files, the hooks and the records to sessiongate")
			}
			v.Scripts = append(v.Scripts, Read{Path: f.Rel, SHA256: f.SHA256, InRepo: f.InRepo})
			by := "which " + f.Rel + " imports"
			switch r.Lang {
			case scriptrun.Python:
				for _, abs := range scriptrun.PyModuleFiles(places, scriptrun.PythonImports(f.Text), dir, filepath.Dir(f.Abs), r.PyPath) {
					follow(scriptrun.Run{Lang: scriptrun.Python, Via: r.Via, By: by, PyPath: r.PyPath}, 0, abs)
				}
			case scriptrun.Node:
				if scriptrun.InstalledJS(f.Abs) {
					continue
				}
				for _, spec := range scriptrun.NodeRequires(f.Text) {
					for _, c := range scriptrun.NodeFiles(spec) {
						if abs := filepath.Join(filepath.Dir(f.Abs), filepath.FromSlash(c)); places.Has(abs) {
							follow(scriptrun.Run{Lang: scriptrun.Node, Via: r.Via, By: by}, 0, abs)
							break
						}
					}
				}
			}
		}
	}
	return v, nil
}

// maxMakefiles bounds the makefiles one make run reads (the makefile and
// what it includes).
const maxMakefiles = 16

// make judges a make run: the makefile (-f, else the default one in
// the -C folder), the makefiles it includes, and of their recipes the ones
// the run's goals reach (scriptrun.MakeRecipes), variables expanded, each
// with the shell-line rules and scanned for protected things. It returns
// "" or the denial, and the makefiles read.
func (w *Walk) make(ctx context.Context, places scriptrun.Places, dir, cwd string, r scriptrun.Run) (string, []Read, error) {
	active, depth, targets := w.Active, w.Depth, w.Targets
	makeDir := cwd
	var first *scriptrun.File
	if r.DefaultMakefile {
		makeDir = filepath.Join(dir, filepath.FromSlash(r.Path))
		if filepath.IsAbs(r.Path) {
			makeDir = filepath.FromSlash(r.Path)
		}
		for _, name := range scriptrun.DefaultMakefiles {
			f, why, err := scriptrun.ReadRun(places, makeDir, scriptrun.Run{Lang: scriptrun.Make, Path: name, Via: r.Via, Optional: true}, active, w.Within)
			if err != nil || why != "" || f != nil {
				if err != nil || why != "" {
					return why, nil, err
				}
				first = f
				break
			}
		}
	} else {
		f, why, err := scriptrun.ReadRun(places, dir, r, active, w.Within)
		if err != nil || why != "" {
			return why, nil, err
		}
		first = f
	}
	if first == nil {
		return "", nil, nil // no makefile here, or one outside the repository
	}
	var vars []string
	if r.MakeVars != "" {
		vars = strings.Split(r.MakeVars, "\n")
	}
	files := []*scriptrun.File{first}
	over := false // more makefiles than maxMakefiles: the rest unread
	for i := 0; i < len(files); i++ {
		// Variables as make knows them when it meets the include: the
		// makefiles read so far and the line's (`include $(CONF).mk`).
		var sofar []scriptrun.MakeFile
		for _, f := range files {
			sofar = append(sofar, scriptrun.MakeFile{Name: f.Rel, Text: f.Text})
		}
		incs, computed := scriptrun.MakeIncludesOf(files[i].Text, scriptrun.MakeVarsOf(sofar, vars), makeDir)
		if computed {
			r.ArgsKnown = false // which included rule comes first is not known: every recipe
		}
		for _, inc := range incs {
			f, why, err := scriptrun.ReadRun(places, makeDir, scriptrun.Run{Lang: scriptrun.Make, Path: inc, Via: r.Via, Optional: true}, active, w.Within)
			if err != nil || why != "" {
				return why, nil, err
			}
			if f != nil && !slices.ContainsFunc(files, func(g *scriptrun.File) bool { return g.Abs == f.Abs }) {
				if len(files) >= maxMakefiles {
					over = true
					continue
				}
				files = append(files, f)
			}
		}
	}
	if over && active {
		// eight decoy includes once pushed the ninth past the hook unread
		return fmt.Sprintf("`%s` reads more than %d makefiles (%s and what it includes, computed names counted as every file they could be), more than the hook reads before a command runs", r.Via, maxMakefiles, first.Rel), nil, nil
	}
	var read []Read
	var mfs []scriptrun.MakeFile
	for _, f := range files {
		read = append(read, Read{Path: f.Rel, SHA256: f.SHA256, InRepo: f.InRepo})
		mfs = append(mfs, scriptrun.MakeFile{Name: f.Rel, Text: f.Text})
	}
	if depth >= maxScriptDepth {
		if active {
			return fmt.Sprintf("`%s` runs %s, scripts nested deeper than %d", r.Via, first.Rel, maxScriptDepth), read, nil
		}
		return "", read, nil
	}
	for _, st := range scriptrun.MakeStmts(r, mfs, vars) {
		if fs := scriptrun.Scan(scriptrun.Shell, st.Text, targets); len(fs) > 0 {
			f := fs[0]
			f.Line = st.Line
			return fmt.Sprintf("`%s` runs %s", r.Via, scriptrun.ScanReason(st.File, f)), read, nil
		}
		v, err := w.Judge.JudgeLine(ctx, Line{Text: st.Text, Dir: makeDir, Within: w.Within, Depth: depth + 1})
		if err != nil {
			v = Verdict{Deny: true, Reason: "it could not be judged: " + err.Error()}
		}
		if v.Deny {
			return fmt.Sprintf("`%s` runs %s, whose line %d (`%s`) is denied: %s", r.Via, st.File, st.Line, scriptLine(st.Text), v.Reason), read, nil
		}
		read = append(read, v.Scripts...)
	}
	return "", read, nil
}

// npmScript judges a package.json script npm runs (r.NpmScript, in
// the package.json r.Path names) with the shell-line rules, in the
// package's folder: `npm test` whose pretest is `rm -rf .git/sessiongate`
// or `node wipe.js`. A package.json without the script runs nothing.
func (w *Walk) npmScript(ctx context.Context, places scriptrun.Places, dir string, r scriptrun.Run) (string, []Read, error) {
	active, depth := w.Active, w.Depth
	f, ok, err := places.Read(dir, r.Path)
	switch {
	case errors.Is(err, scriptrun.ErrNotThere), errors.Is(err, scriptrun.ErrBinary), err == nil && !ok:
		return "", nil, nil
	case errors.Is(err, scriptrun.ErrNotText):
		if !active {
			return "", nil, nil
		}
		return fmt.Sprintf("`%s` runs a script of %s, which is not text, so no check can read it", r.Via, r.Path), nil, nil
	case err != nil:
		return "", nil, fmt.Errorf("read the npm scripts of %s: %w", r.Path, err)
	}
	body := scriptrun.NpmScript(f.Text, r.NpmScript)
	if strings.TrimSpace(body) == "" {
		return "", nil, nil
	}
	read := []Read{{Path: f.Rel, SHA256: f.SHA256, InRepo: f.InRepo}}
	if depth >= maxScriptDepth {
		if active {
			return fmt.Sprintf("`%s` runs %s's %q script, scripts nested deeper than %d", r.Via, f.Rel, r.NpmScript, maxScriptDepth), read, nil
		}
		return "", read, nil
	}
	name := fmt.Sprintf("%s's %q script", f.Rel, r.NpmScript)
	if why := w.code(ctx, filepath.Dir(f.Abs), scriptrun.Shell, body, name, nil); why != "" {
		return fmt.Sprintf("`%s` runs %s", strings.TrimSpace(r.Via), why), read, nil
	}
	return "", read, nil
}

// codeOnLine names code given on the line (node -e, python3 -c) to code.
const codeOnLine = "the code on the line"

// code judges a script's text: a shell script (or a makefile's
// recipes) statement by statement with the shell-line rules, any other
// language by its references to protected things and by the command lines
// its strings hold. It returns "" or what is wrong, naming name and the line.
//
// args are the script's literal arguments (a makefile's goals), nil when
// the line does not show them all: with them, a shell script is judged on
// the case branches they take and a makefile on the goals' recipes, so
// that `sh release.sh test` and `make -f release.mk test` agree (neither
// judges the publish branch that moves a ref); without them every branch
// and every recipe is judged. Both are scanned for protected references.
func (w *Walk) code(ctx context.Context, dir string, lang scriptrun.Lang, text, name string, args []string) string {
	targets := w.Targets
	var sub scriptrun.Within // where each line stands: in text, not where the call's line did
	judge := func(line string) Verdict {
		v, err := w.Judge.JudgeLine(ctx, Line{Text: line, Dir: dir, Within: sub, Depth: w.Depth + 1})
		if err != nil {
			// A line that cannot be judged is not let through unread.
			return Verdict{Deny: true, Reason: "it could not be judged: " + err.Error()}
		}
		return v
	}
	var stmts []scriptrun.Stmt
	switch lang {
	case scriptrun.Shell:
		if args != nil {
			text = scriptrun.Taken(text, args)
		}
		sub.Shell = text
		// The whole script first: variables and functions set on one line
		// and used on another are read together; then the statement that
		// is denied alone names the line.
		if v := judge(text); !v.Deny {
			// What the rules cannot follow (a path in a variable set on
			// another line, built or decoded) is still a reference.
			if fs := scriptrun.Scan(lang, text, targets); len(fs) > 0 {
				return scriptrun.ScanReason(name, fs[0])
			}
			return ""
		} else {
			for _, st := range scriptrun.Statements(text) {
				if sv := judge(st.Text); sv.Deny {
					return fmt.Sprintf("%s, whose line %d (`%s`) is denied: %s", name, st.Line, scriptLine(st.Text), sv.Reason)
				}
			}
			return fmt.Sprintf("%s, which is denied as a whole: %s", name, v.Reason)
		}
	case scriptrun.Make:
		if args != nil {
			stmts = scriptrun.RecipesOf(text, args)
		} else {
			stmts = scriptrun.Recipes(text)
		}
		// Recipes are shell lines: scanned as a shell script's are.
		var b strings.Builder
		at := 1 // the line b ends on: each recipe stays on its own line number
		for _, st := range stmts {
			for ; at < st.Line; at++ {
				b.WriteByte('\n')
			}
			b.WriteString(st.Text + "\n")
			at += 1 + strings.Count(st.Text, "\n")
		}
		if fs := scriptrun.Scan(scriptrun.Shell, b.String(), targets); len(fs) > 0 {
			return scriptrun.ScanReason(name, fs[0])
		}
	default:
		fs := scriptrun.Scan(lang, text, targets)
		if name == codeOnLine {
			// its plain words are the line's, which the line rules judge
			// (`python3 -c "print('agent-hook')"` runs nothing)
			fs = scriptrun.Hidden(fs)
		}
		if len(fs) > 0 {
			return scriptrun.ScanReason(name, fs[0])
		}
		stmts = scriptrun.CommandLines(lang, text)
		sub.String = text
	}
	for _, st := range stmts {
		sub.List = st.List && sub.String != ""
		if sv := judge(st.Text); sv.Deny {
			return fmt.Sprintf("%s, whose line %d runs `%s`, denied: %s", name, st.Line, scriptLine(st.Text), sv.Reason)
		}
	}
	return ""
}

func scriptLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " ..."
	}
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}
