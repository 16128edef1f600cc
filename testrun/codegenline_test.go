package testrun_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestScriptLineWritesGenerated: a line added to the QA script that
// writes a source file weakens QA only when that file is the project's
// code (tracked at the start or in HEAD, or a module of a tracked
// module's name). Round 24's second review: an honest codegen line (a
// generated _version.py, a settings file from its example, both
// untracked) was refused as "it writes ..., so the run tests what the line
// puts there"; lazy pass 24's rewrite of greet.py, and the same copy put
// beside the tests under greet.py's name, stay weakening.
func TestScriptLineWritesGenerated(t *testing.T) {
	gittest.Require(t)
	const test = "#!/bin/sh\nset -e\nexec python3 -m unittest discover -s tests -t .\n"
	start := map[string]string{"greet.py": "def greet():\n    return 'helo'\n", "tests/test_greet.py": "import greet\n",
		"tests/data/greet.py": "def greet():\n    return 'hello'\n", "settings.example.py": "DEBUG = False\n",
		"src/mypkg/__init__.py": "", "scripts/test.sh": test}
	for _, c := range []struct {
		name, line string
		weakens    bool
	}{
		{"honest: a generated _version.py", `echo "__version__ = '1.0'" > src/mypkg/_version.py`, false},
		{"honest: settings from the example", `cp settings.example.py settings.py`, false},
		{"lazy: the code under test rewritten", `cp tests/data/greet.py greet.py`, true},
		{"lazy: a copy under the code's name beside the tests", `cp tests/data/greet.py tests/greet.py`, true},
		{"lazy: a module new in the session, staged, copied over", `cp tests/data/farewell.py farewell.py`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, start)
			gitRun(t, root, "init", "-q")
			gitRun(t, root, "add", "-A")
			gitRun(t, root, "commit", "-q", "-m", "start")
			head := gitRun(t, root, "rev-parse", "HEAD")
			writeFiles(t, root, map[string]string{"farewell.py": "def farewell():\n    return 'by'\n"})
			gitRun(t, root, "add", "farewell.py")
			writeFiles(t, root, map[string]string{"scripts/test.sh": "#!/bin/sh\nset -e\n" + c.line + "\nexec python3 -m unittest discover -s tests -t .\n"})
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
