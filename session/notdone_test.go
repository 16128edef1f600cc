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
