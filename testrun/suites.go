package testrun

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// A QA phase that says "run the tests" takes a run of the suite, not of a
// part of it (issue 25): `go test -run TestAdd ./pkg`, `pytest
// tests/test_one.py::test_x` or `npm test -- -t foo` passing, with nothing
// failing before, met QA. The rule (docs/evidence.md, "Which run is QA"):
// the passing run QA takes must have no filter (shellline.TestRun.Partial)
// and targets that hold every test file of the project it runs in (the
// module, package or Python project around the folder it ran in): a
// changed-files rule would let a change break the tests of a package it
// did not touch, which only the whole suite shows. Narrow runs to debug
// stay free; the whole run that follows answers QA.

// Family is what a runner's suite is made of: its test files and the
// files that mark a project root.
type Family struct {
	test  func(string) bool
	roots []string
}

var (
	GoSuite = Family{test: func(f string) bool { return strings.HasSuffix(f, "_test.go") }, roots: []string{"go.mod"}}
	PySuite = Family{test: func(f string) bool {
		b := path.Base(f)
		return strings.HasSuffix(b, ".py") && (strings.HasPrefix(b, "test_") || strings.HasSuffix(b, "_test.py"))
	}, roots: []string{"pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini"}}
	JSSuite = Family{test: func(f string) bool {
		b := path.Base(f)
		return strings.Contains(b, ".test.") || strings.Contains(b, ".spec.") || strings.Contains("/"+f, "/__tests__/")
	}, roots: []string{"package.json"}}
)

func FamilyOf(runner string) (Family, bool) {
	switch runner {
	case "go test":
		return GoSuite, true
	case "pytest", "unittest":
		return PySuite, true
	case "jest", "vitest":
		return JSSuite, true
	}
	return Family{}, false
}

// SkippedDir: folders a runner does not collect tests from.
func SkippedDir(f string) bool {
	for _, d := range strings.Split(path.Dir(f), "/") {
		switch d {
		case "testdata", "vendor", "node_modules", ".venv", "venv", "site-packages", "fixtures", "__fixtures__":
			return true
		}
		if strings.HasPrefix(d, ".") && d != "." || strings.HasPrefix(d, "_") && d != "__tests__" {
			return true
		}
	}
	return false
}

// ProjectRoot is the nearest folder at or above dir holding one of the
// family's root files ("" for the repository root).
func ProjectRoot(fam Family, have map[string]bool, dir string) string {
	for d := path.Clean(dir); ; d = path.Dir(d) {
		if d == "." || d == "/" || d == "" {
			return ""
		}
		for _, r := range fam.roots {
			if have[d+"/"+r] {
				return d
			}
		}
	}
}

// PartialRun says how a passing test-suite run covers less than its
// project's suite, "" when it covers it. files are the tracked files of
// the tree it saw; goMod reads a go.mod's module path (for import-path
// targets).
func PartialRun(line string, files []string, goMod func(dir string) string) string {
	have := make(map[string]bool, len(files))
	for _, f := range files {
		have[f] = true
	}
	for _, r := range shellline.TestRuns(line) {
		if r.Dir == shellline.UnknownDir {
			return fmt.Sprintf("`%s` runs part of the suite: it runs in a folder the line does not name (cd $VAR, eval, a bare cd)", truncate(line, 100))
		}
		if why := r.Partial(); why != "" {
			return fmt.Sprintf("`%s` runs part of the suite: %s", truncate(line, 100), why)
		}
		if why := shortTargets(r, files, have, goMod); why != "" {
			return fmt.Sprintf("`%s` runs part of the suite: %s", truncate(line, 100), why)
		}
	}
	return ""
}

// shortTargets names a test file of the run's project that no target of
// the run holds.
func shortTargets(r shellline.TestRun, files []string, have map[string]bool, goMod func(string) string) string {
	if r.Runner == "cargo test" {
		n := 0
		for _, f := range files {
			if path.Base(f) == "Cargo.toml" {
				n++
			}
		}
		if len(r.Targets) > 0 && n > 1 {
			return "it picks packages (" + strings.Join(r.Targets, " ") + ") of a workspace"
		}
		return ""
	}
	fam, ok := FamilyOf(r.Runner)
	if !ok {
		return "" // a script or npm test: its suite is what it runs
	}
	dir := path.Clean(r.Dir)
	if dir == "." {
		dir = ""
	}
	root := ProjectRoot(fam, have, dir)
	var targets []string
	if r.Targets == nil {
		if dir == root {
			return "" // the runner's own suite, from its project's root
		}
		targets = []string{dir} // collected from a folder inside the project
	}
	for _, t := range r.Targets {
		if r.Runner == "go test" && !strings.HasPrefix(t, ".") && !strings.HasPrefix(t, "/") {
			// An import path: the module's own (module/x/...) maps to a folder.
			mod := goMod(root)
			if mod == "" {
				continue
			}
			rest, ok := strings.CutPrefix(t, mod)
			if !ok || rest != "" && !strings.HasPrefix(rest, "/") {
				continue
			}
			t = "." + rest
			targets = append(targets, joinTarget(root, t))
			continue
		}
		if r.Runner == "unittest" && !strings.Contains(t, "/") && !strings.HasSuffix(t, ".py") {
			t = strings.ReplaceAll(t, ".", "/") // tests.test_x: a module
		}
		targets = append(targets, joinTarget(dir, t))
	}
	for _, f := range files {
		if !fam.test(f) || SkippedDir(f) || ProjectRoot(fam, have, path.Dir(f)) != root {
			continue
		}
		want := f
		if r.Runner == "go test" {
			want = path.Dir(f) // a package
		}
		if !slices.ContainsFunc(targets, func(t string) bool { return suiteCovers(r.Runner, t, want) }) {
			return fmt.Sprintf("no target holds %s", want)
		}
	}
	return ""
}

func joinTarget(dir, t string) string {
	if dir == "" {
		return t
	}
	return dir + "/" + t
}

// suiteCovers: target t (a path, a Go pattern, a jest path pattern) holds
// the package or file want.
func suiteCovers(runner, t, want string) bool {
	switch runner {
	case "jest", "vitest":
		t = strings.TrimPrefix(t, "./")
		return t == "." || t == "" || strings.Contains(want, t)
	case "unittest":
		t = path.Clean(t)
		return t == "." || want == t || strings.HasPrefix(want, t+"/") || strings.TrimSuffix(want, ".py") == t
	}
	return shellline.TargetCovers(runner, t, want)
}

// GoModulePath reads the module line of a go.mod.
func GoModulePath(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`)
		}
	}
	return ""
}

// A project with two runners (Go and a JS frontend, pytest and npm) has
// two suites: a whole run of one says nothing of the other (issue 25 item
// 5, route 4). Each runner whose files the session changed (a .go file:
// the Go suite of its module; .js/.ts: the npm suite of its package.json;
// .py: pytest's) needs a whole run of its own, from its project's root.
// A side the session did not touch needs none.

// Need is one suite the session's change needs a whole run of.
type Need struct {
	Family, Root string // "go", "py" or "js"; the project's folder ("" the root)
	File         string // a changed file that needs it
	// Script is, for ScriptFamily, a test script that names File (Root
	// is File there: any run reaching a script that names it covers it);
	// for FolderFamily, the folder's test entry ("make test").
	Script string
	// Only is, for FolderFamily, a runner family ("py"): on a need, the
	// one its entry runs and nothing else; on what a run covers, that it
	// is that runner's run from a folder above, which answers only such a
	// need (foldersuite.go).
	Only string
}

// Command is the run that covers the suite.
func (n Need) Command() string {
	if n.Family == ScriptFamily {
		return "sh " + n.Script
	}
	if n.Family == FolderFamily {
		return "cd " + shellline.Join([]string{n.Root}) + " && " + n.Script
	}
	c := map[string]string{"go": "go test ./...", "py": "pytest", "js": "npm test"}[n.Family]
	if n.Root != "" {
		c = "cd " + n.Root + " && " + c
	}
	return c
}

var jsSourceExt = map[string]bool{".js": true, ".jsx": true, ".ts": true, ".tsx": true, ".mjs": true, ".cjs": true, ".mts": true, ".cts": true, ".vue": true, ".svelte": true}

// SuitesNeeded lists, per runner family and project, the suites the
// changed files belong to that have tests in the tree (files).
func SuitesNeeded(ctx context.Context, repo Repo, tree string, files, changed []string, isDoc func(string) bool) []Need {
	have := make(map[string]bool, len(files))
	for _, f := range files {
		have[f] = true
	}
	var out []Need
	seen := map[string]bool{}
	for _, f := range changed {
		if isDoc(f) || SkippedDir(f) {
			continue
		}
		var fam string
		var sf Family
		switch ext := path.Ext(f); {
		case ext == ".go":
			fam, sf = "go", GoSuite
		case ext == ".py":
			fam, sf = "py", PySuite
		case jsSourceExt[ext]:
			fam, sf = "js", JSSuite
		default:
			continue
		}
		root := ProjectRoot(sf, have, path.Dir(f))
		if seen[fam+"\x00"+root] {
			continue
		}
		seen[fam+"\x00"+root] = true
		if hasSuite(ctx, repo, tree, fam, sf, root, files, have) {
			out = append(out, Need{Family: fam, Root: root, File: f})
		}
	}
	return out
}

// hasSuite: the project at root has tests of the family (for JS, a
// package.json there with a test script, or test files; a nested Go
// module always has: its run is its build check).
func hasSuite(ctx context.Context, repo Repo, tree, fam string, sf Family, root string, files []string, have map[string]bool) bool {
	if fam == "go" && root != "" {
		// A nested module (its own go.mod): `go test ./...` at the root
		// does not build it, so its own run is the only one that compiles
		// the change, tests or not (issue 25 route 3).
		return true
	}
	if fam == "js" {
		pj := path.Join(root, "package.json")
		if !have[pj] {
			return false
		}
		if b, err := repo.ReadAt(ctx, tree, pj); err == nil {
			if _, ok := ScriptBody(shellline.ScriptTarget{Tool: "npm", Name: "test"}, b); ok {
				return true
			}
		}
	}
	for _, f := range files {
		if sf.test(f) && !SkippedDir(f) && ProjectRoot(sf, have, path.Dir(f)) == root {
			return true
		}
	}
	return false
}

// SuitesRun lists the family and project root of each suite a run covers:
// its runner's, or for a script (make test, npm test, sh tests/check.sh)
// the runners its body calls.
func SuitesRun(ctx context.Context, repo Repo, tree, line string, have map[string]bool) []Need {
	var out []Need
	add := func(fam, dir string) {
		sf := map[string]Family{"go": GoSuite, "py": PySuite, "js": JSSuite}[fam]
		out = append(out, Need{Family: fam, Root: ProjectRoot(sf, have, dir)})
	}
	for _, r := range shellline.TestRuns(line) {
		d, ok := RunFolder(repo.Root(), r.Dir)
		if !ok {
			continue // an unknown folder or one outside: no suite of the repository's
		}
		r.Dir = d
		switch r.Runner {
		case "go test":
			add("go", r.Dir)
		case "pytest", "unittest":
			add("py", r.Dir)
		case "jest", "vitest", "mocha":
			add("js", r.Dir)
		}
		if r.Workspaces {
			for _, d := range WorkspaceDirs(ctx, repo, tree, r.Dir, have) {
				add("js", d) // each workspace package's own suite
			}
		}
	}
	for _, t := range shellline.ScriptTargets(line) {
		d, ok := RunFolder(repo.Root(), t.Dir)
		if !ok {
			continue
		}
		t.Dir = d
		if t.Tool == "npm" {
			add("js", t.Dir) // the package's own suite
		}
		rel, now, err := ScriptFile(repo.Root(), t)
		if err != nil || rel == "" {
			continue
		}
		if body, ok := ScriptBody(t, now); ok {
			for _, l := range strings.Split(body, "\n") {
				for _, x := range SuitesRun(ctx, repo, tree, l, have) {
					add(x.Family, path.Join(t.Dir, x.Root))
				}
			}
		}
	}
	return out
}
