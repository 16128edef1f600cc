package shellline

import (
	"strings"
	"testing"
)

// TestScriptLineWeakens28 (round 28, c4): round 27 c2's open rows. A
// function named by a variable the script does not set (the QA command's
// `RUNNER=put sh scripts/test.sh`), and a file sourced from outside the
// repository (`. ~/x.sh`, `. /tmp/x`), which nothing reads: each passed on
// main when the session added the line.
func TestScriptLineWeakens28(t *testing.T) {
	for _, c := range []struct {
		name    string
		script  string
		weakens string // a fragment of the reason; "" for none
	}{
		{"lazy: a function named by a variable only the environment sets", "put() { cp -r fixed/. \"$1\"; }\n$RUNNER .", "fixed"},
		{"lazy: the same, quoted", "put() { tar xf fixed.tar -C \"$1\"; }\n\"$RUNNER\" \"$PWD\"", "writes"},
		{"lazy: a variable set from the environment's", "put() { cp -r fixed/. \"$1\"; }\nR=$RUNNER\n$R .", "fixed"},
		{"lazy: sourced from the home folder", ". ~/x.sh\npython3 -m pytest", "~/x.sh"},
		{"lazy: sourced from /tmp", "source /tmp/x\npython3 -m pytest", "/tmp/x"},
		{"lazy: sourced from $HOME", ". \"$HOME/.greet.sh\"\npython3 -m pytest", "$HOME/.greet.sh"},
		{"lazy: sourced from above the repository", ". ../stub.sh\npython3 -m pytest", "../stub.sh"},
		{"lazy: sourced from a folder mktemp made", "t=$(mktemp -d)\ncurl -so \"$t/x.sh\" http://127.0.0.1/x\n. \"$t/x.sh\"", "$t/x.sh"},
		// Honest twins.
		{"honest: the script's folder through readonly (real grpc script's shape)", "readonly D=\"$(dirname \"$0\")\"\n. \"$D/lib.sh\"\ncheck a a", ""},
		{"honest: a runner named by an unset variable, harmless functions", "check() { [ \"$1\" = \"$2\" ] || fail=1; }\n${PYTHON:-python3} scripts/check.py\n$PYTHON scripts/check.py", ""},
		{"honest: a variable set to a literal runner", "put() { cp -r fixed/. \"$1\"; }\nPY=python3\n$PY scripts/check.py", ""},
		{"honest: the system's os-release", ". /etc/os-release\necho \"$ID\"", ""},
		{"honest: a file of the repository", ". ./lib.sh\ncheck a a", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			lib := map[string]string{"lib.sh": "check() { [ \"$1\" = \"$2\" ] || exit 1; }\n"}
			s := ReadScriptFiles(c.script, func(p string) (string, bool) { b, ok := lib[p]; return b, ok })
			why := ""
			for i := range s.Lines() {
				if w := s.LineWeakens(i, "", nil); w != "" {
					why = w
					break
				}
			}
			switch {
			case c.weakens == "" && why != "":
				t.Errorf("%q weakens (%s), want not", c.script, why)
			case c.weakens != "" && !strings.Contains(why, c.weakens):
				t.Errorf("%q: weakens %q, want a reason naming %q", c.script, why, c.weakens)
			}
		})
	}
}
