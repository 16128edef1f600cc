package session

import "testing"

// TestShownBranch: a branch check's run is recorded on the branch HEAD
// ended on only when its output shows that branch; `git branch
// --show-current && git switch -c other` showed the old one (round 24
// second review). Honest outputs of the usual checks keep the branch.
func TestShownBranch(t *testing.T) {
	for _, c := range []struct {
		out, head, want string
	}{
		// Honest: the check's own output names HEAD's branch.
		{"feat/greet-name\n", "feat/greet-name", "feat/greet-name"},
		{"On branch feat/greet-name\nnothing to commit, working tree clean\n", "feat/greet-name", "feat/greet-name"},
		{"## feat/greet-name...origin/feat/greet-name [ahead 1]\n", "feat/greet-name", "feat/greet-name"},
		{"  main\n* \x1b[32mfeat/x\x1b[m\n", "feat/x", "feat/x"},
		{"feat/x\n", "feat/x", "feat/x"},
		{"", "feat/x", "feat/x"}, // no output to go by (some hooks pass none)
		// The hook passed no output: nothing to go by, HEAD kept.
		{"\x00nil", "feat/x", "feat/x"},
		// Lazy: the run showed another branch than it ended on.
		{"feat/greet-name\n", "other", "?"},
		{"main\n", "maintenance", "?"},
		{"feat/x2\n", "feat/x", "?"},
		{"origin/feat/x\n", "feat/x", "?"},
	} {
		var out []byte
		if c.out != "\x00nil" {
			out = []byte(c.out)
		}
		if got := shownBranch(out, c.head); got != c.want {
			t.Errorf("shownBranch(%q, %q) = %q, want %q", c.out, c.head, got, c.want)
		}
	}
}
