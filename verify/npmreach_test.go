package verify

import (
	"maps"
	"slices"
	"testing"
)

// TestNpmScriptsReached: the scripts a rerun's npm run reaches, with their
// pre and post scripts and what their bodies name; a name with no script
// adds nothing (pre/post of every name grew without end before).
func TestNpmScriptsReached(t *testing.T) {
	a := map[string]string{"test": "npm run build && jest", "build": "tsc", "pretest": "echo", "lint": "eslint ."}
	b := map[string]string{"test": "npm run build && jest", "build": "tsc", "pretest": "echo", "lint": "eslint . --fix", "fmt": "prettier -w ."}
	got := slices.Sorted(maps.Keys(npmScriptsReached([]string{"npm test"}, a, b)))
	want := []string{"build", "install", "postinstall", "preinstall", "prepare", "postprepare", "preprepare", "pretest", "test"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("reached %q, want %q", got, want)
	}
	if r := npmScriptsReached([]string{"make test"}, a, b); r != nil {
		t.Errorf("a line naming no npm script reaches %v, want nil (every script counts)", r)
	}
}
