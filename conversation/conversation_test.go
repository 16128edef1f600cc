package conversation_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/conversation"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestValidateID: an id names a file and a binding, so an empty, long or
// spaced one is refused before anything is written.
func TestValidateID(t *testing.T) {
	for _, c := range []struct {
		id string
		ok bool
	}{
		{"f107036e-7728-4025-b0c8-eea5e46cff46", true},
		{"", false},
		{strings.Repeat("a", 201), false},
		{"has space", false},
		{"tab\there", false},
	} {
		err := conversation.ValidateID(c.id)
		if (err == nil) != c.ok || err != nil && !errors.Is(err, conversation.ErrID) {
			t.Errorf("ValidateID(%.20q) = %v, want ok=%v", c.id, err, c.ok)
		}
	}
}

// TestTouchRefusesBadID: the log writes nothing for an id it refuses.
func TestTouchRefusesBadID(t *testing.T) {
	l := conversation.LogAt(t.TempDir())
	if err := l.Touch("/w", "claude", "bad id", time.Now(), conversation.HookOther); !errors.Is(err, conversation.ErrID) {
		t.Fatalf("Touch with a spaced id = %v, want ErrID", err)
	}
	if _, err := os.Stat(l.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the log folder exists after a refused id: %v", err)
	}
}

// TestTouchKeepsTheFile: a hook of an open conversation marks its last hook
// without rewriting the file (the log was rewritten on every tool call,
// about a tenth of the hook's CPU): the same file, the same bytes, and the
// log still reads the newest hook. A hook that changes more than the time
// (the first, a reopen after an end, an end) still writes it.
func TestTouchKeepsTheFile(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	l := conversation.LogAt(t.TempDir())
	if err := l.Touch("/w", "claude", "c1", t0, conversation.HookStart); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(l.Dir)
	if err != nil || len(ents) != 1 {
		t.Fatalf("%d files (%v), want 1", len(ents), err)
	}
	path := l.Dir + "/" + ents[0].Name()
	before, _ := os.ReadFile(path)
	st0, _ := os.Stat(path)
	for i := 1; i <= 3; i++ {
		if err := l.Touch("/w", "claude", "c1", t0.Add(time.Duration(i)*10*time.Minute), conversation.HookOther); err != nil {
			t.Fatal(err)
		}
	}
	after, _ := os.ReadFile(path)
	st1, _ := os.Stat(path)
	if string(after) != string(before) || !os.SameFile(st0, st1) {
		t.Errorf("a tool call's hook rewrote the conversation file:\n%s\n->\n%s", before, after)
	}
	// 45 minutes after the first hook, 15 after the last: open.
	open, err := l.OpenIn("/w", t0.Add(45*time.Minute))
	if err != nil || len(open) != 1 || !open[0].LastHook.Equal(t0.Add(30*time.Minute)) {
		t.Fatalf("open %+v (%v), want c1 open with its last hook at +30m", open, err)
	}
	// The honest twin: a removal noted later does not move the last hook
	// (the person's act is not the agent's), and an end still closes it.
	if _, _, err := l.Bind("/w", "claude", "c1", "s1", t0.Add(35*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := l.NoteRemoval("/w", "s1", conversation.Removal{Act: "terminate", At: t0.Add(40 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if err := l.Touch("/w", "claude", "c1", t0.Add(31*time.Minute), conversation.HookOther); err != nil {
		t.Fatal(err)
	}
	if open, _ := l.OpenIn("/w", t0.Add(61*time.Minute+time.Second)); len(open) != 0 {
		t.Fatalf("open %+v 30 minutes after the last hook, want none", open)
	}
	if err := l.Touch("/w", "claude", "c1", t0.Add(50*time.Minute), conversation.HookEnd); err != nil {
		t.Fatal(err)
	}
	if open, _ := l.OpenIn("/w", t0.Add(51*time.Minute)); len(open) != 0 {
		t.Fatalf("open %+v after its end, want none", open)
	}
}
