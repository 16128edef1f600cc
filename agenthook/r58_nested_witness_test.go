package agenthook_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/session"
)

// TestR58NestedCLINoWitness (round 58; helper 341's open HIGH and helper
// 340's F5): an agent CLI running inside another agent CLI's tool call is
// no witness of its tool calls' outcomes. Whatever names itself claude
// is read as a nested CLI (a python3 renamed by prctl, `exec -a claude`),
// and a real nested CLI runs whatever hooks its folder names; before,
// such a "CLI" under the agent's shell fed a made-up passing run that was
// recorded as observed, exit 0. Now its run is kept with its status
// unknown (-1) and the hook says why; its pre-tool event is still judged.
// Honest twin: the CLI's own hook (one claude above it) records exit 0.
// The CLIs are scripts named claude (the real one's process name), handing
// their hooks input on a socket they made, as Claude Code does.
func TestR58NestedCLINoWitness(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the tests run under an agent CLI (%s): every hook here is nested", p.Name)
	}
	fake := filepath.Join(t.TempDir(), "claude")
	writeFakeClaude(t, fake)
	for _, c := range []struct {
		name   string
		nested bool
	}{
		{"honest: the CLI's own hook", false},
		{"lazy: a CLI (or a process named so) under the agent's shell", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0158"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			hook := func(event string, p map[string]any) string {
				t.Helper()
				b, _ := json.Marshal(p)
				args := []string{binary, "agent-hook", "claude", event}
				if c.nested {
					args = append([]string{"sh", "-c", `"$0" "$@"`, fake}, args...)
				}
				res := r.run(r.root, b, nil, fake, args...)
				if res.code != 0 {
					t.Fatalf("%s: exit %d\n%s%s", event, res.code, res.out, res.err)
				}
				return string(res.out)
			}
			// A protected write is still denied under a nested CLI.
			edit := with(golden(t, r, "claude", "PreToolUse-Bash", sid), "tool_input", map[string]any{"command": "echo x >> SESSION-PROTOCOL.md"})
			if out := hook("PreToolUse", edit); !strings.Contains(out, `"deny"`) {
				t.Errorf("a write of the protocol was not denied: %s", out)
			}
			hook("PreToolUse", golden(t, r, "claude", "PreToolUse-Bash", sid))
			// The call's witness (a transcript line of it counts only with
			// one) is kept from the CLI's own hook only.
			calls, err := r.db().EventsWith(context.Background(), s.ID, session.TokenAgentCall)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{false: 1}[c.nested]; len(calls) != want {
				t.Errorf("%d call witnesses kept, want %d", len(calls), want)
			}
			out := hook("PostToolUse", golden(t, r, "claude", "PostToolUse-Bash", sid))
			evs, err := r.db().ListEvidence(context.Background(), s.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != 1 || evs[0].Command != "true" || evs[0].ExitCode == nil {
				t.Fatalf("evidence %+v, want the one run of true", evs)
			}
			got := *evs[0].ExitCode
			if c.nested {
				if got != -1 || !strings.Contains(evs[0].Ref, "not witnessed") || !strings.Contains(out, "not taken as observed") {
					t.Errorf("nested: exit %d, ref %q, answer %s; want -1, not witnessed, said", got, evs[0].Ref, out)
				}
			} else if got != 0 || strings.Contains(out, "not taken") {
				t.Errorf("honest: exit %d, answer %s; want 0, nothing said", got, out)
			}
		})
	}
}
