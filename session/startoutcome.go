package session

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/commitcheckout"
	"github.com/sessiongate/sessiongate/gateenv"
	"github.com/sessiongate/sessiongate/internal/procgroup"
	"github.com/sessiongate/sessiongate/pyharness"
	"github.com/sessiongate/sessiongate/testcounts"
)

// TokStartOutcome records what the QA command's run at the session's
// start commit reported of its tests: "<sha256 of the line, 16 hex>
// <passed> <not run>", or "<hash> none" when it printed no summary. One
// run per session and command line, made the first time a QA gate's run
// reports tests skipped, expected to fail or deselected.
const TokStartOutcome = "qa:start_outcome"

func (e *Engine) startOutcomeOf(s *Session) func(ctx context.Context, root, line string, env []string, timeout time.Duration) (testcounts.Outcome, bool) {
	return func(ctx context.Context, root, line string, env []string, timeout time.Duration) (testcounts.Outcome, bool) {
		return e.startOutcome(ctx, s, root, line, env, timeout)
	}
}

// startOutcome runs line at s's start commit, checked out beside the
// work tree (commitcheckout), or reads the run recorded before. false
// when there is nothing to compare with: no start commit, no summary, or
// a checkout or store that failed (logged; verify --rerun compares the
// same runs in CI).
func (e *Engine) startOutcome(ctx context.Context, s *Session, root, line string, env []string, timeout time.Duration) (testcounts.Outcome, bool) {
	if s.StartCommit == "" || strings.HasPrefix(s.StartCommit, "-") {
		return testcounts.Outcome{}, false
	}
	key := sha256Hex([]byte(line))[:16]
	if evs, err := e.Store.EventsWithPrefix(ctx, s.ID, key+" ", TokStartOutcome); err == nil && len(evs) > 0 {
		return parseStartOutcome(strings.TrimPrefix(evs[0].Detail, key+" "))
	}
	o, ok, err := runAtStart(ctx, root, s.StartCommit, line, env, timeout)
	if err != nil {
		e.Logger.Warn("run the QA command at the session's start commit", "session", s.ID, "err", err)
		return testcounts.Outcome{}, false
	}
	detail := key + " none"
	if ok {
		detail = fmt.Sprintf("%s %d %d", key, o.Passed, o.NotRun)
	}
	if err := e.Store.Update(ctx, func(w Writer) error {
		return w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: TokStartOutcome, Detail: detail, CreatedAt: time.Now().UTC()})
	}); err != nil {
		e.Logger.Warn("record the QA command's run at the start commit", "session", s.ID, "err", err)
	}
	return o, ok
}

func parseStartOutcome(d string) (testcounts.Outcome, bool) {
	var o testcounts.Outcome
	if _, err := fmt.Sscanf(d, "%d %d", &o.Passed, &o.NotRun); err != nil {
		return o, false
	}
	return o, true
}

// runAtStart runs line in a checkout of sha, with the run harness, as
// the gate runs it in the work tree.
func runAtStart(ctx context.Context, root, sha, line string, env []string, timeout time.Duration) (testcounts.Outcome, bool, error) {
	dir, remove, err := commitcheckout.Commit(ctx, root, sha)
	if err != nil {
		return testcounts.Outcome{}, false, fmt.Errorf("check out the start commit: %w", err)
	}
	defer remove()
	sh, err := gateenv.LookPath(env, "sh")
	if err != nil {
		return testcounts.Outcome{}, false, err
	}
	harness, err := pyharness.New(dir)
	if err != nil {
		return testcounts.Outcome{}, false, err
	}
	defer harness.Close()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, sh, "-c", line, "sessiongate")
	cmd.Dir, cmd.Env, cmd.WaitDelay = dir, harness.Env(env), time.Second
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	_ = procgroup.Run(cmd) // a failing start still says what ran
	if cctx.Err() != nil {
		return testcounts.Outcome{}, false, fmt.Errorf("the run at the start commit: %w", cctx.Err())
	}
	o, ok := testcounts.OutcomeOf(buf.Bytes())
	return o, ok, nil
}
