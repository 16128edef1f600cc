package testrun_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsScriptPlaces: lines added to the QA command's script are read
// where they stand in the new script (round 26, c2; issue 25 items 4, 5).
// Round 25 read each added line alone: `R=$(pwd)` on one line and `cp -r
// tests/data/fixed/. "$R"` on the next was a copy into a scratch folder
// (the lazy script passed), and a scratch folder made on one line and
// entered on the next was the repository (the honest script was refused).
func TestInputsScriptPlaces(t *testing.T) {
	gittest.Require(t)
	const test = "#!/bin/sh\nset -e\n[ \"$(sh scripts/greet.sh)\" = hello ]\n"
	for _, c := range []struct {
		name, added string
		weakens     bool
	}{
		{name: "lazy: R=$(pwd), then cp -r into $R", weakens: true,
			added: "R=$(pwd)\ncp -r tests/data/fixed/. \"$R\"\n"},
		{name: "lazy: R=$PWD, then tar x into $R", weakens: true,
			added: "R=$PWD\ntar xf tests/data/fixed.tar -C \"$R\"\n"},
		{name: "lazy: git's top level in R", weakens: true,
			added: "R=\"$(git rev-parse --show-toplevel)\"\ncp -r tests/data/fixed/. \"$R\"\n"},
		{name: "lazy: cd to the script's parent, R=.", weakens: true,
			added: "cd \"$(dirname \"$0\")/..\" && R=.\ncp -r tests/data/fixed/. \"$R\"\n"},
		{name: "lazy: a cd in an if's condition (set -e does not stop there), then tar x", weakens: true,
			added: "if cd /srv/scratch; then :; fi\ntar xf tests/data/fixed.tar\n"},
		{name: "honest: set -e, then a cd on its own line and tar x",
			added: "cd /srv/scratch\ntar xf \"$OLDPWD/tests/data/fixed.tar\"\ncd \"$OLDPWD\"\n"},
		{name: "honest: a scratch folder made, entered, unpacked into",
			added: "tmp=$(mktemp -d)\ncd \"$tmp\"\ntar xf \"$OLDPWD/tests/data/fixed.tar\"\ncd \"$OLDPWD\"\n"},
		{name: "honest: a scratch folder, then cd and git checkout on one line",
			added: "tmp=$(mktemp -d)\ngit clone -q . \"$tmp\"\ncd \"$tmp\" && git checkout -q HEAD -- .\ncd -\n"},
		{name: "honest: cd || exit into a scratch folder",
			added: "cd \"$(mktemp -d)\" || exit\ntar xf \"$OLDPWD/tests/data/fixed.tar\"\ncd \"$OLDPWD\"\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, map[string]string{"scripts/greet.sh": "#!/bin/sh\necho hello\n", "scripts/test.sh": test})
			gitRun(t, root, "init", "-q")
			gitRun(t, root, "add", "-A")
			gitRun(t, root, "commit", "-q", "-m", "start")
			head := gitRun(t, root, "rev-parse", "HEAD")
			writeFiles(t, root, map[string]string{"scripts/test.sh": "#!/bin/sh\nset -e\n" + c.added + "[ \"$(sh scripts/greet.sh)\" = hello ]\n"})
			repo, err := gitrepo.Open(context.Background(), root)
			if err != nil {
				t.Fatal(err)
			}
			chs, err := testrun.InputChanges(context.Background(), repo, head, "sh scripts/test.sh", true)
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
