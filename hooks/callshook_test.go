package hooks

import "testing"

// TestCallsHook: a husky or lefthook hook that runs `sessiongate hook
// NAME` is wired only when its failure fails the hook.
func TestCallsHook(t *testing.T) {
	for _, c := range []struct {
		body string
		want bool
	}{
		{"#!/bin/sh\nsessiongate hook pre-commit \"$@\"\n", true},
		{"#!/bin/sh\nnpx lint-staged\nexec /usr/local/bin/sessiongate hook pre-commit \"$@\"\n", true},
		{"#!/bin/sh\n\"/opt/sg/sessiongate\" hook pre-commit \"$@\" && npx lint-staged\n", true},
		{"#!/bin/sh\nsessiongate hook pre-commit \"$@\" || true\n", false},
		{"#!/bin/sh\nsessiongate hook pre-commit \"$@\" | cat\n", false},
		{"#!/bin/sh\nsessiongate hook pre-commit \"$@\"; exit 0\n", false},
		{"#!/bin/sh\nsessiongate hook pre-commit \"$@\" &\n", false},
		{"#!/bin/sh\n# sessiongate hook pre-commit\n", false},
		{"#!/bin/sh\nsessiongate hook commit-msg \"$@\"\n", false},
	} {
		if got := callsHook([]byte(c.body), "pre-commit"); got != c.want {
			t.Errorf("callsHook(%q) = %v, want %v", c.body, got, c.want)
		}
	}
}
