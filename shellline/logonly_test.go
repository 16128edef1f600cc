package shellline

import "testing"

// TestLogOnly: a line that only logs (to syslog, stderr or /dev/null) is
// no weakening, whatever its words look like; a line that also exits,
// runs a command, writes a file or prints to stdout is read as before.
func TestLogOnly(t *testing.T) {
	for _, c := range []struct {
		line    string
		logOnly bool
		weakens bool
	}{
		// Honest: round 48's row (logger's -t is its tag, not a filter).
		{`logger -t greet "run by $PPID" 2>/dev/null`, true, false},
		{`logger -t greet "run by $PPID"`, true, false},
		{`logger -t greet -p user.info "started" 2>/dev/null;`, true, false},
		{`echo "greet: -t and -k are tags here" >&2`, true, false},
		{`echo "skip: 3 names" 1>&2`, true, false},
		{`printf '%s -t\n' "$0" >&2`, true, false},
		{`echo "debug -k" >/dev/null 2>&1`, true, false},
		{`echo "debug -k" &>/dev/null`, true, false},
		{`echo "$PPID ${#name}" >&2 # why`, true, false},
		// Round 49: expansions that only read, and echo piped to logger.
		{`echo "greet: -k smoke in ${0##*/}" >&2`, true, false},
		{`echo "mode ${MODE:-default} -k" >&2`, true, false},
		{`echo "run -k $$" | logger -t greet`, true, false},
		{`printf '%s -k\n' "$0" | logger -t greet 2>/dev/null`, true, false},
		// Lazy twins: more than a log.
		{`logger -t greet "run by $PPID" 2>/dev/null; exit 0`, false, true},
		{`logger -t greet "$(sed -i s/helo/hello/ scripts/greet.sh)"`, false, false},
		{`logger -t greet "${fail:=0}"`, false, false},
		{`logger -t greet "$((fail=0))"`, false, false},
		{`logger -s -t greet run 2>&1`, false, false},
		{`echo -k smoke 2>&1 >&2 | xargs pytest`, false, true},
		{`echo -k smoke >&2 >pytest.ini`, false, true},
		{`echo -k smoke >&2 > "$f"`, false, true},
		{`echo -k smoke`, false, true},
		{`echo -k smoke >&2 || true`, false, true},
		{`printf -v fail %d 0 >&2`, false, false},
		{`PYTEST_ADDOPTS="-k smoke" logger run`, false, false},
		{`echo x >&3`, false, false},
		{`logger -t greet run & exit 0`, false, true},
		{`exec >&2`, false, false},
		{`echo "${fail:?}" >&2`, false, false},
		{`echo "${fail:=0}" >&2`, false, false},
		{`echo "${PS4@P}" >&2`, false, false},
		{`printf $'\x2dv' fail %d 0 >&2`, false, false},
		{`printf "$o" fail %d 0 >&2`, false, false},
		{`echo "-k smoke" | logger -s 2>&1`, false, false},
		{`echo "-k smoke" | logger -t greet; exit 0`, false, true},
		{`echo "-k smoke" >&2 | logger -t greet`, false, false},
		{`echo "-k smoke" | pytest`, false, false},
		{`echo "-k smoke" | tee pytest.ini | logger -t greet`, false, false},
	} {
		if got := logOnly(c.line); got != c.logOnly {
			t.Errorf("logOnly(%q) = %v, want %v", c.line, got, c.logOnly)
		}
		if c.logOnly {
			if why := AddedLineWeakens(c.line, ""); why != "" {
				t.Errorf("AddedLineWeakens(%q) = %q, want none", c.line, why)
			}
		} else if c.weakens {
			if why := AddedLineWeakens(c.line, ""); why == "" {
				t.Errorf("AddedLineWeakens(%q) = none, want a weakening", c.line)
			}
		}
	}
}
