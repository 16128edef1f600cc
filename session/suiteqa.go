package session

import (
	"context"
	"fmt"
	"path"
	"slices"

	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/testrun"
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

// missingSuite names the first suite the change needs that no whole run
// covers, nil when each has one; runs are the whole runs, newest first.
// taken are the runs QA rests on: the newest, and the newest of each
// suite the change needs.
func (e *Engine) missingSuite(ctx context.Context, repo Repo, s *Session, runs []*Evidence) (miss *testrun.Need, taken []*Evidence, err error) {
	if len(runs) == 0 {
		return nil, nil, nil
	}
	taken = runs[:1]
	tl, ok := repo.(TreeLister)
	if !ok {
		return nil, taken, nil
	}
	tree := sawTree(runs[0].Ref)
	if tree == "" {
		tree = "HEAD"
	}
	files, err := tl.TreeFiles(ctx, tree)
	if err != nil {
		return nil, nil, fmt.Errorf("list the files the QA run saw: %w", err)
	}
	changed, err := sessionFiles(ctx, repo, s)
	if err != nil {
		return nil, nil, fmt.Errorf("list the files the session changed: %w", err)
	}
	have := make(map[string]bool, len(files))
	for _, f := range files {
		have[f] = true
	}
	covered := make([][]testrun.Need, len(runs))
	for i, r := range runs {
		covered[i] = append(testrun.SuitesRun(ctx, repo, tree, r.Command, have), testrun.ScriptsRun(ctx, repo, tree, s.StartCommit, r.Command, have)...)
		covered[i] = append(covered[i], testrun.FoldersRun(ctx, repo, tree, s.StartCommit, r.Command, have)...)
	}
	// A changed file a test script names needs a run reaching such a
	// script (testrun/scriptsuite.go).
	needs := append(testrun.SuitesNeeded(ctx, repo, tree, files, changed, e.isDoc), testrun.ScriptNeeds(ctx, repo, tree, s.StartCommit, files, changed, e.isDoc)...)
	// A subproject with its own test entry needs a run there (foldersuite.go).
	needs = append(needs, testrun.FolderNeeds(ctx, repo, tree, s.StartCommit, files, changed, e.isDoc)...)
	for _, n := range needs {
		i := slices.IndexFunc(covered, func(cs []testrun.Need) bool {
			return slices.ContainsFunc(cs, func(c testrun.Need) bool { return c.Covers(n) })
		})
		if i < 0 {
			return &n, nil, nil
		}
		if !slices.Contains(taken, runs[i]) {
			taken = append(taken, runs[i])
		}
	}
	return nil, taken, nil
}

// wholeRuns lists the passing whole-suite runs of phase p (of any phase
// when p is ""), newest first, and why the newest run falls short when
// none is whole.
func (e *Engine) wholeRuns(ctx context.Context, repo Repo, evs []Evidence, phase string) ([]*Evidence, string, error) {
	var out []*Evidence
	tl, ok := repo.(TreeLister)
	why := ""
	for i := len(evs) - 1; i >= 0; i-- {
		ev := &evs[i]
		if phase != "" && ev.Phase != phase || ev.Origin != OriginObserved || !ev.Succeeded() || !shellline.RunsTests(ev.Command) {
			continue
		}
		if !ok {
			return []*Evidence{ev}, "", nil
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
			return testrun.GoModulePath(b)
		}
		w := testrun.PartialRun(ev.Command, files, goMod)
		if w == "" {
			out = append(out, ev)
			continue
		}
		if why == "" && len(out) == 0 {
			why = w
		}
	}
	if len(out) > 0 {
		return out, "", nil
	}
	return nil, why, nil
}
