package web

import (
	"strings"

	"github.com/sessiongate/sessiongate/session"
)

// VanishedAgents names the agents of vs once each, in order: "Claude
// Code, Codex CLI".
func VanishedAgents(vs []session.CLIVanishedShown) string {
	var names []string
	for _, v := range vs {
		if n := v.AgentName; n != "" && !Checked(names, n) {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}
