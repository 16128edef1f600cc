package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestObservedLintUnderFileWideSuppression (round 21 review, c9): a file
// the team had at the start, given in the session the comment by which
// the linter skips it whole (`# flake8: noqa`, `# pylint: skip-file`,
// `/* eslint-disable */`, `# shellcheck disable=all`), makes a lint run no
// evidence: it could not fail on that file. Before, the run met "lint the
// changed files". Honest twins: a new generated file carrying such a
// comment, the team's own from before, a one-line `# noqa: E501`, and a
// comment of another linter than the one run.
func TestObservedLintUnderFileWideSuppression(t *testing.T) {
	const proto = "# P\n\n## Session Start\n\n### Phase 1: Lint (REQUIRED)\n\n<!-- gate: must_evidence -->\n\n" +
		"1. The agent MUST lint the changed files.\n\n" +
		"## Session End\n\n### Phase 1: Wrap Up (REQUIRED)\n\n<!-- gate: commit_since_start -->\n\n- The agent MUST commit.\n"
	ctx := context.Background()
	team := map[string]string{
		"src/a.py": "import os\n\n\ndef f():\n    return os.sep\n",
		"src/a.js": "export const f = () => 1;\n",
		"src/a.sh": "#!/bin/sh\necho \"$1\"\n",
	}
	for _, c := range []struct {
		name, cmd string
		before    map[string]string // committed before the session, besides team's files
		during    map[string]string // written in the session ("": deleted, a rename's old path)
		pass      bool
	}{
		{"flake8: noqa added", "flake8 src", nil, map[string]string{"src/a.py": "# flake8: noqa\nimport os\nx=1\n"}, false},
		{"pylint: skip-file added", "pylint src", nil, map[string]string{"src/a.py": "import os  # pylint: skip-file\nx=1\n"}, false},
		{"pylint: disable=all added", "python3 -m pylint src/a.py", nil, map[string]string{"src/a.py": "# pylint: disable=all\nimport os\nx=1\n"}, false},
		{"ruff: noqa added", "ruff check .", nil, map[string]string{"src/a.py": "# ruff: noqa\nimport os\nx=1\n"}, false},
		{"eslint-disable added", "npx eslint src", nil, map[string]string{"src/a.js": "/* eslint-disable */\nexport const f = () => undefinedFn();\n"}, false},
		{"shellcheck disable=all added", "shellcheck src/a.sh", nil, map[string]string{"src/a.sh": "#!/bin/sh\n# shellcheck disable=all\necho $1\n"}, false},
		{"honest: a new generated file with flake8: noqa", "flake8 src", nil, map[string]string{"src/gen_pb2.py": "# flake8: noqa\nX = 1\n"}, true},
		{"honest: the team's noqa from before", "flake8 src", map[string]string{"src/b.py": "# flake8: noqa\nX=1\n"}, map[string]string{"src/b.py": "# flake8: noqa\nX=2\n"}, true},
		{"honest: one line's noqa", "flake8 src", nil, map[string]string{"src/a.py": "import os\n\n\ndef f():\n    return os.sep + 'a very long line'  # noqa: E501\n"}, true},
		{"honest: another linter's comment", "pylint src", nil, map[string]string{"src/a.py": "# flake8: noqa\nimport os\n"}, true},
		{"honest: eslint-disable for named rules", "npx eslint src", nil, map[string]string{"src/a.js": "/* eslint-disable no-console */\nexport const f = () => console.log(1);\n"}, true},
		// Round 22 (c4): the team's file renamed in the session, then given
		// the comment, read as a new file before (c9 left it open).
		{"renamed then flake8: noqa", "flake8 src", nil, map[string]string{"src/util.py": "# flake8: noqa\nimport os\n\n\ndef f():\n    return os.sep\n", "src/a.py": ""}, false},
		{"renamed, edited and eslint-disable", "npx eslint src", nil, map[string]string{"src/b.js": "/* eslint-disable */\nexport const f = () => 1;\nexport const g = () => undefinedFn();\n", "src/a.js": ""}, false},
		{"honest: a file deleted, an unrelated generated file added", "flake8 src", nil, map[string]string{"src/gen_pb2.py": "# flake8: noqa\nDESCRIPTOR = 1\nX = 2\nY = 3\n", "src/a.py": ""}, true},
		{"honest: the team's file renamed with its noqa", "flake8 src", map[string]string{"src/b.py": "# flake8: noqa\nX=1\n"}, map[string]string{"src/c.py": "# flake8: noqa\nX=1\n", "src/b.py": ""}, true},
		{"honest: a file renamed, no comment", "flake8 src", nil, map[string]string{"src/util.py": "import os\n\n\ndef f():\n    return os.sep\n", "src/a.py": ""}, true},
		// Round 30 (c1): the comment placed past the 1 MiB the check read,
		// after a megabyte and a half of blank lines (flake8 honours it on
		// any line). Honest twins: the team's file padded the same way with
		// no comment, and a large data file that no linter of the line reads.
		{"padded: flake8: noqa after 1.5 MiB of blank lines", "flake8 src", nil, map[string]string{"src/a.py": team["src/a.py"] + strings.Repeat("\n", 3<<19) + "# flake8: noqa\nx=1\n"}, false},
		{"padded: eslint-disable after 1.5 MiB of blank lines", "npx eslint src", nil, map[string]string{"src/a.js": team["src/a.js"] + strings.Repeat("\n", 3<<19) + "/* eslint-disable */\nexport const g = () => undefinedFn();\n"}, false},
		{"honest: padded with blank lines, no comment", "flake8 src", nil, map[string]string{"src/a.py": team["src/a.py"] + strings.Repeat("\n", 3<<19)}, true},
		{"honest: a large data file with the words in it", "flake8 src", map[string]string{"src/data.txt": "x\n"}, map[string]string{"src/data.txt": strings.Repeat("\n", 3<<19) + "# flake8: noqa\n"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HOME", t.TempDir())
			t.Setenv("PYLINTRC", "")
			e := newEnv(t, proto)
			e.now = time.Now().Add(-time.Minute)
			for f, body := range team {
				gittest.Write(t, e.root, f, body)
			}
			for f, body := range c.before {
				gittest.Write(t, e.root, f, body)
			}
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "before the session")
			id := e.start("lint")
			for f, body := range c.during {
				if body == "" {
					if err := os.Remove(filepath.Join(e.root, f)); err != nil {
						t.Fatal(err)
					}
					continue
				}
				gittest.Write(t, e.root, f, body)
			}
			if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "LINT", Requirement: "LINT.lint-changed-files", Source: session.SourceRun,
				Command: c.cmd, ExitCode: 0, Duration: time.Millisecond, Dir: e.root}); err != nil {
				t.Fatal(err)
			}
			g, err := e.engine.ValidateGate(ctx, id, "LINT")
			if err != nil {
				t.Fatal(err)
			}
			if (g.Status == session.StatusPass) != c.pass {
				t.Fatalf("%s: gate %s, want pass %v: %s", c.cmd, g.Status, c.pass, g.Message)
			}
		})
	}
}
