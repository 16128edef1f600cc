package session

import (
	"context"
	"errors"
	"fmt"
	"path"
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

// ScriptRead is a script file an allowed shell call runs, as read at the
// hook: where (repository-relative, or absolute in a temp folder) and the
// sha256 of its bytes, never its text.
type ScriptRead struct {
	Path   string
	SHA256 string
	InRepo bool
}

// scriptVerdict judges the scripts the lines of a shell call run. It
// returns an allowing verdict listing the scripts read when none is denied.
func (e *Engine) scriptVerdict(ctx context.Context, bd *AgentBound, root string, call ToolCall, pol AgentPolicy, lines []string, depth int) (*AgentVerdict, error) {
	v := &AgentVerdict{}
	var s *Session
	if bd != nil {
		s = bd.Session
	}
	active := s != nil && s.Active()
	dir := root
	if call.Dir != "" && filepath.IsAbs(call.Dir) {
		dir = call.Dir
	}
	places := scriptrun.Places{Root: root, Temp: scriptrun.DefaultTemp()}
	targets := e.scriptTargets(root, call)
	deny := func(reason, next string) (*AgentVerdict, error) {
		v.Deny, v.Gate, v.Reason, v.Next = true, "scripts", reason, next
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
				v.Deny, v.Gate, v.Reason, v.Next = true, "scripts", fmt.Sprintf("the line gives %s to the script it runs%s", fs[0].What, scriptrun.HowNote(fs[0].How)),
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
				v.Scripts = append(v.Scripts, ScriptRead{Path: f.Rel, SHA256: f.SHA256, InRepo: f.InRepo})
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
				why, read, err := e.judgeNpmScript(ctx, bd, root, dir, call, pol, places, r, targets, depth, active)
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
				why, read, err := e.judgeMake(ctx, bd, root, dir, rdir, call, pol, places, r, targets, depth, active)
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
				if why := e.judgeCode(ctx, bd, root, dir, call, pol, r.Lang, r.Code, name, nil, targets, depth); why != "" {
					return deny(fmt.Sprintf("`%s` runs %s", r.Via, why), "leave sessiongate's files, the hooks and the records to sessiongate")
				}
				continue
			}
			if !r.Imports && !r.Conftest && !r.GoPackage && argsDenied() {
				return v, nil
			}
			rp := pol
			if rp.inShell == "" {
				// The line is its own shell script: a program it compiles
				// (`go build -o bin/app && ./bin/app`) or a virtual
				// environment it makes is not there until it runs, as in a
				// script file. A compiled program is not read either way
				// (a binary is skipped when it exists).
				rp.inShell = call.Command
			}
			f, why, err := e.readScript(places, dir, r, active, rp)
			if err != nil {
				return nil, err
			}
			if why != "" {
				return deny(why, "write the script in one call and run it by its name in another, so it can be read; a script may not touch what polices the session")
			}
			if f == nil {
				continue
			}
			v.Scripts = append(v.Scripts, ScriptRead{Path: f.Rel, SHA256: f.SHA256, InRepo: f.InRepo})
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
			if why := e.judgeCode(ctx, bd, root, jdir, call, pol, lang, f.Text, name, r.ArgList(), targets, depth); why != "" {
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
			v.Scripts = append(v.Scripts, ScriptRead{Path: f.Rel, SHA256: f.SHA256, InRepo: f.InRepo})
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

// readScript is scriptrun.ReadRun with where the policy's line stands.
func (e *Engine) readScript(places scriptrun.Places, dir string, r scriptrun.Run, active bool, pol AgentPolicy) (*scriptrun.File, string, error) {
	return scriptrun.ReadRun(places, dir, r, active, scriptrun.Within{String: pol.inString, List: pol.inList, Shell: pol.inShell})
}

// maxMakefiles bounds the makefiles one make run reads (the makefile and
// what it includes).
const maxMakefiles = 16

// judgeMake judges a make run: the makefile (-f, else the default one in
// the -C folder), the makefiles it includes, and of their recipes the ones
// the run's goals reach (scriptrun.MakeRecipes), variables expanded, each
// with the shell-line rules and scanned for protected things. It returns
// "" or the denial, and the makefiles read.
func (e *Engine) judgeMake(ctx context.Context, bd *AgentBound, root, dir, cwd string, call ToolCall, pol AgentPolicy, places scriptrun.Places, r scriptrun.Run, targets []scriptrun.Target, depth int, active bool) (string, []ScriptRead, error) {
	makeDir := cwd
	var first *scriptrun.File
	if r.DefaultMakefile {
		makeDir = filepath.Join(dir, filepath.FromSlash(r.Path))
		if filepath.IsAbs(r.Path) {
			makeDir = filepath.FromSlash(r.Path)
		}
		for _, name := range scriptrun.DefaultMakefiles {
			f, why, err := e.readScript(places, makeDir, scriptrun.Run{Lang: scriptrun.Make, Path: name, Via: r.Via, Optional: true}, active, pol)
			if err != nil || why != "" || f != nil {
				if err != nil || why != "" {
					return why, nil, err
				}
				first = f
				break
			}
		}
	} else {
		f, why, err := e.readScript(places, dir, r, active, pol)
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
			f, why, err := e.readScript(places, makeDir, scriptrun.Run{Lang: scriptrun.Make, Path: inc, Via: r.Via, Optional: true}, active, pol)
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
	var read []ScriptRead
	var mfs []scriptrun.MakeFile
	for _, f := range files {
		read = append(read, ScriptRead{Path: f.Rel, SHA256: f.SHA256, InRepo: f.InRepo})
		mfs = append(mfs, scriptrun.MakeFile{Name: f.Rel, Text: f.Text})
	}
	if depth >= maxScriptDepth {
		if active {
			return fmt.Sprintf("`%s` runs %s, scripts nested deeper than %d", r.Via, first.Rel, maxScriptDepth), read, nil
		}
		return "", read, nil
	}
	sub := pol
	sub.DenyBeforeStart = false
	for _, st := range scriptrun.MakeStmts(r, mfs, vars) {
		if fs := scriptrun.Scan(scriptrun.Shell, st.Text, targets); len(fs) > 0 {
			f := fs[0]
			f.Line = st.Line
			return fmt.Sprintf("`%s` runs %s", r.Via, scriptrun.ScanReason(st.File, f)), read, nil
		}
		v, err := e.agentPreTool(ctx, bd, root, ToolCall{Kind: ToolShell, Name: call.Name, Command: st.Text, Dir: makeDir, Transcript: call.Transcript}, sub, depth+1)
		if err != nil {
			v = &AgentVerdict{Deny: true, Reason: "it could not be judged: " + err.Error()}
		}
		if v.Deny {
			return fmt.Sprintf("`%s` runs %s, whose line %d (`%s`) is denied: %s", r.Via, st.File, st.Line, scriptLine(st.Text), v.Reason), read, nil
		}
		read = append(read, v.Scripts...)
	}
	return "", read, nil
}

// judgeNpmScript judges a package.json script npm runs (r.NpmScript, in
// the package.json r.Path names) with the shell-line rules, in the
// package's folder: `npm test` whose pretest is `rm -rf .git/sessiongate`
// or `node wipe.js`. A package.json without the script runs nothing.
func (e *Engine) judgeNpmScript(ctx context.Context, bd *AgentBound, root, dir string, call ToolCall, pol AgentPolicy, places scriptrun.Places, r scriptrun.Run, targets []scriptrun.Target, depth int, active bool) (string, []ScriptRead, error) {
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
	read := []ScriptRead{{Path: f.Rel, SHA256: f.SHA256, InRepo: f.InRepo}}
	if depth >= maxScriptDepth {
		if active {
			return fmt.Sprintf("`%s` runs %s's %q script, scripts nested deeper than %d", r.Via, f.Rel, r.NpmScript, maxScriptDepth), read, nil
		}
		return "", read, nil
	}
	name := fmt.Sprintf("%s's %q script", f.Rel, r.NpmScript)
	if why := e.judgeCode(ctx, bd, root, filepath.Dir(f.Abs), call, pol, scriptrun.Shell, body, name, nil, targets, depth); why != "" {
		return fmt.Sprintf("`%s` runs %s", strings.TrimSpace(r.Via), why), read, nil
	}
	return "", read, nil
}

// judgeCode judges a script's text: a shell script (or a makefile's
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
// codeOnLine names code given on the line (node -e, python3 -c) to judgeCode.
const codeOnLine = "the code on the line"

func (e *Engine) judgeCode(ctx context.Context, bd *AgentBound, root, dir string, call ToolCall, pol AgentPolicy, lang scriptrun.Lang, text, name string, args []string, targets []scriptrun.Target, depth int) string {
	sub := pol
	sub.DenyBeforeStart = false // a script's own work files are the work's
	sub.inString, sub.inShell, sub.inList = "", "", false
	judge := func(line string) *AgentVerdict {
		v, err := e.agentPreTool(ctx, bd, root, ToolCall{Kind: ToolShell, Name: call.Name, Command: line, Dir: dir, Transcript: call.Transcript}, sub, depth+1)
		if err != nil {
			// A line that cannot be judged is not let through unread.
			return &AgentVerdict{Deny: true, Reason: "it could not be judged: " + err.Error()}
		}
		return v
	}
	var stmts []scriptrun.Stmt
	switch lang {
	case scriptrun.Shell:
		if args != nil {
			text = scriptrun.Taken(text, args)
		}
		sub.inShell = text
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
		sub.inString = text
	}
	for _, st := range stmts {
		sub.inList = st.List && sub.inString != ""
		if sv := judge(st.Text); sv.Deny {
			return fmt.Sprintf("%s, whose line %d runs `%s`, denied: %s", name, st.Line, scriptLine(st.Text), sv.Reason)
		}
	}
	return ""
}

// scriptTargets are what a script may not name: the defaults, the
// protected files, the records refs, the session database and key
// wherever they are kept, and the agent's transcript.
func (e *Engine) scriptTargets(root string, call ToolCall) []scriptrun.Target {
	ts := append([]scriptrun.Target{}, scriptrun.DefaultTargets...)
	for _, p := range ProtectedPaths(e.Config, "") {
		if i := strings.IndexAny(p, "*?[{"); i >= 0 {
			p = strings.TrimSuffix(p[:i], "/")
		}
		if len(p) >= 5 && strings.ContainsAny(p, "./") {
			ts = append(ts, scriptrun.Target{Needle: p, What: "the protected file " + p})
		}
	}
	for _, r := range e.recordsRefs() {
		if r = strings.TrimSuffix(r, "/"); len(r) >= 5 {
			ts = append(ts, scriptrun.Target{Needle: r, What: "the records ref"})
		}
	}
	if p, ok := e.Store.(interface{ Path() string }); ok && p.Path() != "" && !strings.HasPrefix(p.Path(), ":memory:") {
		dbDir := filepath.Dir(p.Path())
		ts = append(ts, scriptrun.Target{Needle: filepath.ToSlash(dbDir), What: "sessiongate's database folder"},
			scriptrun.Target{Needle: filepath.Base(p.Path()), What: "the session database"})
		if rel, err := filepath.Rel(root, dbDir); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
			ts = append(ts, scriptrun.Target{Needle: filepath.ToSlash(rel), What: "sessiongate's database folder"})
		}
	}
	if call.Transcript != "" {
		ts = append(ts, scriptrun.Target{Needle: filepath.ToSlash(call.Transcript), What: "the agent's transcript"},
			scriptrun.Target{Needle: path.Base(filepath.ToSlash(call.Transcript)), What: "the agent's transcript"})
	}
	return ts
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

// ScriptEventPrefix starts the event a script run records: the token
// carries the sha256 of the script's bytes (records on the ref keep
// tokens, not details), the detail its path.
const ScriptEventPrefix = "script:ran:"

// scriptSeenWindow is how many of a session's last events RecordScripts
// looks through for a script already on record.
const scriptSeenWindow = 4096

// RecordScripts records each script an allowed shell call runs, once per
// content per session. A script that a script writes and runs is not read
// at the hook; these events let a reviewer tell the scripts that ran from
// the ones committed. verify does not read them (docs/security.md says
// why): the record keeps the script's hash, not its path.
func (e *Engine) RecordScripts(ctx context.Context, sessionID string, scripts []ScriptRead) error {
	for _, sc := range scripts {
		tok := ScriptEventPrefix + sc.SHA256
		// LastEvents filters the last n events by token: n = 1 asked only
		// whether the session's very last event was this script's, so any
		// event in between (a witnessed Bash call, witness.go) recorded it
		// again. The window keeps the hook's read bounded.
		seen, err := e.Store.LastEvents(ctx, sessionID, scriptSeenWindow, tok)
		if err != nil {
			return fmt.Errorf("read the session's script events: %w", err)
		}
		if len(seen) > 0 {
			continue
		}
		where := "repo"
		if !sc.InRepo {
			where = "temp"
		}
		detail := fmt.Sprintf(`{"path":%q,"where":%q}`, sc.Path, where)
		if err := e.Store.Update(ctx, func(w Writer) error {
			return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: tok, Detail: detail})
		}); err != nil {
			return fmt.Errorf("record the script %s: %w", sc.Path, err)
		}
	}
	return nil
}
