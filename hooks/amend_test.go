package hooks

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// TestAmendingGit: the nearest git among a hook's ancestors, read word by
// word, says whether its commit replaces HEAD.
func TestAmendingGit(t *testing.T) {
	git := func(argv ...string) ancestry.Process { return ancestry.Process{Name: "git", Argv: argv} }
	sh := ancestry.Process{Name: "sh", Argv: []string{"sh", "-c", "git commit --amend"}}
	for _, tc := range []struct {
		name  string
		chain []ancestry.Process
		want  bool
	}{
		{"git commit --amend", []ancestry.Process{git("git", "commit", "--amend", "--no-edit")}, true},
		{"an abbreviation git accepts", []ancestry.Process{git("git", "commit", "--am")}, true},
		{"too short to be one", []ancestry.Process{git("git", "commit", "--a")}, false},
		{"after git's own options", []ancestry.Process{git("/usr/bin/git", "-C", "x", "-c", "a=b", "commit", "-q", "--amend")}, true},
		{"an alias, by its literal option", []ancestry.Process{git("git", "ci", "--amend")}, true},
		{"an alias does not get abbreviations read", []ancestry.Process{git("git", "ci", "--am")}, false},
		{"a message that says --amend", []ancestry.Process{git("git", "commit", "-m", "--amend")}, false},
		{"a message's words", []ancestry.Process{git("git", "commit", "-m", "fix: without --amend")}, false},
		{"a path after --", []ancestry.Process{git("git", "commit", "--", "--amend")}, false},
		{"a message after a cluster of short options", []ancestry.Process{git("git", "commit", "-qam", "--amend")}, false},
		{"an amend in a cluster's attached message is a message", []ancestry.Process{git("git", "commit", "-am--amend")}, false},
		{"a cluster with no value option", []ancestry.Process{git("git", "commit", "-qa", "--amend")}, true},
		{"--no-amend after --amend", []ancestry.Process{git("git", "commit", "--amend", "--no-amend", "-m", "x")}, false},
		{"--amend after --no-amend", []ancestry.Process{git("git", "commit", "--no-amend", "--amend")}, true},
		{"a plain commit", []ancestry.Process{git("git", "commit", "-q", "-m", "x")}, false},
		{"the nearest git decides", []ancestry.Process{sh, git("git", "commit", "-m", "x"), git("git", "commit", "--amend")}, false},
		{"a shell's words are no git", []ancestry.Process{sh}, false},
		{"a joined command line is not read", []ancestry.Process{{Name: "git", Args: "git commit --amend"}}, false},
	} {
		if got := amendingGit(tc.chain); got != tc.want {
			t.Errorf("%s: amendingGit = %v, want %v", tc.name, got, tc.want)
		}
	}
}
