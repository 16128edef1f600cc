package testrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/scriptrun"
	"github.com/sessiongate/sessiongate/shellline"
)

// What a test run reads besides the tests (issue 25 QA gaps 2 and 3):
// the script a `make test` target or `npm test` script calls (`"test":
// "sh scripts/t.sh"`, `test: ; ./run-tests.sh`), the Makefile variables
// its recipe uses (`GOTESTFLAGS = -run X`), the runner's config
// (pytest.ini, [tool.pytest] in pyproject.toml, jest/vitest configs,
// .mocharc) and, for a configured QA command, the scripts it names. Each
// is compared with the session's start commit, as verify's rerun guard
// compares them over a range: a change that removes or changes lines, or
// adds one that ends the script early, turns failures into success,
// replaces a function or selects tests (shellline.AddedLineWeakens),
// makes the run prove less and it does not count (a configured command's
// gate fails); a change that only adds lines (new checks) is noted.

// file is one file (or a section of it) a test line reads; net: it may be
// the tests themselves, which the work edits.
type file struct {
	path, section string
	net           bool
	// setup: a file a runner's config names (a setup file, globalSetup):
	// judged by its lines even when new, as an honest project adds one.
	setup bool
}

// InputChange is one changed file a test run reads besides the tests.
type InputChange struct {
	path, what string
	weakens    bool
}

func (c InputChange) String() string { return c.path + ": " + c.what }

// runnerConfigs are the config files a runner family reads its test
// selection from; a "file#section" entry is a section of a shared file.
var runnerConfigs = map[string][]string{
	"pytest": {"pytest.ini", "tox.ini#[pytest]", "setup.cfg#[tool:pytest]", "pyproject.toml#[tool.pytest"},
	"jest":   {"jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs", "jest.config.json", "package.json#jest"},
	"vitest": {"vitest.config.ts", "vitest.config.js", "vitest.config.mts", "vitest.config.mjs", "vite.config.ts", "vite.config.js", "vite.config.mts", "vite.config.mjs",
		"vitest.workspace.ts", "vitest.workspace.js", "vitest.workspace.mts", "vitest.workspace.mjs", "vitest.workspace.json"},
	"mocha": {".mocharc.js", ".mocharc.cjs", ".mocharc.json", ".mocharc.jsonc", ".mocharc.yml", ".mocharc.yaml", "package.json#mocha"},
}

// familiesOf names the runner families in words of a line or script body.
func familiesOf(words []string) []string {
	var out []string
	add := func(f string) {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	for i, w := range words {
		switch b := path.Base(w); {
		case b == "pytest" || b == "py.test" || b == "tox":
			add("pytest")
		case (b == "python" || b == "python3") && i+2 < len(words) && words[i+1] == "-m" && words[i+2] == "pytest":
			add("pytest")
		case b == "jest" || b == "vitest" || b == "mocha":
			add(b)
		}
	}
	return out
}

// LineWords are the words of every call of a shell line, wrappers dropped.
func LineWords(line string) []string {
	calls, _, ok := shellline.Calls(shellline.Unwrap(line))
	if !ok {
		return strings.Fields(line)
	}
	var out []string
	for _, c := range calls {
		out = append(out, shellline.StripWrappers(c.Words)...)
	}
	return out
}

// repoFiles keeps the words that name a file of the repository (in the
// work tree or at the start commit), relative to dir.
func repoFiles(ctx context.Context, repo Repo, start, dir string, words []string) []string {
	var out []string
	// A word that names no file now names one deleted in the session only
	// when the session's changes list it: one (memoised) list, not a
	// cat-file per word (`go test ./...` read go, test and ... at the start).
	var changed map[string]bool
	deleted := func(p string) bool {
		if changed == nil {
			changed = map[string]bool{}
			files, err := repo.ChangedFiles(ctx, start)
			if err != nil {
				changed = nil
				_, err := repo.ReadAt(ctx, start, p)
				return err == nil
			}
			for _, f := range files {
				changed[f] = true
			}
		}
		if !changed[p] {
			return false
		}
		// A blob at the start, not a tree: ReadAt of a folder fails,
		// and that failure blocked honest QA.
		_, err := repo.ReadAt(ctx, start, p)
		return err == nil
	}
	for _, w := range words {
		if w == "" || strings.HasPrefix(w, "-") || strings.ContainsAny(w, "*?[$\n=") {
			continue
		}
		p := path.Clean(path.Join(dir, strings.TrimPrefix(w, "./")))
		if p == "." || strings.HasPrefix(p, "../") || path.IsAbs(p) || slices.Contains(out, p) {
			continue
		}
		fi, err := os.Stat(filepath.Join(repo.Root(), filepath.FromSlash(p)))
		if err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
			continue
		}
		if err == nil && fi.IsDir() {
			// A folder now: `make test` beside test/ names a target, not
			// the folder, and a folder is no script to compare.
			continue
		}
		if _, lerr := os.Lstat(filepath.Join(repo.Root(), filepath.FromSlash(p))); lerr == nil {
			// There, and no regular file (a FIFO, a device, a dangling
			// link): named, so the compare refuses it as not judged.
			out = append(out, p)
			continue
		}
		if start != "" && deleted(p) {
			out = append(out, p) // deleted in the session
		}
	}
	return out
}

// ranScript is a script file a line runs or sources, relative to dir.
type ranScript struct{ dir, file string }

// shellRunners run the script file named after their flags.
var shellRunners = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "bats": true,
	"python": true, "python3": true, "node": true, "ruby": true, "perl": true}

// ranScripts lists the script files a line runs itself: an interpreter's
// script (`sh tests/check.sh`, not `sh -c` or `python3 -m`), a program
// named by a path (`./run-tests.sh`, `scripts/test`) and a sourced file
// (`. ./lib.sh`, `source lib.sh`).
func ranScripts(line string) []ranScript {
	calls, _, ok := shellline.Calls(shellline.Unwrap(line))
	if !ok {
		return nil
	}
	var out []ranScript
	dir := ""
	for _, c := range calls {
		w := shellline.StripWrappers(c.Words)
		if len(w) == 0 {
			continue
		}
		if len(w) == 2 && w[0] == "cd" {
			dir = path.Join(dir, w[1])
			continue
		}
		switch prog := path.Base(w[0]); {
		case (w[0] == "." || w[0] == "source") && len(w) > 1:
			out = append(out, ranScript{dir, w[1]})
		case shellRunners[prog]:
			for _, a := range w[1:] {
				if a == "-c" || a == "-m" || a == "-e" || a == "--eval" {
					break
				}
				if !strings.HasPrefix(a, "-") {
					out = append(out, ranScript{dir, a})
					break
				}
			}
		case strings.Contains(w[0], "/"):
			out = append(out, ranScript{dir, w[0]})
		}
	}
	return out
}

// deadTestLine says whether a removed line only ran test scripts the
// session deleted together with the code each tested (DeadTestLine), the
// deleted files read from the work tree once.
func deadTestLine(ctx context.Context, repo Repo, start string) func(string) bool {
	var gone map[string]bool // the files deleted since the start
	return func(l string) bool {
		if len(ranScripts(l)) == 0 {
			return false
		}
		if gone == nil {
			gone = map[string]bool{}
			changed, err := repo.ChangedFiles(ctx, start)
			if err != nil {
				return false
			}
			for _, f := range changed {
				if _, err := os.Lstat(filepath.Join(repo.Root(), filepath.FromSlash(f))); errors.Is(err, os.ErrNotExist) {
					gone[f] = true
				}
			}
		}
		return DeadTestLine(l, gone)
	}
}

// DeadTestLine says whether line l only runs test scripts deleted (in
// gone) together with the code each is named for: `sh
// tests/shout_test.sh` dropped from a make target with tests/shout_test.sh
// and scripts/shout.sh (issue 25's honest field pass). A test script that
// stays, one whose code stays, or a line that runs anything else is still
// a test command removed.
func DeadTestLine(l string, gone map[string]bool) bool {
	scs := ranScripts(l)
	if len(scs) == 0 {
		return false
	}
	for _, sc := range scs {
		f := path.Join(sc.dir, sc.file)
		if !gone[f] || !codeGone(f, gone) {
			return false
		}
	}
	return true
}

// CodeFileFor is the base name of the source file a test file is named
// for (a_test.go -> a.go, test_a.py or a_test.py -> a.py, a.test.js ->
// a.js, a_test.sh -> a.sh), "" when its name says none.
func CodeFileFor(f string) string {
	b := path.Base(f)
	ext := path.Ext(b)
	stem := strings.TrimSuffix(b, ext)
	for _, mid := range []string{".test", ".spec"} {
		if s, ok := strings.CutSuffix(stem, mid); ok && s != "" {
			return s + ext
		}
	}
	code := strings.TrimPrefix(strings.TrimSuffix(strings.TrimSuffix(stem, "_test"), "-test"), "test_")
	if code == stem || code == "" {
		return ""
	}
	return code + ext
}

// codeGone: the file test file f is named for is among gone (any folder:
// tests often sit apart from their code).
func codeGone(f string, gone map[string]bool) bool {
	src := CodeFileFor(f)
	if src == "" {
		return false
	}
	for g := range gone {
		if g != f && path.Base(g) == src {
			return true
		}
	}
	return false
}

var makeVarRE = lazyregexp.New(`\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]`)

// InputChanges compares with the start commit what a test line reads
// besides its tests. direct: the line is a configured QA command, whose
// own scripts and make target or npm script are compared too (without a
// command, weakTestScript already refuses any change to the target, and a
// script the agent runs directly is its tests, which the work changes).
func InputChanges(ctx context.Context, repo Repo, start, line string, direct bool) ([]InputChange, error) {
	if start == "" {
		return nil, nil
	}
	// net: the file may be the tests themselves (`"test": "node
	// test.js"`, a check script), which the work edits: only lines removed
	// on balance, or added ones that weaken, count. Otherwise (a configured
	// command's own script, a target, a variable, a config) any removed or
	// changed line does, as in verify.
	var files []file
	seen := map[string]bool{}
	addFile := func(p, section string, net bool) {
		if !seen[p+"#"+section] {
			seen[p+"#"+section] = true
			files = append(files, file{path: p, section: section, net: net})
		}
	}
	words := LineWords(line)
	fams := familiesOf(words)
	dirs := []string{""}
	var refused []InputChange // recipe files not read (boundedread.Refused)
	var recipeChs []InputChange
	dead := deadTestLine(ctx, repo, start)
	isCode := trackedCode(ctx, repo, start)
	if direct {
		for _, p := range repoFiles(ctx, repo, start, "", words) {
			if !installedAt(ctx, repo, start, p) {
				addFile(p, "", false)
			}
		}
	}
	for _, t := range shellline.ScriptTargets(line) {
		rel, now, err := ScriptFile(repo.Root(), t)
		if boundedread.Refused(err) {
			refused = append(refused, InputChange{rel, notJudged(err), true})
			continue
		}
		if err != nil || rel == "" {
			continue
		}
		body, found := ScriptBody(t, now)
		if !found {
			continue
		}
		if !slices.Contains(dirs, t.Dir) {
			dirs = append(dirs, t.Dir)
		}
		// make, just and task: the file read as verify reads it
		// (recipefile.go), the lines outside every recipe and the
		// dependency targets included; npm and the rest by sections.
		chs, judged, err := recipeAtGate(ctx, repo, start, t, direct, dead, isCode)
		if boundedread.Refused(err) {
			refused = append(refused, InputChange{rel, notJudged(err), true})
			continue
		}
		if err != nil {
			return nil, err
		}
		if judged {
			recipeChs = append(recipeChs, chs...)
		} else {
			secs := RecipeSections(t, body)
			if direct {
				addFile(rel, secs[0], false)
			}
			for _, sec := range secs[1:] {
				addFile(rel, sec, false)
			}
		}
		var bw []string
		for _, l := range strings.Split(body, "\n") {
			if t.Tool != "npm" && strings.HasPrefix(l, t.Name+":") || strings.HasPrefix(l, settingMark) {
				continue // the rule line: prerequisites are targets
			}
			bw = append(bw, LineWords(l)...)
		}
		if t.Tool == "npm" {
			// npm reads how to run the script from .npmrc: script-shell=/bin/true
			// "passes" any script without running it.
			addFile(path.Join(t.Dir, ".npmrc"), "", false)
		}
		fams = append(fams, familiesOf(bw)...)
		for _, p := range repoFiles(ctx, repo, start, t.Dir, bw) {
			if p != rel {
				addFile(p, "", true)
			}
		}
	}
	// A script the line runs itself (`sh tests/check.sh`, `./run-tests.sh`)
	// is its tests: compared net, like a script a target calls.
	for _, sc := range ranScripts(line) {
		if installedAt(ctx, repo, start, path.Join(sc.dir, sc.file)) {
			continue // gateprog judges an installer's program
		}
		for _, p := range repoFiles(ctx, repo, start, sc.dir, []string{sc.file}) {
			addFile(p, "", !direct)
		}
	}
	// What those scripts source or run in turn (`. ./tests/lib.sh`, `sh
	// tests/more.sh`), at the start or now: a helper redefined to pass is
	// the script weakened. Bounded: a script tree is small.
	for i := 0; i < len(files) && len(files) < 64; i++ {
		f := files[i]
		if f.section != "" || isConfig(f.path) || path.Base(f.path) == ".npmrc" {
			continue
		}
		was, _ := repo.ReadAt(ctx, start, f.path)
		now, _ := readWork(repo.Root(), f.path)
		for _, body := range [][]byte{was, now} {
			for _, l := range strings.Split(string(body), "\n") {
				for _, sc := range ranScripts(l) {
					// Relative to the line's folder; a script usually runs
					// from the root, so both are tried.
					for _, p := range repoFiles(ctx, repo, start, sc.dir, []string{sc.file}) {
						if p != f.path {
							addFile(p, "", true)
						}
					}
				}
			}
		}
	}
	for _, f := range fams {
		for _, d := range dirs {
			for _, c := range runnerConfigs[f] {
				name, section, _ := strings.Cut(c, "#")
				addFile(path.Join(d, name), section, false)
			}
		}
	}
	// A JS runner's config names more that the run reads (issue 25, the
	// closing note): the folders of its projects (jest `projects`, vitest
	// `workspace`/`projects`, a vitest.workspace file), whose own configs
	// decide what they run, and setup files, which run before every test
	// and can replace `expect`. Both as at the start and now.
	for i := 0; i < len(files) && len(files) < 128; i++ {
		f := files[i]
		if !jsConfig(f.path) {
			continue
		}
		was, _ := repo.ReadAt(ctx, start, f.path)
		now, _ := readWork(repo.Root(), f.path)
		d := path.Dir(f.path)
		for _, body := range [][]byte{was, now} {
			text := sectionOf(body, f.section)
			if text == "" {
				continue
			}
			pdirs, _ := scriptrun.JSProjects(text, strings.HasPrefix(path.Base(f.path), "vitest.workspace"))
			for _, pd := range pdirs {
				for _, pdir := range projectFolders(repo.Root(), path.Join(d, pd)) {
					for _, fam := range []string{"jest", "vitest"} {
						for _, c := range runnerConfigs[fam] {
							if name, section, _ := strings.Cut(c, "#"); pdir != d || name != path.Base(f.path) {
								addFile(path.Join(pdir, name), section, false)
							}
						}
					}
				}
			}
			for _, sp := range scriptrun.JSConfigPaths(text) {
				for _, cand := range scriptrun.NodeFiles(sp) {
					p := path.Clean(path.Join(d, cand))
					if strings.HasPrefix(p, "../") || p == "." {
						break
					}
					if isFileNowOrAtStart(ctx, repo, start, p) {
						if !seen[p+"#"] {
							seen[p+"#"] = true
							files = append(files, file{path: p, net: true, setup: true})
						}
						break
					}
				}
			}
		}
	}
	honest := honestNewScripts(ctx, repo, start, files)
	moved := pairRenames(ctx, repo, start, files)
	inlined, inlinedInto := inlineSourcedInputs(ctx, repo, start, files)
	out := append(refused, recipeChs...)
	gone, came := map[string][]int{}, map[string][]int{} // whole scripts deleted and added, by content
	for _, f := range files {
		if moved.from(f.path) != "" && f.section == "" {
			continue // judged under its new name, against its old self
		}
		if by := inlinedInto[f.path]; by != "" && f.section == "" {
			out = append(out, InputChange{f.path, "added in this session and sourced by " + by + ": judged there, in place of the line that sources it", false})
			continue
		}
		if why, ok := honest[f.path]; ok && f.net && f.section == "" && moved[f.path] == "" {
			out = append(out, InputChange{f.path, why, false})
			continue
		}
		src := f.path
		if g := moved[f.path]; g != "" && f.section == "" {
			src = g
		}
		was, errWas := repo.ReadAt(ctx, start, src)
		if errWas != nil {
			if ok, err := repo.ExistsAt(ctx, start, src); err != nil || ok {
				return nil, fmt.Errorf("read %s at the start commit: %w", src, errors.Join(errWas, err))
			}
			was = nil
		}
		now, errNow := readWork(repo.Root(), f.path)
		if boundedread.Refused(errNow) {
			out = append(out, InputChange{f.path, notJudged(errNow), true})
			continue
		}
		if errNow != nil && !errors.Is(errNow, os.ErrNotExist) {
			return nil, fmt.Errorf("read %s: %w", f.path, errNow)
		}
		if was == nil && errNow != nil {
			continue // in neither
		}
		if was == nil && BinaryContent(now) {
			// A program the build made (`./build/greet` in a test recipe):
			// no script the session wrote; that it was rebuilt from the
			// committed sources is the QA gate's freshening (freshmtime.go).
			continue
		}
		a, b := moved.rename(sectionOf(was, f.section)), sectionOf(now, f.section)
		if a == b {
			continue
		}
		if path.Base(f.path) == ".npmrc" {
			// Only the keys that change how a script runs: a registry or
			// an auth line is ordinary work.
			if why := npmrcRunChange(a, b); why != "" {
				out = append(out, InputChange{f.path, why, true})
			}
			continue
		}
		if f.section != "" || isConfig(f.path) {
			// A target, a variable, a runner config or its section:
			// verify's rerun guard judges them with the same function
			// (ConfigChange, runnerconfig.go).
			var wasB, nowB []byte
			if was != nil {
				wasB = []byte(moved.rename(string(was)))
			}
			if errNow == nil {
				nowB = now
			}
			if ch, ok := ConfigChange(f.path, f.section, wasB, nowB, dead, isCode, workTreeReader(repo.Root())); ok {
				out = append(out, ch)
			}
			continue
		}
		what := f.path
		if src != f.path {
			what = f.path + " (renamed from " + src + ")"
		}
		if !isConfig(f.path) {
			switch {
			case was != nil && errNow != nil:
				gone[string(was)] = append(gone[string(was)], len(out))
			case was == nil && errNow == nil:
				came[string(now)] = append(came[string(now)], len(out))
			}
		}
		if inl, ok := inlined[f.path]; ok && f.section == "" && src == f.path {
			b = inl // its new sourced files read in place (sourcedmove.go)
		}
		ch := compareInput(what, a, b, was == nil && !f.setup, errNow != nil, f.net, dead, isCode, workTreeReader(repo.Root()))
		if !ch.weakens && isShellScript(f.path, b) && popsBeforeLaterTests(line, f.path, a, b) {
			ch = InputChange{what, "it now pops a stash after its tests, and the command line runs tests after the script: with a clean tree the pop applies an older stash, which those tests read", true}
		}
		out = append(out, ch)
	}
	// An alias at a copy the session added, in a changed config or one
	// the team had (jsalias.go).
	aliases, err := jsAliasCopies(ctx, repo, start, files, dirs)
	if err != nil {
		return nil, err
	}
	// A file of the agent's the runner loads as code standing in for a
	// module under test (jsconfigload.go).
	aliases = append(aliases, jsLoadedStandIns(ctx, repo, start, line, files)...)
	if slices.Contains(fams, "jest") {
		aliases = append(aliases, jsBabelPlugins(ctx, repo, start)...)
	}
	// A pytest hook of the agent's that decides outcomes (pyplugins.go).
	hooks, err := pyPluginStandIns(ctx, repo, start, fams)
	if err != nil {
		return nil, err
	}
	aliases = append(aliases, hooks...)
	// A stand-in the line's go test flags pick (gobuildselect.go): for
	// the agent's own run only; a configured command's flags are the
	// team's build.
	var selects []InputChange
	if !direct {
		if selects, err = goBuildSelects(ctx, repo, start, line); err != nil {
			return nil, err
		}
	}
	return append(append(dropRenames(out, gone, came), aliases...), selects...), nil
}

// recipeAtGate judges the recipe file t's runner reads, the start commit
// against the work tree, with verify's function (RecipeFileChanges):
// judged is false when the start has no such target (the sections then).
// The target's own section only for a configured command (direct):
// WeakScript refuses any change to an agent's own `make test`.
func recipeAtGate(ctx context.Context, repo Repo, start string, t shellline.ScriptTarget, direct bool, dead, isCode func(string) bool) ([]InputChange, bool, error) {
	was := func(p string) ([]byte, error) {
		ok, err := repo.ExistsAt(ctx, start, p)
		if err != nil || !ok {
			return nil, err
		}
		return repo.ReadAt(ctx, start, p)
	}
	now := func(p string) ([]byte, error) {
		b, err := boundedread.InRoot(repo.Root(), p, maxRecipeFile)
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return b, err
	}
	var changed map[string]bool
	extra := func(p string) ([]byte, error) {
		if ok, err := repo.ExistsAt(ctx, start, p); err != nil || ok {
			if err != nil {
				return nil, err
			}
			return now(p)
		}
		if changed == nil {
			files, err := repo.ChangedFiles(ctx, start)
			if err != nil {
				return nil, err
			}
			changed = map[string]bool{}
			for _, f := range files {
				changed[f] = true
			}
		}
		if !changed[p] {
			return nil, nil // ignored by git: a developer's own (RecipeJudge.NowExtra)
		}
		return now(p)
	}
	chs, _, judged, err := RecipeFileChanges(t, was, now, RecipeJudge{SkipTarget: !direct, Dead: dead, IsCode: isCode, Read: workTreeReader(repo.Root()), NowExtra: extra})
	return chs, judged, err
}

// dropRenames drops a script deleted in the session together with one
// added with the same content: `git mv scripts/greet.sh scripts/hello.sh`
// runs the same checks under a new name, and was refused as a deletion
// plus a script the session wrote. gone and came index out by content;
// anything changed in the move stays refused.
func dropRenames(out []InputChange, gone, came map[string][]int) []InputChange {
	drop := map[int]bool{}
	for body, gi := range gone {
		ci := came[body]
		for k := 0; k < len(gi) && k < len(ci); k++ {
			drop[gi[k]], drop[ci[k]] = true, true
		}
	}
	if len(drop) == 0 {
		return out
	}
	kept := out[:0]
	for i, c := range out {
		if !drop[i] {
			kept = append(kept, c)
		}
	}
	return kept
}

// NpmrcRunKeys are the .npmrc keys that decide what `npm test` runs.
var NpmrcRunKeys = []string{"script-shell", "shell", "node-options", "ignore-scripts", "userconfig", "globalconfig", "prefix", "scripts-prepend-node-path", "if-present"}

// npmrcRunChange names a run-deciding .npmrc key the session set or
// changed, "" when none.
func npmrcRunChange(was, now string) string {
	keys := func(text string) map[string]string {
		m := map[string]string{}
		for _, l := range strings.Split(text, "\n") {
			l = strings.TrimSpace(l)
			if k, v, ok := strings.Cut(l, "="); ok && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, ";") {
				m[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
			}
		}
		return m
	}
	a, b := keys(was), keys(now)
	for _, k := range NpmrcRunKeys {
		if v, ok := b[k]; ok && (a[k] != v || !hasKey(a, k)) {
			return fmt.Sprintf("sets %s=%s, which decides how npm runs the test script", k, truncate(v, 40))
		}
	}
	return ""
}

func hasKey(m map[string]string, k string) bool { _, ok := m[k]; return ok }

// jsConfig: p is a jest or vitest config (package.json's "jest" too).
func jsConfig(p string) bool {
	for _, fam := range []string{"jest", "vitest"} {
		for _, c := range runnerConfigs[fam] {
			if name, _, _ := strings.Cut(c, "#"); path.Base(p) == name {
				return true
			}
		}
	}
	return false
}

// trackedCode is shellline.CodeOf over the files of the start commit,
// HEAD and the session's changes, listed on first use (only a line that writes a source file asks).
// A repository that cannot list its trees (nil: every write counts) keeps
// the stricter reading.
func trackedCode(ctx context.Context, repo Repo, start string) func(string) bool {
	tl, ok := repo.(interface {
		TreeFiles(ctx context.Context, rev string) ([]string, error)
	})
	if !ok || start == "" {
		return nil
	}
	code := sync.OnceValue(func() func(string) bool {
		a, errA := tl.TreeFiles(ctx, start)
		b, errB := tl.TreeFiles(ctx, "HEAD")
		// And what the session made and has not committed (staged, or
		// untracked and not ignored): a module new in the session, staged
		// broken and copied over by the script, is the code under test.
		c, errC := repo.ChangedFiles(ctx, start)
		if errA != nil || errB != nil || errC != nil {
			return func(string) bool { return true }
		}
		return shellline.CodeOf(append(append(a, b...), c...))
	})
	return func(p string) bool { return code()(p) }
}

// isFileNowOrAtStart: p is a file of the work tree or a blob of the
// start commit (a folder is neither: `<rootDir>/app` names a project).
func isFileNowOrAtStart(ctx context.Context, repo Repo, start, p string) bool {
	if fi, err := os.Stat(filepath.Join(repo.Root(), filepath.FromSlash(p))); err == nil && fi.Mode().IsRegular() {
		return true
	}
	_, err := repo.ReadAt(ctx, start, p)
	return err == nil
}

func isWorkspaceFile(p string) bool { return strings.HasPrefix(path.Base(p), "vitest.workspace.") }

// projectFolders are the repository folders a project entry names (a
// glob expanded in the work tree), none outside the repository.
func projectFolders(root, p string) []string {
	p = path.Clean(p)
	if strings.HasPrefix(p, "../") || p == ".." || path.IsAbs(p) {
		return nil
	}
	if !strings.ContainsAny(p, "*?[") {
		return []string{p}
	}
	ms, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(p)))
	var out []string
	for _, m := range ms {
		if fi, err := os.Stat(m); err == nil && fi.IsDir() && len(out) < 32 {
			r, _ := filepath.Rel(root, m)
			out = append(out, filepath.ToSlash(r))
		}
	}
	return out
}

func isConfig(p string) bool {
	for _, cs := range runnerConfigs {
		for _, c := range cs {
			if name, _, _ := strings.Cut(c, "#"); path.Base(p) == name {
				return true
			}
		}
	}
	return false
}

// compareInput judges one changed file or section: removed or changed
// lines weaken (net: only more lines removed than added), added lines
// weaken only when they can make the run prove less; a script new in the
// session or deleted weakens.
func compareInput(what, was, now string, added, deleted, net bool, dead, isCode func(string) bool, read func(string) (string, bool)) InputChange {
	switch {
	case deleted:
		return InputChange{what, "deleted in this session", true}
	case added:
		return InputChange{what, "added in this session (the start commit has none): the session wrote what its tests run", true}
	case sameShellProgram(what, was, now):
		// Comments and layout only (shellsame.go).
		return InputChange{what, "only comments or layout changed (the same program)", false}
	}
	// A line that ran at the start and now stands only in a function
	// nothing calls runs nothing: it does not answer the start's line
	// (deadfuncs.go). A library's functions, dead on both sides, compare
	// as before.
	var liveWas map[string]bool
	var deadNow map[int]bool
	if isShellScript(what, was) {
		if deadNow = deadFuncLines(now); len(deadNow) > 0 {
			deadWas := deadFuncLines(was)
			liveWas = map[string]bool{}
			for i, l := range strings.Split(was, "\n") {
				if !deadWas[i+1] {
					liveWas[strings.TrimSpace(l)] = true
				}
			}
		}
	}
	count := map[string]int{}
	for _, l := range strings.Split(was, "\n") {
		count[strings.TrimSpace(l)]++
	}
	var addedLines []string
	var addedAt []int // their line indexes in now
	for i, l := range strings.Split(now, "\n") {
		k := strings.TrimSpace(l)
		if deadNow[i+1] && (liveWas[k] || count[k] == 0) {
			// Nor does a line added where nothing runs it answer a
			// removed one (a renamed helper defined under `if false`).
			continue
		}
		if count[k] > 0 {
			count[k]--
			continue
		}
		if k != "" {
			addedLines = append(addedLines, k)
			addedAt = append(addedAt, i)
		}
	}
	var removed []string
	var neverRan map[string]int
	if isShellScript(what, was) {
		neverRan = startNeverRan(was)
	}
	for l, n := range count {
		// A line of the start that never ran removes no check
		// (startnoop.go).
		n -= neverRan[l]
		// A line that only prints (a summary `echo 'PASS: 3 tests'`) proves
		// nothing, so an honest edit of its text is no weakening.
		// Either only on a line of its own (shellline.OwnLine): in a
		// here-doc body or a multi-line string it is what a check compares.
		if n > 0 && l != "" && !(strings.HasPrefix(l, "#") && shellline.OwnLine(l, was)) && !strings.HasPrefix(l, "//") && (dead == nil || !dead(l)) &&
			!(shellline.PrintsOnly(l, was) && shellline.PrintsOnly(l, now) && shellline.OwnLine(l, was)) {
			removed = append(removed, l)
		}
	}
	slices.Sort(removed)
	// A statement that prints the same in both versions (laid out over
	// lines, split with a backslash, a plain word quoted) changed no
	// check: its lines leave the compare (shellstmts.go).
	if isShellScript(what, was) {
		if k := keepStatements(was, now); k != nil {
			if k.moved != "" {
				return InputChange{what, fmt.Sprintf("runs %q after an exit, set, cd or the like it did not run after: whether it runs, or how, changed", truncate(strings.Join(strings.Fields(k.moved), " "), 60)), true}
			}
			removed = slices.DeleteFunc(removed, k.wasKept)
			var al []string
			var at []int
			for j, i := range addedAt {
				if !k.nowLines[i+1] {
					al, at = append(al, addedLines[j]), append(at, i)
				}
			}
			addedLines, addedAt = al, at
		}
	}
	// Cases added to a one-line for-loop's list (forlist.go) are no change
	// of a check.
	removed = pairGrownLists(removed, addedLines, isShellScript(what, was), was)
	// A runner's test environment moved to an installed DOM package
	// (jsenv.go).
	removed = pairEnvironmentValues(removed, addedLines, read)
	// A pytest config's testpaths line given more entries (pytestpaths.go).
	var grownPaths []string
	if pytestConfigFile(what) {
		var used []bool
		removed, used, grownPaths = pairGrownTestpaths(removed, addedLines)
		var al []string
		var at []int
		for j := range addedLines {
			if !used[j] {
				al, at = append(al, addedLines[j]), append(at, addedAt[j])
			}
		}
		addedLines, addedAt = al, at
	}
	// A test command removed must be answered by an added line that runs
	// at least its tests: `go test ./...` swapped for `go test ./pkg/a`,
	// `pytest` for `pytest -k fast` or `npm test` for `echo ok` is one line
	// for one, which the net count alone took for an edited check.
	// A changed expected value of an assertion helper's call is an
	// edited check, not a narrowing (expectedvalue.go).
	var sameCheck func(old, l string) bool
	if isShellScript(what, was) {
		removed, addedLines, addedAt = pairRenamedHelpers(removed, addedLines, addedAt, was, now)
		removed, addedLines, addedAt = pairSummedCounts(removed, addedLines, addedAt, now)
		removed, addedLines, addedAt = pairRewordedMessages(removed, addedLines, addedAt, was, now)
		removed, addedLines, addedAt = pairSummedFailureTests(removed, addedLines, addedAt, was, now)
		sameCheck = func(old, l string) bool {
			return assertionValueChanged(old, l, was, now) || helperRenamed(old, l, was, now)
		}
	}
	for _, r := range removed {
		if why := testLineDropped(r, addedLines, sameCheck); why != "" {
			return InputChange{what, why, true}
		}
	}
	if len(removed) > 0 && (!net || len(removed) > len(addedLines)) {
		return InputChange{what, fmt.Sprintf("removes or changes lines (%q)", truncate(strings.Join(removed, "; "), 60)), true}
	}
	// Each added line is read where it stands in the new text: the
	// variables and cds above it say where its writes land (`R=$(pwd)`
	// one line, `cp -r fixed/. "$R"` the next).
	script := shellline.ReadScriptFiles(now, read)
	if isShellScript(what, was) {
		// One shell runs it whole, not line by line as a recipe: a line
		// put where a check's status was read takes it.
		script.RunsWhole()
	}
	for j, l := range addedLines {
		if why := script.LineWeakens(addedAt[j], was, isCode); why != "" {
			return InputChange{what, fmt.Sprintf("adds %q: %s", truncate(l, 60), why), true}
		}
	}
	if len(grownPaths) > 0 && len(removed) == 0 && len(addedLines) == 0 {
		return InputChange{what, fmt.Sprintf("only adds testpaths entries (%s): pytest collects more", strings.Join(grownPaths, " ")), false}
	}
	if len(removed) > 0 {
		return InputChange{what, fmt.Sprintf("changes %d line(s) and adds %d (now %q)", len(removed), len(addedLines)-len(removed), truncate(strings.Join(addedLines, "; "), 60)), false}
	}
	return InputChange{what, fmt.Sprintf("only adds lines (%d, new checks: %q)", len(addedLines), truncate(strings.Join(addedLines, "; "), 60)), false}
}

// sectionOf is the part of a file a section names: "" the whole file,
// "[x" an INI/TOML section whose header starts so, "target:make:NAME" or
// "target:npm:NAME" a make rule or npm script, "var:NAME" a Makefile
// variable's assignments, another word a package.json key.
func sectionOf(b []byte, section string) string {
	if b == nil {
		return ""
	}
	switch {
	case section == "":
		return string(b)
	case strings.HasPrefix(section, "["):
		var out strings.Builder
		in := false
		for _, l := range strings.Split(string(b), "\n") {
			if s := strings.TrimSpace(l); strings.HasPrefix(s, "[") {
				in = strings.HasPrefix(s, section)
			}
			if in {
				out.WriteString(l + "\n")
			}
		}
		return out.String()
	case strings.HasPrefix(section, "target:"):
		parts := strings.SplitN(section, ":", 3)
		body, _ := ScriptBody(shellline.ScriptTarget{Tool: parts[1], Name: parts[2]}, b)
		return body
	case strings.HasPrefix(section, "var:"):
		name := strings.TrimPrefix(section, "var:")
		re := regexp.MustCompile(`^\s*(export\s+|override\s+)?` + regexp.QuoteMeta(name) + `\s*(\?|\+|:|::)?=`)
		var out strings.Builder
		for _, l := range strings.Split(string(b), "\n") {
			if re.MatchString(l) {
				out.WriteString(l + "\n")
			}
		}
		return out.String()
	}
	var pkg map[string]json.RawMessage
	if json.Unmarshal(b, &pkg) != nil {
		return "unreadable"
	}
	var v any
	if json.Unmarshal(pkg[section], &v) != nil {
		return ""
	}
	// One line per leaf, so lines compare as in a file.
	var lines []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, y := range x {
				walk(prefix+k+": ", y)
			}
		case []any:
			for _, y := range x {
				walk(prefix, y)
			}
		default:
			j, _ := json.Marshal(x)
			lines = append(lines, prefix+string(j))
		}
	}
	walk("", v)
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// SplitChanges splits changes into what weakens and what is noted.
func SplitChanges(cs []InputChange) (weak, noted []string) {
	for _, c := range cs {
		if c.weakens {
			weak = append(weak, c.String())
		} else {
			noted = append(noted, c.String())
		}
	}
	return weak, noted
}

// testLineDropped says how the added lines run less than the removed test
// line old, "" when one of them covers every run of it (or old runs no
// tests). sameCheck, when set, says an added line is old with only an
// expected value changed: it covers old.
func testLineDropped(old string, added []string, sameCheck func(old, l string) bool) string {
	wants := lineTestRuns(old)
	if len(wants) == 0 {
		return ""
	}
	if sameCheck != nil && slices.ContainsFunc(added, func(l string) bool { return sameCheck(old, l) }) {
		return ""
	}
	var short string
	for _, want := range wants {
		covered := false
		for _, l := range added {
			for _, got := range lineTestRuns(l) {
				why := got.Narrowing(want)
				if why == "" {
					covered = true
					break
				}
				if got.Runner == want.Runner && short == "" {
					short = fmt.Sprintf("replaces %q with %q, which has %s: it runs fewer tests", truncate(old, 40), truncate(l, 40), why)
				}
			}
			if covered {
				break
			}
		}
		if !covered {
			if short != "" {
				return short
			}
			now := "no line"
			if len(added) > 0 {
				now = fmt.Sprintf("%q", truncate(strings.Join(added, "; "), 40))
			}
			return fmt.Sprintf("replaces the test command %q with %s, which runs no test of it", truncate(old, 40), now)
		}
	}
	return ""
}

var helperNameRE = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// lineTestRuns are the test runs of a script line; a line whose first
// word is a helper that runs its arguments (`run sh tests/check.sh`,
// `retry go test ./...`) is read without it. echo and the like print the
// words, they run nothing.
func lineTestRuns(l string) []shellline.TestRun {
	if rs := shellline.TestRuns(l); len(rs) > 0 {
		return rs
	}
	f := strings.Fields(l)
	if len(f) < 2 || !helperNameRE.MatchString(f[0]) {
		return nil
	}
	switch f[0] {
	case "echo", "printf", "true", "false", "test", "cat", "print", "log", "info", "warn", "say", "note":
		return nil
	}
	return shellline.TestRuns(strings.Join(f[1:], " "))
}

// BinaryContent reports whether b is a compiled program (ELF, Mach-O, PE
// magic), not merely a file with a NUL byte: bash runs a script whose NUL
// sits past its first line, so "any NUL" would let a session's new
// `exit 0` script pass as a build output.
func BinaryContent(b []byte) bool {
	for _, magic := range []string{"\x7fELF", "MZ", "\xfe\xed\xfa\xce", "\xfe\xed\xfa\xcf", "\xce\xfa\xed\xfe", "\xcf\xfa\xed\xfe", "\xca\xfe\xba\xbe"} {
		if bytes.HasPrefix(b, []byte(magic)) {
			return true
		}
	}
	return false
}

// honestNewScripts finds, among the files a line runs, the scripts new in
// the session that run only tests and fail when they fail, and the new
// test files they run that check something (newscript.go); each with the
// note it gets instead of a refusal.
func honestNewScripts(ctx context.Context, repo Repo, start string, files []file) map[string]string {
	newFile := func(p string) ([]byte, bool) {
		if ok, err := repo.ExistsAt(ctx, start, p); err != nil || ok {
			return nil, false
		}
		b, err := readWork(repo.Root(), p)
		return b, err == nil && !BinaryContent(b)
	}
	exists := func(p string) bool {
		fi, err := os.Stat(filepath.Join(repo.Root(), filepath.FromSlash(p)))
		return err == nil && fi.Mode().IsRegular()
	}
	out := map[string]string{}
	for _, f := range files {
		if !f.net || f.section != "" || isConfig(f.path) || testNamed(f.path) {
			continue
		}
		body, ok := newFile(f.path)
		if !ok {
			continue
		}
		tests, ok := newRunnerScript(string(body), exists)
		if !ok {
			continue
		}
		var good []string
		for _, t := range tests {
			tb, isNew := newFile(t)
			if !isNew {
				continue // a test file of the start: compared as usual
			}
			if !shellScript(t, tb) || !newTestFile(string(tb)) {
				ok = false
				break
			}
			good = append(good, t)
		}
		if !ok {
			continue
		}
		out[f.path] = fmt.Sprintf("added in this session; it runs only tests (%s) and fails when they fail", truncate(strings.Join(tests, " "), 60))
		for _, t := range good {
			out[t] = "a test file added in this session, run by " + f.path
		}
	}
	return out
}

// workTreeReader reads a file of the work tree at root by its repository
// path (a script's `. ./lib.sh`: shellline.ReadScriptFiles); nothing
// outside root (links followed), no FIFO or device, nothing larger than
// 256 KiB. A file it does not read is walked as unknown; the sourced
// file itself is judged by InputChanges (refused there).
func workTreeReader(root string) func(string) (string, bool) {
	return func(p string) (string, bool) {
		b, err := boundedread.InRoot(root, p, 256<<10)
		if err != nil {
			return "", false
		}
		return string(b), true
	}
}

// maxInput bounds a file a test line reads, compared whole with the
// start commit (whose blob git hands over whole too): far above any
// script or config, and above a generated test file.
const maxInput = 8 << 20

// readWork reads the work tree's rel bounded, regular and inside root
// (boundedread.InRoot): a FIFO fed by a background writer could show the
// gate the start's text and the test run another, /dev/zero would fill
// memory, and a link out of the repository is no file of the work.
func readWork(root, rel string) ([]byte, error) {
	return boundedread.InRoot(root, rel, maxInput)
}

// installedProgram: rel (from the work tree's root) is a program an
// installer put in the work tree, in a venv (a folder holding
// pyvenv.cfg) or under node_modules: `.venv/bin/pytest`. It is no script
// of the project's: comparing it with the start commit (which never
// holds it) read every such gate command as "added in this session", a
// `uv sync` during the session included. gateprog judges it instead
// (written after the start and not an installer's: refused).
func installedProgram(root, rel string) bool {
	rel = path.Clean(rel)
	if path.IsAbs(rel) || strings.HasPrefix(rel, "../") {
		return false
	}
	if slices.Contains(strings.Split(rel, "/"), "node_modules") {
		return true
	}
	// A venv's programs live in its bin/ (Scripts/ on Windows), beside
	// nothing of the project's: a pyvenv.cfg dropped next to scripts/test.sh
	// makes no venv of scripts/.
	if d := path.Dir(rel); path.Base(d) == "bin" || path.Base(d) == "Scripts" {
		if fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(path.Dir(d)), "pyvenv.cfg")); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// installedAt is installedProgram for a file the start commit did not
// hold: what the team committed is its own script wherever it lies (a
// folder named node_modules or a pyvenv.cfg beside it proves nothing).
func installedAt(ctx context.Context, repo Repo, start, rel string) bool {
	if in, err := repo.ExistsAt(ctx, start, path.Clean(rel)); err != nil || in {
		return false
	}
	return installedProgram(repo.Root(), rel)
}

// popsBeforeLaterTests: the script p (was at the start, now) newly ends
// with a stash popped after its tests, and line runs a test command after
// the script (round 28, c4; round 27 c2's open row).
func popsBeforeLaterTests(line, p, was, now string) bool {
	if !strings.Contains(now, "stash") || !shellline.ReadScript(now).PopsAtEnd() || shellline.ReadScript(was).PopsAtEnd() {
		return false
	}
	i := strings.Index(line, path.Base(p))
	if i < 0 {
		return false
	}
	rest := strings.TrimLeft(line[i+len(path.Base(p)):], " \t\"'")
	for _, sep := range []string{"&&", "||", ";", "|", "\n"} {
		if j := strings.Index(rest, sep); j >= 0 && shellline.RunsTests(strings.TrimSpace(rest[j+len(sep):])) {
			return true
		}
	}
	return false
}

// inlineSourcedInputs reads, for each shell script among files that the
// start commit has, its text now with the files new in the session that
// it sources read in place (sourcedmove.go): by the script's path, and
// each new file's path to the script that sources it.
func inlineSourcedInputs(ctx context.Context, repo Repo, start string, files []file) (map[string]string, map[string]string) {
	read := workTreeReader(repo.Root())
	isNew := func(p string) bool {
		if ok, err := repo.ExistsAt(ctx, start, p); err != nil || ok {
			return false
		}
		_, ok := read(p)
		return ok
	}
	texts, by := map[string]string{}, map[string]string{}
	for _, f := range files {
		if f.section != "" || isConfig(f.path) {
			continue
		}
		if ok, err := repo.ExistsAt(ctx, start, f.path); err != nil || !ok {
			continue
		}
		now, ok := read(f.path)
		if !ok || !isShellScript(f.path, now) {
			continue
		}
		was, err := repo.ReadAt(ctx, start, f.path)
		if err != nil {
			continue
		}
		if inl, news := inlineNewSourced(f.path, string(was), now, read, isNew); len(news) > 0 {
			texts[f.path] = inl
			for _, n := range news {
				if by[n] == "" {
					by[n] = f.path
				}
			}
		}
	}
	return texts, by
}
