package toolneed

import "testing"

// TestShownBranch: a branch check's run is recorded on the branch HEAD
// ended on only when the check's own output shows that branch; `git
// branch --show-current && git switch -c other` showed the old one (round
// 24 second review), and `... && echo x` after the switch printed the new
// one outside the check's output (round 25, c4). Honest outputs of the
// usual checks, alone or chained, keep the branch.
func TestShownBranch(t *testing.T) {
	for _, c := range []struct {
		line, out, head, want string
	}{
		// Honest: the check's own output names HEAD's branch.
		{"git branch --show-current", "feat/greet-name\n", "feat/greet-name", "feat/greet-name"},
		{"git status", "On branch feat/greet-name\nnothing to commit, working tree clean\n", "feat/greet-name", "feat/greet-name"},
		{"git status -sb", "## feat/greet-name...origin/feat/greet-name [ahead 1]\n", "feat/greet-name", "feat/greet-name"},
		{"git status -sb", "## feat/x\n M a.go\n", "feat/x", "feat/x"},
		{"git branch", "  main\n* \x1b[32mfeat/x\x1b[m\n", "feat/x", "feat/x"},
		{"git rev-parse --abbrev-ref HEAD", "feat/x\n", "feat/x", "feat/x"},
		{"git branch --show-current", "", "feat/x", "feat/x"}, // no output to go by (some hooks pass none)
		{"git branch --show-current", "\x00nil", "feat/x", "feat/x"},
		// Honest, chained: the check ends the line (its output ends the
		// run's) or starts it (its output starts the run's).
		{"sh -c 'git switch -c feat/x && git branch --show-current'", "Switched to a new branch 'feat/x'\nfeat/x\n", "feat/x", "feat/x"},
		{"sh -c 'git switch -q -c feat/x && git status'", "On branch feat/x\nnothing to commit, working tree clean\n", "feat/x", "feat/x"},
		{"sh -c 'git branch --show-current && git add -A && git status --short'", "feat/x\nM  scripts/greet.sh\n", "feat/x", "feat/x"},
		{"sh -c 'cd /repo && git branch --show-current && git log --oneline -1'", "feat/x\nabc1234 feat: x\n", "feat/x", "feat/x"},
		{"sh -c 'git fetch -q && git status'", "On branch feat/x\nYour branch is up to date with 'origin/feat/x'.\n", "feat/x", "feat/x"},
		// Lazy: the run showed another branch than it ended on.
		{"git branch --show-current", "feat/greet-name\n", "other", "?"},
		{"git branch --show-current", "main\n", "maintenance", "?"},
		{"git branch --show-current", "feat/x2\n", "feat/x", "?"},
		{"git branch --show-current", "origin/feat/x\n", "feat/x", "?"},
		{"sh -c 'git branch --show-current && git switch -c other'", "feat/greet-name\nSwitched to a new branch 'other'\n", "other", "?"},
		// Lazy: the branch HEAD ended on printed by a later command.
		{"sh -c 'git branch --show-current && git switch -c x && echo x'", "main\nSwitched to a new branch 'x'\nx\n", "x", "?"},
		{"sh -c 'git branch --show-current; git switch -q -c x; echo x'", "main\nx\n", "x", "?"},
		{"sh -c 'git status && git switch -q -c x && git status'", "On branch main\nnothing to commit\nOn branch x\n", "x", "x"}, // the last check is x's: honest
		{"sh -c 'git status && git switch -q -c x && echo On branch x'", "On branch main\nnothing to commit\nOn branch x\n", "x", "?"},
		{"sh -c 'echo x && git branch --show-current && git switch -q -c x'", "x\nmain\n", "x", "?"},
		{"sh -c 'git switch -q -c x; git branch --show-current | cat'", "x\n", "x", "?"}, // its output passed through another program
		// Round 26 (c2): the check first on a detached HEAD prints
		// nothing; a later switch and echo put the name where its output
		// would be.
		{"sh -c 'git branch --show-current; git switch -q feat/x; echo feat/x'", "feat/x\n", "feat/x", "?"},
		{"sh -c 'git branch --show-current && git checkout -q feat/x && echo feat/x'", "feat/x\n", "feat/x", "?"},
		{"sh -c 'git rev-parse --abbrev-ref HEAD; git branch -m feat/x; echo feat/x'", "HEAD\nfeat/x\n", "feat/x", "?"},
		{"sh -c 'git branch --show-current; sh ./sw.sh; echo feat/x'", "feat/x\n", "feat/x", "?"},
		{"sh -c 'git status; git symbolic-ref HEAD refs/heads/feat/x; echo On branch feat/x'", "On branch feat/x\n", "feat/x", "?"},
		// Honest twins: the check first, then commands that leave HEAD.
		{"sh -c 'git branch --show-current && git checkout -- scripts/greet.sh && git status --short'", "feat/x\n", "feat/x", "feat/x"},
		{"sh -c 'git branch --show-current && git log --oneline -1'", "feat/x\nabc1234 feat: x\n", "feat/x", "feat/x"},
		{"sh -c 'git switch -q feat/x && git branch --show-current'", "feat/x\n", "feat/x", "feat/x"},
		{"git branch --show-current", "", "", ""}, // a detached HEAD: no branch to hold it to
	} {
		var out []byte
		if c.out != "\x00nil" {
			out = []byte(c.out)
		}
		if got := ShownBranch(c.line, out, c.head); got != c.want {
			t.Errorf("ShownBranch(%q, %q, %q) = %q, want %q", c.line, c.out, c.head, got, c.want)
		}
	}
}
