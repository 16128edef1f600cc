package session

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/testrun"
)

// What a QA run saw (issue 25 items 5 and 3). A passing test run of a QA
// phase without a command of its own records the tree it ran on: the
// tracked files as a commit would take them then, staged ones included
// (gitrepo WorkTreeTree), as ", saw tree ID" on its reference. The run
// counts only while the files its runner reads (testrun.RunnerReads), other than
// documentation, are the same in the tree now: at the QA gate the work
// tree's, at the end the commit's. So an honest agent may stage new test
// files instead of committing them before the run, and a lazy one that
// stages a stub (a TestMain that exits 0), runs, unstages it and commits
// other content, or that changes the code after the run, is caught: the
// tree committed is compared with the tree the run observed, not with
// what was staged at any moment.

var sawTreeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`, saw tree ([0-9a-f]{40,64})\b`)
})

// noTreeHidden starts the note a test run outside the QA phase records
// in place of its tree when git hides files from that tree.
const noTreeHidden = "no tree recorded: git would commit other content than the tests read ("

// hiddenCode lists the files other than documentation whose committed
// content differs from what a run reads, by a means status does not show
// (gitrepo HiddenFiles), each with how.
//
// A file the start found hidden by an update-index flag, with the same
// content and index entry now, is the developer's own (hiddenstart.go,
// honouredFlags) and left out.
func (e *Engine) hiddenCode(ctx context.Context, repo Repo, s *Session) ([]string, error) {
	hidden, err := repo.HiddenFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("read files git hides from the run: %w", err)
	}
	var honoured map[string]bool
	if len(hidden) > 0 {
		honoured = e.honouredFlags(ctx, repo, s, false) // the end searches for its name again
	}
	var out []string
	for _, f := range slices.Sorted(maps.Keys(hidden)) {
		if honoured[f] && strings.Contains(hidden[f], "(git update-index)") {
			continue
		}
		if !e.isDoc(f) {
			out = append(out, f+": "+hidden[f])
		}
	}
	return out, nil
}

// leftOutReads lists the untracked files the runners of cmd read
// (untrackedRead: ignore files changed since the start do not apply) that
// tree does not hold; nil when it cannot tell.
func (e *Engine) leftOutReads(ctx context.Context, repo Repo, s *Session, cmd, tree string) []string {
	read, err := untrackedRead(ctx, repo, s, cmd)
	if err != nil || len(read) == 0 {
		return nil
	}
	tl, ok := repo.(TreeLister)
	if !ok {
		return nil
	}
	files, err := tl.TreeFiles(ctx, tree)
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range read {
		if !slices.Contains(files, f) {
			out = append(out, f)
		}
	}
	return out
}

// sawTree is the tree a run's reference records, "" when none.
func sawTree(ref string) string {
	if m := sawTreeRE().FindStringSubmatch(ref); m != nil {
		return m[1]
	}
	return ""
}

// changedSinceRun lists the files the run's runners read, other than
// documentation, that differ between the tree the run saw and now ("HEAD"
// or a tree id); nil when the run recorded no tree.
func (e *Engine) changedSinceRun(ctx context.Context, repo Repo, run *Evidence, now string) ([]string, error) {
	saw := sawTree(run.Ref)
	if saw == "" {
		return nil, nil
	}
	files, err := repo.TreeDiff(ctx, saw, now)
	if err != nil {
		return nil, fmt.Errorf("compare the tree the QA run saw: %w", err)
	}
	// A data file or program the run's tree held and that changed since
	// is stale evidence (lazy pass 30); one it did not hold is a file
	// written while working that the tree a run records leaves out unless
	// a runner loads it by name (hello.txt written, the tests run, then
	// committed: the honest Claude Code rows blocked at end), so added
	// data files stay with the by-name rule.
	// Without the list (no lister, an error) every such file counts, as
	// before.
	var sawFiles map[string]bool
	listed := false
	sawHeld := func(f string) bool {
		if !listed {
			listed = true
			if tl, ok := repo.(TreeLister); ok {
				list, err := tl.TreeFiles(ctx, saw)
				if err != nil {
					slog.Warn("list the tree a QA run saw", "tree", saw, "err", err)
				} else {
					sawFiles = map[string]bool{}
					for _, x := range list {
						sawFiles[x] = true
					}
				}
			}
		}
		return sawFiles == nil || sawFiles[f]
	}
	reads := testrun.RunnerReads(run.Command)
	goRun := testrun.RunsGoTest(run.Command)
	dataFile := testrun.RunnerDataFiles(run.Command, repo.Root())
	var out []string
	for _, f := range files {
		if (reads(f) || goRun && testrun.GoDataFile(repo.Root(), f) || dataFile(f) && sawHeld(f)) && !e.isDoc(f) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return scratchLeftOut(ctx, repo, saw, now, out)
}

// scratchLeftOut drops from changed the files the run's tree held and
// now's does not that no runner loads by name (testrun.LoadsItself) and
// that no file of now names: an honest agent's untracked scratch.py or
// notes.sh, in the tree a run while working recorded (it holds untracked
// files) and never committed, changed nothing the tests ran, yet made the
// run stale (round 27, c7, TestRunTreeScratchLeftOut27). An untracked
// conftest.py, a Go file, or a helper the committed code sources still
// counts.
func scratchLeftOut(ctx context.Context, repo Repo, saw, now string, changed []string) ([]string, error) {
	r, ok := repo.(interface {
		TreeOnlyIn(ctx context.Context, a, b string) ([]string, error)
		TreeNames(ctx context.Context, rev string, needles []string) (bool, error)
	})
	if !ok {
		return changed, nil
	}
	only, err := r.TreeOnlyIn(ctx, saw, now)
	if err != nil || len(only) == 0 {
		return changed, err
	}
	var out []string
	for _, f := range changed {
		if !slices.Contains(only, f) || testrun.LoadsItself(f) {
			out = append(out, f)
			continue
		}
		needles := []string{path.Base(f)}
		if stem, ok := strings.CutSuffix(needles[0], ".py"); ok && len(stem) > 2 {
			needles = append(needles, stem)
		}
		named, err := r.TreeNames(ctx, now, needles)
		if err != nil {
			return nil, err
		}
		if named {
			out = append(out, f)
		}
	}
	return out, nil
}

// staleRunCheck fails a QA phase without a command of its own whose last
// passing run of the whole suite (wholeRuns) saw other files than the tree now holds (at is "HEAD" at
// the end, "" for the work tree at the gate, or a tree id of the work tree).
func (e *Engine) staleRunCheck(ctx context.Context, s *Session, p *protocolspec.Phase, run *Evidence, at string) (*CheckResult, error) {
	if run != nil && sawTree(run.Ref) == "" {
		// A run that swapped files in for its tests and back records no
		// tree (observed.go): what it tested is unknown, so it shows
		// nothing about this work (round 56, helper 333).
		if _, why, ok := strings.Cut(run.Ref, ", no tree recorded: the line writes "); ok {
			return &CheckResult{Kind: protocolspec.CheckEvidence, Arg: "test run", Status: StatusFail,
				Message: fmt.Sprintf("%s: `%s` passed, but the line writes %s", p.ID, truncate(run.Command, 100), truncate(why, 300))}, nil
		}
	}
	if run == nil || sawTree(run.Ref) == "" {
		return nil, nil
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return nil, err
	}
	now, where := at, "what is committed"
	if now != "" && now != "HEAD" {
		where = "the work tree now" // a tree the caller wrote of it
	}
	if now == "" {
		if now, err = repo.WorkTreeTree(ctx); err != nil {
			return nil, fmt.Errorf("read the work tree's tree: %w", err)
		}
		where = "the work tree now"
	}
	changed, err := e.changedSinceRun(ctx, repo, run, now)
	if err != nil || len(changed) == 0 {
		return nil, err
	}
	return &CheckResult{Kind: protocolspec.CheckEvidence, Arg: "test run", Status: StatusFail,
		Message: fmt.Sprintf("%s: `%s` passed on files that differ from %s (%s): the tests did not see this work; run `%s` again on it (stage or commit new files first)",
			p.ID, truncate(run.Command, 100), where, shorten.List(changed, 5), truncate(run.Command, 100))}, nil
}
