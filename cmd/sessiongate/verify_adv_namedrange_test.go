package main

import (
	"regexp"
	"testing"
)

// TestVerifyNamedRangeEmptyEnd: a CI config that names the range from a
// variable the event does not set (`sessiongate verify
// "$CI_MERGE_REQUEST_DIFF_BASE_SHA..HEAD"` in a branch pipeline,
// `"${{ github.event.before }}..${{ github.sha }}"` on workflow_dispatch)
// runs `verify ..HEAD`: git reads it as HEAD..HEAD, and verify said "0
// commit(s)", exit 0, over a hooks-off commit (the old code passed both
// lazy rows; found round 21 playing the CI shapes). It now exits 2 naming
// the empty end. Honest twins: the same commits with both ends named.
func TestVerifyNamedRangeEmptyEnd(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	all := []string{"+refs/heads/*:refs/remotes/origin/*", recsSpec}
	cases := []struct {
		name, tip, rng string
		code           int
		want           []string
	}{
		{"lazy: empty base over a hooks-off commit", w.notrailer, "..HEAD", 2, []string{`has no base`}},
		{"lazy: empty head", w.notrailer, "HEAD..", 2, []string{`has no head`}},
		{"lazy: a new branch's all-zero before", w.notrailer, zero40 + "..HEAD", 2, []string{`git's "no commit"`}},
		{"the same commits, both ends named", w.notrailer, "origin/main..HEAD", 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"honest, both ends named", w.work2, "origin/main..HEAD", 0, []string{`(?m)^2 commit\(s\) in origin/main\.\.HEAD`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ci := w.checkout(t, "named", false, c.tip, all...)
			code, out, errb := sgBin(t, ci, w.env, "verify", c.rng)
			t.Logf("exit %d\n%s%s", code, out, errb)
			if code != c.code {
				t.Fatalf("verify %q: exit %d, want %d\n%s%s", c.rng, code, c.code, out, errb)
			}
			for _, re := range c.want {
				if !regexp.MustCompile(re).MatchString(out + errb) {
					t.Errorf("verify %q: output does not match %s", c.rng, re)
				}
			}
		})
	}
}
