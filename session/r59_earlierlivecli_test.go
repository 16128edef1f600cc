package session_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestR59EarlierLiveCLI: which kept CLI makes a hook's CLI no witness.
// Keys are PID:START; the second field of a detail is the conversation.
// A CLI of another conversation, of any agent, is one only when it runs
// and started before every process the hook's CLI hangs from (Oldest).
func TestR59EarlierLiveCLI(t *testing.T) {
	const ns = "pid:[1]"
	agents := []string{"claude", "codex", "copilot", "cursor", "gemini"}
	type kept struct{ agent, detail string }
	for _, c := range []struct {
		name        string
		kept        []kept
		live        []string // keys still running (in ns)
		agent, conv string
		cli         string
		oldest      uint64
		above       []string
		want        string
		rel         session.CLIRelation
	}{
		{name: "the session's first CLI itself", kept: []kept{{"claude", "10:100 a " + ns}}, live: []string{"10:100"},
			agent: "claude", conv: "a", cli: "10:100", oldest: 50},
		{name: "another process of the same conversation while the first runs", kept: []kept{{"claude", "10:100 a " + ns}}, live: []string{"10:100"},
			agent: "claude", conv: "a", cli: "20:200", oldest: 50, want: "10:100", rel: session.SameConversation},
		{name: "the same conversation after the first ended", kept: []kept{{"claude", "10:100 a " + ns}},
			agent: "claude", conv: "a", cli: "20:200", oldest: 200},
		{name: "a new conversation hanging from nothing older (detached)", kept: []kept{{"claude", "10:100 a " + ns}}, live: []string{"10:100"},
			agent: "claude", conv: "b", cli: "20:200", oldest: 200, want: "10:100", rel: session.Detached},
		{name: "another agent's new conversation, detached", kept: []kept{{"claude", "10:100 a " + ns}}, live: []string{"10:100"},
			agent: "codex", conv: "b", cli: "20:200", oldest: 150, want: "10:100", rel: session.Detached},
		{name: "a second terminal: hangs from a terminal older than the first CLI", kept: []kept{{"claude", "10:100 a " + ns}}, live: []string{"10:100"},
			agent: "claude", conv: "b", cli: "20:200", oldest: 40},
		{name: "a new conversation after the first CLI ended", kept: []kept{{"claude", "10:100 a " + ns}},
			agent: "gemini", conv: "b", cli: "20:200", oldest: 200},
		{name: "the first CLI kept from another PID namespace is taken to run", kept: []kept{{"claude", "10:100 a pid:[2]"}},
			agent: "claude", conv: "b", cli: "20:200", oldest: 200, want: "10:100", rel: session.Detached},
		{name: "a later CLI does not unseat an earlier one", kept: []kept{{"claude", "10:100 a " + ns}, {"claude", "20:200 b " + ns}}, live: []string{"10:100", "20:200"},
			agent: "claude", conv: "a", cli: "10:100", oldest: 40},
		{name: "a CLI exec'd by the session's CLI's tool call: that CLI is above it", kept: []kept{{"claude", "10:100 a " + ns}}, live: []string{"10:100"},
			agent: "claude", conv: "b", cli: "20:200", oldest: 40, above: []string{"10:100", "5:40"}, want: "10:100", rel: session.Below},
		{name: "above it, but never kept: a launcher", kept: []kept{{"claude", "10:100 a " + ns}}, live: []string{"10:100"},
			agent: "claude", conv: "b", cli: "20:200", oldest: 40, above: []string{"15:150", "5:40"}},
		{name: "a conversation id with a space, kept one word (round 60)", kept: []kept{{"claude", "10:100 a%20b " + ns}}, live: []string{"10:100"},
			agent: "claude", conv: "a b", cli: "20:200", oldest: 50, want: "10:100", rel: session.SameConversation},
		{name: "oldest unknown: only the conversation's rule", kept: []kept{{"claude", "10:100 a " + ns}}, live: []string{"10:100"},
			agent: "claude", conv: "b", cli: "20:200", oldest: 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, onceProtocol)
			ctx := context.Background()
			id := e.start("clis")
			if err := e.db.Update(ctx, func(w session.Writer) error {
				for _, k := range c.kept {
					if err := w.AppendEvent(ctx, &session.Event{SessionID: id, Token: "agent:" + k.agent + ":cli", Detail: k.detail, CreatedAt: e.now}); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			gone := func(key string) bool {
				for _, l := range c.live {
					if l == key {
						return false
					}
				}
				return true
			}
			got, rel, err := e.engine.EarlierLiveCLI(ctx, session.CLIWitnessQuery{SessionID: id, Agent: c.agent, AgentSession: c.conv,
				CLI: c.cli, Oldest: c.oldest, Above: c.above, Namespace: ns, Agents: agents, Gone: gone})
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want || rel != c.rel {
				t.Errorf("EarlierLiveCLI = %q (%d), want %q (%d)", got, rel, c.want, c.rel)
			}
		})
	}
}
