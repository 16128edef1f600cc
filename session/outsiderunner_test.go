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

// TestObservedQARunnerConfigAbove (round 19): a `../go.work` written in the
// session (gateenv drops GOWORK, but go still finds the file and builds
// what it `use`s and `replace`s, which git does not hold) makes the
// agent's `go test ./...` no QA; a person's go.work from before the
// session leaves it counted.
func TestObservedQARunnerConfigAbove(t *testing.T) {
	const work = "go 1.22\n\nuse ./repo\n\nreplace example.com/dep => ./fake\n"
	for _, c := range []struct {
		name      string
		inSession bool
		counted   bool
	}{
		{"../go.work written in the session", true, false},
		{"honest: a person's ../go.work from before", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, earlyProtocol)
			above := filepath.Join(filepath.Dir(e.root), "go.work")
			t.Cleanup(func() { os.Remove(above) })
			gittest.Write(t, e.root, "go.mod", "module example.com/greet\n\ngo 1.22\n")
			gittest.Git(t, e.root, "add", "go.mod")
			gittest.Git(t, e.root, "commit", "-q", "-m", "chore: a Go module")
			e.engine.Now = time.Now // the file is judged by its change time against the start
			if !c.inSession {
				if err := os.WriteFile(above, []byte(work), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(20 * time.Millisecond)
			id := e.start(c.name)
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: go test")
			e.advance(id) // WORKING
			time.Sleep(20 * time.Millisecond)
			if c.inSession {
				if err := os.WriteFile(above, []byte(work), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			e.advance(id) // QA_VALIDATION
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: "claude", Command: "go test ./...", Output: []byte("ok  \texample.com/greet\t0.01s\n")})
			if err != nil {
				t.Fatal(err)
			}
			if (*ev.ExitCode == 0) != c.counted {
				t.Fatalf("exit %d (%s), want counted=%v", *ev.ExitCode, ev.Ref, c.counted)
			}
			if !c.counted && !strings.Contains(ev.Ref, "go.work") {
				t.Fatalf("ref %q does not name ../go.work", ev.Ref)
			}
		})
	}
}
