package verify

import (
	"context"
	"path"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/testrun"
)

// dropDeadTests drops the rerun guard's findings that are dead code
// deleted with its tests (issue 25's honest field pass: a Go function and
// its test file, a script with its test script and the make line that
// ran it), judged as the QA gate judges them (testrun): a deleted test
// file whose code file went in the range too, or whose every removed test
// TestX tests a function X the package declared at the base and declares
// no more at the tip; a build file whose only change removes lines that
// ran such deleted test scripts. A test deleted while its code stays, and
// any other change, still fails without a signer.
func (t *protocolTrust) dropDeadTests(ctx context.Context, found []weakening, patch, tip string) ([]weakening, error) {
	var cand []string
	for _, f := range found {
		if !slices.Contains(cand, f.path) {
			cand = append(cand, f.path)
		}
	}
	if len(cand) == 0 {
		return found, nil
	}
	before, err := t.repo.TreeFiles(ctx, t.bl.Rev)
	if err != nil {
		return nil, err
	}
	after, err := t.repo.TreeFiles(ctx, tip)
	if err != nil {
		return nil, err
	}
	now := map[string]bool{}
	for _, f := range after {
		now[f] = true
	}
	gone := map[string]bool{}
	for _, f := range before {
		if !now[f] {
			gone[f] = true
		}
	}
	dead := map[string]bool{}
	// keptDead: "removes the test X" findings on kept Go test files whose X
	// went from the package with them (the QA gate's rule for tests
	// deleted from a file that stays, testrun testsRemoved's moved: a test
	// of code the change deleted). No file need be gone for this (issue
	// 56 F7: Old and TestOld removed, m_test.go kept).
	keptDead := map[weakening]bool{}
	for _, p := range cand {
		switch {
		case gone[p] && testFile(p):
			var lost []string
			for _, f := range found {
				if n, ok := strings.CutPrefix(f.what, "removes the test "); ok && f.path == p {
					lost = append(lost, n)
				}
			}
			ok, err := t.testCodeGone(ctx, p, lost, before, after, gone, tip)
			if err != nil {
				return nil, err
			}
			dead[p] = ok
		case !gone[p] && strings.HasSuffix(p, "_test.go"):
			for _, f := range found {
				n, ok := strings.CutPrefix(f.what, "removes the test ")
				if !ok || f.path != p {
					continue
				}
				ok, err := t.goTestFuncGone(ctx, p, n, before, after, tip)
				if err != nil {
					return nil, err
				}
				keptDead[f] = ok
			}
		case !gone[p]:
			dead[p] = onlyDeadLinesRemoved(patch, p, gone)
		}
	}
	return slices.DeleteFunc(found, func(f weakening) bool { return dead[f.path] || keptDead[f] }), nil
}

// goTestFuncGone: the test n removed from kept Go test file p tests a
// function its package declared at the base and declares at the tip
// neither by name nor under a new name with its body (testrun.GoFuncsGone).
// A test removed while its function stays still needs a signer.
func (t *protocolTrust) goTestFuncGone(ctx context.Context, p, n string, before, after []string, tip string) (bool, error) {
	dir := path.Dir(p)
	read := func(rev string, files []string) ([]byte, error) {
		var b []byte
		for _, f := range files {
			if path.Dir(f) != dir || !strings.HasSuffix(f, ".go") || strings.HasSuffix(f, "_test.go") {
				continue
			}
			c, err := t.repo.ReadAt(ctx, rev, f)
			if err != nil {
				return nil, err
			}
			b = append(append(b, c...), '\n')
		}
		return b, nil
	}
	was, err := read(t.bl.Rev, before)
	if err != nil {
		return false, err
	}
	now, err := read(tip, after)
	if err != nil {
		return false, err
	}
	return testrun.GoFuncsGone([]string{n}, was, now), nil
}

// testCodeGone: deleted test file p tested code gone at the tip: the file
// its name names, every Go source file of its package, or (Go) each
// function its lost tests are named for.
func (t *protocolTrust) testCodeGone(ctx context.Context, p string, lost, before, after []string, gone map[string]bool, tip string) (bool, error) {
	if src := testrun.CodeFileFor(p); src != "" {
		for g := range gone {
			if g == p || path.Base(g) != src {
				continue
			}
			moved, err := t.codeMoved(ctx, g, before, after, tip)
			if err != nil {
				return false, err
			}
			if !moved {
				return true, nil
			}
		}
	}
	if !strings.HasSuffix(p, "_test.go") {
		return false, nil
	}
	dir := path.Dir(p)
	src := func(f string) bool {
		return path.Dir(f) == dir && strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go")
	}
	if slices.ContainsFunc(before, src) && !slices.ContainsFunc(after, src) {
		return true, nil // the package went
	}
	if len(lost) == 0 {
		return false, nil
	}
	read := func(rev string, files []string) ([]byte, error) {
		var b []byte
		for _, f := range files {
			if !src(f) {
				continue
			}
			c, err := t.repo.ReadAt(ctx, rev, f)
			if err != nil {
				return nil, err
			}
			b = append(append(b, c...), '\n')
		}
		return b, nil
	}
	was, err := read(t.bl.Rev, before)
	if err != nil {
		return false, err
	}
	now, err := read(tip, after)
	if err != nil {
		return false, err
	}
	return testrun.GoFuncsGone(lost, was, now), nil
}

// onlyDeadLinesRemoved: the patch's hunks for file p add no line and
// remove only lines that ran test scripts deleted with their code.
func onlyDeadLinesRemoved(patch, p string, gone map[string]bool) bool {
	in, inHunk, removed := false, false, 0
	for _, l := range strings.Split(patch, "\n") {
		switch {
		case strings.HasPrefix(l, "diff --git "):
			in, inHunk = strings.HasSuffix(l, " b/"+p), false
		case !in:
		case strings.HasPrefix(l, "@@"):
			inHunk = true
		case !inHunk:
		case strings.HasPrefix(l, "+") && strings.TrimSpace(l[1:]) != "":
			return false
		case strings.HasPrefix(l, "-") && strings.TrimSpace(l[1:]) != "":
			if !testrun.DeadTestLine(strings.TrimSpace(l[1:]), gone) {
				return false
			}
			removed++
		}
	}
	return removed > 0
}

// codeMoved: gone source file g's code is in a file added by tip under
// another name (git mv greet.go text.go): the test named for it was not
// dead (issue 25's review), testrun.CodeMoved.
func (t *protocolTrust) codeMoved(ctx context.Context, g string, before, after []string, tip string) (bool, error) {
	had := map[string]bool{}
	for _, f := range before {
		had[f] = true
	}
	was, err := t.repo.ReadAt(ctx, t.bl.Rev, g)
	if err != nil {
		return false, err
	}
	var nows [][]byte
	for _, f := range after {
		if had[f] || path.Ext(f) != path.Ext(g) {
			continue
		}
		b, err := t.repo.ReadAt(ctx, tip, f)
		if err != nil {
			return false, err
		}
		nows = append(nows, b)
	}
	return testrun.CodeMoved(g, was, nows), nil
}
