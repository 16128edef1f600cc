package session

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

// TreeLister lists a tree's files; gitrepo.Repo implements it.
type TreeLister interface {
	TreeFiles(ctx context.Context, rev string) ([]string, error)
}

// suiteFamily is what a runner's suite is made of: its test files and the
// files that mark a project root.
type suiteFamily struct {
	test  func(string) bool
	roots []string
}

var (
	goSuite = suiteFamily{test: func(f string) bool { return strings.HasSuffix(f, "_test.go") }, roots: []string{"go.mod"}}
	pySuite = suiteFamily{test: func(f string) bool {
		b := path.Base(f)
		return strings.HasSuffix(b, ".py") && (strings.HasPrefix(b, "test_") || strings.HasSuffix(b, "_test.py"))
	}, roots: []string{"pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini"}}
	jsSuite = suiteFamily{test: func(f string) bool {
		b := path.Base(f)
		return strings.Contains(b, ".test.") || strings.Contains(b, ".spec.") || strings.Contains("/"+f, "/__tests__/")
	}, roots: []string{"package.json"}}
)

func familyOf(runner string) (suiteFamily, bool) {
	switch runner {
	case "go test":
		return goSuite, true
	case "pytest", "unittest":
		return pySuite, true
	case "jest", "vitest":
		return jsSuite, true
	}
	return suiteFamily{}, false
}

// skippedDir: folders a runner does not collect tests from.
func skippedDir(f string) bool {
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

// projectRoot is the nearest folder at or above dir holding one of the
// family's root files ("" for the repository root).
func projectRoot(fam suiteFamily, have map[string]bool, dir string) string {
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

// partialRun says how a passing test-suite run covers less than its
// project's suite, "" when it covers it. files are the tracked files of
// the tree it saw; goMod reads a go.mod's module path (for import-path
// targets).
func partialRun(line string, files []string, goMod func(dir string) string) string {
	have := make(map[string]bool, len(files))
	for _, f := range files {
		have[f] = true
	}
	for _, r := range shellline.TestRuns(line) {
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
	fam, ok := familyOf(r.Runner)
	if !ok {
		return "" // a script or npm test: its suite is what it runs
	}
	dir := path.Clean(r.Dir)
	if dir == "." {
		dir = ""
	}
	root := projectRoot(fam, have, dir)
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
		if !fam.test(f) || skippedDir(f) || projectRoot(fam, have, path.Dir(f)) != root {
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

// goModulePath reads the module line of a go.mod.
func goModulePath(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`)
		}
	}
	return ""
}

// wholeRun picks, newest first, the passing test-suite run of phase p
// that covers its project's suite; nil and why the newest falls short
// when none does (no passing run: nil, "").
func (e *Engine) wholeRun(ctx context.Context, repo Repo, evs []Evidence, phase string) (*Evidence, string, error) {
	tl, ok := repo.(TreeLister)
	why := ""
	for i := len(evs) - 1; i >= 0; i-- {
		ev := &evs[i]
		if ev.Phase != phase || ev.Origin != OriginObserved || !ev.Succeeded() || !shellline.RunsTests(ev.Command) {
			continue
		}
		if !ok {
			return ev, "", nil
		}
		tree := sawTree(ev.Ref)
		if tree == "" {
			tree = "HEAD"
		}
		files, err := tl.TreeFiles(ctx, tree)
		if err != nil {
			return nil, "", fmt.Errorf("list the files the QA run saw: %w", err)
		}
		goMod := func(dir string) string {
			b, err := repo.ReadAt(ctx, tree, path.Join(dir, "go.mod"))
			if err != nil {
				return ""
			}
			return goModulePath(b)
		}
		w := partialRun(ev.Command, files, goMod)
		if w == "" {
			return ev, "", nil
		}
		if why == "" {
			why = w
		}
	}
	return nil, why, nil
}
