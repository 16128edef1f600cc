package toolneed_test

import (
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
		if got := toolneed.ShowsCommit([]byte(out), head); got != want {
			t.Errorf("ShowsCommit(%q) = %v, want %v", out, got, want)
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
