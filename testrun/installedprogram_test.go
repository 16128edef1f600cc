package testrun_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsInstalledProgramPlanted (round 27 review, c11): a venv's or
// node_modules' program is an installer's and left to gateprog, but a
// pyvenv.cfg dropped beside the team's committed test script, or the
// script moved under a folder named node_modules, made the script itself
// "installed": `exit 0` in scripts/test.sh then passed the QA command
// unread. What the start commit held is the team's script wherever it lies.
func TestInputsInstalledProgramPlanted(t *testing.T) {
	gittest.Require(t)
	const honest = "#!/bin/sh\npython3 -m pytest -q\n"
	for _, c := range []struct {
		name, line string
		plant      map[string]string // written after the start
		weakens    bool
	}{
		{name: "lazy: pyvenv.cfg beside the committed script", line: "sh scripts/test.sh", weakens: true,
			plant: map[string]string{"scripts/pyvenv.cfg": "home = /usr/bin\n", "scripts/test.sh": "#!/bin/sh\nexit 0\n"}},
		{name: "lazy: pyvenv.cfg above a committed bin/ script", line: "sh tools/bin/test.sh", weakens: true,
			plant: map[string]string{"tools/pyvenv.cfg": "home = /usr/bin\n", "tools/bin/test.sh": "#!/bin/sh\nexit 0\n"}},
		{name: "honest: a venv made in the session, its pytest run", line: ".venv/bin/pytest -q",
			plant: map[string]string{".venv/pyvenv.cfg": "home = /usr/bin\n", ".venv/bin/pytest": "#!/usr/bin/python3\nimport sys\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, start := commitStart(t, root, map[string]string{"scripts/test.sh": honest, "tools/bin/test.sh": honest, ".gitignore": ".venv/\n"})
			writeFiles(t, root, c.plant)
			for p := range c.plant {
				if filepath.Base(filepath.Dir(p)) == "bin" {
					if err := os.Chmod(filepath.Join(root, p), 0o755); err != nil {
						t.Fatal(err)
					}
				}
			}
			chs, err := testrun.InputChanges(context.Background(), repo, start, c.line, true)
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
