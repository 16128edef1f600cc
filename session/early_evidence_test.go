package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// earlyProtocol has a start phase and an end phase whose BLOCKING gate
// takes observed evidence: the starter's QA Validation without a command.
const earlyProtocol = `# P

## Session Start

### Phase 1: Context Retrieval (BLOCKING)

<!-- gate: evidence tool_output -->

- The agent MUST read the README.

## Session End

### Phase 1: QA Validation (BLOCKING)

<!-- gate: evidence tool_output origin=observed -->

- The agent MUST run the tests with ` + "`./test.sh`" + ` and record their output.
`

// TestEndEvidenceBeforeTheWork: evidence for an end phase recorded while
// the session is still in its start protocol predates the work it would
// prove (tests run before any change passed the QA gate of a session whose
// change broke them). It is refused, with nothing recorded and nothing
// run; an agent hook's run of the test command then is the current start
// phase's; after the start protocol the same evidence counts.
func TestEndEvidenceBeforeTheWork(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, earlyProtocol)
	gittest.Write(t, e.root, "test.sh", "#!/bin/sh\necho ran > ran.txt\necho 'ok 3 tests'\n")
	if err := os.Chmod(filepath.Join(e.root, "test.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	id := e.start("early QA")
	count := func() int {
		evs, _ := e.db.ListEvidence(ctx, id)
		return len(evs)
	}
	_, err := e.engine.Run(ctx, session.RunRequest{ID: id, Phase: "QA_VALIDATION", Argv: []string{"./test.sh"}})
	if !errors.Is(err, session.ErrCannotRun) || !strings.Contains(err.Error(), "start protocol") {
		t.Fatalf("run for an end phase during the start protocol: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.root, "ran.txt")); err == nil {
		t.Fatal("a refused run ran its command")
	}
	if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun, Command: "./test.sh"}); err == nil || !strings.Contains(err.Error(), "start protocol") {
		t.Fatalf("observed evidence for an end phase during the start protocol: %v", err)
	}
	if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "QA_VALIDATION", Kind: session.EvidenceToolOutput, Evidence: "ok 3 tests"}); err == nil || !strings.Contains(err.Error(), "start protocol") {
		t.Fatalf("claimed evidence for an end phase during the start protocol: %v", err)
	}
	if count() != 0 {
		t.Fatal("refused evidence was recorded")
	}
	// The agent's hook saw the test command run: it is not QA evidence yet.
	ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Source: "claude", Command: "./test.sh", Output: []byte("ok 3 tests\n")})
	if err != nil || ev.Phase != "CONTEXT_RETRIEVAL" {
		t.Fatalf("an agent hook's early test run attributed to %+v: %v", ev, err)
	}
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: build with make")
	if res := e.advance(id); res.State != session.StateWorking {
		t.Fatalf("to WORKING: %+v", res)
	}
	e.advance(id) // into QA_VALIDATION
	res := e.advance(id)
	if res.Blocked == nil || res.Blocked.Phase != "QA_VALIDATION" {
		t.Fatalf("QA passed on a run from before the work: %+v", res)
	}
	if _, err := e.engine.Run(ctx, session.RunRequest{ID: id, Phase: "QA_VALIDATION", Argv: []string{"./test.sh"}}); err != nil {
		t.Fatal(err)
	}
	if res := e.advance(id); res.Blocked != nil {
		t.Fatalf("QA blocked after the tests ran in the end protocol: %+v", res.Blocked)
	}
}
