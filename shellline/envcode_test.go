package shellline

import "testing"

// TestEnvCode: a line only added that runs code an environment variable
// holds weakens the run; a variable the script sets, a file under a
// variable's folder, and a positional parameter do not.
func TestEnvCode(t *testing.T) {
	const base = "#!/bin/sh\nfail=0\nROOT=$(pwd)\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\n"
	for _, c := range []struct {
		line string
		want bool
	}{
		{`eval "${GREET_TEST_PRELUDE:-}"`, true},
		{`eval "$PRELUDE"`, true},
		{`eval $PRELUDE`, true},
		{`. "${GREET_TEST_LOCAL:-/dev/null}"`, true},
		{`source "$LOCAL_HOOKS"`, true},
		{`sh -c "$HOOK"`, true},
		{`bash -c "${HOOK:-:}"`, true},
		{`[ -n "$X" ] && eval "$X"`, true},
		{`. "$NVM_DIR/nvm.sh"`, false},
		{`. "$ROOT"`, false},
		{`eval "$1"`, false},
		{`echo "$PRELUDE"`, false},
		{`cmd="check a a"; eval "$cmd"`, false},
		{`eval "$(ssh-agent -s)"`, false},
	} {
		got := envCode(c.line, base)
		if (got != "") != c.want {
			t.Errorf("envCode(%q) = %q, want weakening %v", c.line, got, c.want)
		}
		if c.want && AddedLineWeakensIn(c.line, base, nil) == "" {
			t.Errorf("AddedLineWeakensIn(%q) does not weaken", c.line)
		}
	}
}
