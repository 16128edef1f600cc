package session

import (
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestNotDone: a phase that cannot block, with nothing recorded and only
// evidence checks, was not done (SKIPPED, not a failed gate); anything
// else is judged by its gate.
func TestNotDone(t *testing.T) {
	optional := protocolspec.Phase{ID: "RETRO", Gate: protocolspec.GateUnspecified, Binding: protocolspec.GateOptional,
		Checks: []protocolspec.Check{{Kind: protocolspec.CheckMustEvidence, Builtin: true}}}
	required := optional
	required.Binding = protocolspec.GateRequired
	withReq := optional
	withReq.Requirements = []protocolspec.Requirement{{ID: "RETRO.inspect", Text: "Inspect recent commits with git log."}}
	withFile := optional
	withFile.Checks = []protocolspec.Check{{Kind: protocolspec.CheckFileExists, Arg: "x/*"}}
	tests := []struct {
		name string
		p    protocolspec.Phase
		ev   []Evidence
		cfg  Config
		want bool
	}{
		{"optional, nothing recorded", optional, nil, Config{}, true},
		{"optional, other phase's evidence only", optional, []Evidence{{Phase: "QA"}}, Config{}, true},
		{"optional, something recorded: judged", optional, []Evidence{{Phase: "RETRO"}}, Config{}, false},
		// Round 24 (c4), the real Codex CLI: the agent's own `sessiongate
		// session advance`, observed after it moved the session into the
		// optional phase, or a look around while it was current, made the
		// phase "started" and its gate recorded a false FAIL
		// (internal/agenttest TestCodexHonestV3Task).
		{"optional, only the advance that entered it observed", optional, []Evidence{{Phase: "RETRO", Origin: OriginObserved, Command: "sessiongate session advance"}}, Config{}, true},
		{"optional, only a look around observed", optional, []Evidence{{Phase: "RETRO", Origin: OriginObserved, Command: "ls .agents/sessions"}}, Config{}, true},
		{"optional, a run bound to its requirement: judged", optional, []Evidence{{Phase: "RETRO", Origin: OriginObserved, Command: "ls .agents/sessions", Requirement: "RETRO.write"}}, Config{}, false},
		{"optional, its requirement's command observed: judged", withReq, []Evidence{{Phase: "RETRO", Origin: OriginObserved, Command: "git log --oneline -5"}}, Config{}, false},
		{"optional, claimed evidence: judged", optional, []Evidence{{Phase: "RETRO", Origin: OriginClaimed, Kind: EvidenceFilePath}}, Config{}, false},
		{"required: judged", required, nil, Config{}, false},
		{"optional with a machine check: judged", withFile, nil, Config{}, false},
		{"optional with a configured command: judged", optional, nil, Config{Commands: map[string]string{"RETRO": "make retro"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := notDone(&tt.p, tt.ev, tt.cfg); got != tt.want {
				t.Errorf("notDone = %v, want %v", got, tt.want)
			}
		})
	}
}
