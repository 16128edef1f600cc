package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestConversationLogOpen: a conversation is open from its hooks until its
// end event or the idle time; a later hook (a resume) opens it again; a
// damaged file counts as open (an edit must not hide a conversation).
func TestConversationLogOpen(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	type hook struct {
		at   time.Duration
		hook session.Hook
	}
	o, st, end := session.HookOther, session.HookStart, session.HookEnd
	cases := []struct {
		name  string
		hooks []hook
		at    time.Duration
		open  bool
	}{
		{"a hook a minute ago", []hook{{0, st}}, time.Minute, true},
		{"idle past the limit", []hook{{0, st}, {time.Second, o}}, session.ConversationIdle + 2*time.Second, false},
		{"ended", []hook{{0, st}, {time.Minute, end}}, 2 * time.Minute, false},
		{"resumed after its end", []hook{{0, st}, {time.Minute, end}, {2 * time.Minute, st}}, 3 * time.Minute, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log := session.ConversationLog{Dir: t.TempDir()}
			for _, h := range c.hooks {
				if err := log.Touch("/w", "claude", "conv-1", t0.Add(h.at), h.hook); err != nil {
					t.Fatal(err)
				}
			}
			// Another worktree's conversation is not this one's.
			if err := log.Touch("/other", "codex", "conv-2", t0.Add(c.at), session.HookOther); err != nil {
				t.Fatal(err)
			}
			open, err := log.OpenIn("/w", t0.Add(c.at))
			if err != nil {
				t.Fatal(err)
			}
			if got := len(open) == 1 && open[0].Name() == "claude:conv-1"; got != c.open || len(open) > 1 {
				t.Fatalf("open %v, want claude:conv-1 open=%v", open, c.open)
			}
		})
	}
	t.Run("damaged file", func(t *testing.T) {
		log := session.ConversationLog{Dir: t.TempDir()}
		if err := log.Touch("/w", "claude", "conv-1", time.Now().Add(-2*session.ConversationIdle), session.HookOther); err != nil {
			t.Fatal(err)
		}
		ents, _ := os.ReadDir(log.Dir)
		if len(ents) != 1 {
			t.Fatalf("%d files, want 1", len(ents))
		}
		if err := os.WriteFile(filepath.Join(log.Dir, ents[0].Name()), []byte("{not json"), 0o600); err != nil {
			t.Fatal(err)
		}
		open, err := log.OpenIn("/w", time.Now())
		if err != nil || len(open) != 1 || !strings.HasPrefix(open[0].ID, "damaged ") {
			t.Fatalf("open %v (%v), want the damaged file counted as open", open, err)
		}
	})
	t.Run("bad id", func(t *testing.T) {
		log := session.ConversationLog{Dir: t.TempDir()}
		if err := log.Touch("/w", "claude", "has space", t0, session.HookOther); err == nil {
			t.Fatal("an id with a space was accepted")
		}
	})
}

// TestInheritConversation: a session bound to a conversation whose
// earlier session was terminated takes over its transcript binding, and a
// SESSION_RESTARTED violation when the removal was unsigned during the
// open conversation or not recorded; a signed removal, or one with the
// conversation closed, leaves none.
func TestInheritConversation(t *testing.T) {
	cases := []struct {
		name      string
		removal   *session.ConversationRemoval // nil: none recorded
		violation bool
	}{
		{"unsigned during the conversation", &session.ConversationRemoval{Act: session.ActTerminate, During: true}, true},
		{"signed during the conversation", &session.ConversationRemoval{Act: session.ActTerminate, During: true, Signed: true}, false},
		{"with the conversation closed", &session.ConversationRemoval{Act: session.ActTerminate}, false},
		{"no act recorded", nil, true},
		// The act saw the conversation ended, but its next hook was a
		// prompt, not a start: the end was forged (a hand-run SessionEnd).
		{"forged end", &session.ConversationRemoval{Act: session.ActTerminate}, true},
		// The log's file deleted: the session's own person:<act> event says it.
		{"log lost, event during", nil, true},
		{"log lost, event with none open", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, flowProtocol)
			log := session.ConversationLog{Dir: t.TempDir()}
			first := e.start("first")
			tr := filepath.Join(t.TempDir(), "t.jsonl")
			if err := os.WriteFile(tr, []byte("{}\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := e.engine.BindTranscript(ctx, first, "claude", "conv-1", tr); err != nil {
				t.Fatal(err)
			}
			if _, _, err := log.Bind(e.root, "claude", "conv-1", first, e.now); err != nil {
				t.Fatal(err)
			}
			if lost := strings.HasPrefix(c.name, "log lost"); lost {
				pa := &session.PersonAct{Act: session.ActTerminate, SessionID: first}
				if c.violation {
					pa.Open = []session.OpenConversation{{Agent: "claude", ID: "conv-1"}}
				}
				if err := e.engine.RecordPersonActEvent(ctx, pa); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := e.engine.Terminate(ctx, first, "start afresh"); err != nil {
				t.Fatal(err)
			}
			forged := c.name == "forged end"
			if forged {
				if err := log.Touch(e.root, "claude", "conv-1", e.now, session.HookEnd); err != nil {
					t.Fatal(err)
				}
			}
			if c.removal != nil {
				r := *c.removal
				r.At = e.now.Add(time.Second)
				if err := log.NoteRemoval(e.root, first, r); err != nil {
					t.Fatal(err)
				}
			}
			if forged {
				if err := log.Touch(e.root, "claude", "conv-1", e.now.Add(2*time.Second), session.HookOther); err != nil {
					t.Fatal(err)
				}
			}
			second := e.start("second")
			before, added, err := log.Bind(e.root, "claude", "conv-1", second, e.now)
			if err != nil || !added {
				t.Fatalf("bind: added %v, %v", added, err)
			}
			notes, err := e.engine.InheritConversation(ctx, second, before)
			if err != nil {
				t.Fatal(err)
			}
			if len(notes) != 1 || !strings.Contains(notes[0], first) {
				t.Fatalf("notes %q, want one naming %s", notes, first)
			}
			ts, err := e.db.SessionTranscripts(ctx, second)
			if err != nil || len(ts) != 1 || ts[0].Path != tr {
				t.Fatalf("transcripts of the fresh session %+v (%v), want the inherited %s", ts, err, tr)
			}
			vs, err := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: second})
			if err != nil {
				t.Fatal(err)
			}
			got := len(vs) == 1 && vs[0].Code == session.CodeSessionRestarted && strings.Contains(vs[0].Message, first)
			if got != c.violation || len(vs) > 1 {
				t.Fatalf("violations %+v, want SESSION_RESTARTED=%v", vs, c.violation)
			}
		})
	}
}
