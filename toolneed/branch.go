package toolneed

import (
	"strings"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// A requirement such as v3.0's "Re-verify the branch before commit" names
// no command, so a shell run of `git branch --show-current` seen by the
// agent hooks met nothing: it was filed under the start phase whose text
// quotes that command, and the honest agent was blocked at the end with
// a manual claim as the only way on (field pass, real Claude Code).

// asksBranchCheck reports a requirement that asks to check the branch:
// a verb of checking (verify, check, confirm; re- forms) whose object, a
// few words on in the same sentence, is the branch ("Re-verify the branch
// before commit", "Confirm you are on a feature branch"). "Check out a
// feature branch" switches branches, it checks none; "Verify the tests
// pass before you push the branch" checks the tests (round 28's final
// review: the first sent an honest agent to `git branch --show-current`).
func asksBranchCheck(text string) bool {
	t := strings.ToLower(text)
	if !strings.Contains(t, "branch") {
		return false
	}
	if strings.Contains(t, "branch check") || strings.Contains(t, "branch verification") {
		return true
	}
	for _, sentence := range strings.FieldsFunc(t, func(r rune) bool { return strings.ContainsRune(".;!?\n", r) }) {
		w := strings.Fields(strings.Map(func(r rune) rune {
			if r == '`' || r == ',' || r == ':' || r == '(' || r == ')' || r == '"' || r == '*' {
				return ' '
			}
			return r
		}, sentence))
		for i, v := range w {
			if !checkVerb(strings.TrimPrefix(strings.TrimPrefix(v, "re-"), "re")) {
				continue
			}
			if rest := w[i+1:]; len(rest) > 0 && rest[0] == "out" || len(rest) > 1 && rest[1] == "out" {
				continue // "check out", "check it out"
			}
			// The object: the branch, before what names another one
			// (the tests, the build).
			for _, o := range w[i+1 : min(len(w), i+9)] {
				if o == "branch" || o == "branches" {
					return true
				}
				if strings.HasPrefix(o, "test") || strings.HasPrefix(o, "build") || strings.HasPrefix(o, "lint") || o == "pass" || o == "passes" {
					break
				}
			}
		}
	}
	return false
}

// checkVerb: a verb of checking, in the forms protocols use.
func checkVerb(v string) bool {
	switch v {
	case "verify", "verified", "verifies", "check", "checks", "checked", "confirm", "confirms", "confirmed":
		return true
	}
	return false
}

// showsBranch reports a command line that prints the current branch and
// does nothing else: one git command, no pipes or chains.
func showsBranch(line string) bool {
	if strings.ContainsAny(line, "|;&<>`$\n") {
		return false
	}
	w := strings.Fields(line)
	if len(w) < 2 || w[0] != "git" {
		return false
	}
	switch strings.Join(w[1:], " ") {
	case "branch --show-current", "branch", "rev-parse --abbrev-ref HEAD", "symbolic-ref --short HEAD",
		"status", "status -sb", "status -b", "status --short --branch", "status -s -b":
		return true
	}
	return false
}

// AsksBranchCheck reports a requirement that asks to check the branch
// (whatever run is bound to it).
func AsksBranchCheck(r protocolspec.Requirement) bool { return asksBranchCheck(r.Text) }

// BranchCheck reports a run that meets a branch-check requirement.
func BranchCheck(r protocolspec.Requirement, cmd string) bool {
	return asksBranchCheck(r.Text) && showsBranch(strings.TrimSpace(cmd))
}

// BranchRunOwed reports a requirement about the branch that only a run
// can meet: one that asks to check the branch ("Re-verify the branch
// before commit") or to run a command that prints it ("Run `git branch
// --show-current`"). A typed tool_output ("feat/x") is the agent's word
// for what git would have printed, and v3.0's evidence table accepts git
// status, log or a pull request for git operations, not a note (lazy pass
// 28: both branch checks met by typing the branch's name).
func BranchRunOwed(r protocolspec.Requirement) bool {
	if asksBranchCheck(r.Text) {
		return true
	}
	if Of(r) != Run {
		return false
	}
	// The parsed text has lost its backticks ("Run git branch
	// --show-current."): look for the words of a command that prints the
	// branch alone. "Run `git status` to see the state" is about more than
	// the branch, and a note of what it showed still counts there.
	t := " " + strings.Join(strings.Fields(strings.NewReplacer("`", " ", ".", " ", ",", " ", ";", " ").Replace(r.Text)), " ") + " "
	for _, c := range []string{"git branch --show-current", "git rev-parse --abbrev-ref HEAD", "git symbolic-ref --short HEAD"} {
		if strings.Contains(t, " "+c+" ") {
			return true
		}
	}
	return false
}
