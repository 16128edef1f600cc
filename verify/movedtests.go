package verify

import (
	"context"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/testrun"
)

// dropMovedTests drops the rerun guard's findings on test files whose lost
// tests moved: each test the range removed from (or deleted with) file p
// has its calls on the code and its expected values in a checking test of
// a test file of the same kind the range added or changed, judged as the
// QA gate judges it (testrun.DeletedTestMoved; issue 25: an honest
// consolidation into a table test under new names). A file with any other
// finding (a skip added, a script changed), or a lost test whose checks
// appear nowhere, still fails without a signer.
func (t *protocolTrust) dropMovedTests(ctx context.Context, found []weakening, status []gitrepo.PathChange, tip string) ([]weakening, error) {
	byPath := map[string][]string{}
	for _, f := range found {
		byPath[f.path] = append(byPath[f.path], f.what)
	}
	moved := map[string]bool{}
	tipBlobs := map[string][][]byte{} // kind -> test files added or changed, at the tip
	for p, whats := range byPath {
		kind := testrun.FileKind(p)
		if kind == "" || kind == "conftest" || !testFile(p) {
			continue
		}
		var lost []string
		deleted := false
		ok := true
		for _, w := range whats {
			if n, isRemoved := strings.CutPrefix(w, "removes the test "); isRemoved {
				lost = append(lost, n)
			} else if w == "deletes this test file" {
				deleted = true
			} else {
				ok = false
			}
		}
		if !ok {
			continue
		}
		was, err := t.repo.ReadAt(ctx, t.bl.Rev, p)
		if err != nil {
			return nil, err
		}
		if _, read := tipBlobs[kind]; !read {
			var blobs [][]byte
			for _, s := range status {
				if s.Status == "D" || testrun.FileKind(s.Path) != kind || !testFile(s.Path) {
					continue
				}
				b, err := t.repo.ReadAt(ctx, tip, s.Path)
				if err != nil {
					return nil, err
				}
				if kind == "go" && !testrun.GoCollects(s.Path, b) {
					continue // go test does not build it: nothing moved there runs
				}
				blobs = append(blobs, b)
			}
			tipBlobs[kind] = blobs
		}
		if len(lost) == 0 {
			// A deleted file whose every test is kept under its own name
			// in a file the range added or changed; one with no test the
			// reader knows stays a finding.
			names := testrun.CollectedTests(kind, was)
			kept := map[string]bool{}
			for _, b := range tipBlobs[kind] {
				for _, n := range testrun.CollectedTests(kind, b) {
					kept[n] = true
				}
			}
			moved[p] = deleted && len(names) > 0 && !slices.ContainsFunc(names, func(n string) bool { return !kept[n] })
			continue
		}
		all := true
		for _, n := range lost {
			if !testrun.DeletedTestMoved(kind, was, n, tipBlobs[kind]) {
				all = false
				break
			}
		}
		moved[p] = all
	}
	return slices.DeleteFunc(found, func(f weakening) bool { return moved[f.path] }), nil
}
