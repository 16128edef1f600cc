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
	// Committed: a QA run judges the committed tree (untrackedqa.go).
	gittest.Git(t, e.root, "add", "test.sh")
	gittest.Git(t, e.root, "commit", "-q", "-m", "test: the test script")
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

// TestRunOutsideTheWorktree: a run that changes into a folder outside the
// session's worktree (another worktree of the repository, a pristine copy)
// tested that folder, not the session's work: its exit 0 is unknown there
// (-1) and passes no gate. A cd within the worktree is the session's.
func TestRunOutsideTheWorktree(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, earlyProtocol)
	id := e.start("tests elsewhere")
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: build with make")
	e.advance(id) // WORKING
	e.advance(id) // QA_VALIDATION
	outside := filepath.Join(filepath.Dir(e.root), "pristine")
	for _, c := range []struct {
		cmd, dir string
		own      bool
	}{
		{"sh -c 'cd ../pristine && ./test.sh'", "", false},
		{"cd ../pristine && ./test.sh", "", false},
		{"cd " + outside + " && ./test.sh", "", false},
		{"pushd /tmp/copy && ./test.sh", "", false},
		{"cd web && cd ../.. && ./test.sh", "", false},
		{"cd .. && ./test.sh", filepath.Join(e.root, "web"), true},
		{"cd ../.. && ./test.sh", filepath.Join(e.root, "web"), false},
		{"./test.sh", outside, false},
		{"git -C ../pristine stash && ./test.sh", "", false},
		{"make -C /tmp/copy test", "", false},
		{"cd web && ./test.sh", "", true},
		{"cd " + filepath.Join(e.root, "web") + " && ./test.sh", "", true},
		{"sh -c 'cd web && cd .. && ./test.sh'", "", true},
		{"./test.sh", filepath.Join(e.root, "web"), true},
		// env's own folder option moves the run too (issue 25 item 4).
		{"env -C /tmp sh -c exit", "", false},
		{"env -C /tmp ./test.sh", "", false},
		{"env --chdir=/tmp ./test.sh", "", false},
		{"env --chdir /tmp ./test.sh", "", false},
		{"env -i -C/tmp ./test.sh", "", false},
		{"sh -c 'cd /tmp && true'", "", false},
		{"env -C web ./test.sh", "", true},
	} {
		ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: "claude", Command: c.cmd, Dir: c.dir, Output: []byte("ok 3 tests\n")})
		if err != nil {
			t.Fatal(err)
		}
		if own := *ev.ExitCode == 0; own != c.own {
			t.Errorf("%q in %q: exit %d (%s), want the run counted %v", c.cmd, c.dir, *ev.ExitCode, ev.Ref, c.own)
		}
		if !c.own && !strings.Contains(ev.Ref, "outside the session's worktree") {
			t.Errorf("%q: ref %q does not say why", c.cmd, ev.Ref)
		}
		if !c.own {
			if g, _ := e.engine.ValidateGate(ctx, id, "QA_VALIDATION"); g.Status == session.StatusPass {
				t.Errorf("%q passed the QA gate", c.cmd)
			}
		}
	}
}

// TestDeleteKeepsViolations: a session whose violations were recorded is
// not hard-deleted (that erased a forced gate from the next session's
// carried_violations and from the dashboard); terminate keeps them, and
// DeleteWithViolations is the explicit way.
func TestDeleteKeepsViolations(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, earlyProtocol)
	id := e.start("force then delete")
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Force: true, Reason: "no time to read"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.engine.Terminate(ctx, id, "start afresh"); err != nil {
		t.Fatal(err)
	}
	err := e.engine.Delete(ctx, id)
	if !errors.Is(err, session.ErrRefused) || !strings.Contains(err.Error(), "FORCED_ADVANCE") || !strings.Contains(err.Error(), "terminate keeps them") {
		t.Fatalf("delete of a session with violations: %v", err)
	}
	e.now = e.now.Add(time.Minute)
	res, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "afresh"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Carried) != 1 || res.Carried[0].Code != "FORCED_ADVANCE" {
		t.Fatalf("carried after a refused delete: %+v", res.Carried)
	}
	if err := e.engine.DeleteWithViolations(ctx, id); err != nil {
		t.Fatal(err)
	}
	if vs, _ := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: id}); len(vs) != 0 {
		t.Fatalf("violations left after DeleteWithViolations: %+v", vs)
	}
}

// TestQAWithoutACommandNeedsATestRun: a QA phase with no command of its own
// takes a run of a test suite, not any command that exits 0 (the
// adversarial pass met "MUST run the tests" with `ls`, `go vet ./...` and
// `python3 -c pass`); the project's test script passes it.
func TestQAWithoutACommandNeedsATestRun(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, earlyProtocol)
	gittest.Write(t, e.root, "test.sh", "#!/bin/sh\necho 'ok 3 tests'\n")
	if err := os.Chmod(filepath.Join(e.root, "test.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, e.root, "add", "test.sh")
	gittest.Git(t, e.root, "commit", "-q", "-m", "test: the test script")
	id := e.start("QA by any command")
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: build with make")
	e.advance(id) // WORKING
	e.advance(id) // into QA_VALIDATION
	for _, argv := range [][]string{{"ls"}, {"git", "status"}, {"sh", "-c", "exit 0"}} {
		if _, err := e.engine.Run(ctx, session.RunRequest{ID: id, Phase: "QA_VALIDATION", Argv: argv}); err != nil {
			t.Fatal(err)
		}
		if res := e.advance(id); res.Blocked == nil || res.Blocked.Phase != "QA_VALIDATION" {
			t.Fatalf("QA passed on %q, which runs no test: %+v", argv, res)
		}
	}
	if _, err := e.engine.Run(ctx, session.RunRequest{ID: id, Phase: "QA_VALIDATION", Argv: []string{"./test.sh"}}); err != nil {
		t.Fatal(err)
	}
	if res := e.advance(id); res.Blocked != nil {
		t.Fatalf("QA blocked after the test script ran: %+v", res.Blocked)
	}
}

// TestRunInSubfolderRecordedThere: a test run the agent's shell made from
// a subfolder (`cd web` in one tool call, `./test.sh` in the next) is
// recorded as `cd web && ./test.sh`: which subproject's suite it ran is
// what QA judges (testrun/foldersuite.go). Without the prefix it read as a
// run at the root, which covers every subproject.
func TestRunInSubfolderRecordedThere(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, earlyProtocol)
	id := e.start("tests in web")
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: build with make")
	e.advance(id) // WORKING
	e.advance(id) // QA_VALIDATION
	if err := os.MkdirAll(filepath.Join(e.root, "web"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ cmd, dir, want string }{
		{"./test.sh", filepath.Join(e.root, "web"), "cd web && ./test.sh"},
		{"./test.sh", e.root, "./test.sh"},
		{"./test.sh", "", "./test.sh"},
		{"git status", filepath.Join(e.root, "web"), "git status"}, // only test runs move
	} {
		ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: "claude", Command: c.cmd, Dir: c.dir, Output: []byte("ok 3 tests\n")})
		if err != nil {
			t.Fatal(err)
		}
		if ev.Command != c.want {
			t.Errorf("%q in %q recorded as %q, want %q", c.cmd, c.dir, ev.Command, c.want)
		}
	}
}
