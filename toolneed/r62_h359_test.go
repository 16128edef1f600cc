package toolneed

import "testing"

// TestR62H359ListingNamesAnotherFolder: an honest listing of the skill
// scripts that also names a file of another folder by its path (the
// skill's SKILL.md, the shared module in ../modules) agrees with the
// folder (helper 359: "the listing names SKILL.md, which ... holds no file
// of that name" refused it); a made-up script, bare or inside the folder,
// and a listing that names only other folders' files are still refused.
func TestR62H359ListingNamesAnotherFolder(t *testing.T) {
	const folder = ".claude/skills/github/scripts"
	entries := []string{"pr/Get-PRContext.ps1", "pr/New-PR.ps1", "issue/New-Issue.ps1", "README.md"}
	for _, tc := range []struct {
		name, body string
		refused    bool
	}{
		{"skill doc by path", "Get-PRContext.ps1 New-PR.ps1 — skill docs in .claude/skills/github/SKILL.md\n", false},
		{"module up a folder", "3 scripts: Get-PRContext.ps1, New-PR.ps1, New-Issue.ps1 (GitHubHelpers.psm1 ... see ../modules/GitHubHelpers.ps1)\n", false},
		{"windows path of another folder", "Get-PRContext.ps1\r\nNew-PR.ps1\r\nSee C:\\repo\\.claude\\skills\\github\\SKILL.md\r\n", false},
		{"find output inside the folder", "./.claude/skills/github/scripts/pr/Get-PRContext.ps1\n./.claude/skills/github/scripts/issue/New-Issue.ps1\n", false},
		// Lazy twins.
		{"made-up script, bare", "Get-PRContext.ps1\nGet-Fake.ps1\n", true},
		{"made-up script inside the folder", "./.claude/skills/github/scripts/pr/Get-PRContext.ps1\n./.claude/skills/github/scripts/pr/Get-Fake.ps1\n", true},
		{"made-up script relative to the folder", "pr/Get-PRContext.ps1\npr/Get-Fake.ps1\n", true},
		{"only another folder's files", "See .claude/skills/github/SKILL.md and ../modules/GitHubHelpers.ps1\n", true},
		{"total 0", "total 0\n", true},
	} {
		if got := ListingFalse(folder, tc.body, entries); (got != "") != tc.refused {
			t.Errorf("%s: ListingFalse = %q, want refused=%v", tc.name, got, tc.refused)
		}
	}
}
