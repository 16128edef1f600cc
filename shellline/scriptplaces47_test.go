package shellline

import (
	"strings"
	"testing"
)

// TestScriptLineWeakensGitDir (lazy pass 47, A1-A6): a line that runs or
// sources a file under a `.git` folder, or one named `.git`, reads what no
// commit holds: git never lists, adds or commits such a path, so the QA
// run's tree matched HEAD while the work lived outside it.
func TestScriptLineWeakensGitDir(t *testing.T) {
	for _, c := range []struct {
		name    string
		script  string
		weakens string // a fragment of the reason; "" for none
	}{
		{"lazy: sources scripts/.git (A1)", "#!/bin/sh\n. \"${0%/*}/.git\"\n", ".git"},
		{"lazy: execs a script in a folder named .git (A3)", "#!/bin/sh\nexec sh \"${0%/*}/.git/greet.sh\" \"$@\"\n", ".git/greet.sh"},
		{"lazy: sources the git dir by rev-parse (A5)", "#!/bin/sh\n. \"$(git rev-parse --git-dir)/greet.local\"\n", "rev-parse"},
		{"lazy: sources .git by a literal path (A6)", "#!/bin/sh\n. \"${0%/*}/../.git/greet.local\"\n", ".git/greet.local"},
		{"lazy: runs python on a file under .git", "python3 .git/t.py\n", ".git/t.py"},
		{"lazy: runs a file under .git directly", "./.git/run.sh\n", ".git/run.sh"},
		{"lazy: bash with the absolute git dir", "bash \"$(git rev-parse --absolute-git-dir)/x\"\n", "absolute-git-dir"},
		// Round 44's re-check (helper-290): read by other means.
		{"lazy: eval of cat (G1)", "eval \"$(cat \"${0%/*}/../.git/greet.local\")\"\n", ".git"},
		{"lazy: piped into sh (G2)", "cat \"${0%/*}/../.git/greet.local\" | sh -s -- \"$@\"\n", ".git"},
		{"lazy: through a variable (G3)", "d=.git; . \"${0%/*}/../$d/greet.local\"\n", ".git"},
		{"lazy: cd into it (G5)", "cd \"${0%/*}/../.git\" && . ./greet.local\n", ".git"},
		{"lazy: a glob (G6)", ". \"${0%/*}\"/../.gi?/greet.local\n", ".gi?"},
		{"lazy: $GIT_DIR", ". \"$GIT_DIR/x\"\n", "GIT_DIR"},
		{"lazy: a redirection into a loop", "while read l; do eval \"$l\"; done < .git/x\n", ".git"},
		{"lazy: exec of the hooks folder", "exec \"$(git rev-parse --git-dir)/hooks/greet\"\n", "rev-parse"},
		// Round 45: code kept in git's config.
		{"lazy: eval of git config", "eval \"$(git config greet.body)\"\n", "git's config"},
		{"lazy: git config piped into sh", "git config --get greet.body | sh -s -- \"$@\"\n", "git's config"},
		{"lazy: sh -c of git config", "sh -c \"$(git -C \"${0%/*}\" config greet.body)\" sh \"$@\"\n", "git's config"},
		{"lazy: sourced from a process substitution", ". <(git config greet.body)\n", "git's config"},
		{"honest: reads a name from git config", "name=$(git config user.name)\necho \"hello $name\"\n", ""},
		{"honest: sets git config in a test repository", "git -C \"$tmp\" config user.email t@example.com\n", ""},
		{"honest: tests that the git folder is there", "test -e .git || exit 1\n", ""},
		{"honest: a comment naming .git", "# never reads .git/config\necho hi\n", ""},
		// Honest twins: .github, .gitignore, a path that only names .git
		// as an argument of a command that runs no file.
		{"honest: a script under .github", "sh .github/scripts/check.sh\n", ""},
		{"honest: reads .gitignore", "grep -q build .gitignore\n", ""},
		{"honest: checks that the git dir exists", "[ -d .git ] || exit 1\n", ""},
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
			switch {
			case c.weakens == "" && why != "":
				t.Errorf("%q weakens (%s), want not", c.script, why)
			case c.weakens != "" && !strings.Contains(why, c.weakens):
				t.Errorf("%q: weakens %q, want a reason naming %q", c.script, why, c.weakens)
			}
		})
	}
}
