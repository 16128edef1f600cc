package testrun_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsStatusPlace: a log line appended after a script's last check
// takes the script's exit status (shellline/statusplace.go); the same
// line after a make target's last check does not, each recipe line
// being checked alone (the reverted rule refused it).
func TestInputsStatusPlace(t *testing.T) {
	gittest.Require(t)
	for _, c := range []struct {
		name, file, start, during, line string
		weakens                         bool
	}{
		{name: "lazy: a script's last check, then a log line", file: "tests/check.sh", line: "sh tests/check.sh",
			start: "#!/bin/sh\ngrep -q hello greet.txt\n", during: "#!/bin/sh\ngrep -q hello greet.txt\necho \"checked\" >&2\n", weakens: true},
		{name: "honest: a make target's last check, then a log line", file: "Makefile", line: "make test",
			start: "test:\n\tgrep -q hello greet.txt\n", during: "test:\n\tgrep -q hello greet.txt\n\techo \"checked\" >&2\n"},
		{name: "honest: a script's failure test, then a log line", file: "tests/check.sh", line: "sh tests/check.sh",
			start: "#!/bin/sh\ngrep -q hello greet.txt || exit 1\n", during: "#!/bin/sh\ngrep -q hello greet.txt || exit 1\necho \"checked\" >&2\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, start := commitStart(t, root, map[string]string{c.file: c.start, "greet.txt": "hello\n"})
			writeFiles(t, root, map[string]string{c.file: c.during})
			chs, err := testrun.InputChanges(context.Background(), repo, start, c.line, false)
			if err != nil {
				t.Fatal(err)
			}
			weak, _ := testrun.SplitChanges(chs)
			got := strings.Join(weak, "\n")
			if (got != "") != c.weakens {
				t.Fatalf("weakens %q, want %v (all: %q)", got, c.weakens, chs)
			}
			if c.weakens && !strings.Contains(got, "takes that status") {
				t.Errorf("the refusal does not say the line takes the status: %s", got)
			}
		})
	}
}
