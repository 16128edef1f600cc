package transcript

import (
	"strings"
	"testing"
)

// Lines in Claude Code 2.1.330's shape, from a run of the real CLI with
// an Agent call whose run_in_background was unset
// (internal/agenttest/TestClaudeBackgroundAgent): the launch, the
// tool_result that only says it launched, and the notification prompt.
const (
	bgLaunch = `{"parentUuid":"a","isSidechain":false,"type":"assistant","message":{"content":[{"id":"toolu_03","input":{"description":"Validate the change","prompt":"validate","subagent_type":"qa"},"name":"Agent","type":"tool_use"}],"role":"assistant"},"cwd":"/r"}`
	bgResult = `{"parentUuid":"b","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_03","type":"tool_result","content":[{"type":"text","text":"Async agent launched successfully.\nagentId: a6aced0a1ff87706b"}]}]},"toolUseResult":{"isAsync":true,"status":"async_launched","agentId":"a6aced0a1ff87706b","description":"Validate the change"},"cwd":"/r"}`
	bgQueued = `{"type":"queue-operation","operation":"enqueue","content":"<task-notification>\n<task-id>a6aced0a1ff87706b</task-id>\n<tool-use-id>toolu_03</tool-use-id>\n<status>completed</status>\n</task-notification>"}`
	bgNotice = `{"parentUuid":"c","isSidechain":false,"type":"user","message":{"role":"user","content":"<task-notification>\n<task-id>a6aced0a1ff87706b</task-id>\n<tool-use-id>toolu_03</tool-use-id>\n<output-file>/x/tasks/a6aced0a1ff87706b.output</output-file>\n<status>STATUS</status>\n<summary>Agent \"Validate the change\" finished</summary>\n<result>QA passed</result>\n</task-notification>"},"origin":{"kind":"task-notification"},"promptSource":"system","cwd":"/r"}`
	fgResult = `{"parentUuid":"b","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_03","type":"tool_result","content":[{"type":"text","text":"QA passed"}]}]},"toolUseResult":{"status":"completed","agentId":"a1"},"cwd":"/r"}`
)

func notice(status string) string { return strings.Replace(bgNotice, "STATUS", status, 1) }

// TestClaudeBackgroundAgent: a sub-agent Claude Code ran in the background
// finishes with its notification, not with the launch's tool_result.
// Before round 26 the launch counted as the sub-agent's passing run, so a
// qa agent never waited for (or one that failed) met "invoke the qa agent".
func TestClaudeBackgroundAgent(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  string // "" no call finished; else "pass" or "fail"
	}{
		{"honest: launched, then its notification", []string{bgLaunch, bgResult, bgQueued, notice("completed")}, "pass"},
		{"honest: run in the foreground", []string{bgLaunch, fgResult}, "pass"},
		{"lazy: launched, never waited for", []string{bgLaunch, bgResult}, ""},
		{"lazy: only the queue line (not a prompt)", []string{bgLaunch, bgResult, bgQueued}, ""},
		{"the sub-agent failed", []string{bgLaunch, bgResult, notice("failed")}, "fail"},
		{"the sub-agent was stopped", []string{bgLaunch, bgResult, notice("killed")}, "fail"},
		{"a notification before the launch's result finishes nothing", []string{bgLaunch, notice("completed")}, ""},
		{"a notification naming another call", []string{bgLaunch, bgResult, strings.Replace(notice("completed"), "toolu_03", "toolu_09", 1)}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := NewParser(Claude)
			if err != nil {
				t.Fatal(err)
			}
			var got []Call
			for i, l := range c.lines {
				got = append(got, p.Line([]byte(l))...)
				// Reading may stop at any line and go on from the saved state.
				if i%2 == 0 {
					q, _ := NewParser(Claude)
					q.Restore(p.Pending())
					p = q
				}
			}
			var out string
			switch {
			case len(got) > 1:
				t.Fatalf("%d calls, want at most 1: %+v", len(got), got)
			case len(got) == 1 && got[0].Failed:
				out = "fail"
			case len(got) == 1:
				out = "pass"
			}
			if out != c.want {
				t.Fatalf("got %q, want %q (%+v)", out, c.want, got)
			}
			if len(got) == 1 && got[0].Kind != Delegate {
				t.Fatalf("kind %v", got[0].Kind)
			}
		})
	}
}

func TestParseTaskNotification(t *testing.T) {
	n, ok := ParseTaskNotification("<task-notification>\n<task-id>a1</task-id>\n<tool-use-id>toolu_03</tool-use-id>\n<status>completed</status>\n</task-notification>")
	if !ok || n.TaskID != "a1" || n.ToolUseID != "toolu_03" || n.Status != "completed" {
		t.Fatalf("%+v %v", n, ok)
	}
	for _, s := range []string{"please read <task-notification><tool-use-id>x</tool-use-id><status>completed</status>", "<task-notification><status>completed</status>", ""} {
		if _, ok := ParseTaskNotification(s); ok {
			t.Errorf("%q read as a notification", s)
		}
	}
}
