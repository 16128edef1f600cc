package transcript

import "testing"

// TestWitnessDigest: the digest a hook keeps of a call's input and the one
// read from the transcript's line agree for the same call however each
// side encodes it, and differ for another call under the same id.
func TestWitnessDigest(t *testing.T) {
	tests := []struct {
		name       string
		tool       string
		hook, line string
		same       bool
	}{
		{"bash: same command, other fields", "Bash", `{"command":"cat docs/guide.md","description":"read the guide"}`, `{"command":"cat docs/guide.md"}`, true},
		{"bash: another command", "Bash", `{"command":"git status"}`, `{"command":"cat docs/guide.md"}`, false},
		{"bash: a space more", "Bash", `{"command":"cat docs/guide.md"}`, `{"command":"cat  docs/guide.md"}`, false},
		{"agent: keys in another order", "Agent", `{"subagent_type":"qa","prompt":"p"}`, `{ "prompt": "p", "subagent_type": "qa" }`, true},
		{"agent: another sub-agent", "Agent", `{"subagent_type":"qa","prompt":"p"}`, `{"subagent_type":"security","prompt":"p"}`, false},
		{"mcp: numbers as written", "mcp__s__t", `{"n":10000000000000001}`, `{"n":10000000000000001}`, true},
		{"mcp: a number changed past float precision", "mcp__s__t", `{"n":10000000000000001}`, `{"n":10000000000000002}`, false},
		{"mcp: escaped the other way", "mcp__s__t", `{"p":"<a>"}`, `{"p":"\u003ca\u003e"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, l := WitnessDigest(tt.tool, []byte(tt.hook)), WitnessDigest(tt.tool, []byte(tt.line))
			if h == "" || l == "" {
				t.Fatalf("no digest: %q %q", h, l)
			}
			if (h == l) != tt.same {
				t.Fatalf("digests equal %v, want %v", h == l, tt.same)
			}
		})
	}
	// Codex's rollout names the command as {"cmd": ...}: its digest is
	// CommandDigest of the line, the PreToolUse payload's is WitnessDigest.
	if CommandDigest("cat docs/guide.md") != WitnessDigest("Bash", []byte(`{"command":"cat docs/guide.md"}`)) {
		t.Error("CommandDigest differs from a Bash input's WitnessDigest for the same command")
	}
	for _, in := range []string{"", "null", `"cat x"`, `[1]`, `{"command":`} {
		if d := WitnessDigest("Bash", []byte(in)); d != "" {
			t.Errorf("WitnessDigest(%q) = %q, want none", in, d)
		}
	}
}
