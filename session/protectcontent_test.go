package session

import (
	"strings"
	"testing"
)

// TestR53FProtectContentToken: the event names every changed file and its
// content, paths escaped so that "," and "=" cannot forge a pair; a hidden
// file is never comparable, a deleted one is the empty content; anything
// malformed is not read at all.
func TestR53FProtectContentToken(t *testing.T) {
	sha := strings.Repeat("ab", 32)
	tok := ProtectContentToken([]ProtectedChange{
		{Path: "sessiongate.yaml", SHA256: sha},
		{Path: "odd,name=x.md", SHA256: ""},
		{Path: "hidden.yaml", SHA256: sha, Hidden: "skip-worktree"},
		{Path: "sessiongate.yaml", SHA256: sha, Staged: true},
	})
	files, ok := ParseProtectContent(tok)
	if !ok || len(files) != 3 {
		t.Fatalf("%q: %v %+v", tok, ok, files)
	}
	got := map[string]ProtectContentFile{}
	for _, f := range files {
		got[f.Path] = f
	}
	if f := got["sessiongate.yaml"]; f.SHA256 != sha || !f.Comparable {
		t.Errorf("sessiongate.yaml: %+v", f)
	}
	if f := got["odd,name=x.md"]; f.SHA256 != "" || !f.Comparable {
		t.Errorf("deleted: %+v", f)
	}
	if f := got["hidden.yaml"]; f.SHA256 != "" || f.Comparable {
		t.Errorf("hidden: %+v", f)
	}
	for _, bad := range []string{
		TokProtectBlocked + ":advance",
		TokProtectContent + ":",
		TokProtectContent + ":a.yaml",
		TokProtectContent + ":a.yaml=" + strings.Repeat("AB", 32),
		TokProtectContent + ":a.yaml=" + sha + ",",
		TokProtectContent + ":=" + sha,
		TokProtectContent + ":a%zz=" + sha,
	} {
		if _, ok := ParseProtectContent(bad); ok {
			t.Errorf("%q read as a protect:content event", bad)
		}
	}
}
