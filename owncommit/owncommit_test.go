package owncommit

import (
	"testing"
	"time"
)

// TestSplit: another session's trailer, or a commit shared before the
// start, is not the session's; a late start's local commits are.
func TestSplit(t *testing.T) {
	start := time.Date(2026, 12, 1, 10, 0, 0, 500, time.UTC)
	before, after := start.Add(-time.Hour), start.Add(time.Minute)
	for _, tc := range []struct {
		name string
		c    Fact
		own  bool
	}{
		{"own trailer", Fact{SHA: "a", SessionID: "s1", CommitTime: after}, true},
		{"no trailer, local", Fact{SHA: "b", CommitTime: before}, true},
		{"another session's", Fact{SHA: "c", SessionID: "s2", CommitTime: after}, false},
		{"shared before the start", Fact{SHA: "d", Shared: true, CommitTime: before}, false},
		{"shared in the start's second", Fact{SHA: "e", Shared: true, CommitTime: start.Truncate(time.Second)}, true},
		{"shared after the start", Fact{SHA: "f", Shared: true, CommitTime: after}, true},
	} {
		own, others := Split("s1", start, []Fact{tc.c})
		if got := len(own) == 1; got != tc.own || len(own)+len(others) != 1 {
			t.Errorf("%s: own %v others %v, want own=%v", tc.name, own, others, tc.own)
		}
	}
}
