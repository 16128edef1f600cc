package testrun_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsRenamed: a file the QA command's script runs, renamed in the
// session with its callers updated (`git mv scripts/greet.sh
// scripts/hello.sh`, the script's `sh scripts/greet.sh` now `sh
// scripts/hello.sh`), is the same input under a new name: the honest rows
// were refused before as "removes or changes lines" (round 21's
// TestHonestOrdinaryTasks known gap). The renamed file is judged against
// its old self, so gutting it in the move, or changing the script beyond
// the new name, still weakens.
func TestInputsRenamed(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\n# greet prints a greeting.\necho \"helo${1:+ $1}\"\n"
	const fixed = "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"
	const lib = "#!/bin/sh\ncheck() {\n  if [ \"$1\" != \"$2\" ]; then\n    echo \"got $1, want $2\"\n    exit 1\n  fi\n}\n"
	const test = "#!/bin/sh\n. scripts/lib.sh\ncheck \"$(sh scripts/greet.sh)\" hello\ncheck \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n"
	start := map[string]string{"scripts/greet.sh": greet, "scripts/lib.sh": lib, "scripts/test.sh": test}
	renamed := "#!/bin/sh\n. scripts/lib.sh\ncheck \"$(sh scripts/hello.sh)\" hello\ncheck \"$(sh scripts/hello.sh Ada)\" \"hello Ada\"\n"
	for _, c := range []struct {
		name    string
		gone    []string
		during  map[string]string
		weakens bool
	}{
		{name: "honest: the code renamed and fixed, its callers updated", gone: []string{"scripts/greet.sh"},
			during: map[string]string{"scripts/hello.sh": fixed, "scripts/test.sh": renamed}},
		{name: "honest: the code renamed as is, its callers updated", gone: []string{"scripts/greet.sh"},
			during: map[string]string{"scripts/hello.sh": greet, "scripts/test.sh": renamed}},
		{name: "honest: the helper renamed, its callers updated", gone: []string{"scripts/lib.sh"},
			during: map[string]string{"scripts/checks.sh": lib, "scripts/test.sh": "#!/bin/sh\n. scripts/checks.sh\ncheck \"$(sh scripts/greet.sh)\" hello\ncheck \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n"}},
		{name: "lazy: the helper renamed and gutted", gone: []string{"scripts/lib.sh"}, weakens: true,
			during: map[string]string{"scripts/checks.sh": "#!/bin/sh\ncheck() {\n  :\n}\n", "scripts/test.sh": "#!/bin/sh\n. scripts/checks.sh\ncheck \"$(sh scripts/greet.sh)\" hello\ncheck \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n"}},
		{name: "lazy: the rename also drops a check", gone: []string{"scripts/greet.sh"}, weakens: true,
			during: map[string]string{"scripts/hello.sh": fixed, "scripts/test.sh": "#!/bin/sh\n. scripts/lib.sh\ncheck \"$(sh scripts/hello.sh)\" hello\n"}},
		{name: "lazy: the rename points a check at another file", gone: []string{"scripts/greet.sh"}, weakens: true,
			during: map[string]string{"scripts/hello.sh": fixed, "scripts/stub.sh": "#!/bin/sh\necho \"hello${1:+ $1}\"\n",
				"scripts/test.sh": "#!/bin/sh\n. scripts/lib.sh\ncheck \"$(sh scripts/hello.sh)\" hello\ncheck \"$(sh scripts/stub.sh Ada)\" \"hello Ada\"\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, start)
			gitRun(t, root, "init", "-q")
			gitRun(t, root, "add", "-A")
			gitRun(t, root, "commit", "-q", "-m", "start")
			head := gitRun(t, root, "rev-parse", "HEAD")
			for _, g := range c.gone {
				if err := os.Remove(filepath.Join(root, filepath.FromSlash(g))); err != nil {
					t.Fatal(err)
				}
			}
			writeFiles(t, root, c.during)
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

// TestRenamedOnly: verify's rerun guard passes the command's own script
// changed only by the new paths of files the range renamed, the renamed
// files proving no less; anything more still fails it.
func TestRenamedOnly(t *testing.T) {
	const lib = "check() {\n  if [ \"$1\" != \"$2\" ]; then\n    echo \"got $1, want $2\"\n    exit 1\n  fi\n}\n"
	const test = ". scripts/lib.sh\ncheck \"$(sh scripts/greet.sh)\" hello\n"
	files := map[string]string{"scripts/lib.sh": lib, "scripts/greet.sh": "echo helo\n"}
	for _, c := range []struct {
		name  string
		now   string
		pairs [][2]string
		tip   map[string]string
		want  bool
	}{
		{"honest: the helper renamed", ". scripts/checks.sh\ncheck \"$(sh scripts/greet.sh)\" hello\n",
			[][2]string{{"scripts/lib.sh", "scripts/checks.sh"}}, map[string]string{"scripts/checks.sh": lib}, true},
		{"honest: the code renamed and fixed", ". scripts/lib.sh\ncheck \"$(sh scripts/hello.sh)\" hello\n",
			[][2]string{{"scripts/greet.sh", "scripts/hello.sh"}}, map[string]string{"scripts/hello.sh": "echo hello\n"}, true},
		{"honest: the code renamed, a check added", ". scripts/lib.sh\ncheck \"$(sh scripts/hello.sh)\" hello\ncheck \"$(sh scripts/hello.sh Ada)\" \"hello Ada\"\n",
			[][2]string{{"scripts/greet.sh", "scripts/hello.sh"}}, map[string]string{"scripts/hello.sh": "echo hello\n"}, true},
		{"lazy: renamed, and the helper redefined beside it", ". scripts/lib.sh\ncheck() { :; }\ncheck \"$(sh scripts/hello.sh)\" hello\n",
			[][2]string{{"scripts/greet.sh", "scripts/hello.sh"}}, map[string]string{"scripts/hello.sh": "echo hello\n"}, false},
		{"lazy: the helper renamed and gutted", ". scripts/checks.sh\ncheck \"$(sh scripts/greet.sh)\" hello\n",
			[][2]string{{"scripts/lib.sh", "scripts/checks.sh"}}, map[string]string{"scripts/checks.sh": "check() {\n  :\n}\n"}, false},
		{"lazy: renamed and a check dropped", ". scripts/checks.sh\n",
			[][2]string{{"scripts/lib.sh", "scripts/checks.sh"}}, map[string]string{"scripts/checks.sh": lib}, false},
		{"lazy: a check changed, no rename used", ". scripts/lib.sh\ncheck \"$(sh scripts/greet.sh)\" helo\n",
			[][2]string{{"scripts/lib.sh", "scripts/checks.sh"}}, map[string]string{"scripts/checks.sh": lib}, false},
		{"lazy: a rename pair the script does not follow", ". scripts/lib.sh\ncheck \"$(sh scripts/stub.sh)\" hello\n",
			[][2]string{{"scripts/greet.sh", "scripts/hello.sh"}}, map[string]string{"scripts/hello.sh": "echo hello\n"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			read := func(old, new string) (string, string, bool) {
				a, ok1 := files[old]
				b, ok2 := c.tip[new]
				return a, b, ok1 && ok2
			}
			if got, _ := testrun.RenamedOnly(test, c.now, c.pairs, read); got != c.want {
				t.Errorf("RenamedOnly = %v, want %v", got, c.want)
			}
		})
	}
}
