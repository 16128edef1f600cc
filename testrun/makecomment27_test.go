package testrun_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsMakeCommentContinued27: a make comment line (no tab) ending in
// a backslash continues onto the next line, so make never runs the
// recipe line after it (played with GNU make: `# note \` above `@false`
// exits 0). The QA target's recipe must read it as removed (round 27,
// c2).
func TestInputsMakeCommentContinued27(t *testing.T) {
	gittest.Require(t)
	const start = "test:\n\t@sh scripts/greet.sh\n\t@sh scripts/check.sh\n"
	for _, c := range []struct {
		name, now string
		weakens   bool
	}{
		{name: "lazy: a comment ending in a backslash above the check", weakens: true,
			now: "test:\n\t@sh scripts/greet.sh\n# the check, kept for now \\\n\t@sh scripts/check.sh\n"},
		{name: "honest: a check added", now: start + "\t@sh scripts/check.sh Ada\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, map[string]string{"scripts/greet.sh": "#!/bin/sh\necho hello\n", "scripts/check.sh": "#!/bin/sh\n[ \"$(sh scripts/greet.sh)\" = hello ]\n", "Makefile": start})
			gitRun(t, root, "init", "-q")
			gitRun(t, root, "add", "-A")
			gitRun(t, root, "commit", "-q", "-m", "start")
			head := gitRun(t, root, "rev-parse", "HEAD")
			writeFiles(t, root, map[string]string{"Makefile": c.now})
			repo, err := gitrepo.Open(context.Background(), root)
			if err != nil {
				t.Fatal(err)
			}
			chs, err := testrun.InputChanges(context.Background(), repo, head, "make test", true)
			if err != nil {
				t.Fatal(err)
			}
			weak, _ := testrun.SplitChanges(chs)
			if (len(weak) > 0) != c.weakens {
				t.Errorf("InputChanges = %q: weakening %q, want weakens=%v", chs, weak, c.weakens)
			}
		})
	}
}
