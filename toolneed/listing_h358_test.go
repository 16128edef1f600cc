package toolneed

import "testing"

// TestR62H358ListingShapes: honest listings in the shapes tools print
// them (ls -la with permissions, find with paths, Get-ChildItem's table,
// tree, full Windows paths) agree with the folder; so does `ls` of a
// folder whose files sit in subfolders, or whose files have no
// extension, which the rule refused (it counted only names with an
// extension). A made-up name, `total 0` and a listing naming nothing the
// folder holds are still refused.
func TestR62H358ListingShapes(t *testing.T) {
	nested := []string{"pr/Get-PRContext.ps1", "pr/Post-PRComment.ps1", "issue/New-Issue.ps1", "README.md"}
	flat := []string{"Get-PRContext.ps1", "Post-PRComment.ps1", "README.md"}
	noext := []string{"deploy", "build", "Makefile"}
	for _, tt := range []struct {
		name, body string
		entries    []string
		refused    bool
	}{
		{"honest: ls -la", "$ ls -la scripts\ntotal 16\ndrwxr-xr-x 2 dev dev 4096 Dec  7 10:00 .\ndrwxr-xr-x 3 dev dev 4096 Dec  7 10:00 ..\n-rw-r--r-- 1 dev dev  812 Dec  7 10:00 Get-PRContext.ps1\n-rw-r--r-- 1 dev dev  640 Dec  7 10:00 Post-PRComment.ps1\n", flat, false},
		{"honest: find", ".claude/skills/github/scripts/Get-PRContext.ps1\n.claude/skills/github/scripts/README.md\n", flat, false},
		{"honest: Get-ChildItem table", "    Directory: C:\\src\\repo\\.claude\\skills\\github\\scripts\n\nMode                 LastWriteTime         Length Name\n----                 -------------         ------ ----\n-a---          12/7/2026  10:00 AM            812 Get-PRContext.ps1\n", flat, false},
		{"honest: tree", "scripts\n├── issue\n│   └── New-Issue.ps1\n└── pr\n    └── Get-PRContext.ps1\n", nested, false},
		{"honest: full Windows paths", "C:\\repo\\.claude\\skills\\github\\scripts\\pr\\Get-PRContext.ps1\n", nested, false},
		{"honest: ls of a folder holding only subfolders", "$ ls scripts\nissue  pr\n", []string{"pr/Get-PRContext.ps1", "issue/New-Issue.ps1"}, false},
		{"honest: ls -F of the same", "$ ls -F scripts\nissue/  pr/\n", []string{"pr/Get-PRContext.ps1", "issue/New-Issue.ps1"}, false},
		{"honest: files with no extension", "$ ls bin\nbuild  deploy  Makefile\n", noext, false},
		{"lazy: a made-up script", "Get-PRContext.ps1\nMerge-PR.ps1\n", flat, true},
		{"lazy: total 0 of a nested folder", "$ ls -la\ntotal 0\n", nested, true},
		{"lazy: a made-up name with no extension", "$ ls bin\nrelease\n", noext, true},
	} {
		if why := ListingFalse("scripts", tt.body, tt.entries); (why != "") != tt.refused {
			t.Errorf("%s: %q, want refused=%v", tt.name, why, tt.refused)
		}
	}
}
