package verify

import (
	"maps"
	"testing"
)

// TestRunPrint: a squash passes only as one session's whole run of gated
// commits, chained by parents from its start to its end commit. Each row
// but the first is a run a squash of which must not pass (route (a): a
// recorded pick inside the span).
func TestRunPrint(t *testing.T) {
	start, c1, c2, c3, off := "s0", "c1", "c2", "c3", "cx"
	rec := func(c, parent, change string) recorded {
		r := recorded{h: sumHex(c), parent: sumHex(parent), change: change}
		if change == "-" {
			r.change = "" // a replay: its place, no change
		}
		return r
	}
	add := "000000 100644 0000000000000000000000000000000000000000 aaaa\tf.txt"
	edit := "100644 100644 aaaa bbbb\tf.txt"
	other := "000000 100644 0000000000000000000000000000000000000000 cccc\tg.txt"
	undo := "100644 000000 bbbb 0000000000000000000000000000000000000000\tf.txt"
	cases := []struct {
		name   string
		run    []recorded
		end    string
		bypass bool
		ok     bool
		want   map[string]pathChange
	}{
		{"three gated commits", []recorded{rec(c1, start, add), rec(c2, c1, edit), rec(c3, c2, other)}, c3, false, true,
			map[string]pathChange{"f.txt": {"000000", "100644", "0000000000000000000000000000000000000000", "bbbb"}, "g.txt": {"000000", "100644", "0000000000000000000000000000000000000000", "cccc"}}},
		{"a file added and removed again is no change", []recorded{rec(c1, start, add), rec(c2, c1, edit), rec(c3, c2, undo)}, c3, false, true, map[string]pathChange{}},
		{"a recorded pick in the run", []recorded{rec(c1, start, add), rec(c2, c1, "-"), rec(c3, c2, other)}, c3, false, false, nil},
		{"an unrecorded commit in the chain", []recorded{rec(c1, start, add), rec(c3, c2, other)}, c3, false, false, nil},
		{"a recorded commit off the run", []recorded{rec(c1, start, add), rec(c2, c1, edit), rec(off, start, other)}, c2, false, false, nil},
		{"a BYPASS", []recorded{rec(c1, start, add), rec(c2, c1, edit)}, c2, true, false, nil},
		{"blobs that do not chain", []recorded{rec(c1, start, add), rec(c2, c1, "100644 100644 dddd bbbb\tf.txt")}, c2, false, false, nil},
		{"a record from before fingerprints", []recorded{{h: sumHex(c1)}}, c1, false, false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rc := &recordCheck{ids: map[string]bool{"x": true}, recorded: c.run, start: start, end: c.end, bypassed: map[string]bool{}}
			if c.bypass {
				rc.bypassed["b"] = true
			}
			got, ok := runPrint(rc)
			if ok != c.ok || ok && !maps.Equal(got, c.want) {
				t.Errorf("runPrint = %v, %v; want %v, %v", got, ok, c.want, c.ok)
			}
		})
	}
}
