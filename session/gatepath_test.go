package session_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestGatePathBoundToStart: a folder put on PATH after the session
// started (here a real one outside the work tree and the temporary
// folders) is not where a gate's command finds its programs; the gate
// names it. The PATH the session started with is kept whole (honest).
func TestGatePathBoundToStart(t *testing.T) {
	added := "/usr/local/sbin"
	if st, err := os.Stat(added); err != nil || !st.IsDir() {
		added = "/sbin"
	}
	for _, c := range []struct {
		name  string
		named bool // the folder is put first after the start
	}{
		{"honest: the PATH it started with", false},
		{"a folder put first after the start", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PATH", strings.ReplaceAll(os.Getenv("PATH"), added, "/nonexistent"))
			e := newEnv(t, gateProtocol(`<!-- gate: evidence manual -->`))
			// The session starts before the folder last changed: to the
			// gate it is a folder made after the start, as an agent's
			// ~/fake would be (one unchanged since is kept: a shell profile's).
			e.now = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
			e.engine.Config.Commands = map[string]string{"CHECK": `case ":$PATH:" in *":` + added + `:"*) exit 1;; esac`}
			id := e.start("path bound")
			e.evidence(id, "CHECK", session.EvidenceManual, "reviewed the change with the maintainer")
			if c.named {
				t.Setenv("PATH", added+":"+os.Getenv("PATH"))
			}
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != session.StatusPass {
				t.Fatalf("the added folder reached the command: %s %s", g.Status, g.Message)
			}
			if named := strings.Contains(g.Message, "PATH entries added after the session started ("+added+")"); named != c.named {
				t.Fatalf("message %q: names %s %v, want %v", g.Message, added, named, c.named)
			}
		})
	}
}
