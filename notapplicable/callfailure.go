package notapplicable

import (
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
	"regexp"
	"sync"
)

// "If either call fails, the agent MUST report the failure and stop"
// (SERENA_INITIALIZATION in the team's 2025-12 protocols) is a condition a
// machine can check: the agent's transcript records each MCP call's
// result. CallFailureOf reads which calls and requirements such a
// condition names; session/callfailure.go checks them against the
// transcript.

var callFailsRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:calls?|initiali[sz]ation|activation)\s+(?:fails?|failed|errors?|returns?\s+an\s+error)\b`)
})

// CallFailure is a requirement whose condition is the failure of MCP calls.
type CallFailure struct {
	Tools []string // the calls whose failure the condition names
	Reqs  []string // the requirements that ask for those calls
}

// CallFailureOf says whether requirement r of p is conditional on
// the failure of MCP calls the phase (or r itself) names.
func CallFailureOf(p *protocolspec.Phase, r *protocolspec.Requirement) (CallFailure, bool) {
	if r == nil {
		return CallFailure{}, false
	}
	clause, ok := Clause(r.Text)
	if !ok || !callFailsRE().MatchString(clause) {
		return CallFailure{}, false
	}
	var cf CallFailure
	if tools, _ := toolneed.MCPTools(*r); len(tools) > 0 {
		cf.Tools, cf.Reqs = tools, []string{r.ID}
		return cf, true
	}
	for _, o := range p.OwedRequirements() {
		if o.Conditional || o.ID == r.ID {
			continue
		}
		if tools, _ := toolneed.MCPTools(o); len(tools) > 0 {
			cf.Tools = append(cf.Tools, tools...)
			cf.Reqs = append(cf.Reqs, o.ID)
		}
	}
	return cf, len(cf.Tools) > 0
}
