package toolneed

import (
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

func TestBranchCheckFor(t *testing.T) {
	reverify := protocolspec.Requirement{Text: "Re-verify the branch before commit."}
	commit := protocolspec.Requirement{Text: "Commit all changes."}
	tests := []struct {
		req  protocolspec.Requirement
		cmd  string
		want bool
	}{
		{reverify, "git branch --show-current", true},
		{reverify, "git status", true},
		{reverify, "git rev-parse --abbrev-ref HEAD", true},
		// What shows no branch, or does more than show it.
		{reverify, "git branch -D main", false},
		{reverify, "git status; git push --force", false},
		{reverify, "git branch --show-current | grep -v main || git switch -c x", false},
		{reverify, "echo branch verified", false},
		{reverify, "true", false},
		{commit, "git branch --show-current", false},
	}
	for _, tc := range tests {
		if got := BranchCheck(tc.req, tc.cmd); got != tc.want {
			t.Errorf("BranchCheck(%q, %q) = %v, want %v", tc.req.Text, tc.cmd, got, tc.want)
		}
	}
}

func TestBranchRunOwed(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Re-verify the branch before commit.", true},
		{"Run `git branch --show-current`.", true},
		{"Run git branch --show-current. Do not work on main.", true},
		{"Run git branch --list to see old branches.", false},
		{"Run `git rev-parse --abbrev-ref HEAD`.", true},
		// About more than the branch: a note of what it showed counts.
		{"The agent MUST run `git status` to see the state.", false},
		// Requirements a note may answer.
		{"Do not work on `main`.", false},
		{"Read the issue or task you were given.", false},
		{"Run `npm test`.", false},
		{"Commit all changes.", false},
		// "Check out" switches to a branch; it is no check of the current
		// one, and a note of the switch still counts (round 28's final
		// review: the honest agent told "Check out a feature branch" was
		// sent to `git branch --show-current`).
		{"Check out a feature branch.", false},
		{"Checkout a new branch for the work.", false},
		{"Create a feature branch and check it out.", false},
		{"Verify the tests pass before you push the branch.", false},
		// Words that name a check of the current branch still bind.
		{"Check out a feature branch, then confirm you are on it with `git branch --show-current`.", true},
		{"Check which branch you are on.", true},
		{"Confirm the current branch is not main.", true},
		{"Re-check the branch before you commit.", true},
		{"Verify you are on a feature branch.", true},
		{"Branch check: do not work on main.", true},
	} {
		if got := BranchRunOwed(protocolspec.Requirement{Text: tc.text}); got != tc.want {
			t.Errorf("BranchRunOwed(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
