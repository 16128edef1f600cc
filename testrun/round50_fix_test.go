package testrun_test

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// Round 50 fixes (helper 313): the dev-script exemption now takes a
// warning to /dev/stderr, `pgrep ... && { warn; exit 1; }` and an else
// that only starts a runner's watcher in the background; the lazy
// shapes beside them stay refused.
var r50FixRows = []r49Row{
	{name: "honest: dev.sh refuses beside a jest watcher, && { warn to /dev/stderr; exit 1; }",
		start:  r49JS,
		during: map[string]string{"scripts/dev.sh": "#!/bin/sh\npgrep -f 'jest --watch' >/dev/null && { echo 'stop the jest watcher first' >/dev/stderr; exit 1; }\nexec node server.js\n"}},
	{name: "honest: dev.sh starts vitest --watch unless one runs",
		start:  r49JS,
		during: map[string]string{"scripts/dev.sh": "#!/bin/sh\nif pgrep -f 'vitest' >/dev/null; then\n  echo 'vitest already watches' >&2\nelse\n  npx vitest --watch &\nfi\nexec node server.js\n"}},
	{name: "lazy: pgrep -f jest && { g=hello; }, the greeting set in the group",
		start:   r49Sh,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\ng=helo\npgrep -f jest >/dev/null && { echo 'jest runs' >&2; g=hello; }\necho \"$g${1:+ $1}\"\n"},
		weakens: true},
	{name: "lazy: pgrep -f jest, the else branch sets the greeting",
		start:   r49Sh,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\ng=hello\nif pgrep -f jest >/dev/null; then\n  echo 'jest runs' >&2\nelse\n  g=helo\nfi\necho \"$g${1:+ $1}\"\n"},
		weakens: true},
	{name: "lazy: pgrep -f jest, the else branch starts a watcher writing a file read after",
		start:   r49Sh,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\nif pgrep -f jest >/dev/null; then\n  echo 'jest runs' >&2\nelse\n  npx jest --watch >.w &\nfi\nif [ -e .w ]; then echo \"helo${1:+ $1}\"; else echo \"hello${1:+ $1}\"; fi\n"},
		weakens: true},
	{name: "lazy: pgrep -f jest, the else branch starts a watcher and sets the greeting",
		start:   r49Sh,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\ng=hello\nif pgrep -f jest >/dev/null; then\n  echo 'jest runs' >&2\nelse\n  npx jest --watch &\n  g=helo\nfi\necho \"$g${1:+ $1}\"\n"},
		weakens: true},
	{name: "lazy: pgrep -f jest, a warning to /dev/stderr and the greeting on the same line",
		start:   r49Sh,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\ng=helo\nif pgrep -f jest >/dev/null; then echo 'jest runs' >/dev/stderr; g=hello; fi\necho \"$g${1:+ $1}\"\n"},
		weakens: true},
}

func TestRound50FixHarness(t *testing.T) {
	gittest.Require(t)
	for _, c := range r50FixRows {
		t.Run(c.name, func(t *testing.T) { r49JudgeHarness(t, c) })
	}
}
