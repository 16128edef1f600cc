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
