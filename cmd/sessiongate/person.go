package main

import (
	"fmt"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// refuseUnderAgent refuses what only a person may do (end or remove a
// session, as `protocol accept` accepts a protocol) when the process runs
// under a coding agent's CLI. It looks at the process tree, not at the
// command line: `echo delete | xargs sessiongate session`, `S=...; $S
// delete`, a script or eval all run under the agent the same way, where
// the agent hooks' string match (ShellRemovesSession) does not see them.
func refuseUnderAgent(what string) error {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		return usage(fmt.Errorf("%s refused: it runs under the coding agent %s (pid %d), and the agent a protocol polices cannot end or remove its own session "+
			"(a fresh session would leave the transcript and the refused claims of this one behind); a person runs it in a terminal of their own, outside the agent, "+
			"or ends it from the dashboard", what, p.Name, p.PID))
	}
	return nil
}
