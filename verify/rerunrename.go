package verify

import (
	"context"
	"errors"

	"github.com/sessiongate/sessiongate/testrun"
)

// renamedOnly: the rerun command's own script p changed in base..tip only
// by the new paths of files the range renamed (testrun.RenamedOnly). An
// honest `git mv` with its caller updated failed the guard as a changed
// script (round 21's TestHonestOrdinaryTasks).
// With rerun, a script that also gained lines is left to the guard, as
// one that only gained lines is.
func (t *protocolTrust) renamedOnly(ctx context.Context, base, tip, p string, rerun bool) bool {
	changed, err := t.repo.TreeDiff(ctx, base, tip)
	if err != nil {
		return false
	}
	var gone, came []string
	for _, c := range changed {
		atBase, errB := t.repo.ExistsAt(ctx, base, c)
		atTip, errT := t.repo.ExistsAt(ctx, tip, c)
		if errB != nil || errT != nil {
			return false
		}
		switch {
		case atBase && !atTip:
			gone = append(gone, c)
		case !atBase && atTip:
			came = append(came, c)
		}
	}
	if len(gone) == 0 || len(came) == 0 {
		return false
	}
	var pairs [][2]string
	for _, g := range gone {
		for _, c := range came {
			pairs = append(pairs, [2]string{g, c})
		}
	}
	was, err1 := t.repo.ReadAt(ctx, base, p)
	now, err2 := t.repo.ReadAt(ctx, tip, p)
	if err := errors.Join(err1, err2); err != nil {
		return false
	}
	read := func(old, new string) (string, string, bool) {
		a, err1 := t.repo.ReadAt(ctx, base, old)
		b, err2 := t.repo.ReadAt(ctx, tip, new)
		return string(a), string(b), errors.Join(err1, err2) == nil
	}
	ok, added := testrun.RenamedOnly(string(was), string(now), pairs, read)
	return ok && (!rerun || !added)
}
