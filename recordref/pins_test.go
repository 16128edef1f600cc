package recordref_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/snapshot"
)

// pin writes a pin of n events for id onto ref and returns its records
// commit.
func pin(t *testing.T, dir, id string, n int) string {
	t.Helper()
	refs := make([]snapshot.EventRef, n)
	for i := range refs {
		refs[i] = snapshot.EventRef{Seq: int64(i + 1), Token: "t", At: "2026-01-01T00:00:00Z"}
	}
	c, ok := snapshot.EventChain(refs, n)
	if !ok {
		t.Fatal("no chain")
	}
	tree := run(t, dir, "rev-parse", "HEAD^{tree}")
	at, err := recordref.PutPin(context.Background(), dir, ref, snapshot.EventPin{SessionID: id, Tree: tree, Events: c})
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// TestUnreachable: the records commits a session's commits name must stay
// on the ref; one moved back past, deleted or never had is reported, one
// still in the ref's history (or its tip) is not.
func TestUnreachable(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	const never = "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		name string
		move func(dir, first, second string) // what happens to the ref after two pins
		ask  func(first, second string) []string
		want func(first, second string) []string
	}{
		{"tip and ancestor held", nil,
			func(a, b string) []string { return []string{a, b} },
			func(a, b string) []string { return nil }},
		{"moved back past the second", func(dir, a, _ string) { run(t, dir, "update-ref", ref, a) },
			func(a, b string) []string { return []string{a, b} },
			func(a, b string) []string { return []string{b} }},
		{"deleted", func(dir, _, _ string) { run(t, dir, "update-ref", "-d", ref) },
			func(a, b string) []string { return []string{a, b} },
			func(a, b string) []string { return []string{a, b} }},
		{"a commit git never had, and a non-id", nil,
			func(a, _ string) []string { return []string{a, never, "HEAD"} },
			func(a, _ string) []string { return []string{"HEAD", never} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			id := uuid(t)
			first := pin(t, dir, id, 1)
			second := pin(t, dir, id, 2)
			if tc.move != nil {
				tc.move(dir, first, second)
			}
			got, err := recordref.Unreachable(ctx, dir, ref, tc.ask(first, second))
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want(first, second)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("unreachable %v, want %v", got, want)
			}
		})
	}
}

// TestWitness: the tip's pin and HEAD's trailers in one read, and PinAt
// reading an older pin the tip replaced (what a forged tip pin cannot
// change).
func TestWitness(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	dir := newRepo(t)
	id := uuid(t)
	first := pin(t, dir, id, 1)
	run(t, dir, "commit", "-q", "--allow-empty", "-m", "work\n\nbody: not a trailer\n\nSession-Id: "+id+"\nSession-Events: 1:ab\nSession-Pin: "+first)
	second := pin(t, dir, id, 2)
	w, err := recordref.Witness(ctx, dir, ref, id)
	if err != nil {
		t.Fatal(err)
	}
	if w.Tip != second || w.TipPin == nil || !strings.HasPrefix(w.TipPin.Events, "2:") {
		t.Fatalf("tip %s pin %+v, want %s with 2 events", w.Tip, w.TipPin, second)
	}
	if w.Head != run(t, dir, "rev-parse", "HEAD") || w.HeadSession != id || w.HeadEvents != "1:ab" || w.HeadPin != first {
		t.Fatalf("HEAD's trailers %+v", w)
	}
	p, held, err := recordref.PinAt(ctx, dir, second, first, id)
	if err != nil || !held || p == nil || !strings.HasPrefix(p.Events, "1:") {
		t.Fatalf("pin at the first records commit: %+v held %v err %v", p, held, err)
	}
	run(t, dir, "update-ref", ref, first)
	if p, held, err := recordref.PinAt(ctx, dir, first, second, id); err != nil || held || p != nil {
		t.Fatalf("pin at a records commit the ref was moved back past: %+v held %v err %v", p, held, err)
	}
}

// TestPinHistoryThroughMerges: every pin ever written stays, and the pins
// were listed with `git log -- PATH`, which follows a merge through one
// TREESAME parent. A side commit re-writing the first pin, merged onto
// the ref's tip as a fast-forward (the merge's tree the side's), hid the
// second pin (failed on the old code: no 5-event pin listed). Honest
// twin: a linear history lists both.
func TestPinHistoryThroughMerges(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	const id = "11111111-2222-4333-8444-555555555555"
	for _, merged := range []bool{false, true} {
		dir := newRepo(t)
		first := pin(t, dir, id, 3)
		second := pin(t, dir, id, 5)
		if merged {
			run(t, dir, "update-ref", ref, first)
			pin(t, dir, id, 2) // the side commit
			side := run(t, dir, "rev-parse", ref)
			m := run(t, dir, "commit-tree", side+"^{tree}", "-p", side, "-p", second, "-m", "merge")
			run(t, dir, "update-ref", ref, m)
		}
		pins, _, err := recordref.PinHistory(ctx, dir, run(t, dir, "rev-parse", ref), id)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(pins, func(p snapshot.EventPin) bool { return strings.HasPrefix(p.Events, "5:") }) {
			t.Errorf("merged=%v: the 5-event pin is not listed: %+v", merged, pins)
		}
	}
}
