package toolneed

import (
	"os/exec"
	"testing"
)

// TestPathCheckExitsZeroWithoutThePath: a run meets "verify
// `.claude/skills/` directory exists" only when its exit 0 says the path
// is there. On c4's first rule any exit-0 line of ls, test, stat, find or
// tree with the path among its words met it, and each lazy line below
// exits 0 with no .claude/skills at all (run here in an empty folder with
// sh): a string test, a negated one, an or, the path as an option's value
// (`ls -I`, `stat -c`), a find expression rather than a starting point
// (round 25 review). Honest twins fail when the folder is missing, so
// their exit 0 is the check.
func TestPathCheckExitsZeroWithoutThePath(t *testing.T) {
	verify := v1222Skill(t, "verify")
	dir := t.TempDir()
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"test -n .claude/skills", false},
		{"test .claude/skills", false},
		{"[ .claude/skills ]", false},
		{"test ! -d .claude/skills", false},
		{"test -d .claude/skills -o -d .", false},
		{"[ -d .claude/skills -o -d . ]", false},
		{"ls -I .claude/skills", false},
		{"ls --ignore .claude/skills", false},
		{"stat -c .claude/skills .", false},
		{"stat --printf .claude/skills .", false},
		{"find . -path .claude/skills", false},
		{"find . -name .claude/skills", false},
		{"find . -maxdepth 0 -o -path .claude/skills", false},
		// Honest twins: each fails in a folder without the path.
		{"ls -d .claude/skills/", true},
		{"ls -la .claude/skills", true},
		{"test -d .claude/skills", true},
		{"[ -d .claude/skills ]", true},
		{"test -e .claude/skills/", true},
		{"stat .claude/skills", true},
		{"stat -c %n .claude/skills", true},
		{"find .claude/skills -maxdepth 1", true},
		{"find .claude/skills -name '*.md'", true},
	} {
		if got := PathCheck(verify, c.cmd); got != c.want {
			t.Errorf("PathCheck(%q) = %v, want %v", c.cmd, got, c.want)
		}
		cmd := exec.Command("sh", "-c", c.cmd)
		cmd.Dir = dir
		err := cmd.Run()
		if !c.want && err != nil {
			t.Errorf("%q exits %v without the path: not a lazy row (want exit 0)", c.cmd, err)
		}
		if c.want && err == nil {
			t.Errorf("%q exits 0 without the path: its exit says nothing", c.cmd)
		}
	}
}
