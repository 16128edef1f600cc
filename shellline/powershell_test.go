package shellline

import (
	"encoding/base64"
	"reflect"
	"testing"
	"unicode/utf16"
)

func encodePS(s string) string {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c), byte(c>>8)
	}
	return base64.StdEncoding.EncodeToString(b)
}

func TestPowerShellWrites(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		// Reads and runs that write nothing: an honest agent's lines.
		{"Get-Content SESSION-PROTOCOL.md", nil},
		{"Get-ChildItem -Recurse src | Select-String TODO", nil},
		{"go test ./... 2>&1 | Tee-Object -Variable out", nil},
		{"npm test *> $null", nil},
		{"git status > NUL", nil},
		{"Test-Path .\\sessiongate.yaml", nil},
		{"Copy-Item SESSION-PROTOCOL.md -Destination $env:TEMP\\p.md", nil},
		// Redirections.
		{"echo weaker > SESSION-PROTOCOL.md", []string{"SESSION-PROTOCOL.md"}},
		{"'x' >> .\\notes.md", []string{"notes.md"}},
		{"go test ./... 2> err.txt", []string{"err.txt"}},
		{"go test ./... *>log.txt", []string{"log.txt"}},
		{"echo x>out.txt", []string{"out.txt"}},
		{"go vet 2>&1 > out.txt", []string{"out.txt"}},
		// The cmdlets and their aliases, positional and named.
		{"Set-Content -Path SESSION-PROTOCOL.md -Value 'MAY'", []string{"SESSION-PROTOCOL.md"}},
		{"Set-Content SESSION-PROTOCOL.md 'MAY'", []string{"SESSION-PROTOCOL.md"}},
		{"sc -Value x -Path:sessiongate.yaml", []string{"sessiongate.yaml"}},
		{"set-content -pa .claude\\settings.json -va '{}'", []string{".claude/settings.json"}},
		{"Add-Content -Path notes.md -Value x -NoNewline", []string{"notes.md"}},
		{"ac notes.md x", []string{"notes.md"}},
		{"'x' | Out-File -FilePath p.md -Append", []string{"p.md"}},
		{"'x' | Out-File p.md", []string{"p.md"}},
		{"'{}' | Tee-Object .mcp.json", []string{".mcp.json"}},
		{"Clear-Content sessiongate.yaml", []string{"sessiongate.yaml"}},
		{"New-Item -ItemType File -Path src\\a.go -Force", []string{"src/a.go"}},
		{"ni x.txt", []string{"x.txt"}},
		{"New-Item -Path .claude -Name settings.json -Value '{}'", []string{".claude/settings.json"}},
		{"Remove-Item -Recurse -Force .claude", []string{".claude"}},
		{"Remove-Item a.txt, 'b c.txt'", []string{"a.txt", "b c.txt"}},
		{"ri -LiteralPath SESSION-PROTOCOL.md", []string{"SESSION-PROTOCOL.md"}},
		{"rm -rf build", []string{"build"}},
		{"del .git\\hooks\\pre-commit", []string{".git/hooks/pre-commit"}},
		{"Move-Item a.md SESSION-PROTOCOL.md -Force", []string{"a.md", "SESSION-PROTOCOL.md"}},
		{"mv -Destination p.md -Path q.md", []string{"q.md", "p.md"}},
		{"move old.md new.md", []string{"old.md", "new.md"}},
		{"Copy-Item evil.md SESSION-PROTOCOL.md", []string{"SESSION-PROTOCOL.md"}},
		{"copy evil.md -Destination sessiongate.yaml", []string{"sessiongate.yaml"}},
		{"cp -r a b", []string{"b"}},
		{"Rename-Item docs\\old.md new.md", []string{"docs/old.md", "docs/new.md"}},
		{"ren SESSION-PROTOCOL.md x.md", []string{"SESSION-PROTOCOL.md", "x.md"}},
		// Set-Location moves relative paths.
		{"cd .claude; Set-Content settings.json '{}'", []string{".claude/settings.json"}},
		{"Set-Location C:\\repo\\.claude; sc settings.json x", []string{"C:/repo/.claude/settings.json"}},
		// What Start-Process, &, -Command and Invoke-Expression run.
		{"Start-Process -FilePath sed -ArgumentList '-i','s/a/b/','p.md' -Wait", []string{"p.md"}},
		{"Start-Process git -RedirectStandardOutput log.txt", []string{"log.txt"}},
		{"& 'C:\\Program Files\\Git\\usr\\bin\\tee.exe' p.md", []string{"p.md"}},
		{"& sed -i s/MUST/MAY/ SESSION-PROTOCOL.md", []string{"SESSION-PROTOCOL.md"}},
		{`powershell -NoProfile -Command "Set-Content p.md x"`, []string{"p.md"}},
		{`pwsh -c 'Remove-Item sessiongate.yaml'`, []string{"sessiongate.yaml"}},
		{"powershell -EncodedCommand " + encodePS("Set-Content SESSION-PROTOCOL.md weak"), []string{"SESSION-PROTOCOL.md"}},
		{`Invoke-Expression "Remove-Item .mcp.json"`, []string{".mcp.json"}},
		{`iex 'echo x > p.md'`, []string{"p.md"}},
		{`cmd /c "echo x > p.md"`, []string{"p.md"}},
		{`bash -c 'echo x > p.md'`, []string{"p.md"}},
		{`Write-Host "$(Remove-Item p.md)"`, []string{"p.md"}},
		{"if (Test-Path x) { Remove-Item x }", []string{"x"}},
		{"Get-ChildItem | ForEach-Object { Set-Content -Path out.txt -Value $_ }", []string{"out.txt"}},
		// Quoting and escapes.
		{"Set-Content 'it''s.md' x", []string{"it's.md"}},
		{"Set-Content \"a`\"b.md\" x", []string{`a"b.md`}},
		{"Set-Content p.md `\n  -Value x", []string{"p.md"}},
		{"# Set-Content p.md x", nil},
		{"<# Remove-Item p.md #> Get-Date", nil},
		// Unknown values are skipped, as in sh.
		{"Set-Content -Path $f -Value x", nil},
		{"Set-Content \"$env:USERPROFILE\\x\" y", nil},
		{"Remove-Item (Join-Path . p.md)", nil},
	}
	for _, tc := range tests {
		got, ok := PowerShellWrites(tc.line)
		if !ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("PowerShellWrites(%q) = %q, %v; want %q", tc.line, got, ok, tc.want)
		}
	}
	for _, bad := range []string{"Set-Content 'p.md x", `echo "unterminated`, "<# never closed"} {
		if _, ok := PowerShellWrites(bad); ok {
			t.Errorf("PowerShellWrites(%q) read an unterminated line", bad)
		}
	}
}

func TestPowerShellCalls(t *testing.T) {
	tests := []struct {
		line string
		want [][]string
	}{
		{"go test ./...", [][]string{{"go", "test", "./..."}}},
		{"cd web; npm test", [][]string{{"cd", "web"}, {"npm", "test"}}},
		{"& 'git' commit --no-verify -m x", [][]string{{"git", "commit", "--no-verify", "-m", "x"}}},
		{"Start-Process git -ArgumentList 'commit --no-verify'", [][]string{{"Start-Process", "git", "-ArgumentList", "commit --no-verify"}, {"git", "commit", "--no-verify"}}},
		{"pwsh -c 'git push -n'", [][]string{{"pwsh", "-c", "git push -n"}, {"git", "push", "-n"}}},
		{"git log | Select-Object -First 5", [][]string{{"git", "log"}, {"Select-Object", "-First", "5"}}},
		{"git commit -m $msg", [][]string{{"git", "commit", "-m", ""}}},
	}
	for _, tc := range tests {
		got, ok := PowerShellCalls(tc.line)
		if !ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("PowerShellCalls(%q) = %q, %v; want %q", tc.line, got, ok, tc.want)
		}
	}
}

// TestLinesIn: the sh checks see what a PowerShell line runs.
func TestLinesIn(t *testing.T) {
	tests := []struct {
		line   string
		bypass bool
		unhook bool
	}{
		{"git commit -m 'wip'", false, false},
		{"& 'git' commit --no-verify -m x", true, false},
		{"Start-Process -FilePath git -ArgumentList 'commit','-n','-m','x' -Wait", true, false},
		{"powershell -Command \"git push --no-verify\"", true, false},
		{"git config core.hooksPath NUL; Get-Date", false, true},
		{"iex 'git config --unset core.hooksPath'", false, true},
		{"Get-ChildItem; git status", false, false},
	}
	for _, tc := range tests {
		bypass, unhook := false, false
		for _, l := range LinesIn(PowerShell, tc.line) {
			bypass = bypass || GitBypass(l) != ""
			unhook = unhook || Unhooks(l) != ""
		}
		if bypass != tc.bypass || unhook != tc.unhook {
			t.Errorf("%q: bypass %v unhook %v; want %v %v (lines %q)", tc.line, bypass, unhook, tc.bypass, tc.unhook, LinesIn(PowerShell, tc.line))
		}
	}
	if got := LinesIn(Sh, "git status"); !reflect.DeepEqual(got, []string{"git status"}) {
		t.Errorf("LinesIn(Sh) = %q", got)
	}
}

func TestWritesIn(t *testing.T) {
	got, ok := WritesIn(PowerShell, "echo x > a.md; Set-Content b.md y")
	if !ok || !reflect.DeepEqual(got, []string{"a.md", "b.md"}) {
		t.Errorf("WritesIn = %q, %v", got, ok)
	}
	// Set-Content is no sh writer: the sh reading of the same line misses it.
	if got, _ := WritesIn(Sh, "Set-Content b.md y"); got != nil {
		t.Errorf("WritesIn(Sh) = %q", got)
	}
}

// FuzzPowerShell: any line is read without a panic, and what it writes is
// never an empty path.
func FuzzPowerShell(f *testing.F) {
	for _, s := range []string{"Set-Content -Path p.md -Value x", "& 'git' commit -n", "echo \"$(rm x)\" > y",
		"powershell -EncodedCommand " + encodePS("sc p x"), "Start-Process a -ArgumentList 'b','c'", "cd a; ni b", "<# x #> 'a''b' `\n c", "iex (iex 'x')"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		ws, _ := PowerShellWrites(line)
		for _, w := range ws {
			if w == "" {
				t.Fatalf("empty write path from %q", line)
			}
		}
		PowerShellCalls(line)
		LinesIn(PowerShell, line)
	})
}
