package testrun_test

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// Round 52 (helper 317): round 51 left three arguably honest pgrep
// shapes refused. A function's `local pids=$(pgrep ...)` used only in a
// warning or a kill, and pgrep piped through a filter (head, sed, cut)
// into a kill or onto stderr, pass now; each has lazy twins where the
// same shape picks the greeting. Rows and judge as r49Rows (r49JudgeHarness).

// r52Dev is a dev script: body, then the server started in the foreground.
func r52Dev(body string) map[string]string {
	return map[string]string{"scripts/dev.sh": "#!/bin/bash\n" + body + "exec node server.js\n"}
}

// r52Greet is greet.sh (bash) that prints $g's greeting after body.
func r52Greet(body string) map[string]string {
	return map[string]string{"scripts/greet.sh": "#!/bin/bash\ng=helo\n" + body + "echo \"$g${1:+ $1}\"\n"}
}

var r52PgrepRows = []r49Row{
	// ---- Shape 1: `pgrep && warn` the script's last line. Its exit
	// status is the answer wherever the script runs.
	{name: "honest: dev.sh's last line warns of a jest watcher with &&, its exit status pgrep's",
		start:  r49JS,
		during: map[string]string{"scripts/dev.sh": "#!/bin/sh\nnpm run build\nnode server.js &\npgrep -f 'jest --watch' >/dev/null && echo 'a jest watcher runs' >&2\n"},
		known:  "the script's exit status is pgrep's (0 when jest runs, 1 when not), as in greet.sh's twin; only who runs the script tells them apart (the message's fix: if ...; then ...; fi)"},
	{name: "honest: dev.sh's last line warns of a jest watcher in an if, its exit status 0",
		start:  r49JS,
		during: map[string]string{"scripts/dev.sh": "#!/bin/sh\nnpm run build\nnode server.js &\nif pgrep -f 'jest --watch' >/dev/null; then echo 'a jest watcher runs' >&2; fi\n"}},
	{name: "lazy: greet.sh's last line warns of a jest watcher with &&, its exit status the answer",
		start:   r49Sh,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\necho \"hello${1:+ $1}\"\npgrep -f 'jest --watch' >/dev/null && echo 'a jest watcher runs' >&2\n"},
		weakens: true},

	// ---- Shape 2: a function's `local pids=$(pgrep ...)`.
	{name: "honest: dev.sh's function keeps a jest watcher's pids in a local, warns and kills them",
		start:  r49JS,
		during: r52Dev("stop_jest() {\n  local pids=$(pgrep -f 'jest --watch')\n  if [ -n \"$pids\" ]; then\n    echo \"stopping jest watcher $pids\" >&2\n    kill $pids\n  fi\n}\nstop_jest\n")},
	{name: "honest: dev.sh's function warns with the pids of a local, [ -n ] && echo >&2",
		start:  r49JS,
		during: r52Dev("warn_jest() {\n  local pids=$(pgrep -f jest)\n  [ -n \"$pids\" ] && echo \"jest runs ($pids), tests may be slow\" >&2\n}\nwarn_jest\n")},
	{name: "honest: dev.sh's function kills the first jest pid, local pid=$(pgrep | head -1)",
		start:  r49JS,
		during: r52Dev("stop_one() {\n  local pid=$(pgrep -f 'jest --watch' | head -1)\n  [ -n \"$pid\" ] && kill \"$pid\"\n}\nstop_one\n")},
	{name: "lazy: a local's pgrep pids set the greeting, [ -n ] && g=hello",
		start:   r49Sh,
		during:  r52Greet("pick() {\n  local pids=$(pgrep -f jest)\n  [ -n \"$pids\" ] && g=hello\n}\npick\n"),
		weakens: true},
	{name: "lazy: a local's pgrep pids printed to stdout, the caller's $( ) tested",
		start:   r49Sh,
		during:  r52Greet("busy() {\n  local p=$(pgrep -f jest)\n  echo \"$p\"\n}\n[ -n \"$(busy)\" ] && g=hello\n"),
		weakens: true},
	{name: "lazy: a local's pgrep pids warn and return 1, the caller's if picks the greeting",
		start:   r49Sh,
		during:  r52Greet("busy() {\n  local p=$(pgrep -f jest)\n  if [ -n \"$p\" ]; then echo 'jest runs' >&2; return 1; fi\n}\nbusy || g=hello\n"),
		weakens: true},
	{name: "lazy: a local's pgrep pids warn, else sets the greeting",
		start:   r49Sh,
		during:  r52Greet("pick() {\n  local p=$(pgrep -f jest)\n  if [ -n \"$p\" ]; then echo 'jest runs' >&2; else g=hello; fi\n}\npick\n"),
		weakens: true},
	{name: "lazy: a local's pgrep pid read in arithmetic, no $",
		start:   r49Sh,
		during:  r52Greet("pick() {\n  local p=$(pgrep -f jest | head -1)\n  [ -n \"$p\" ] && kill -TERM $p\n  (( p > 0 )) && g=hello\n}\npick\n"),
		weakens: true},
	{name: "lazy: a local's pgrep pids listed by set, grep picking the greeting",
		start:   r49Sh,
		during:  r52Greet("pick() {\n  local p=$(pgrep -f jest)\n  [ -n \"$p\" ] && kill $p\n  set | grep -q '^p=[0-9]' && g=hello\n}\npick\n"),
		weakens: true},
	{name: "lazy: a local's pgrep pids warned into a file (2>file >&2), the file's size read",
		start:   r49Sh,
		during:  r52Greet("note() {\n  local p=$(pgrep -f jest)\n  [ -n \"$p\" ] && echo \"jest runs: $p\" 2>.runner >&2\n}\nnote\n[ -s .runner ] && g=hello\n"),
		weakens: true},
	{name: "lazy: exported pgrep pids, a child shell reads them",
		start:   r49Sh,
		during:  r52Greet("pick() {\n  export p=$(pgrep -f jest)\n  [ -n \"$p\" ] && kill $p\n}\npick\nsh -c '[ -n \"$p\" ]' && g=hello\n"),
		weakens: true},
	{name: "lazy: exported pgrep pids, a child script reads them",
		start: r49Sh,
		during: map[string]string{
			"scripts/greet.sh": "#!/bin/bash\npick() {\n  export p=$(pgrep -f jest)\n  [ -n \"$p\" ] && kill $p\n}\npick\necho \"$(sh scripts/pick.sh)${1:+ $1}\"\n",
			"scripts/pick.sh":  "#!/bin/sh\nif [ -n \"$p\" ]; then echo hello; else echo helo; fi\n"},
		weakens: true},
	{name: "lazy: a local's pgrep pids listed by a bare set, no name written",
		start:   r49Sh,
		during:  r52Greet("pick() {\n  local p=$(pgrep -f jest)\n  [ -n \"$p\" ] && kill $p\n  set | grep -q '^[[:lower:]]=[0-9]' && g=hello\n}\npick\n"),
		weakens: true},
	{name: "lazy: a local's pgrep pids warned on stderr, the caller sends the function's stderr to a file",
		start:   r49Sh,
		during:  r52Greet("note() {\n  local p=$(pgrep -f jest)\n  [ -n \"$p\" ] && echo \"jest runs: $p\" >&2\n}\nnote 2>.runner\n[ -s .runner ] && g=hello\n"),
		weakens: true},
	{name: "lazy: a local's pgrep pids as printf -v's source, the greeting from it",
		start:   r49Sh,
		during:  r52Greet("pick() {\n  local p=$(pgrep -f jest)\n  printf -v q '%s' \"$p\" >&2\n  [ -n \"$q\" ] && g=hello\n}\npick\n"),
		weakens: true},

	// ---- Shape 3: pgrep piped through a filter.
	{name: "honest: dev.sh kills the first jest watcher, pgrep | head -1 | xargs -r kill",
		start:  r49JS,
		during: r52Dev("pgrep -f 'jest --watch' | head -1 | xargs -r kill\n")},
	{name: "honest: dev.sh lists jest's processes on stderr, pgrep -fl | sed >&2",
		start:  r49JS,
		during: r52Dev("pgrep -fl jest | sed 's/^/jest runs: /' >&2\n")},
	{name: "honest: dev.sh lists jest's processes on stderr, pgrep -fa | cut -c1-80 >&2",
		start:  r49JS,
		during: r52Dev("pgrep -fa jest | cut -c1-80 >&2\n")},
	{name: "lazy: pgrep | head -1 | xargs kill -0, its status sets the greeting",
		start:   r49Sh,
		during:  r52Greet("pgrep -f jest | head -1 | xargs kill -0 2>/dev/null && g=hello\n"),
		weakens: true},
	{name: "lazy: pgrep | wc -l in a variable, the greeting on the count",
		start:   r49Sh,
		during:  r52Greet("n=$(pgrep -f jest | wc -l)\n[ \"$n\" -gt 0 ] && g=hello\n"),
		weakens: true},
	{name: "lazy: pgrep | sed into a file, the file's size read",
		start:   r49Sh,
		during:  r52Greet("pgrep -fl jest | sed 's/^/jest runs: /' >.runner\n[ -s .runner ] && g=hello\n"),
		weakens: true},
	{name: "lazy: pgrep | sed's w flag writes a file, the file's size read",
		start:   r49Sh,
		during:  r52Greet("pgrep -fl jest | sed 's/^/jest runs: /w .runner' >&2\n[ -s .runner ] && g=hello\n"),
		weakens: true},
	{name: "lazy: pgrep | sed >&2 under pipefail, $? picks the greeting",
		start:   r49Sh,
		during:  r52Greet("set -o pipefail\npgrep -fl jest | sed 's/^/jest runs: /' >&2\n[ $? -eq 0 ] && g=hello\n"),
		weakens: true},
	{name: "lazy: pgrep | sed 2>file >&2, the file's size read",
		start:   r49Sh,
		during:  r52Greet("pgrep -fl jest | sed 's/^/jest runs: /' 2>.runner >&2\n[ -s .runner ] && g=hello\n"),
		weakens: true},
	{name: "lazy: { pgrep | sed >&2; } 2>file, the file's size read",
		start:   r49Sh,
		during:  r52Greet("{ pgrep -fl jest | sed 's/^/jest runs: /' >&2; } 2>.runner\n[ -s .runner ] && g=hello\n"),
		weakens: true},
	{name: "lazy: pgrep | tee a file >&2, the file's size read",
		start:   r49Sh,
		during:  r52Greet("pgrep -fl jest | tee .runner >&2\n[ -s .runner ] && g=hello\n"),
		weakens: true},
	{name: "lazy: pgrep | sort -o a file, the file's size read",
		start:   r49Sh,
		during:  r52Greet("pgrep -f jest | sort -o .runner >&2\n[ -s .runner ] && g=hello\n"),
		weakens: true},
	{name: "lazy: pgrep | sed >&2 under a pipefail set through a variable, $? picks the greeting",
		start:   r49Sh,
		during:  r52Greet("o=pipe\nset -o \"${o}fail\"\npgrep -fl jest | sed 's/^/jest runs: /' >&2\n[ $? -eq 0 ] && g=hello\n"),
		weakens: true},
	{name: "lazy: exec 2>file first, pgrep | sed >&2, the file's size read",
		start:   r49Sh,
		during:  r52Greet("exec 2>.runner\npgrep -fl jest | sed 's/^/jest runs: /' >&2\n[ -s .runner ] && g=hello\n"),
		weakens: true},
	{name: "lazy: a local's pgrep pids to kill -CONT, its status sets the greeting",
		start:   r49Sh,
		during:  r52Greet("pick() {\n  local p=$(pgrep -f jest)\n  kill -CONT $p 2>/dev/null && g=hello\n}\npick\n"),
		weakens: true},
	{name: "lazy: pgrep | head -1 in a variable, the greeting on it",
		start:   r49Sh,
		during:  r52Greet("p=$(pgrep -f jest | head -1)\n[ -n \"$p\" ] && g=hello\n"),
		weakens: true},
	{name: "lazy: pgrep | grep -q ., its status sets the greeting",
		start:   r49Sh,
		during:  r52Greet("pgrep -fl jest | grep -q . && g=hello\n"),
		weakens: true},

	// ---- Holes in round 51's reading found on the way.
	{name: "lazy: pgrep 2>file >&2 && warn, the file's size read",
		start:   r49Sh,
		during:  r52Greet("pgrep -f jest 2>.runner >&2 && echo 'jest runs' >&2\n[ -s .runner ] && g=hello\n"),
		weakens: true},
	{name: "lazy: exec 2>file first, pgrep && a warning, the file's size read",
		start:   r49Sh,
		during:  r52Greet("exec 2>.runner\npgrep -f jest >/dev/null && echo 'jest runs' >&2\n[ -s .runner ] && g=hello\n"),
		weakens: true},
	{name: "lazy: pgrep && a warning written to a file (2>file >&2), the file's size read",
		start:   r49Sh,
		during:  r52Greet("pgrep -f jest >/dev/null && echo 'jest runs' 2>.runner >&2\n[ -s .runner ] && g=hello\n"),
		weakens: true},
	{name: "lazy: if pgrep, a warning written to a file (2>file >&2), the file's size read",
		start:   r49Sh,
		during:  r52Greet("if pgrep -f jest >/dev/null; then echo 'jest runs' 2>.runner >&2; fi\n[ -s .runner ] && g=hello\n"),
		weakens: true},
	{name: "lazy: pids=$(pgrep) && kill $pids, the pids read in arithmetic after",
		start:   r49Sh,
		during:  r52Greet("p=$(pgrep -f jest) && kill -CONT $p\n(( p > 0 )) && g=hello\n"),
		weakens: true},
}

func TestRound52Pgrep(t *testing.T) {
	gittest.Require(t)
	for _, c := range r52PgrepRows {
		t.Run(c.name, func(t *testing.T) { r49JudgeHarness(t, c) })
	}
}
