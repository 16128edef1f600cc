package storetest

import (
	"math/rand/v2"

	"github.com/sessiongate/sessiongate/session"
)

// CallAgents are the agents whose call events RandomCallEvent writes.
var CallAgents = []string{"claude", "codex", "gemini", "cursor", "copilot"}

// RandomCallEvent is one step of a random session's call events, for the
// stores' tests of OpenCallEvents against the probe it replaced: a
// judgment, a report, a missing or interrupted settlement, and details
// that name no call ("<agent>", "<agent> <id> x", " <id> ..."); call ids
// include prefixes of others. other says the event goes to the second
// session (one step in ten).
func RandomCallEvent(rng *rand.Rand) (token, detail string, other bool) {
	const result, unreported = session.TokenToolResult, session.TokenToolUnreported
	ids := []string{"t1", "t2", "t1x", "cp-k", "t"}
	agent := CallAgents[rng.IntN(len(CallAgents))]
	id := ids[rng.IntN(len(ids))]
	other = rng.IntN(10) == 0
	switch rng.IntN(12) {
	case 0, 1, 2, 3:
		return "agent:" + agent + ":judged", id + " Bash d", other
	case 4, 5, 6:
		return result, agent + " " + id, other
	case 7:
		return unreported, agent + " " + id + " missing", other
	case 8:
		return unreported, agent + " " + id + " interrupted", other
	case 9:
		return result, []string{agent, agent + " " + id + " x", agent + " ", "bogus " + id}[rng.IntN(4)], other
	case 10:
		return unreported, []string{agent + "  missing", agent + " missing", "bogus " + id + " missing", agent + " " + id + " x missing"}[rng.IntN(4)], other
	default:
		return "agent:" + agent + ":judged", []string{" " + id + " Bash", id, id + "  Bash"}[rng.IntN(3)], other
	}
}
