package testrun

import (
	"bytes"
	"context"
	"path"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// A monorepo whose subprojects carry their own test entry (api/Makefile's
// test target, web/package.json's test script) has one suite per folder,
// whatever the runner inside: `cd web && make test` passing said nothing
// of api/three.py, broken by the session, yet met QA (round 55, helper
// 331: COMPLETE, clean verify). So a changed file inside such a folder
// needs a passing whole run made in that folder or above it (a run at the
// root is the project's own suite: its recipe decides what it reaches, as
// for any script). A file whose nearest entry is the root's, or that no
// entry holds (a shared lib/ tested through web/), needs nothing more:
// which suite exercises it is not written in the tree, and guessing
// blocks honest work.

// FolderFamily is the Need family of a changed file inside a subproject
// with its own test entry; Root is that folder and Script its entry.
const FolderFamily = "folder"

// folderEntries are the test entries that make a folder a subproject, in
// the order a person would name them.
var folderEntries = []shellline.ScriptTarget{
	{Tool: "make", Name: "test"},
	{Tool: "make", Name: "check"},
	{Tool: "npm", Name: "test", File: "package.json"},
	{Tool: "just", Name: "test"},
	{Tool: "task", Name: "test"},
}

// FolderNeeds lists, for each subproject folder below the root holding a
// changed file, the need of a whole run there (FoldersRun covers it). The
// folder is the nearest one above the file with a `test` entry (a `check`
// entry counts only where no folder above has a test entry: a nested
// lint-like check is not the suite of the subproject around it), read in
// tree or, for an entry the session deleted or renamed, at start (helper
// 336's F3 and F19).
func FolderNeeds(ctx context.Context, repo Repo, tree, start string, files, changed []string, isDoc func(string) bool) []Need {
	have := make(map[string]bool, len(files))
	for _, f := range files {
		have[f] = true
	}
	type ent struct {
		name string // "make test"; "" none
		only string // the runner family the entry runs and nothing else
	}
	entries := map[string]ent{}
	entryOf := func(d string) ent {
		if e, ok := entries[d]; ok {
			return e
		}
		name, only := folderEntry(ctx, repo, tree, d, have)
		if name == "" && start != "" {
			name, only = folderEntry(ctx, repo, start, d, nil)
		}
		entries[d] = ent{name, only}
		return entries[d]
	}
	var out []Need
	seen := map[string]bool{}
	for _, f := range changed {
		// Not SkippedDir: api/_internal/ or api/vendor/ is api's code,
		// whatever a runner collects tests from (helper 336's F14).
		if isDoc(f) || docLike(f) {
			continue
		}
		var check string
		var checkEnt ent
		found := false
		for d := path.Dir(f); d != "." && d != "/" && d != ""; d = path.Dir(d) {
			e := entryOf(d)
			if e.name == "" {
				continue
			}
			if !strings.HasSuffix(e.name, " test") {
				if check == "" {
					check, checkEnt = d, e
				}
				continue
			}
			if !seen[d] {
				seen[d] = true
				out = append(out, Need{Family: FolderFamily, Root: d, File: f, Script: e.name, Only: e.only})
			}
			found = true
			break
		}
		if !found && check != "" && !seen[check] {
			seen[check] = true
			out = append(out, Need{Family: FolderFamily, Root: check, File: f, Script: checkEnt.name, Only: checkEnt.only})
		}
	}
	return out
}

// docLike: files no test reads by their kind, beside the engine's
// documentation globs: a changelog, licence or notice without extension,
// text under a docs folder (helper 336's F18). A test script that names
// one makes it a script need (scriptsuite.go).
func docLike(f string) bool {
	base := strings.ToUpper(strings.TrimSuffix(path.Base(f), path.Ext(f)))
	switch base {
	case "CHANGELOG", "CHANGES", "HISTORY", "LICENSE", "LICENCE", "NOTICE", "AUTHORS", "CONTRIBUTORS", "COPYING":
		return true
	}
	switch path.Ext(f) {
	case ".txt", ".rst", ".adoc":
		for d := path.Dir(f); d != "." && d != "/"; d = path.Dir(d) {
			if b := path.Base(d); b == "docs" || b == "doc" {
				return true
			}
		}
	}
	return false
}

// folderEntry names the test entry of folder d ("make test"), "" when it
// has none, and the runner family it runs when it runs only that one.
// npm's default script, which only fails, is none. A Makefile's target
// may come from a fragment it includes (helper 336's F15). have nil:
// read the revision without a file list.
func folderEntry(ctx context.Context, repo Repo, rev, d string, have map[string]bool) (name, only string) {
	for _, t := range folderEntries {
		for _, n := range RecipeFileNames(t) {
			rel := path.Join(d, n)
			if have != nil && !have[rel] {
				continue
			}
			b, err := repo.ReadAt(ctx, rev, rel)
			if err != nil {
				continue
			}
			body, ok := ScriptBody(t, b)
			if !ok && t.Tool == "make" {
				body, ok = includedRule(ctx, repo, rev, d, t, b)
			}
			if !ok || t.Tool == "npm" && strings.Contains(body, "no test specified") {
				break
			}
			if t.Tool != "npm" {
				_, body, _ = strings.Cut(body, "\n") // make's, just's, task's "name: deps" header
			}
			return strings.TrimSpace(t.Tool + " " + t.Name), onlyRunner(body)
		}
	}
	return "", ""
}

// includedRule finds a make target in the files a Makefile includes
// (`include ../mk/common.mk`, `-include x.mk`), one level deep.
func includedRule(ctx context.Context, repo Repo, rev, d string, t shellline.ScriptTarget, mk []byte) (string, bool) {
	for _, l := range strings.Split(string(mk), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || f[0] != "include" && f[0] != "-include" && f[0] != "sinclude" {
			continue
		}
		for _, inc := range f[1:] {
			if strings.ContainsAny(inc, "$*?") {
				continue
			}
			if b, err := repo.ReadAt(ctx, rev, path.Join(d, inc)); err == nil {
				if body, ok := ScriptBody(t, b); ok {
					return body, true
				}
			}
		}
	}
	return "", false
}

// onlyRunner is the runner family ("py", "go", "js") every test run of an
// entry's body is, "" when it runs a script or more than one: a runner
// above the folder that collects its tests stands in for the entry only
// when the entry is that runner (helper 336's F17: a root pytest that
// collected api's smoke test passed for api, whose make test also ran a
// failing check script).
func onlyRunner(body string) string {
	fam := ""
	for _, l := range strings.Split(body, "\n") {
		for _, r := range shellline.TestRuns(strings.TrimSpace(l)) {
			f := map[string]string{"go test": "go", "pytest": "py", "unittest": "py", "jest": "js", "vitest": "js"}[r.Runner]
			if f == "" || fam != "" && fam != f {
				return ""
			}
			fam = f
		}
	}
	return fam
}

// FoldersRun lists, as FolderFamily needs, the subproject folders a run
// of line tested: the folder each test run ran in (relative to the
// repository's root, root on disk) unless it ran a script from outside
// that folder (`cd api && sh ../web/run_tests.sh` is web's script: helper
// 336's F16); for a runner, the folders below it holding test files it
// collects (standing in for an entry that runs only that runner); and the
// folders of the files its scripts reach (scriptsReached) or, in a script
// the start commit had and the session left unchanged, name outside
// echo/printf text (`for d in api web`) or match by a glob (`for d in
// */`). A script run at the root covers only what it reaches: a script
// the session wrote that tests web/ alone said nothing of api/.
func FoldersRun(ctx context.Context, repo Repo, tree, start, line string, have map[string]bool) []Need {
	seen := map[string]bool{}
	var out []Need
	add := func(d, only string) {
		if d == "." {
			d = ""
		}
		if !seen[d+"\x00"+only] {
			seen[d+"\x00"+only] = true
			out = append(out, Need{Family: FolderFamily, Root: d, Only: only})
		}
	}
	addUp := func(f, to, only string) { // f's folder and those above it, to folder to
		for d := path.Dir(f); d != "." && d != "/" && d != to; d = path.Dir(d) {
			add(d, only)
		}
	}
	root := repo.Root()
	for _, r := range shellline.TestRuns(line) {
		d := r.Dir
		if d == shellline.UnknownDir {
			continue // `cd $X`, eval, a bare cd: a folder the line does not name covers none
		}
		if path.IsAbs(d) || filepath.IsAbs(d) {
			rel, err := filepath.Rel(root, filepath.FromSlash(d))
			if err != nil {
				continue
			}
			d = filepath.ToSlash(rel)
		}
		if d = path.Clean(d); d == "." {
			d = ""
		}
		if d == ".." || strings.HasPrefix(d, "../") || d == "?" {
			continue // outside the repository, or a folder it cannot tell
		}
		runner := map[string]string{"go test": "go", "pytest": "py", "unittest": "py", "jest": "js", "vitest": "js"}[r.Runner]
		if !scriptFromElsewhere(r, d) {
			add(d, runner) // a runner in the folder stands in for an entry that is that runner
		}
		if r.Workspaces {
			for _, w := range WorkspaceDirs(ctx, repo, tree, d, have) {
				add(w, "") // `npm test --workspaces`: each package's script, in its folder
			}
		}
		if fam, ok := FamilyOf(r.Runner); ok {
			for f := range have {
				if fam.test(f) && !SkippedDir(f) && (d == "" || strings.HasPrefix(f, d+"/")) {
					addUp(f, d, runner)
				}
			}
		}
	}
	_, reached := scriptsReached(ctx, repo, tree, line, have)
	dirs := map[string]bool{}
	for f := range have {
		for d := path.Dir(f); d != "." && d != "/"; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for f := range reached {
		addUp(f, "", "")
		if !scriptExt[path.Ext(f)] {
			continue
		}
		b, err := repo.ReadAt(ctx, start, f)
		if err != nil {
			continue // a script the session wrote: only what it runs counts
		}
		if now, err := repo.ReadAt(ctx, tree, f); err != nil || !bytes.Equal(now, b) {
			continue // nor one it rewrote (`for d in web` from `for d in api web`)
		}
		run := runLines(b)
		for _, d := range namedFiles(f, run, dirs) {
			add(d, "")
		}
		for _, d := range globbedDirs(f, run, dirs) {
			add(d, "")
		}
	}
	return out
}

// scriptFromElsewhere: r runs a script by its path (`sh ../web/t.sh`,
// `../web/t.sh`) that lies outside folder d, where it ran.
func scriptFromElsewhere(r shellline.TestRun, d string) bool {
	prog, _, _ := strings.Cut(r.Runner, " ")
	script := ""
	switch {
	case strings.Contains(prog, "/"):
		script = prog
	case scriptInterpreters[path.Base(prog)]:
		for _, f := range r.Filters {
			if !strings.HasPrefix(f, "-") {
				script = f
				break
			}
		}
	}
	if script == "" || path.IsAbs(script) {
		return script != ""
	}
	p := path.Join(d, script)
	return p == ".." || strings.HasPrefix(p, "../") || d != "" && p != d && !strings.HasPrefix(p, d+"/")
}

var scriptInterpreters = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "bats": true, "node": true, "python": true, "python3": true, "ruby": true, "perl": true}

// runLines are a script's lines that may run something: not comments, not
// echo or printf text, and none after a top-level exit (helper 336's F4:
// `echo "api is tested by make -C api test"` named api).
func runLines(b []byte) []byte {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(l)
		w := strings.Fields(t)
		if len(w) == 0 || strings.HasPrefix(t, "#") {
			continue
		}
		if w[0] == "exit" {
			break
		}
		if w[0] == "echo" || w[0] == "printf" || w[0] == ":" {
			continue
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n"))
}

// globbedDirs lists the folders a glob word of the script matches (`for d
// in */`, `packages/*/`), from the script's folder and the root: such a
// loop runs every subproject (helper 336's F8, an honest loop refused).
func globbedDirs(s string, body []byte, dirs map[string]bool) []string {
	var out []string
	for _, tok := range strings.FieldsFunc(string(body), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._/-*", r))
	}) {
		if !strings.Contains(tok, "*") {
			continue
		}
		g := strings.TrimSuffix(strings.TrimPrefix(tok, "./"), "/")
		for _, base := range []string{path.Dir(s), "."} {
			pat := path.Join(base, g)
			for d := range dirs {
				if ok, err := path.Match(pat, d); err == nil && ok {
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// Covers says whether c, a suite a run covers, answers need n: a runner's
// run from above a folder answers it only when the folder's entry runs
// that runner and nothing else.
func (c Need) Covers(n Need) bool {
	return c.Family == n.Family && c.Root == n.Root && (c.Only == "" || c.Only == n.Only)
}
