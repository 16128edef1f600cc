package shellline

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestAlwaysZero: the lines the status-place rule takes as exiting 0, and
// near ones that may fail (their status is a check's or may be non-zero).
func TestAlwaysZero(t *testing.T) {
	for line, want := range map[string]bool{
		"echo done":                    true,
		`echo "done at $(date +%T)"`:   true,
		`echo "$(sh greet.sh)"`:        true,
		"rm -f .greet.out":             true,
		"rm -rf out":                   true,
		"rm -- -f":                     false,
		"rm out":                       false,
		"export GREET_DONE=1":          true,
		"local x=1":                    true,
		"readonly X":                   true,
		"declare -a xs=(1 2)":          true,
		`export X="$(sh greet.sh)"`:    false,
		"wait":                         true,
		"wait $pid":                    false,
		"wait -n":                      false,
		"t1=$(date +%s)":               true,
		"d=$(pwd)":                     true,
		"x=$(sh greet.sh)":             false,
		"x=$(date -d \"$when\" +%s)":   false,
		"x=$(date +%s; false)":         false,
		"x=$(echo \"$(sh greet.sh)\")": true,
		"printf '%d\\n' \"$x\"":        false,
		"printf -v x done":             false,
		"rc=$?":                        true,
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
		if err != nil || len(f.Stmts) != 1 {
			t.Fatalf("%s: %v", line, err)
		}
		if got := alwaysZero(f.Stmts[0]); got != want {
			t.Errorf("alwaysZero(%s) = %v, want %v", line, got, want)
		}
	}
}
