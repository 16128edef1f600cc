package agenthook

import (
	"strings"
	"testing"
)

// TestClaudeStopWaiting: Claude Code 2.1.330's Stop lists the sub-agents
// still running in background_tasks (TestClaudeBackgroundAgentMeasured);
// only running sub-agents make the stop a wait, not shells nor finished
// tasks.
func TestClaudeStopWaiting(t *testing.T) {
	for _, c := range []struct{ tasks, want string }{
		{`[{"id":"a6","type":"subagent","status":"running","description":"Validate"}]`, "a6"},
		{`[{"id":"a6","type":"subagent","status":"completed"},{"id":"b1","type":"shell","status":"running"}]`, ""},
		{`[]`, ""},
		{`"x"`, ""},
		{`[{"id":"a b","type":"subagent","status":"running"}]`, ""},
	} {
		ev, err := claude{}.Decode("Stop", []byte(`{"session_id":"s","hook_event_name":"Stop","stop_hook_active":false,"background_tasks":`+c.tasks+`}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(ev.Waiting, " "); got != c.want {
			t.Errorf("%s: waiting %q, want %q", c.tasks, got, c.want)
		}
	}
}
