package testrun

import (
	"testing"
)

// TestUntrackedAgentConfigIsNoTestInput: an agent's config left untracked
// (install --agent writes .claude/settings.json) is read by no test runner
// and does not refuse a script's QA run; a source file in the same folders
// still counts.
func TestUntrackedAgentConfigIsNoTestInput(t *testing.T) {
	reads := RunnerReads("sh test.sh") // a script: every runner family
	for f, want := range map[string]bool{
		".claude/settings.json":       false,
		".claude/settings.local.json": false,
		".gemini/settings.json":       false,
		".codex/hooks.json":           false,
		".github/hooks/sg.json":       false,
		".mcp.json":                   false,
		"sessiongate.yaml":            false,
		"conftest.py":                 true,
		"zz_test.go":                  true,
		"fixtures/data.json":          true,
		".claude/evil_test.go":        true,
	} {
		if got := reads(f) && !agentConfigFile(f); got != want {
			t.Errorf("%s: counts as a file the run reads %v, want %v", f, got, want)
		}
	}
}
