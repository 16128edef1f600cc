package session_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestR60HiddenTrustedInOwnMounts (helper 348): a hook whose chain ends
// at a hidden process (hidepid=2) has an unknown Oldest, so round 59's
// detached rule did not ask. Root can mount a procfs with hidepid=2 in a
// mount namespace of its own and hang a fake CLI, as another user, from a
// root process there: the fake was a witness. The hidden end is trusted
// only when every CLI kept for the session ran in the reader's mount
// namespace; else the chain's visible part (Visible) is judged.
func TestR60HiddenTrustedInOwnMounts(t *testing.T) {
	const ns, mnt = "pid:[1]", "mnt:[5]"
	agents := []string{"claude", "codex", "copilot", "cursor", "gemini"}
	for _, c := range []struct {
		name, kept, reader string
		want               string
	}{
		{"an ssh login in the same mount namespace: hidden end trusted", "10:100 a " + ns + " " + mnt, mnt, ""},
		{"a mount namespace of its own: the visible part judged", "10:100 a " + ns + " " + mnt, "mnt:[6]", "10:100"},
		{"a CLI kept before mount namespaces were kept", "10:100 a " + ns, mnt, "10:100"},
		{"the reader's mount namespace unknown", "10:100 a " + ns + " " + mnt, "", "10:100"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, onceProtocol)
			ctx := context.Background()
			id := e.start("clis")
			if err := e.db.Update(ctx, func(w session.Writer) error {
				return w.AppendEvent(ctx, &session.Event{SessionID: id, Token: "agent:claude:cli", Detail: c.kept, CreatedAt: e.now})
			}); err != nil {
				t.Fatal(err)
			}
			got, rel, err := e.engine.EarlierLiveCLI(ctx, session.CLIWitnessQuery{SessionID: id, Agent: "claude", AgentSession: "b",
				CLI: "20:200", Oldest: 0, Visible: 200, Namespace: ns, MountNamespace: c.reader, Agents: agents,
				Gone: func(string) bool { return false }})
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want || c.want != "" && rel != session.Detached {
				t.Errorf("EarlierLiveCLI = %q (%d), want %q", got, rel, c.want)
			}
		})
	}
}
