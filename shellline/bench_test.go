package shellline

import "testing"

// The agent hook reads every shell line of a tool call: a PowerShell line
// (Copilot on Windows) is read by both readers (WritesIn). Peer: the sh
// reader alone on a bash line of the same work.
var (
	benchSh = []string{"go test ./... 2>&1 | tail -20", "cat > src/a.go <<'EOF'\npackage a\nEOF", "git add -A && git commit -m 'x'",
		"sed -i s/a/b/ README.md", "cd web && npm test -- --ci"}
	benchPS = []string{"go test ./... 2>&1 | Select-Object -Last 20", "Set-Content -Path src\\a.go -Value 'package a'", "git add -A; git commit -m 'x'",
		"(Get-Content README.md) -replace 'a','b' | Set-Content README.md", "cd web; npm test -- --ci"}
)

// A hook process reads each line once: the parse cache is emptied each
// time so the peer parses too.
func BenchmarkWritesSh(b *testing.B) {
	for b.Loop() {
		parseCache.Lock()
		parseCache.m = nil
		parseCache.Unlock()
		for _, l := range benchSh {
			Writes(l)
			LinesIn(Sh, l)
		}
	}
}

func BenchmarkWritesInPowerShell(b *testing.B) {
	for b.Loop() {
		parseCache.Lock()
		parseCache.m = nil
		parseCache.Unlock()
		for _, l := range benchPS {
			WritesIn(PowerShell, l)
			LinesIn(PowerShell, l)
		}
	}
}

// The launder checks (issue 25.6/8/9) read every line of a tool call after
// the checks that were there: PersonCommand, Schedules, Obfuscated,
// TouchesRecords and PrunesUnreachable together. Peer, in the same run:
// Writes and LinesIn on the same lines (what the hook already did per
// line). Both parse: the cache is emptied each round.
var benchLaunder = append(append([]string{}, benchSh...),
	`python3 -c "exec(bytes.fromhex('7072696e74283129'))"`, "echo terminate | xargs sessiongate session",
	"git update-ref refs/heads/feature HEAD", "find . -name '*.pyc' -delete")

func BenchmarkLaunderChecks(b *testing.B) {
	refs := []string{"refs/sessiongate/"}
	b.Run("checks", func(b *testing.B) {
		for b.Loop() {
			parseCache.Lock()
			parseCache.m = nil
			parseCache.Unlock()
			for _, l := range benchLaunder {
				PersonCommand(l, nil)
				Schedules(l)
				Obfuscated(l)
				TouchesRecords(l, refs)
				PrunesUnreachable(l)
			}
		}
	})
	b.Run("writes-peer", func(b *testing.B) {
		for b.Loop() {
			parseCache.Lock()
			parseCache.m = nil
			parseCache.Unlock()
			for _, l := range benchLaunder {
				Writes(l)
				LinesIn(Sh, l)
			}
		}
	})
}

// BenchmarkFileValueLines times the values-read-from-a-file reader the
// hook runs on every POSIX line (round 21; round 22 added the filters):
// the benchSh lines (most fail the cheap look or hold no file read) and
// three that read a file list through a filter, parse cache emptied.
func BenchmarkFileValueLines(b *testing.B) {
	read := func(string) (string, bool) { return "src/a.go\nsrc/b.go\nREADME.md\n", true }
	lines := append(append([]string{}, benchSh...), "sort files.txt | xargs gofmt -l", "while read f; do gofmt -l \"$f\"; done < files.txt",
		"X=$(head -1 files.txt); go vet \"./$X\"")
	for b.Loop() {
		parseCache.Lock()
		parseCache.m = nil
		parseCache.Unlock()
		for _, l := range lines {
			FileValueLines(l, read)
		}
	}
}
