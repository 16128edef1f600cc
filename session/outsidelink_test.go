package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestObservedQAOutsideLink: a protocol without a QA command, so the
// agent's own test run is QA. The project tracks greetlib.py, a link a
// person made before the session to a file outside the repository. A run
// after the agent edited that file (the work, in no commit) does not
// count and names the link; a run beside the untouched link counts.
func TestObservedQAOutsideLink(t *testing.T) {
	cases := []struct {
		name    string
		edit    bool
		counted bool
	}{
		{"the link's outside target edited in the session", true, false},
		{"honest: the person's link untouched", false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, earlyProtocol)
			outside := filepath.Join(t.TempDir(), "greetlib.py")
			gittest.Write(t, filepath.Dir(outside), "greetlib.py", "def greet():\n    return 'hello'\n")
			if err := os.Symlink(outside, filepath.Join(e.root, "greetlib.py")); err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, e.root, "add", "greetlib.py")
			gittest.Git(t, e.root, "commit", "-q", "-m", "chore: link the shared greetlib")
			// The real clock: the target is judged by its change time
			// against the session's start.
			e.engine.Now = time.Now
			time.Sleep(20 * time.Millisecond)
			id := e.start(c.name)
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: pytest")
			e.advance(id) // WORKING
			time.Sleep(20 * time.Millisecond)
			if c.edit {
				gittest.Write(t, filepath.Dir(outside), "greetlib.py", "def greet(name=None):\n    return 'hello ' + name\n")
			}
			e.advance(id) // QA_VALIDATION
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: "claude", Command: "python3 -m pytest -q", Output: []byte("2 passed in 0.01s\n")})
			if err != nil {
				t.Fatal(err)
			}
			if (*ev.ExitCode == 0) != c.counted {
				t.Fatalf("exit %d (%s), want counted=%v", *ev.ExitCode, ev.Ref, c.counted)
			}
			if !c.counted && !strings.Contains(ev.Ref, "greetlib.py -> ") {
				t.Fatalf("ref %q does not name the link", ev.Ref)
			}
		})
	}
}
