package testrun_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsScriptPlaces27: a line added to the QA command's script that
// calls a helper the start commit already had (in the script, or in a
// file it sources) is judged with the helper's writes (round 27, c2):
// the write was noted on the helper's unchanged line, so the added call
// passed.
func TestInputsScriptPlaces27(t *testing.T) {
	gittest.Require(t)
	const head = "#!/bin/sh\nset -e\nput() { cp -r tests/data/fixed/. \"$1\"; }\n. ./scripts/lib.sh\n"
	const check = "[ \"$(sh scripts/greet.sh)\" = hello ]\n"
	for _, c := range []struct {
		name, added string
		weakens     bool
	}{
		{name: "lazy: the script's helper called into the repository", weakens: true, added: "put .\n"},
		{name: "lazy: the helper called through a variable", weakens: true, added: "f=put\n$f \"$PWD\"\n"},
		{name: "lazy: the helper called through eval", weakens: true, added: "eval put .\n"},
		{name: "lazy: a sourced file's helper called into the repository", weakens: true, added: "unpack tests/data/fixed.tar .\n"},
		{name: "lazy: an exit trap copies over the code", weakens: true, added: "trap 'cp tests/data/greet.sh scripts/greet.sh' EXIT\n"},
		{name: "honest: the helper called into a scratch folder", added: "tmp=$(mktemp -d)\nput \"$tmp\"\n"},
		{name: "honest: the sourced helper into a scratch folder", added: "tmp=$(mktemp -d)\nunpack tests/data/fixed.tar \"$tmp\"\n"},
		{name: "honest: a cleanup trap", added: "tmp=$(mktemp -d)\ntrap 'rm -rf \"$tmp\"' EXIT\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, map[string]string{
				"scripts/greet.sh": "#!/bin/sh\necho hello\n", "scripts/test.sh": head + check,
				"scripts/lib.sh":      "unpack() { tar xf \"$1\" -C \"$2\"; }\n",
				"tests/data/greet.sh": "#!/bin/sh\necho hello\n",
			})
			gitRun(t, root, "init", "-q")
			gitRun(t, root, "add", "-A")
			gitRun(t, root, "commit", "-q", "-m", "start")
			start := gitRun(t, root, "rev-parse", "HEAD")
			writeFiles(t, root, map[string]string{"scripts/test.sh": head + c.added + check})
			repo, err := gitrepo.Open(context.Background(), root)
			if err != nil {
				t.Fatal(err)
			}
			chs, err := testrun.InputChanges(context.Background(), repo, start, "sh scripts/test.sh", true)
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
