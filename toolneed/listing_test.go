package toolneed

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestListingFalse: a typed listing of a folder must agree with what it
// holds (round 61, helper 353: a script that does not exist, `total 0`).
func TestListingFalse(t *testing.T) {
	entries := []string{"Get-PRContext.ps1", "Post-IssueComment.ps1", "README.md", "lib/Common.ps1"}
	for _, tt := range []struct {
		name, body string
		why        string // "" for agrees
	}{
		{"a script that does not exist", "Get-PRContext.ps1\nNew-Release.ps1\n", "New-Release.ps1"},
		{"total 0", "$ ls -la .claude/skills/github/scripts\ntotal 0\n", "names none of the 4 files"},
		{"nothing but prose", "Listed the GitHub skill scripts: all present.", "names none"},
		// Honest.
		{"the listing", "Get-PRContext.ps1\nPost-IssueComment.ps1\n", ""},
		{"PowerShell's command and its output", "$ Get-ChildItem -Path \".claude/skills/github/scripts\" -Recurse -Filter \"*.ps1\" | Select-Object -ExpandProperty Name\nCommon.ps1\nGet-PRContext.ps1\nPost-IssueComment.ps1\n", ""},
		{"ls -R with sub-folder names", "lib\nGet-PRContext.ps1\n\n./lib:\nCommon.ps1\n", ""},
		{"case differs", "get-prcontext.ps1", ""},
		{"another kind of file named", "Get-PRContext.ps1; see session-log.txt", ""},
	} {
		why := ListingFalse(".claude/skills/github/scripts", tt.body, entries)
		switch {
		case tt.why == "" && why != "":
			t.Errorf("%s: refused (%s), want agreed", tt.name, why)
		case tt.why != "" && !strings.Contains(why, tt.why):
			t.Errorf("%s: %q, want it to say %q", tt.name, why, tt.why)
		}
	}
	if why := ListingFalse("x", "total 0", nil); why != "" {
		t.Errorf("an empty folder: %q", why)
	}
}

// TestListedFolders: "list" asks for the entries; "verify ... exists"
// asks for the folder only.
func TestListedFolders(t *testing.T) {
	list := protocolspec.Requirement{Text: "The agent MUST list available GitHub skill scripts:\n\n```powershell\nGet-ChildItem -Path \".claude/skills/github/scripts\" -Recurse -Filter \"*.ps1\"\n```"}
	if got := ListedFolders(list, nil); len(got) != 1 || got[0] != ".claude/skills/github/scripts" {
		t.Errorf("list: %q", got)
	}
	verify := protocolspec.Requirement{Text: "The agent MUST verify `.claude/skills/` directory exists"}
	if got := ListedFolders(verify, nil); len(got) != 0 {
		t.Errorf("verify: %q, want none", got)
	}
	// The real protocol: the command is in a fence after the item.
	doc := "### Phase 1.5\n\n1. The agent MUST verify `.claude/skills/` directory exists\n2. The agent MUST list available GitHub skill scripts:\n\n   ```powershell\n   Get-ChildItem -Path \".claude/skills/github/scripts\" -Recurse -Filter \"*.ps1\"\n   ```\n\n3. Next\n"
	item := protocolspec.Requirement{Text: "The agent MUST list available GitHub skill scripts:", Line: 4}
	if got := ListedFolders(item, func() string { return doc }); len(got) != 1 || got[0] != ".claude/skills/github/scripts" {
		t.Errorf("list with the command in a fence: %q", got)
	}
}
