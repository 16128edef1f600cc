package session

import "testing"

// TestHookAgent: the agent whose hooks observed the shell decides whether
// a sub-agent's QA run can be seen (unwitnessedDelegateQA): Claude Code's
// transcript shows it; under Codex, Copilot or Gemini only an observed
// test run proves QA; with no hooks (the CLI, `sessiongate run`, claims)
// nothing changes.
func TestHookAgent(t *testing.T) {
	obs := func(src string) Evidence { return Evidence{Origin: OriginObserved, Source: src} }
	for _, c := range []struct {
		name string
		evs  []Evidence
		want string
	}{
		{"none", nil, ""},
		{"sessiongate run only", []Evidence{obs(SourceRun)}, ""},
		{"a claim named codex", []Evidence{{Origin: OriginClaimed, Source: "codex"}}, ""},
		{"codex", []Evidence{obs(SourceRun), obs("codex")}, "codex"},
		{"copilot", []Evidence{obs("copilot")}, "copilot"},
		{"claude", []Evidence{obs("claude")}, "claude"},
	} {
		if got := hookAgent(c.evs); got != c.want {
			t.Errorf("%s: hookAgent = %q, want %q", c.name, got, c.want)
		}
	}
}
