package agenthook

import (
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/shellline"
)

// TestShellWritesOncePerEvent: the pre-tool protect checks share one
// reading of the shell line (Event.shellWrites) and answer as they did
// with a reading each: the same verdicts on one event as on a fresh event
// per check (an append by one check must not reach the next), and a
// changed line is read again.
func TestShellWritesOncePerEvent(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "CLAUDE_CONFIG_DIR": "/home/u/.claude", "PATH": "/home/u/.local/bin"}
	getenv := func(k string) string { return env[k] }
	checks := []func(ev *Event) string{
		func(ev *Event) string { return transcriptWrite(ev, "/repo", getenv) },
		func(ev *Event) string { return agentConfigWrite(ev, "/repo", getenv) },
		func(ev *Event) string { return selfBinaryWrite(ev, "/repo", getenv) },
	}
	lines := []struct {
		command string
		paths   []string // a patch given to the shell (Codex)
	}{
		{"go test ./...", nil},
		{"echo '{}' >> /home/u/.claude/projects/-repo/abc.jsonl", nil},
		{"cp /bin/true /home/u/.local/bin/sessiongate", nil},
		{"echo x > .claude/settings.json", nil},
		{"tee a b c < in", []string{"/home/u/.claude/settings.json"}},
		{"sh test.sh", []string{"/repo/x.go"}},
	}
	for _, l := range lines {
		tool := session.ToolCall{Name: "Bash", Kind: session.ToolShell, Command: l.command, Paths: l.paths}
		shared := &Event{Agent: "claude", Tool: tool}
		for i, check := range checks {
			fresh := &Event{Agent: "claude", Tool: tool}
			if got, want := check(shared), check(fresh); got != want {
				t.Errorf("%q, check %d: %q on the shared event, %q on a fresh one", l.command, i, got, want)
			}
		}
		want, wantOK := shellline.WritesIn(tool.Shell, tool.Command)
		got, ok := shared.shellWrites()
		if ok != wantOK || !slices.Equal(got, want) {
			t.Errorf("%q: shellWrites %v %v, WritesIn %v %v", l.command, got, ok, want, wantOK)
		}
	}
	ev := &Event{Agent: "claude", Tool: session.ToolCall{Name: "Bash", Kind: session.ToolShell, Command: "echo x > a"}}
	ev.shellWrites()
	ev.Tool.Command = "echo x > b"
	if got, _ := ev.shellWrites(); !slices.Equal(got, []string{"b"}) {
		t.Errorf("after the line changed: %v, want [b]", got)
	}
}
