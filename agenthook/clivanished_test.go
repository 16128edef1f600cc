package agenthook_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/session"
)

// TestClaudeVanishedCLITurnContinues (round 28, c3): an agent CLI killed
// outright (SIGKILL: no Stop, no SessionEnd) after its turn did work, then
// resumed. Each hook call here runs under its own short-lived process named
// claude, so the CLI that sent a prompt is gone by the next one; only a
// SessionEnd says it ended as it should. Lazy: the resumed CLI's prompt
// marked a new turn and its idle stops were let through (before: no
// violation, the session WORKING). Now the turn of the vanished CLI goes
// on: stops blocked, then END_PROTOCOL_SKIPPED. Honest twins: the CLI
// ended with SessionEnd, then a new one with nothing to do; the resumed
// CLI finishes the work and ends the session.
func TestClaudeVanishedCLITurnContinues(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the tests run under an agent CLI (%s): every hook here is that CLI's", p.Name)
	}
	bin := t.TempDir()
	fake := filepath.Join(bin, "claude")
	writeFakeClaude(t, fake) // hands its hooks their input on a socket it made, as Claude Code does
	const (
		prompt = "prompt" // a prompt from a new CLI process
		work   = "work"
		stop   = "stop"
		again  = "again" // a stop after a block
		end    = "end"   // SessionEnd from a CLI process
		sgEnd  = "sgend" // notes.md committed and `session end`
		fresh  = "fresh" // a new conversation's SessionStart and prompt, from a new CLI
	)
	cases := []struct {
		name  string
		steps []string
		want  []string
	}{
		{"lazy: work, killed, resumed, idle stops", []string{prompt, work, prompt, stop, again, again, again}, []string{session.CodeEndProtocolSkipped}},
		{"honest: work, killed, resumed, the work finished", []string{prompt, work, prompt, sgEnd, stop}, nil},
		{"honest: nothing done, ended, a new CLI with nothing to do", []string{prompt, stop, end, prompt, stop}, nil},
		{"honest: killed with nothing done, resumed", []string{prompt, prompt, stop}, nil},
		{"lazy: work, killed, a fresh CLI (new conversation), idle stops", []string{prompt, work, fresh, stop, again, again, again}, []string{session.CodeEndProtocolSkipped}},
		{"honest: work, killed, a fresh CLI finishes the work", []string{prompt, work, fresh, sgEnd, stop}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0228"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			viaCLI := func(event string, p map[string]any) {
				b, _ := json.Marshal(p)
				if res := r.run(r.root, b, nil, fake, binary, "agent-hook", "claude", event); res.code != 0 {
					t.Fatalf("hook %s: exit %d\n%s%s", event, res.code, res.out, res.err)
				}
			}
			cur := sid // the agent session of the CLI now running
			for _, st := range c.steps {
				switch st {
				case prompt:
					viaCLI("UserPromptSubmit", with(golden(t, r, "claude", "UserPromptSubmit", sid), "prompt", "go on"))
				case fresh:
					const sid2 = "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0229"
					viaCLI("SessionStart", golden(t, r, "claude", "SessionStart", sid2))
					viaCLI("UserPromptSubmit", with(golden(t, r, "claude", "UserPromptSubmit", sid2), "prompt", "go on"))
					cur = sid2
				case work:
					writeFile(t, filepath.Join(r.root, "notes.md"), "x\n")
				case stop:
					r.hook("claude", "Stop", golden(t, r, "claude", "Stop", cur))
				case again:
					r.hook("claude", "Stop", with(golden(t, r, "claude", "Stop", cur), "stop_hook_active", true))
				case end:
					viaCLI("SessionEnd", golden(t, r, "claude", "SessionEnd", sid))
				case sgEnd:
					r.git("add", "notes.md")
					r.git("-c", "core.hooksPath=/dev/null", "commit", "-qm", "notes")
					r.run(r.root, nil, nil, binary, "session", "end", "--session", s.ID, "--summary", "wrote the notes")
				}
			}
			got := slices.DeleteFunc(codesOf(t, r, s.ID), func(c string) bool {
				return c != session.CodeEndProtocolSkipped && c != session.CodeToolResultMissing
			})
			if !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v (steps %s)", got, c.want, strings.Join(c.steps, ", "))
			}
		})
	}
}
