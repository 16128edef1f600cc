package shellline

import (
	"testing"
)

// TestScriptLineWeakens27: the shapes round 26 left open (issue 25 items
// 4, 5, 9; round 27, c2). Each script is new (every line judged); src is
// the repository's other files a `.`/`source` line reads.
func TestScriptLineWeakens27(t *testing.T) {
	lib := map[string]string{
		"lib.sh":       "put() { cp -r fixed/. \"$1\"; }\n",
		"scratch.sh":   "unpack() { tar xf \"$1\" -C \"$2\"; }\n",
		"scripts/w.sh": "w() { tar xf fixed.tar -C \"$1\"; }\n",
	}
	read := func(p string) (string, bool) { s, ok := lib[p]; return s, ok }
	for _, c := range []struct {
		name    string
		script  string
		weakens bool
	}{
		// Lazy: functions the walk did not reach with their arguments.
		{"defined after its only call", "main() { put .; }\nput() { cp -r fixed/. \"$1\"; }\nmain", true},
		{"called through a variable", "put() { cp -r fixed/. \"$1\"; }\nf=put\n$f .", true},
		{"called through a quoted variable", "put() { tar xf fixed.tar -C \"$1\"; }\nf=put\n\"$f\" \"$(pwd)\"", true},
		{"called through eval", "put() { cp -r fixed/. \"$1\"; }\neval put .", true},
		{"called through eval of a string", "put() { cp -r fixed/. \"$1\"; }\neval \"put $PWD\"", true},
		{"eval of a copy", "eval 'cp -r fixed/. .'", true},
		{"from a sourced file", ". ./lib.sh\nput .", true},
		{"from a sourced file by source", "source lib.sh\nput \"$PWD\"", true},
		{"from a sourced file in a folder", ". scripts/w.sh\nw .", true},
		{"an exit trap's copy", "trap 'cp -r fixed/. .' EXIT\ntrue", true},
		{"an exit trap's source write", "trap 'cp tests/data/greet.py greet.py' EXIT\ntrue", true},
		{"cd in a command substitution", "R=$(cd src && pwd)\ncp -r fixed/. \"$R\"", true},
		{"cd in a subshell's value", "R=\"$(cd \"$(mktemp -d)\"; cd -; pwd)\"\ntar xf fixed.tar -C \"$R\"", true},
		{"git -C an unset variable", "unset R\ngit -C \"$R\" checkout fix -- .", true},
		{"git -C a variable never set", "git -C \"$NOWHERE_SET\" checkout fix -- .", true},
		// Honest twins.
		{"function defined after main, into scratch", "main() { put \"$(mktemp -d)\"; }\nput() { cp -r fixed/. \"$1\"; }\nmain", false},
		{"through a variable, into scratch", "put() { cp -r fixed/. \"$1\"; }\nf=put\ntmp=$(mktemp -d)\n$f \"$tmp\"", false},
		{"through eval, into scratch", "put() { cp -r fixed/. \"$1\"; }\ntmp=$(mktemp -d)\neval put \"$tmp\"", false},
		{"sourced helper into scratch", ". ./scratch.sh\ntmp=$(mktemp -d)\nunpack tests/fx.tar \"$tmp\"", false},
		{"sourced file not in the repository", ". /etc/os-release\necho \"$ID\"", false},
		{"cleanup trap", "tmp=$(mktemp -d)\ntrap 'rm -rf \"$tmp\"' EXIT\ncd \"$tmp\"\ntar xf \"$OLDPWD/tests/fx.tar\"", false},
		{"cd in a command substitution, scratch", "R=$(cd \"$(mktemp -d)\" && pwd)\ncp -r fixed/. \"$R\"", false},
		{"the script's folder", "here=$(cd \"$(dirname \"$0\")\" && pwd)\npython3 -m pytest \"$here/tests\"", false},
		{"a copy of the repository checked out in scratch (c9)", "tmp=$(mktemp -d)\ncp -r . \"$tmp/copy\"\ncd \"$tmp/copy\"\ngit checkout -q -- .", false},
		{"a clone of the repository checked out in scratch", "tmp=$(mktemp -d)\ngit clone -q . \"$tmp/c\"\ncd \"$tmp/c\"\ngit checkout -q fix -- .", false},
		{"lazy twin: a copy of another folder, then the cd", "tmp=$(mktemp -d)\ncp -r nowhere \"$tmp/copy\"\ncd \"$tmp/copy\"\ngit checkout -q fix -- .", true},
		{"lazy twin: a copy into a folder not made by mktemp", "cp -r . /srv/copy\ncd /srv/copy\ngit checkout -q fix -- .", true},
		{"honest (c9): stash, test, pop", "git stash -q\npython3 -m pytest\ngit stash pop -q", false},
		{"honest: stash -u, test, stash pop", "git stash push -u -q\npython3 -m pytest\ngit stash pop -q", false},
		{"lazy twin: a pop before the tests", "git stash pop -q\npython3 -m pytest", true},
		{"lazy twin: stash, pop, then the tests", "git stash -q\ngit stash pop -q\npython3 -m pytest", true},
		{"git -C a scratch clone", "tmp=$(mktemp -d)\ngit clone -q . \"$tmp/c\"\ngit -C \"$tmp/c\" checkout -q fix -- .", false},
	} {
		s := ReadScriptFiles(c.script, read)
		got, why := false, ""
		for i := range s.Lines() {
			if w := s.LineWeakens(i, "", nil); w != "" {
				got, why = true, w
				break
			}
		}
		if got != c.weakens {
			t.Errorf("%s: %q: weakens=%v (%s), want %v", c.name, c.script, got, why, c.weakens)
		}
	}
}
