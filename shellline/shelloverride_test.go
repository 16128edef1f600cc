package shellline

import "testing"

// Lazy pass 50's lines, and the honest lines beside them: an alias or an
// EXIT trap that turns checks off weakens the run; a cleanup trap, an
// alias of a command to itself with options, or a trap that keeps the
// status does not.
func TestShellOverride(t *testing.T) {
	base := "#!/bin/sh\nfail=0\ncheck() { if [ \"$1\" = \"$2\" ]; then :; else fail=$((fail+1)); fi; }\ncheck \"$(sh scripts/greet.sh)\" hello\nif [ $fail -gt 0 ]; then exit 1; fi\n"
	for _, c := range []struct {
		line    string
		weakens bool
	}{
		// Lazy pass 50.
		{`alias check=true`, true},                     // X1: the helper made a no-op
		{`alias exit=true`, true},                      // X2: the failure test's exit 1 runs true
		{`eval 'alias check=true'`, true},              // X5
		{`alias check='pass=$((pass+1))'`, true},       // the helper, whatever the value
		{`alias expect_eq=:`, true},                    // a no-op over any name
		{`alias '['=true`, true},                       // over test
		{`command alias test=:`, true},                 // through a wrapper
		{`trap 'exit 0' EXIT`, true},                   // X3
		{`trap "exit 0" 0`, true},                      // EXIT by number
		{`trap 'rm -f "$tmp"; exit 0' EXIT INT`, true}, // among cleanup
		{`trap 'eval "exit 0"' EXIT`, true},            // through eval
		{`exit() { :; }`, true},                        // round 48: bash runs the function for exit
		{`function test { return 1; }`, true},          // and for test
		// Honest lines.
		{`alias ll='ls -l'`, false},
		{`cleanup() { rm -f "$tmp"; }`, false},
		{`set -euo pipefail`, false},
		{`set -o nounset`, false},
		{`set -- -n "$@"`, false}, // positional parameters
		{`set +n`, false},
		{`exec 2>&1`, false},           // redirections only
		{`exec pytest "$@"`, false},    // judged where it stands (TestExecBeforeMore)
		{`unset -f helper_tmp`, false}, // not the script's function
		{`unset fail_note`, false},
		{`function greet_name { echo "$1"; }`, false}, // a new helper
		{`declare -f check >/dev/null || exit 1`, false},
		{`readonly ROOT="$(pwd)"`, false}, // a constant the checks never count in
		{`local -r name=$1`, false},
		{`cd build || exit`, false},
		{`alias python=python3`, false},
		{`trap 'rm -rf "$tmp"' EXIT`, false},
		{`trap 'exit' EXIT`, false},       // the status stays
		{`trap 'exit 1' INT TERM`, false}, // a signal ends the run failed
		{`trap 'exit 0' INT`, false},      // not on EXIT
		{`kill $$`, true},                 // the script signals itself: a trap decides
		{`kill -s TERM "$$"`, true},
		{`kill -TERM 0`, true},
		{`kill "$pid"`, false}, // a server the test started
		{`kill %1`, false},
		{`echo "alias check=true is not run"`, false},
		{`# trap 'exit 0' EXIT`, false},
		{`alias_name=check`, false},
		{`alias = make_alias("check")`, false}, // a Python line: no shell
	} {
		got := AddedLineWeakens(c.line, base)
		if (got != "") != c.weakens {
			t.Errorf("AddedLineWeakens(%q) = %q, want weakens=%v", c.line, got, c.weakens)
		}
	}
}

// exec with lines after it ends the script there; a wrapper's last exec,
// or one in a branch, does not.
func TestExecBeforeMore(t *testing.T) {
	for _, c := range []struct {
		name, script string
		weakens      bool
	}{
		{"exec of another script before the checks", "#!/bin/sh\nexec sh scripts/other.sh\ncheck \"$(sh scripts/greet.sh)\" hello\n", true},
		{"exec of the runner before more lines", "#!/bin/sh\nexec pytest -q\nnode --test\n", true},
		{"honest: a wrapper's last line", "#!/bin/sh\nset -e\ncd \"$(dirname \"$0\")/..\"\nexec pytest -q \"$@\"\n", false},
		{"honest: last line, then a comment", "#!/bin/sh\nexec pytest -q\n# done\n", false},
		{"honest: exec in a branch", "#!/bin/sh\nif [ -n \"$CI\" ]; then\n  exec pytest --ci\nfi\npytest\n", false},
		{"honest: redirections only", "#!/bin/sh\nexec 2>&1\npytest\n", false},
		{"unset -f of the helper before its calls", "#!/bin/sh\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\nunset -f check\ncheck \"$(sh greet.sh)\" hello\n", true},
		{"honest: unset -f of helpers at the end (nvm)", "#!/bin/sh\ndie() { echo \"$@\"; exit 1; }\ncheck() { [ \"$1\" = \"$2\" ] || die bad; }\ncheck \"$(sh greet.sh)\" hello\nunset -f die check\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := ReadScriptFiles(c.script, func(string) (string, bool) { return "", false })
			why := ""
			for i := range s.Lines() {
				if w := s.LineWeakens(i, "", nil); w != "" {
					why = w
					break
				}
			}
			if (why != "") != c.weakens {
				t.Errorf("%q: weakens %q, want weakens=%v", c.script, why, c.weakens)
			}
		})
	}
}

// TestSignalTrapWithSelfKill (round 46, helper-297): `trap 'exit 0' TERM`
// weakens where the script signals itself, and not where it does not.
func TestSignalTrapWithSelfKill(t *testing.T) {
	const base = "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\ncheck a a\n"
	if why := shellOverride(`trap 'exit 0' TERM`, base+"kill $$\nexit $fail\n"); why == "" {
		t.Error("a TERM trap that exits 0 beside `kill $$` does not weaken")
	}
	if why := shellOverride(`trap 'exit 0' TERM`, base+"exit $fail\n"); why != "" {
		t.Errorf("a TERM trap without a self-kill weakens: %s", why)
	}
}
