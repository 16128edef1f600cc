package notapplicable

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestCallFailureOf: "If either call fails, ..." names the MCP calls the
// phase's other requirements ask for (the team's SERENA_INITIALIZATION);
// a requirement naming the call itself names only it. A condition on
// something else, or on calls no requirement names, is not one.
func TestCallFailureOf(t *testing.T) {
	must := func(id, text string, cond bool) protocolspec.Requirement {
		return protocolspec.Requirement{ID: id, Level: protocolspec.LevelMust, Text: text, Conditional: cond}
	}
	serena := &protocolspec.Phase{Requirements: []protocolspec.Requirement{
		must("S.activate", "The agent MUST call mcp__serena__activate_project.", false),
		must("S.initial", "The agent MUST call mcp__serena__initial_instructions.", false),
		must("S.report", "If either call fails, the agent MUST report the failure and stop.", true),
		must("S.docs", "If docs/legacy.md exists, the agent MUST read it.", true),
	}}
	own := must("S.own", "If the mcp__serena__read_memory call fails, the agent MUST say so.", true)
	for _, tt := range []struct {
		name  string
		r     protocolspec.Requirement
		tools string // "" not a call-failure condition
		reqs  string
	}{
		{"the phase's calls", serena.Requirements[2], "mcp__serena__activate_project,mcp__serena__initial_instructions", "S.activate,S.initial"},
		{"its own call", own, "mcp__serena__read_memory", "S.own"},
		{"a file condition", serena.Requirements[3], "", ""},
		{"no condition", serena.Requirements[0], "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cf, ok := CallFailureOf(serena, &tt.r)
			if ok != (tt.tools != "") || strings.Join(cf.Tools, ",") != tt.tools || strings.Join(cf.Reqs, ",") != tt.reqs {
				t.Fatalf("CallFailureOf = %v %q %q, want %q %q", ok, cf.Tools, cf.Reqs, tt.tools, tt.reqs)
			}
		})
	}
	if _, ok := CallFailureOf(serena, nil); ok {
		t.Error("CallFailureOf(nil) = true: a phase-wide mark names no call")
	}
}
