package toolneed_test

import (
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
)

func TestRecentLog(t *testing.T) {
	asks := protocolspec.Requirement{Text: "Run git log --oneline -5 to review the recent commits before you change anything."}
	if !toolneed.AsksLog(asks) {
		t.Error("AsksLog: the quoted git log is not seen")
	}
	if toolneed.AsksLog(protocolspec.Requirement{Text: "Keep a log of what you ran with git."}) {
		t.Error("AsksLog: a sentence about a log is no git log to run")
	}
	for line, want := range map[string]bool{
		"git log --oneline -5":                      true,
		"git -C . log -0":                           true,
		"sh -c 'git log --oneline -5 >/dev/null'":   true,
		"env LC_ALL=C git --no-pager log --oneline": true,
		"git branch --show-current":                 false,
		"echo git log --oneline -5":                 false,
		"cat changelog":                             false,
	} {
		if got := toolneed.RunsLog(line); got != want {
			t.Errorf("RunsLog(%q) = %v, want %v", line, got, want)
		}
	}
	for line, want := range map[string]bool{
		"git log --oneline --no-merges -5":      true,
		"git log --max-parents=1 -3":            true,
		"git log --oneline -5":                  false,
		"git log --merges -5":                   false,
		"git log --oneline -5 -- --no-merges":   false,
		"echo --no-merges && git log --oneline": false,
	} {
		if got := toolneed.NoMerges(line); got != want {
			t.Errorf("NoMerges(%q) = %v, want %v", line, got, want)
		}
	}
	const head = "3b30d4f1f666aa0e1c2d3b4a5f60718293a4b5c6"
	for out, want := range map[string]bool{
		"3b30d4f feat(scripts): greet takes a name\n1a2b3c4 chore: init\n": true,
		"commit 3B30D4F1F666AA0E1C2D3B4A5F60718293A4B5C6\n":                true,
		"":                       false,
		"\n\n\n\n\n":             false,
		"9f8e7d6 chore: empty\n": false,
		"3b30 feat(scripts): greet (--abbrev=4)\n": true,
		"3b3 too short\n":                          false,
		"\x1b[33m3b30d4f\x1b[m (\x1b[1;36mHEAD -> \x1b[1;32mfeat\x1b[m) feat: x\n": true,
		"x3b30d4fz\n": false,
	} {
		if got := toolneed.ShowsLog([]byte(out), []toolneed.LogCommit{{SHA: head}}); got != want {
			t.Errorf("ShowsLog(%q, HEAD) = %v, want %v", out, got, want)
		}
	}
	// HEAD and one of its parents, by id or by subject, an entry each.
	two := []toolneed.LogCommit{{SHA: head, Subject: "feat(scripts): greet takes a name"}, {SHA: "1a2b3c4d5e6f", Subject: "chore: init"}}
	for out, want := range map[string]bool{
		"3b30d4f feat(scripts): greet takes a name\n1a2b3c4 chore: init\n":      true,
		"feat(scripts): greet takes a name (t, 2 minutes ago)\nchore: init\n":   true, // HL4: no ids
		"* 3b30d4f (HEAD -> feat) x\n* 1a2b3c4 y\n":                             true,
		"*   commit 3b30d4f\n|\\  Merge: 1a2b3c4 9f9f9f9\n| * commit 1a2b3c4\n": true,
		"commit 3b30d4f1f666\nAuthor: t\n\n    x\n\ncommit 1a2b3c4d\n":          true,
		"3b30d4f\n": false, // L2: --no-walk --format=%h
		"3b30d4f feat(scripts): greet takes a name, after 1a2b3c4\n":                              false, // an id inside the line
		"commit 3b30d4f1f666\nMerge: 1a2b3c4 9f9f9f9\n\n    Merge branch x\n":                     false, // LA6
		"commit 3b30d4f1f666\n\n    Revert \"chore: init\"\n\n    This reverts commit 1a2b3c4.\n": false, // LA7
		"commit 3b30d4f1f666\n\n    1a2b3c4 named in the body\n":                                  false,
		"feat(scripts): greet takes a name\n":                                                     false,
		"chore: init\nchore: init\n":                                                              false,
		"x 3b30d4f\ny 1a2b3c4\n":                                                                  false, // LA1: ids in subjects, not entries
	} {
		if got := toolneed.ShowsLog([]byte(out), two); got != want {
			t.Errorf("ShowsLog(%q, HEAD and parent) = %v, want %v", out, got, want)
		}
	}
	// Round 40's last re-check: honest formats whose ids are not the
	// first word, and lines that show one commit however they print.
	for out, want := range map[string]bool{
		"3b30d4f|feat(scripts): greet takes a name\n1a2b3c4|chore: init\n":            true,
		"[3b30d4f] x\r\n[1a2b3c4] y\r\n":                                              true,
		"> 3b30d4f x\n> 1a2b3c4 y\n":                                                  true,
		"Command: git log --oneline -2\nOutput: 3b30d4f x\n1a2b3c4 y\nExit Code: 0\n": true, // Gemini CLI's report
		"3b30d4f\tx\n- 1a2b3c4 y\n":                                                   true,
		"Agent: feat(scripts): greet takes a name\nAgent: chore: init\n":              true,
		"commit 3b30d4f1f666\n\n    * 1a2b3c4 follow-up\n":                            false, // a body line
		"* commit 3b30d4f1f666\n|     1a2b3c4 in the body\n":                          false,
		"feat(scripts): greet takes a name\nchore: initial\n":                         false, // a longer word
	} {
		if got := toolneed.ShowsLog([]byte(out), two); got != want {
			t.Errorf("ShowsLog(%q, HEAD and parent) = %v, want %v", out, got, want)
		}
	}
	for line, want := range map[string]bool{
		"git log -1 --format=%h%n%p":    true,
		"git log -n 1 --oneline":        true,
		"git log --max-count=1":         true,
		"git log --no-walk --format=%h": true,
		"git log --format=%H%n%P -2":    true,
		"git log --oneline -5":          false,
		"git log --no-walk HEAD HEAD^":  false,
		"git log --oneline -n 5 | cat":  false,
	} {
		if got := toolneed.OneCommit(line) != ""; got != want {
			t.Errorf("OneCommit(%q) = %v, want %v", line, got, want)
		}
	}
	for text, want := range map[string]bool{
		"The agent SHOULD run git log --oneline -1 to note starting commit": true,
		"Run git log -n 1 to see the last commit.":                          true,
		"Run git log --oneline -5 to review the recent commits.":            false,
		"Inspect recent commits with git log, then note -1 in the log.":     false,
		"Run git log --oneline --decorate -1.":                              true,
	} {
		if got := toolneed.QuotesOneCommit(text); got != want {
			t.Errorf("QuotesOneCommit(%q) = %v, want %v", text, got, want)
		}
	}
	same := []toolneed.LogCommit{{SHA: head, Subject: "Update README.md"}, {SHA: "1a2b3c4d5e6f", Subject: "Update README.md"}}
	if toolneed.ShowsLog([]byte("Update README.md\n"), same) || !toolneed.ShowsLog([]byte("Update README.md\nUpdate README.md\n"), same) {
		t.Error("ShowsLog: two commits of one subject need a line each (LA8)")
	}
	for _, c := range []struct {
		line           string
		tips, excluded []string
		other          string
	}{
		{"git log --oneline -5", nil, nil, ""},
		{"git log --oneline -5 scratch", []string{"scratch"}, nil, ""},
		{"git -C . log -n 5 --author alice refs/scratch/x -- README.md", []string{"refs/scratch/x"}, nil, ""},
		{"git log main..", []string{""}, []string{"main"}, ""},
		{"git log origin/main...feat --oneline", []string{"feat"}, []string{"origin/main"}, ""},
		{"git log ^main HEAD", []string{"HEAD"}, []string{"main"}, ""},
		{"git log -1 --not", nil, nil, ""},
		{"git log --oneline --all -2", nil, nil, "--all"},
		{"git log --oneline -5 --glob=refs/scratch/*", nil, nil, "a word the shell expands"},
		{"git log --oneline -5 --glob=refs/scratch/x", nil, nil, "--glob"},
		{"git log --oneline -5 --end-of-options -x", nil, nil, "--end-of-options"},
		{"sh -c 'git log --oneline -5 --stdin < revs'", nil, nil, "--stdin"},
		{"cd x && git log --grep fix -5 | head", nil, nil, ""},
	} {
		tips, ex, other := toolneed.LogRevs(c.line)
		if !slices.Equal(tips, c.tips) || !slices.Equal(ex, c.excluded) || other != c.other {
			t.Errorf("LogRevs(%q) = %q, %q, %q; want %q, %q, %q", c.line, tips, ex, other, c.tips, c.excluded, c.other)
		}
	}
	for line, want := range map[string]bool{
		"git log --oneline -5":                                  true,
		"git log --oneline -5 | head -20":                       true,
		"cd /repo && git --no-pager log -5":                     true,
		"git log --oneline -0 && git rev-parse --short HEAD":    false,
		"sh -c 'git log --oneline -5 >/dev/null; echo 3b30d4f'": false,
		"git log -1; git log -1":                                false,
		"git log --oneline -5 | cat notes.txt":                  false,
	} {
		if got := toolneed.LogAlone(line); got != want {
			t.Errorf("LogAlone(%q) = %v, want %v", line, got, want)
		}
	}
}
