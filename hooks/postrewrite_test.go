package hooks_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/hooks"
)

// TestPostRewriteAmendDoesNoWork: `git commit --amend` runs post-commit on
// the new commit, then post-rewrite amend. The second does nothing: it does
// not even open the repository (here a folder that is none, where a rebase's
// post-rewrite warns that it could not record), so an amend pays for one
// recording, not two. The framework's variable says the same.
func TestPostRewriteAmendDoesNoWork(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		work bool
	}{
		{"amend", []string{"amend"}, nil, false},
		{"amend through pre-commit", nil, map[string]string{"PRE_COMMIT_REWRITE_COMMAND": "amend"}, false},
		{"rebase", []string{"rebase"}, nil, true},
	} {
		var stderr bytes.Buffer
		rt := &hooks.Runtime{Dir: dir, Getenv: func(k string) string { return c.env[k] }, Stdin: strings.NewReader("a b\n"), Stderr: &stderr}
		code := rt.Run(context.Background(), "post-rewrite", c.args)
		if code != hooks.ExitAllow {
			t.Errorf("%s: exit %d, want %d (post-rewrite never blocks)", c.name, code, hooks.ExitAllow)
		}
		if did := strings.Contains(stderr.String(), "could not record"); did != c.work {
			t.Errorf("%s: tried to record = %v, want %v\n%s", c.name, did, c.work, stderr.String())
		}
	}
}
