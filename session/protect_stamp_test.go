//go:build linux

package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestGateCallsSeeProtectedEditsWithStampCache: validate_gate calls answer
// the protected-file check from the stamp cache while nothing changes
// (honest calls keep passing the guard), and the first call after an agent
// rewrites the protocol in place (same size, mtime put back) is refused.
func TestGateCallsSeeProtectedEditsWithStampCache(t *testing.T) {
	session.SetStampNow(func() time.Time { return time.Now().Add(time.Minute) }) // stamps count as old
	t.Cleanup(func() { session.SetStampNow(time.Now) })
	e := newEnv(t, flowProtocol)
	e.engine.Config.Protect = true
	ctx := context.Background()
	gittest.Commit(t, e.root, "protocol", map[string]string{"SESSION-PROTOCOL.md": flowProtocol})
	id := e.start("stamp cache")
	for i := range 3 {
		if _, err := e.engine.ValidateGate(ctx, id, ""); err != nil {
			t.Fatalf("honest call %d: %v", i, err)
		}
	}
	time.Sleep(20 * time.Millisecond) // past the timestamp tick of the cached stamps
	p := filepath.Join(e.root, "SESSION-PROTOCOL.md")
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	weak := strings.Replace(flowProtocol, "MUST", "MAY ", 1)
	if len(weak) != len(flowProtocol) || weak == flowProtocol {
		t.Fatal("the edit must keep the size")
	}
	if err := os.WriteFile(p, []byte(weak), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if _, err := e.engine.ValidateGate(ctx, id, ""); !errors.Is(err, session.ErrProtectedChanged) {
		t.Fatalf("after an in-place edit of the protocol: %v, want ErrProtectedChanged", err)
	}
}
