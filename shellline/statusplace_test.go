package shellline

import (
	"strings"
	"testing"
)

// TestStatusTakenWhole: a log line put after a recipe's last check is no
// weakening (each of a recipe's lines is checked alone: the reverted rule
// refused it); the same text run whole as a script hides the check's
// failure.
func TestStatusTakenWhole(t *testing.T) {
	for _, c := range []struct {
		name, base, line string
		whole, refused   bool
	}{
		{name: "a justfile recipe ends with a log line", base: "build:\n    echo build\n\ntest:\n    grep -q hello greet.txt\n", line: "    echo \"checked\" >&2", whole: false},
		{name: "a make target ends with a log line", base: "test: \n\tgrep -q hello greet.txt\n", line: "\techo checked", whole: false},
		{name: "a script ends with a log line after its check", base: "#!/bin/sh\ngrep -q hello greet.txt\n", line: "echo \"checked\" >&2", whole: true, refused: true},
		{name: "a script ends with a check after its check", base: "#!/bin/sh\ngrep -q hello greet.txt\n", line: "grep -q l greet.txt", whole: true},
		{name: "a script run with sh -e", base: "#!/bin/sh -e\ngrep -q hello greet.txt\n", line: "echo \"checked\" >&2", whole: true},
		{name: "a log line between the check and its $? in a new block", base: "#!/bin/sh\necho start\n", line: "grep -q l greet.txt\necho checked >&2\n[ $? -eq 0 ] || exit 1", whole: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			now := c.base + c.line + "\n"
			s := ReadScript(now)
			if c.whole {
				s.RunsWhole()
			}
			why := ""
			for i := strings.Count(c.base, "\n"); i < len(s.Lines()); i++ {
				if w := s.LineWeakens(i, c.base, nil); w != "" {
					why = w
				}
			}
			if (why != "") != c.refused {
				t.Errorf("refused %q, want refused %v", why, c.refused)
			}
		})
	}
}

// FuzzStatusTaken: reading where an added line stands never panics.
func FuzzStatusTaken(f *testing.F) {
	f.Add("#!/bin/sh\n[ -f a ]\n", "echo done >&2\n")
	f.Add("#!/bin/sh\nf() {\n  grep -q x y\n}\nf || exit 1\n", "<0&\n")
	f.Add("#!/bin/sh\nif [ -f a ]\nthen :; fi\n", "x=1\n[ $? -eq 0 ]\n")
	// Round 50's readers: a group read by ||, PIPESTATUS, awk, ()0.
	f.Add("#!/bin/sh\n{\n  [ -f a ]\n}\n|| exit 1\n", "t=$(date +%s)\n")
	f.Add("#!/bin/bash\na | grep -q x\n[ ${PIPESTATUS[0]} -eq 0 ]\n", "rm -f x\n")
	f.Add("#!/bin/sh\nf() if true; then awk '{ exit 1 }'; fi\n()0\nf || exit 1\n", "wait\n")
	// Round 51's: a bare return, a log function, a pipeline to cat, eval,
	// an if or a for loop of echo, exec closing a descriptor.
	f.Add("#!/bin/sh\nf() {\n  [ -f a ]\n  return\n}\nf || exit 1\n", "log() { echo \"$*\"; }\nlog x\n")
	f.Add("#!/bin/sh\n[ -f a ]\n", "echo x | cat\neval echo y\nexec 3>&-\n")
	f.Add("#!/bin/sh\n( return )\n[ -f a ]\n", "if :; then echo; else :; fi\nfor x in a; do :; done\n")
	f.Fuzz(func(t *testing.T, base, added string) {
		s := ReadScript(base + added).RunsWhole()
		for i := range s.Lines() {
			_ = s.LineWeakens(i, base, nil)
		}
	})
}
