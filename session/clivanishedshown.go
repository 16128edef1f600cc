package session

import (
	"strings"
	"time"
)

// What a person reads of a vanished agent CLI (round 30, c11): the
// dashboard shows, from what the session recorded, each agent CLI that
// vanished (killed, crashed: no Stop, no SessionEnd) while a tool call ran,
// and each one a new CLI resumed. Recorded facts only, so the page says
// the same on any host and after the session ended.

// SettledCLIVanished is the third field of a TokenToolUnreported event
// that settles the call an agent CLI was running when it vanished
// (settleRunningCall, SettleVanishedCall).
const SettledCLIVanished = "cli-vanished"

// CLIVanishedTokens are the tokens whose events VanishedShown reads: the
// settlements (TokenToolUnreported) and each agent's resume mark.
func CLIVanishedTokens() []string {
	out := []string{TokenToolUnreported}
	for _, a := range cliAgents {
		out = append(out, cliVanishedToken(a))
	}
	return out
}

func cliVanishedToken(agent string) string { return "agent:" + agent + ":cli-vanished" }

// CLIVanishedShown is one vanished agent CLI as the dashboard shows it.
type CLIVanishedShown struct {
	Agent     string // "claude"
	AgentName string // "Claude Code"
	// Call is the tool call it was running when it vanished, "" for a
	// resume mark that names none.
	Call string
	// Resumed: a prompt from a new CLI continued its turn.
	Resumed bool
	At      time.Time
}

// Line is the sentence a person reads.
func (v CLIVanishedShown) Line() string {
	if v.Resumed {
		return "Agent CLI vanished: " + v.AgentName + " ended without SessionEnd (killed or crashed); a new " + v.AgentName + " process continued its turn."
	}
	return "Agent CLI vanished during a tool call: " + v.AgentName + " was killed or crashed while call " + v.Call + " ran, so no result came back for it."
}

// VanishedShown reads, from a session's events (any order, any tokens),
// its vanished agent CLIs, oldest first: a call settled as cli-vanished,
// and a resume mark, each once.
func VanishedShown(evs []Event) []CLIVanishedShown {
	var out []CLIVanishedShown
	for _, ev := range evs {
		f := strings.Fields(ev.Detail)
		switch {
		case ev.Token == TokenToolUnreported && len(f) == 3 && f[2] == SettledCLIVanished:
			out = append(out, CLIVanishedShown{Agent: f[0], AgentName: agentName(f[0]), Call: f[1], At: ev.CreatedAt})
		case strings.HasPrefix(ev.Token, "agent:") && strings.HasSuffix(ev.Token, ":cli-vanished"):
			a := strings.TrimSuffix(strings.TrimPrefix(ev.Token, "agent:"), ":cli-vanished")
			if ev.Token != cliVanishedToken(a) || strings.Contains(a, ":") {
				continue
			}
			out = append(out, CLIVanishedShown{Agent: a, AgentName: agentName(a), Resumed: true, At: ev.CreatedAt})
		}
	}
	return out
}
