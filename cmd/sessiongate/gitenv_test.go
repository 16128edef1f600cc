package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestInitCommitBuildsOnTheRealHead: `init --commit` commits only
// sessiongate.yaml and the protocol, recorded as a person's adoption. git
// builds a `commit -- paths` on HEAD's tree, and read through a replace
// ref planted on HEAD (`git replace HEAD <commit with the weakened test
// script>`) that tree carried the weakened script into the adoption
// commit. Before init ran git through gitenv the "replace ref on HEAD"
// case failed: the adoption changed test.sh too.
func TestInitCommitBuildsOnTheRealHead(t *testing.T) {
	for _, tt := range []struct {
		name  string
		plant bool
	}{
		{"replace ref on HEAD", true},
		{"honest adoption", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := repoDir(t)
			for _, kv := range []string{"GIT_AUTHOR_NAME=Pat", "GIT_AUTHOR_EMAIL=pat@example.com", "GIT_COMMITTER_NAME=Pat", "GIT_COMMITTER_EMAIL=pat@example.com"} {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			gittest.Commit(t, dir, "strict test", map[string]string{"test.sh": "#!/bin/sh\ntest \"$(sh greet.sh)\" = hello\n"})
			strict := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Commit(t, dir, "weaken", map[string]string{"test.sh": "#!/bin/sh\nexit 0\n"})
			weak := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Git(t, dir, "checkout", "-q", strict, "--", "test.sh")
			gittest.Git(t, dir, "commit", "-q", "-m", "restore the strict test")
			if tt.plant {
				gittest.Git(t, dir, "replace", "HEAD", weak)
			}
			if code, out, stderr := sg(t, "", "init", "--commit"); code != 0 {
				t.Fatalf("init --commit: exit %d\n%s\n%s", code, out, stderr)
			}
			changed := strings.Fields(gittest.Git(t, dir, "--no-replace-objects", "diff", "--name-only", "HEAD~1", "HEAD"))
			if !slices.Equal(changed, []string{"SESSION-PROTOCOL.md", "sessiongate.yaml"}) {
				t.Fatalf("the adoption commit changed %q, want only the protocol and sessiongate.yaml", changed)
			}
			if got := gittest.Git(t, dir, "--no-replace-objects", "show", "HEAD:test.sh"); !strings.Contains(got, "greet.sh") {
				t.Fatalf("the adoption commit's test.sh is %q, want the strict one", got)
			}
		})
	}
}
