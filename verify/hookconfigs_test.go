package verify

import (
	"slices"
	"testing"
)

// TestReadHookEntries: what counts as sessiongate's entries in each kind
// of hook config, and which edits change them (weaken) or not (honest).
func TestReadHookEntries(t *testing.T) {
	cases := []struct {
		name, path, base, head string
		weakened               bool
	}{
		{"lefthook: another command added", "lefthook.yml",
			"pre-commit:\n  commands:\n    sessiongate:\n      run: sessiongate hook pre-commit\n",
			"pre-commit:\n  commands:\n    lint:\n      run: npm run lint\n    sessiongate:\n      run: sessiongate hook pre-commit\n", false},
		{"lefthook: skip on the hook", "lefthook.yml",
			"pre-commit:\n  commands:\n    sessiongate:\n      run: sessiongate hook pre-commit\n",
			"pre-commit:\n  skip: true\n  commands:\n    sessiongate:\n      run: sessiongate hook pre-commit\n", true},
		{"lefthook: command renamed away", "lefthook.yml",
			"pre-commit:\n  commands:\n    sessiongate:\n      run: sessiongate hook pre-commit\n",
			"pre-commit:\n  commands:\n    sessiongate:\n      run: echo sessiongate skipped\n", true},
		{"husky: commented out", ".husky/pre-commit", "sessiongate hook pre-commit\n", "# sessiongate hook pre-commit\n", true},
		{"husky: || true after it", ".husky/pre-commit", "sessiongate hook pre-commit\n", "sessiongate hook pre-commit || true\n", true},
		{"husky: a line after it", ".husky/pre-commit", "sessiongate hook pre-commit\n", "sessiongate hook pre-commit\nnpm test\n", false},
		{"codex: hooks feature off", ".codex/config.toml", "[features]\ncodex_hooks = true\n", "[features]\ncodex_hooks = false\n", true},
		{"claude: comments and key order (JSONC)", ".claude/settings.json",
			`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"sessiongate agent-hook claude Stop","timeout":10}]}]}}`,
			"{\n // ours\n \"hooks\": {\"Stop\": [{\"hooks\": [{\"timeout\": 10, \"command\": \"sessiongate agent-hook claude Stop\", \"type\": \"command\"}]}]},\n}\n", false},
		{"claude: timeout cut", ".claude/settings.json",
			`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"sessiongate agent-hook claude Stop","timeout":10}]}]}}`,
			`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"sessiongate agent-hook claude Stop","timeout":1}]}]}}`, true},
		{"gemini: hooks turned off", ".gemini/settings.json",
			`{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"sessiongate agent-hook gemini SessionStart"}]}]}}`,
			`{"hooksConfig":{"enabled":false},"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"sessiongate agent-hook gemini SessionStart"}]}]}}`, true},
		{"gemini: telemetry off (not hooks)", ".gemini/settings.json",
			`{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"sessiongate agent-hook gemini SessionStart"}]}]}}`,
			`{"telemetry":{"enabled":false},"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"sessiongate agent-hook gemini SessionStart"}]}]}}`, false},
		{"unparsable", ".cursor/hooks.json", `{"version":1,"hooks":{"stop":[{"command":"sessiongate agent-hook cursor stop"}]}}`, `{"version":1,`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, h := readHookEntries(c.path, []byte(c.base)), readHookEntries(c.path, []byte(c.head))
			if b.err != nil || len(b.sg)+len(b.guards) == 0 {
				t.Fatalf("base: no entries read (%v)", b.err)
			}
			lost := slices.ContainsFunc(b.sg, func(x string) bool { return !slices.Contains(h.sg, x) })
			got := h.err != nil || lost || !slices.Equal(b.guards, h.guards)
			if got != c.weakened {
				t.Fatalf("weakened = %v, want %v\nbase %+v\nhead %+v", got, c.weakened, b, h)
			}
		})
	}
}
