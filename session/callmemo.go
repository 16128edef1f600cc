package session

import (
	"sync"

	"github.com/sessiongate/sessiongate/delegate"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
)

// namesCall reports whether a requirement's text asks for a call only the
// transcript can show (an MCP tool, a sub-agent). Every gate call asks it
// of every owed requirement of the phase (readsTranscript), and the two
// regexps over the text were a fortieth of a warm validate_gate's CPU
// (issue 29 item 3); the answer is a function of the text alone, so it is
// kept by text.
func namesCall(r protocolspec.Requirement) bool {
	callTexts.mu.Lock()
	v, ok := callTexts.m[r.Text]
	callTexts.mu.Unlock()
	if ok {
		return v
	}
	tools, _ := toolneed.MCPTools(r)
	v = len(tools) > 0 || delegate.Name(r) != ""
	callTexts.mu.Lock()
	defer callTexts.mu.Unlock()
	if callTexts.m == nil || len(callTexts.m) >= callTextsKeep {
		callTexts.m = map[string]bool{} // protocols have a few hundred requirements; start over past that
	}
	callTexts.m[r.Text] = v
	return v
}

// callTextsKeep bounds the texts kept.
const callTextsKeep = 4096

var callTexts struct {
	mu sync.Mutex
	m  map[string]bool
}
