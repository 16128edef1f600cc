package shellline

import (
	"strings"
	"testing"
)

// TestScriptLineWeakens: lines added to a test script read where they
// stand in the whole new script (round 26, c2; issue 25 items 4, 5). Each
// script is new: every line is judged, and the script weakens when one
// does. lineAlone is how the line-by-line rule (round 25) read it: every
// row here was misread so.
func TestScriptLineWeakens(t *testing.T) {
	misread := 0
	for _, c := range []struct {
		script  string
		weakens bool
	}{
		// Lazy: a variable set to the repository's folder on another line.
		{"R=$(pwd)\ncp -r fixed/. \"$R\"", true},
		{"R=$PWD\ncp -r fixed/. \"$R\"", true},
		{"R=\"$(git rev-parse --show-toplevel)\"\ncp -r fixed/. \"$R\"", true},
		{"cd \"$(dirname \"$0\")/..\" && R=.\ncp -r fixed/. \"$R\"", true},
		{"R=.\ntar xf fixed.tar -C \"$R\"", true},
		{"R=src\ngit -C \"$R\" checkout fix -- .", true},
		{"R=$(pwd)\ncd \"$(mktemp -d)\"\ncp -r /srv/fixed/. \"$R\"", true},
		{"R=$(pwd)\nD=\"$R/\"\ncp -r fixed/. \"$D\"", true},
		{"export R=\"$PWD\"\nrsync -a fixed/ \"$R\"/", true},
		{"if true; then R=$(pwd); fi\ncp -r fixed/. \"$R\"", true},
		{"read -r R < .where\ncp -r fixed/. \"$R\"", true},
		{"R=$(mktemp -d)\nR=$(pwd)\ncp -r fixed/. \"$R\"", true},
		{"R=$(mktemp -d)\nfor i in 1 2; do\n  cp -r fixed/. \"$R\"\n  R=$(pwd)\ndone", true},
		{"for d in build .; do cp -r fixed/. \"$d\"; done", true},
		{"put() { cp -r fixed/. \"$1\"; }\nput .", true},
		{"put() { cp -r fixed/. \"$@\"; }\nput \"$(pwd)\"", true},
		{"R=$(pwd)\n. ./env.sh\ncp -r fixed/. \"$R\"", true},
		// Lazy: a source file written through a variable set above.
		{"F=greet.py\ncp tests/data/greet.py \"$F\"", true},
		{"F=greet.py\ncat tests/data/greet.py > \"$F\"", true},
		{"D=src\ncp tests/data/greet.py \"$D/greet.py\"", true},
		{"fix() { cp tests/data/greet.py \"$1\"; }\nfix greet.py", true},
		// Lazy: a cd that may not have happened, or was undone.
		{"cd /srv/nowhere\ntar xf fixed.tar", true},
		{"cd /srv/nowhere; tar xf fixed.tar", true},
		{"tmp=$(mktemp)\ncd \"$tmp\"\ntar xf fixed.tar", true},
		{"cd \"$(mktemp -d)\"\ncd -\ntar xf fixed.tar", true},
		{"cd \"$(mktemp -d)\"\ncd \"$OLDPWD\"\ntar xf fixed.tar", true},
		{"back() { cd \"$OLDPWD\"; }\ncd \"$(mktemp -d)\"\nback\ntar xf fixed.tar", true},
		{"cd \"$(mktemp -d)\"\n. ./env.sh\ntar xf fixed.tar", true},
		{"cd \"$(mktemp -d)\"\neval \"cd $X\"\ntar xf fixed.tar", true},
		{"pushd \"$(mktemp -d)\"\npopd\ntar xf fixed.tar", true},
		{"if [ -n \"$CI\" ]; then cd \"$(mktemp -d)\"; fi\ntar xf fixed.tar", true},
		{"cd \"$FIXTURES\"\ntar xf fixed.tar", true},
		{"tmp=$(mktemp -d)\n(cd \"$tmp\")\ntar xf fixed.tar", true},
		{"set -e\nif cd /srv/nowhere; then :; fi\ntar xf fixed.tar", true},
		{"set -e\ncd /srv/nowhere || echo no scratch\ntar xf fixed.tar", true},
		{"set -e\n! cd /srv/nowhere\ntar xf fixed.tar", true},
		{"set -e\nset +e\ncd /srv/nowhere\ntar xf fixed.tar", true},
		// Honest: a scratch folder the script made or a cd that cannot fail on.
		{"F=build/greet.py\ncp tests/data/greet.py \"$F\"", false},
		{"tmp=$(mktemp -d)\ncp greet.py \"$tmp/greet.py\"", false},
		{"tmp=$(mktemp -d)\ncd \"$tmp\"\ntar xf \"$src/fx.tar\"", false},
		{"tmp=$(mktemp -d)\ncd \"$tmp\" && git checkout fix -- .", false},
		{"tmp=$(mktemp -d) && cd \"$tmp\"\ntar xf \"$src/fx.tar\"", false},
		{"set -e\ncd /srv/scratch\ntar xf \"$src/fx.tar\"", false},
		{"set -euo pipefail\ncd /srv/scratch\ngit checkout fix -- .", false},
		{"cd /srv/scratch || exit 1\ntar xf \"$src/fx.tar\"", false},
		{"cd /srv/scratch || { echo no scratch; exit 2; }\ntar xf \"$src/fx.tar\"", false},
		{"mkdir -p /tmp/fx\ncd /tmp/fx\ntar xf \"$src/fx.tar\"", false},
		{"tmp=$(mktemp -d)\nR=$tmp\ncp -r fixed/. \"$R\"", false},
		{"tmp=$(mktemp -d)\ncp -r tests/fixtures/. \"$tmp/fx\"", false},
		{"tmp=$(mktemp -d)\npushd \"$tmp\"\ngit init -q && git pull -q \"$src\" fix\npopd\npython3 -m pytest", false},
		{"unpack() { tar xf \"$1\" -C \"$2\"; }\ntmp=$(mktemp -d)\nunpack tests/fx.tar \"$tmp\"", false},
		{"tmp=$(mktemp -d)\ntrap 'rm -rf \"$tmp\"' EXIT\ncd \"$tmp\"\ntar xf \"$OLDPWD/tests/fx.tar\"", false},
		{"(\n  cd \"$(mktemp -d)\"\n  tar xf \"$src/fx.tar\"\n)\npython3 -m pytest", false},
		{"out=build/fx\nmkdir -p \"$out\"\ncp -r tests/fixtures/. \"$out\"", false},
		{"R=$(pwd)\ncd \"$(mktemp -d)\"\ntar xf \"$R/tests/fx.tar\"\ncd \"$R\"\npython3 -m pytest", false},
		{"cd \"$(dirname \"$0\")/..\"\npython3 -m pytest", false},
		{"work=$(mktemp -d)\nfor f in tests/data/*.tar; do tar xf \"$f\" -C \"$work\"; done", false},
		{"cd \"$(mktemp -d)\" || exit\ngit init -q\ngit pull -q \"$src\" main", false},
	} {
		s := ReadScript(c.script)
		got, why := false, ""
		for i := range s.Lines() {
			if w := s.LineWeakens(i, "", nil); w != "" {
				got, why = true, w
				break
			}
		}
		if got != c.weakens {
			t.Errorf("%q: weakens=%v (%s), want %v", c.script, got, why, c.weakens)
		}
		alone := false
		for _, l := range strings.Split(c.script, "\n") {
			if AddedLineWeakens(l, "") != "" {
				alone = true
			}
		}
		if alone != c.weakens {
			misread++
		}
	}
	t.Logf("%d scripts misread when each line is read alone", misread)
}
