package verify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/testrun"
)

// What --rerun cannot see by running (issue 26.3). The commands come from
// the base, but they run the head's files: a change that weakens the test
// script, the package.json script, the Makefile recipe or the pytest
// config, deletes tests, removes test functions or adds skip markers makes
// the base's own command pass on less. Each such change in base..head is
// flagged on the commit that made it and fails verify unless a person
// signed for it (a signed acceptance of the file's head content, or the
// commit's signature by a listed signer). Cheap: two git diffs over the
// few paths that matter, the changed test files read at both ends and
// judged by the local QA rule (skipjudge.go).
// Not caught: weakening inside the code under test or a helper the
// script calls that is not named on the command line, assertions
// loosened inside a test that keeps its name.

// testFile reports whether a path is a test file of a language the guard
// knows (Go, Python, JavaScript/TypeScript).
func testFile(p string) bool {
	b := path.Base(p)
	switch {
	case strings.HasSuffix(b, "_test.go"), strings.HasPrefix(b, "test_") && strings.HasSuffix(b, ".py"),
		strings.HasSuffix(b, "_test.py"), b == "conftest.py":
		return true
	}
	for _, m := range []string{".test.", ".spec."} {
		if strings.Contains(b, m) {
			return true
		}
	}
	return false
}

var testPathspecs = []string{":(glob)**/*_test.go", ":(glob)**/test_*.py", ":(glob)**/*_test.py", ":(glob)**/conftest.py",
	":(glob)**/*.test.*", ":(glob)**/*.spec.*"}

// tool config files: what each runner reads its test selection from.
var toolConfigs = map[string][]string{
	"make":   {":(glob)**/Makefile", ":(glob)**/makefile", ":(glob)**/GNUmakefile", ":(glob)**/*.mk"},
	"npm":    {"package.json"},
	"pytest": {"pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml"},
	// Task runners whose recipe the rerun runs (pass 27 c5): the files
	// testrun.RecipeFileNames reads, at the root or below.
	"just": {":(glob)**/justfile", ":(glob)**/Justfile", ":(glob)**/JUSTFILE", ":(glob)**/.justfile"},
	"task": {":(glob)**/[Tt]askfile.yml", ":(glob)**/[Tt]askfile.yaml", ":(glob)**/[Tt]askfile.dist.yml", ":(glob)**/[Tt]askfile.dist.yaml"},
	"mise": {":(glob)**/mise.toml", ":(glob)**/.mise.toml", ":(glob)**/mise.local.toml", ":(glob)**/.mise.local.toml",
		":(glob)**/mise/config.toml", ":(glob)**/.mise/config.toml", ":(glob)**/.config/mise.toml", ":(glob)**/.config/mise/config.toml",
		":(glob)**/mise-tasks/**", ":(glob)**/.mise-tasks/**", ":(glob)**/mise/tasks/**", ":(glob)**/.mise/tasks/**"},
	"pixi": {":(glob)**/pixi.toml"},
}

// recipeTool names the task runner whose recipe file p is ("" none).
func recipeTool(p string) string {
	base := path.Base(p)
	switch {
	case strings.EqualFold(base, "justfile") || base == ".justfile":
		return "just"
	case strings.HasPrefix(strings.ToLower(base), "taskfile.") && (strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml")):
		return "task"
	case strings.Contains(p, "mise") && (strings.HasSuffix(base, ".toml") || strings.Contains(p, "tasks/")):
		return "mise"
	case base == "pixi.toml":
		return "pixi"
	}
	return ""
}

type guardRes struct {
	skip, testName *regexp.Regexp
}

var guardREs = sync.OnceValue(func() guardRes {
	return guardRes{
		skip: regexp.MustCompile(`\bt\.Skip(Now|f)?\(|^\s*//go:build\b|@pytest\.mark\.(skip|skipif|xfail)\b|\bpytest\.skip\(|@unittest\.skip|\bSkipTest\b|` +
			"\\b(it|test|describe)\\.(skip|todo|only)\\(|\\bx(it|describe|test)\\("),
		testName: regexp.MustCompile(`^func\s+((Test|Fuzz|Example)\w*)\s*\(|^\s*(async\s+)?def\s+(test_\w*)\s*\(|\b(it|test)\(\s*['"` + "`" + `]([^'"` + "`" + `]{1,200})`),
	}
})

// toolsOf names the runners a command line invokes, and the repository
// files it names as words (scripts it runs).
func toolsOf(cmd string) (tools []string, words []string) {
	calls, _, ok := shellline.Calls(cmd)
	if !ok {
		return nil, strings.Fields(cmd)
	}
	add := func(t string) {
		if !slices.Contains(tools, t) {
			tools = append(tools, t)
		}
	}
	for _, c := range calls {
		w := shellline.StripWrappers(c.Words)
		if len(w) == 0 {
			continue
		}
		switch prog := path.Base(w[0]); {
		case prog == "make" || prog == "gmake":
			add("make")
		case prog == "just" || prog == "task" || prog == "mise" || prog == "pixi":
			add(prog)
		case prog == "npm" || prog == "yarn" || prog == "pnpm" || prog == "bun" || prog == "npx":
			add("npm")
		case prog == "pytest" || prog == "py.test" || prog == "tox" ||
			(strings.HasPrefix(prog, "python") && slices.Contains(w, "pytest")):
			add("pytest")
		}
		words = append(words, w...)
	}
	return tools, words
}

// weakening is one change that makes a re-run prove less.
type weakening struct{ path, what string }

// rerunGuard flags, on the commits that made them, changes in base..tip
// to what the base's rerun commands run; unsigned ones fail verify. Without
// rerun (the default verify) a change in a commit no session made (no
// Session-Id trailer: a person's) is noted, not failed: the command that
// would run it is the local gate's, and a person may change a test script.
func (t *protocolTrust) rerunGuard(ctx context.Context, rep *Report, index map[string]int, tip string, rerun bool) error {
	bl := t.bl
	if bl == nil || bl.Rev == "" {
		return nil
	}
	cmds, err := bl.RerunCommands()
	if err != nil || len(cmds) == 0 {
		return err
	}
	scripts := map[string]string{} // repository path -> the command naming it
	var tools []string
	specs := slices.Clone(testPathspecs)
	for _, c := range cmds {
		ts, words := toolsOf(c.Command)
		for _, x := range ts {
			if !slices.Contains(tools, x) {
				tools = append(tools, x)
				specs = append(specs, toolConfigs[x]...)
			}
		}
		// The scripts the base's recipe for the command runs (a make,
		// just or task target's commands and its dependencies'), as the
		// gate reads them.
		for _, st := range shellline.ScriptTargets(c.Command) {
			if st.Tool != "make" && st.Tool != "just" && st.Tool != "task" {
				continue
			}
			if _, b, err := testrun.RecipeFile(st, func(p string) ([]byte, error) {
				b, err := t.repo.ReadAt(ctx, bl.Rev, p)
				if errors.Is(err, gitrepo.ErrNoFile) {
					return nil, nil
				}
				return b, err
			}); err == nil && b != nil {
				words = append(words, testrun.RecipeWords(st, b)...)
			}
		}
		for _, w := range words {
			p := path.Clean(strings.TrimPrefix(w, "./"))
			if w == "" || strings.HasPrefix(w, "-") || strings.HasPrefix(p, "../") || path.IsAbs(p) || p == "." || strings.ContainsAny(p, "*?[\n") {
				continue
			}
			if _, seen := scripts[p]; seen {
				continue
			}
			// An error is not "no such script": a partial clone that
			// cannot fetch it would leave its weakening undiffed.
			ok, err := t.repo.ExistsAt(ctx, bl.Rev, p)
			if err != nil {
				return fmt.Errorf("the rerun guard: is %s, which the base's command %q names, a script at the base: %w", p, c.Command, err)
			}
			if ok {
				scripts[p] = c.Command
				specs = append(specs, p)
			}
		}
	}
	// The runners the commands run through a recipe, an npm script or a
	// launcher (`make test` running pytest, `uv run pytest`, `npm test`
	// running jest), as the gate reads them (round 30, c2): toolsOf sees
	// only each command's own program.
	fams, famDirs, err := runnerFamilies(ctx, t.repo, bl.Rev, tip, cmds)
	if err != nil {
		return err
	}
	if slices.Contains(fams, "pytest") && !slices.Contains(tools, "pytest") {
		tools = append(tools, "pytest")
		specs = append(specs, toolConfigs["pytest"]...)
	}
	patch, status, err := t.repo.DiffZero(ctx, bl.Rev, tip, specs)
	if err != nil {
		return err
	}
	var found []weakening
	// Recipes judged by their sections, as the QA gate judges them
	// (rerunrecipe.go); the whole-file rule below is for the rest.
	var lines []string
	for _, c := range cmds {
		lines = append(lines, c.Command)
	}
	var isCode func(string) bool
	if a, err := t.repo.TreeFiles(ctx, bl.Rev); err == nil {
		if b, err := t.repo.TreeFiles(ctx, tip); err == nil {
			isCode = shellline.CodeOf(append(a, b...))
		}
	}
	recipes, err := t.recipeChanges(ctx, bl.Rev, tip, lines, isCode)
	if err != nil {
		return err
	}
	found = append(found, recipes.weak...)
	added := map[string]bool{} // base names of files the range adds
	var deleted, addedPaths []string
	for _, s := range status {
		switch s.Status {
		case "A":
			added[path.Base(s.Path)] = true
			addedPaths = append(addedPaths, s.Path)
		case "D":
			deleted = append(deleted, s.Path)
		}
	}
	// A test file moved unchanged (git mv greet_test.go hello_test.go) is
	// the same tests, not a deleted file: it was failed as one.
	moved := map[string]bool{}
	if len(deleted) > 0 && len(addedPaths) > 0 {
		was, err := t.repo.SHA256sAt(ctx, bl.Rev, deleted)
		if err != nil {
			return err
		}
		now, err := t.repo.SHA256sAt(ctx, tip, addedPaths)
		if err != nil {
			return err
		}
		arrived := map[string]bool{}
		for _, h := range now {
			arrived[h] = true
		}
		for p, h := range was {
			moved[p] = arrived[h]
		}
	}
	for _, s := range status {
		switch base := path.Base(s.Path); {
		case recipes.judged[s.Path]:
			// Read by its sections above.
		case scripts[s.Path] != "" && s.Status == "M" && t.renamedOnly(ctx, bl.Rev, tip, s.Path, rerun):
			// Only the paths of files the range renamed changed in it
			// (`sh scripts/greet.sh` now `sh scripts/hello.sh`), perhaps
			// with new checks added, and the renamed files prove no less.
		case scripts[s.Path] != "":
			found = append(found, weakening{s.Path, fmt.Sprintf("%s it, and the rerun command `%s` runs it", verb(s.Status), shorten.Bytes(scripts[s.Path], 80, "..."))})
		case s.Path == "package.json" && slices.Contains(tools, "npm"):
			if keys := t.scriptsChanged(ctx, tip, lines); len(keys) > 0 {
				found = append(found, weakening{s.Path, "changes its \"scripts\" (" + strings.Join(keys, ", ") + "), which npm runs"})
			}
		case slices.Contains(tools, "make") && (base == "Makefile" || base == "makefile" || base == "GNUmakefile" || strings.HasSuffix(base, ".mk")):
			found = append(found, weakening{s.Path, verb(s.Status) + " it, and the rerun runs make"})
		case recipeTool(s.Path) != "" && slices.Contains(tools, recipeTool(s.Path)):
			found = append(found, weakening{s.Path, verb(s.Status) + " it, and the rerun runs " + recipeTool(s.Path) + ", which reads its recipes there"})
		// pytest's configs in the folders the commands run in are judged
		// with the gate's ConfigChange below (pyconfigs.go); one
		// elsewhere (tests/pytest.ini, which `pytest tests` reads) the
		// gate does not read, so it stays a whole-file rule here.
		case slices.Contains(tools, "pytest") && (base == "pytest.ini" || base == "tox.ini") && !slices.Contains(famDirs, pyDir(s.Path)):
			found = append(found, weakening{s.Path, verb(s.Status) + " it, and the rerun's pytest reads it"})
		case testFile(s.Path) && s.Status == "D" && !added[base] && !moved[s.Path]:
			found = append(found, weakening{s.Path, "deletes this test file"})
		}
	}
	// Test files made links are named as such; skips in the files the
	// local rule reads are judged by it (skipjudge.go), in this process's
	// environment (CI's, in CI).
	links, linked, err := linkWeakenings(ctx, t.repo, bl.Rev, tip, status)
	if err != nil {
		return err
	}
	found = append(found, linked...)
	changed, err := t.repo.TreeDiff(ctx, bl.Rev, tip)
	if err != nil {
		return fmt.Errorf("rerun guard: list the range's changed files: %w", err)
	}
	// The environment the rerun's commands get (rerunEnv: CI's, cleaned as a
	// gate's is, CI=true): an agent's GOFLAGS=-v that a guard reads is not
	// there, so a return under it does not fire in the rerun either.
	guardEnv := testrun.StrictEnv(testrun.EnvOf(rerunEnv(t.repo.Root(), t.repo.Root(), os.TempDir())))
	skips, err := rangeSkips(ctx, t.repo, bl.Rev, tip, changed, links, guardEnv)
	if err != nil {
		return err
	}
	found = append(found, skips...)
	// A pytest hook of the range's that decides outcomes: the QA gate's
	// own judgement (testrun.PyHookStandIns), the base against the tip.
	if slices.Contains(tools, "pytest") {
		read := func(rev string) func(string) string {
			return func(p string) string {
				b, _ := t.repo.ReadAt(ctx, rev, p)
				return string(b)
			}
		}
		tipRead := func(p string) (string, bool) {
			b, err := t.repo.ReadAt(ctx, tip, p)
			return string(b), err == nil && len(b) <= 512<<10
		}
		for _, ch := range testrun.PyHookStandIns(changed, read(bl.Rev), tipRead) {
			found = append(found, weakening{ch.Path(), ch.What()})
		}
	}
	// A JS runner's config, setup files and Babel plugins: the QA gate's
	// own judgement (jsconfigs.go), the base against the tip.
	jsw, err := jsConfigWeakenings(ctx, t.repo, bl.Rev, tip, fams, famDirs)
	if err != nil {
		return err
	}
	found = append(found, jsw...)
	if slices.Contains(tools, "pytest") {
		pyw, err := pytestConfigWeakenings(ctx, t.repo, bl.Rev, tip, famDirs)
		if err != nil {
			return err
		}
		found = append(found, pyw...)
	}
	for _, w := range patchWeakenings(patch) {
		if !links[w.path] {
			found = append(found, w)
		}
	}
	if found, err = t.dropDeadTests(ctx, found, patch, tip); err != nil {
		return err
	}
	if found, err = t.dropMovedTests(ctx, found, status, tip); err != nil {
		return err
	}
	t.noteRecipes(ctx, rep, index, tip, recipes, found)
	if len(found) == 0 {
		return nil
	}
	if t.acc == nil {
		t.acc = t.loadAcceptances(ctx)
	}
	// One message per file, on the newest commit of the range that touched it.
	byPath := map[string][]string{}
	var paths []string
	for _, f := range found {
		if _, ok := byPath[f.path]; !ok {
			paths = append(paths, f.path)
		}
		if !slices.Contains(byPath[f.path], f.what) {
			byPath[f.path] = append(byPath[f.path], f.what)
		}
	}
	sort.Strings(paths)
	heads, err := t.repo.SHA256sAt(ctx, tip, paths)
	if err != nil {
		return err
	}
	for _, p := range paths {
		what := strings.Join(byPath[p], "; ")
		commit, listed := "", false
		if shas, err := t.repo.PathCommits(ctx, t.revs, p); err == nil {
			listed = true
			if len(shas) > 0 {
				commit = shas[0]
			}
		}
		if listed && commit == "" && t.baseMoved(ctx, tip, p, heads[p]) {
			// The base moved, not the branch: a person's test added on
			// main after the fork read as "deleted" by every honest pull
			// request behind main (helper 326).
			if i, ok := index[tip]; ok {
				rep.Commits[i].Problems = append(rep.Commits[i].Problems, fmt.Sprintf("rerun guard: %s: %s; noted: no commit of this range changes it, and the branch holds it as where it forks from the base: the base changed it since (merge or rebase onto the base to run it; `verify --rerun` runs the branch's tree)", p, what))
			}
			continue
		}
		i, ok := index[commit]
		if !ok {
			i, ok = index[tip]
		}
		if !ok {
			continue
		}
		cr := &rep.Commits[i]
		if why, ok := t.acc.signed[p+"\x00"+heads[p]]; ok {
			cr.Problems = append(cr.Problems, fmt.Sprintf("rerun guard: %s: %s; %s", p, what, why))
			continue
		}
		if commit != "" && t.acc.canVerify() {
			if st, s, err := t.repo.CommitSigner(ctx, commit, t.acc.allowed); err == nil && st == "G" && t.acc.listed(s) {
				cr.Problems = append(cr.Problems, fmt.Sprintf("rerun guard: %s: %s; the commit is signed by %s, a listed signer", p, what, s))
				continue
			}
		}
		if !rerun && cr.SessionID == "" {
			cr.Problems = append(cr.Problems, fmt.Sprintf("rerun guard: %s: %s; noted: commit %s carries no Session-Id (a person's commit)", p, what, shorten.SHA(commit)))
			continue
		}
		if !rerun && len(byPath[p]) == 1 && scripts[p] != "" && t.onlyAddsChecks(ctx, patch, p, tip) {
			// A session that adds checks to its test script is doing the
			// work; one that removes, changes or redefines them is not.
			cr.Problems = append(cr.Problems, fmt.Sprintf("rerun guard: %s: %s; noted: it only adds lines and redefines none of the base's functions (new checks); `verify --rerun` runs it", p, what))
			continue
		}
		cr.Status = "fail"
		rep.OK = false
		cr.Problems = append(cr.Problems, fmt.Sprintf("rerun guard: commit %s changes %s: %s: the re-run proves less than the base's command did; it passes only with a person's signature (a listed signer signs the commit, or accepts the file with `sessiongate protocol accept --sign` after adding it to protected_paths)",
			shorten.SHA(commit), p, what))
	}
	return nil
}

func verb(status string) string {
	switch status {
	case "D":
		return "deletes"
	case "A":
		return "adds"
	}
	return "changes"
}

// patchWeakenings reads a -U0 diff of test files: test functions that
// leave and do not come back (under the same name anywhere in the
// change), and skip markers added to test files testrun does not read.
func patchWeakenings(patch string) []weakening {
	re := guardREs()
	var out []weakening
	removed := map[string]string{} // test name -> file
	addedNames := map[string]bool{}
	file, inHunk := "", false
	for _, l := range strings.Split(patch, "\n") {
		switch {
		case strings.HasPrefix(l, "diff --git "):
			inHunk = false
		case strings.HasPrefix(l, "@@"):
			inHunk = true
		case !inHunk && (strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "--- ")):
			if p, ok := strings.CutPrefix(l[4:], "b/"); ok && strings.HasPrefix(l, "+++ ") {
				file = p
			} else if p, ok := strings.CutPrefix(l[4:], "a/"); ok && strings.HasPrefix(l, "--- ") {
				file = p
			}
		case inHunk && strings.HasPrefix(l, "+"):
			if !testFile(file) {
				continue
			}
			if n := testNameOf(re, l[1:]); n != "" {
				addedNames[n] = true
			}
			// Files the local rule reads are judged by it (rangeSkips).
			if testrun.FileKind(file) == "" && re.skip.MatchString(l[1:]) {
				out = append(out, weakening{file, "adds " + shorten.Bytes(strings.TrimSpace(l[1:]), 80, "...")})
			}
		case inHunk && strings.HasPrefix(l, "-"):
			if n := testNameOf(re, l[1:]); n != "" && testFile(file) {
				removed[n] = file
			}
		}
	}
	var names []string
	for n := range removed {
		if !addedNames[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		out = append(out, weakening{removed[n], "removes the test " + n})
	}
	return out
}

func testNameOf(re guardRes, line string) string {
	m := re.testName.FindStringSubmatch(line)
	switch {
	case m == nil:
		return ""
	case m[1] != "":
		return m[1]
	case m[4] != "":
		return m[4]
	}
	return m[6]
}

// scriptsChanged lists the package.json "scripts" keys whose value differs
// between the base and tip (added, changed or removed).
func (t *protocolTrust) scriptsChanged(ctx context.Context, tip string, lines []string) []string {
	read := func(rev string) map[string]string {
		b, err := t.repo.ReadAt(ctx, rev, "package.json")
		if err != nil {
			if errors.Is(err, gitrepo.ErrNoFile) {
				return map[string]string{}
			}
			return nil
		}
		var pj struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal(b, &pj) != nil {
			return nil
		}
		return pj.Scripts
	}
	a, b := read(t.bl.Rev), read(tip)
	if a == nil || b == nil {
		return []string{"unreadable"} // an unparsable package.json hides what npm runs
	}
	reached := npmScriptsReached(lines, a, b)
	var keys []string
	for k, v := range a {
		if b[k] != v && (reached == nil || reached[k]) {
			keys = append(keys, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok && (reached == nil || reached[k]) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// npmScriptsReached lists the root package.json scripts the rerun's npm
// runs can reach, at either revision: the scripts its lines name, their
// pre and post scripts, npm's install lifecycle, and any script whose
// name a reached script's body holds as a word (`npm run build`,
// `run-s lint build`, `concurrently npm:x`). Adding a "lint" script that
// `npm test` never runs is no weakening (round 56, helper 334's F8: it
// failed CI while the same Makefile target passed). nil when the lines
// name no root script: then every script counts, as before.
func npmScriptsReached(lines []string, a, b map[string]string) map[string]bool {
	var queue []string
	for _, l := range lines {
		for _, st := range shellline.ScriptTargets(l) {
			if st.Tool == "npm" && (st.Dir == "" || st.Dir == ".") {
				queue = append(queue, st.Name)
			}
		}
	}
	if len(queue) == 0 {
		return nil
	}
	queue = append(queue, "preinstall", "install", "postinstall", "prepare", "preprepare", "postprepare")
	reached := map[string]bool{}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if reached[n] {
			continue
		}
		reached[n] = true
		for _, hook := range []string{"pre" + n, "post" + n} {
			if _, ok := a[hook]; ok {
				queue = append(queue, hook)
			} else if _, ok := b[hook]; ok {
				queue = append(queue, hook)
			}
		}
		for _, body := range []string{a[n], b[n]} {
			for _, w := range strings.FieldsFunc(body, func(r rune) bool {
				return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(":_-.@/", r))
			}) {
				w = strings.TrimPrefix(w, "npm:")
				if _, ok := a[w]; ok {
					queue = append(queue, w)
				} else if _, ok := b[w]; ok {
					queue = append(queue, w)
				}
			}
		}
	}
	return reached
}

// onlyAddsChecks reports whether the range's change to the script at p
// only adds lines, none of which can make it prove less
// (shellline.AddedLineWeakens: `check() { [ -n "$1" ]; }` put before the
// checks made every check pass, adversarial pass of issue 25, route 6; an
// early `exit 0` did too).
func (t *protocolTrust) onlyAddsChecks(ctx context.Context, patch, p, tip string) bool {
	base, err := t.repo.ReadAt(ctx, t.bl.Rev, p)
	if err != nil {
		return false
	}
	// A written source file counts only when it is the project's code
	// (tracked at the base or the tip: shellline.CodeOf); a codegen line
	// (`echo ... > pkg/_version.py`) writes a file nobody commits.
	var isCode func(string) bool
	if a, err := t.repo.TreeFiles(ctx, t.bl.Rev); err == nil {
		if b, err := t.repo.TreeFiles(ctx, tip); err == nil {
			isCode = shellline.CodeOf(append(a, b...))
		}
	}
	// The added lines are read where they stand in the script as
	// committed at the tip (the patch alone does not say what the lines
	// above them set: `R=$(pwd)`, `cd "$tmp"`).
	var script *shellline.Script
	var wasKept func(string) bool
	var nowKept func(int) bool
	at := 0
	var tipText string
	if now, err := t.repo.ReadAt(ctx, tip, p); err == nil {
		if testrun.SameShellProgram(p, string(base), string(now)) {
			return true // comments and layout only
		}
		if testrun.ChecksMadeDead(p, string(base), string(now)) != "" {
			return false // a check moved into a function nothing calls: the gate's reading
		}
		tipText = string(now)
		// Checks moved into a file the range added that the script
		// sources: judged with the file read in place, as the gate
		// judges them (testrun/sourcedmove.go).
		readTip := func(f string) (string, bool) {
			b, err := t.repo.ReadAt(ctx, tip, f)
			return string(b), err == nil && len(b) <= 256<<10
		}
		isNew := func(f string) bool {
			if ok, err := t.repo.ExistsAt(ctx, t.bl.Rev, f); err != nil || ok {
				return false
			}
			_, ok := readTip(f)
			return ok
		}
		if why, ok := testrun.SourcedMoveWeakens(p, string(base), tipText, readTip, isNew, isCode); ok {
			return why == ""
		}
		// Statements that print the same in both (a function laid out
		// over lines, a plain word quoted) are no change: the local
		// gate's reading (testrun/shellstmts.go), so the two agree.
		if wk, nk, moved, ok := testrun.StatementsKept(p, string(base), tipText); ok {
			if moved != "" {
				return false
			}
			wasKept, nowKept = wk, nk
		}
		// A `. ./lib.sh` line reads the file as committed at the tip.
		script = shellline.ReadScriptFiles(tipText, func(f string) (string, bool) {
			b, err := t.repo.ReadAt(ctx, tip, f)
			return string(b), err == nil && len(b) <= 256<<10
		})
		if testrun.IsShellScript(p, string(base)) {
			script.RunsWhole() // as the gate reads a script file
		}
	}
	// A message reworded inside a line (a helper's one-line definition):
	// the line it was, as the local gate reads it (testrun/rewordedmsg.go).
	reworded := testrun.RewordedLines(p, string(base), tipText)
	in := false
	var removed, added []string
	for _, l := range strings.Split(patch, "\n") {
		if strings.HasPrefix(l, "diff --git ") {
			in = strings.HasSuffix(l, " b/"+p)
			continue
		}
		if !in || strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "---") {
			continue
		}
		switch {
		case strings.HasPrefix(l, "-"):
			// A comment, or a line that only prints (a summary `echo
			// 'PASS: greet (1 test)'` whose count the work updated),
			// proves nothing: the local gate leaves it out too
			// (testrun.compareInput), so the two agree.
			// Either stands on a line of its own (shellline.OwnLine): in a
			// here-doc body or a multi-line string it is what a check
			// compares.
			if k := strings.TrimSpace(l[1:]); k != "" && (wasKept == nil || !wasKept(k)) &&
				!((strings.HasPrefix(k, "#") ||
					(script != nil && shellline.PrintsOnly(k, string(base)) && shellline.PrintsOnly(k, tipText))) &&
					shellline.OwnLine(k, string(base))) {
				removed = append(removed, k)
			}
		case strings.HasPrefix(l, "+"):
			if script != nil && nowKept != nil {
				if i := script.Index(l[1:], at); i >= 0 && nowKept(i) {
					at = i + 1
					continue // a line of a statement the base has too
				}
			}
			if k := strings.TrimSpace(l[1:]); k != "" {
				added = append(added, k)
			}
			// A replaced function, an early `exit 0`, `|| true`, a
			// filter: added, yet the script proves less (the local QA
			// gate judges added lines the same way).
			if script != nil {
				if i := script.Index(l[1:], at); i >= 0 {
					at = i + 1
					if !reworded[strings.TrimSpace(l[1:])] && script.LineWeakens(i, string(base), isCode) != "" {
						return false
					}
					continue
				}
			}
			if !reworded[strings.TrimSpace(l[1:])] && shellline.AddedLineWeakensIn(l[1:], string(base), isCode) != "" {
				return false
			}
		}
	}
	// A case added to a loop's list, a comment after a check: the local
	// gate's reading (testrun/forlist.go), so the two agree.
	return len(testrun.UnansweredRemovals(p, string(base), tipText, removed, added)) == 0
}

// noteRecipes notes, on the newest commit that touched it, a recipe file
// whose change only adds checks as the QA gate reads it (the gate notes
// it too): no signature is asked for.
func (t *protocolTrust) noteRecipes(ctx context.Context, rep *Report, index map[string]int, tip string, j recipeJudgement, found []weakening) {
	for _, n := range j.noted {
		if slices.ContainsFunc(found, func(w weakening) bool { return w.path == n.path }) {
			continue
		}
		commit := ""
		if shas, err := t.repo.PathCommits(ctx, t.revs, n.path); err == nil && len(shas) > 0 {
			commit = shas[0]
		}
		i, ok := index[commit]
		if !ok {
			if i, ok = index[tip]; !ok {
				continue
			}
		}
		rep.Commits[i].Problems = append(rep.Commits[i].Problems, fmt.Sprintf("rerun guard: %s; noted: read as the QA gate reads the recipe, the change proves no less", n.what))
	}
}

// baseMoved reports whether p, which differs between the base and tip
// though no commit of the range changes it, is at tip as it is where tip
// forks from the base (both absent, or the same content, sha tip's): the
// base changed it after the fork. Not excused: a merge of the base that
// drops the base's file (the fork point is then the base's commit, which
// holds it); a criss-cross history (several merge bases: what the merge
// lands is no one base's file, helper 327's L6); a push of the default
// branch, whose tip replaces the base rather than merging into it (a
// force push back to an older commit, helper 327's L1).
func (t *protocolTrust) baseMoved(ctx context.Context, tip, p, sha string) bool {
	if t.defaultPush {
		return false
	}
	if t.forkBasesTip != tip {
		t.forkBasesTip, t.forkBases = tip, nil
		if mbs, err := t.repo.MergeBases(ctx, t.bl.Rev, tip); err == nil {
			t.forkBases = mbs
		}
	}
	mbs := t.forkBases
	if len(mbs) != 1 || mbs[0] == t.bl.Rev {
		return false
	}
	at, err := t.repo.SHA256sAt(ctx, mbs[0], []string{p})
	return err == nil && at[p] == sha
}
