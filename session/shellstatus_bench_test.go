package session

import (
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// BenchmarkRelevantObserved: a gate looks at every observed run of its
// phase; agent hooks record every shell command, so a long session holds
// hundreds. One op is the look at 200 runs.
func BenchmarkRelevantObserved(b *testing.B) {
	p := &protocolspec.Phase{ID: "QA", Checks: []protocolspec.Check{{Kind: protocolspec.CheckCommand, Arg: "go test ./..."}},
		Requirements: []protocolspec.Requirement{{Text: "The agent MUST run npm test."}}}
	lines := []string{"go test ./...", "cd api && go test ./... 2>&1 | tail -20", "git status", "ls -la src", "npm test -- --ci",
		"grep -rn TODO . | head", "sh -c 'go vet ./... && go test ./...'", "cat README.md"}
	var evs []Evidence
	code := 0
	for i := range 200 {
		evs = append(evs, Evidence{Phase: "QA", Origin: OriginObserved, Command: lines[i%len(lines)], ExitCode: &code})
	}
	n := 0
	for b.Loop() {
		for _, e := range evs {
			if relevantObserved(e, p, Config{}) {
				n++
			}
		}
	}
	_ = n
}
