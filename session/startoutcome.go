package session

import (
	"bytes"
	"context"
	"errors"
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
// <passed> <not run>", or "<hash> none" when it printed no summary, then
// " ids:<h>,<h>,..." the hashes (pyharness.IDHash) of the tests pytest
// passed there when a pytest of the run reported them. One run per
// session and command line, made the first time a QA gate's run reports
// tests skipped, expected to fail, deselected or dropped.
const TokStartOutcome = "qa:start_outcome"

// startRun is what the QA command's run at the start commit said.
type startRun struct {
	outcome testcounts.Outcome
	counted bool // its output held a runner's summary
	// passed: the hashes of the tests pytest passed (the harness's
	// report, not the output: lazy pass 36, a warning that prints a
	// summary line); nil when no pytest reported.
	passed []string
}

// maxStartIDs bounds the test hashes a start record keeps (13 bytes
// each): beyond it the counts alone are compared.
const maxStartIDs = 100000

func (r startRun) detail(key string) string {
	d := key + " none"
	if r.counted {
		d = fmt.Sprintf("%s %d %d", key, r.outcome.Passed, r.outcome.NotRun)
	}
	if r.passed != nil && len(r.passed) <= maxStartIDs {
		d += " ids:" + strings.Join(r.passed, ",")
	}
	return d
}

func parseStartRun(d string) startRun {
	var r startRun
	d, ids, hasIDs := strings.Cut(d, " ids:")
	if _, err := fmt.Sscanf(d, "%d %d", &r.outcome.Passed, &r.outcome.NotRun); err == nil {
		r.counted = true
	}
	if hasIDs {
		r.passed = []string{}
		if ids != "" {
			r.passed = strings.Split(ids, ",")
		}
	}
	return r
}

func (e *Engine) startOutcomeOf(s *Session) func(ctx context.Context, root, line string, env []string, timeout time.Duration) (startRun, error) {
	return func(ctx context.Context, root, line string, env []string, timeout time.Duration) (startRun, error) {
		return e.startOutcome(ctx, s, root, line, env, timeout)
	}
}

// startOutcome runs line at s's start commit, checked out beside the
// work tree (commitcheckout), or reads the run recorded before. A zero
// startRun when there is nothing to compare with: no start commit, or a
// checkout, run or store that failed (logged; verify --rerun compares
// the same runs in CI). The error is a start run that cannot be trusted
// (commitcheckout.ErrForeignConfig).
func (e *Engine) startOutcome(ctx context.Context, s *Session, root, line string, env []string, timeout time.Duration) (startRun, error) {
	if s.StartCommit == "" || strings.HasPrefix(s.StartCommit, "-") {
		return startRun{}, nil
	}
	key := sha256Hex([]byte(line))[:16]
	if evs, err := e.Store.EventsWithPrefix(ctx, s.ID, key+" ", TokStartOutcome); err == nil && len(evs) > 0 {
		return parseStartRun(strings.TrimPrefix(evs[0].Detail, key+" ")), nil
	}
	r, err := runAtStart(ctx, root, s.StartCommit, line, env, timeout)
	if errors.Is(err, commitcheckout.ErrForeignConfig) {
		return startRun{}, err
	}
	if err != nil {
		e.Logger.Warn("run the QA command at the session's start commit", "session", s.ID, "err", err)
		return startRun{}, nil
	}
	if err := e.Store.Update(ctx, func(w Writer) error {
		return w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: TokStartOutcome, Detail: r.detail(key), CreatedAt: time.Now().UTC()})
	}); err != nil {
		e.Logger.Warn("record the QA command's run at the start commit", "session", s.ID, "err", err)
	}
	return r, nil
}

// runAtStart runs line in a checkout of sha, with the run harness, as
// the gate runs it in the work tree.
func runAtStart(ctx context.Context, root, sha, line string, env []string, timeout time.Duration) (startRun, error) {
	dir, remove, err := commitcheckout.Commit(ctx, root, sha)
	if err != nil {
		return startRun{}, fmt.Errorf("check out the start commit: %w", err)
	}
	defer remove()
	sh, err := gateenv.LookPath(env, "sh")
	if err != nil {
		return startRun{}, err
	}
	harness, err := pyharness.New(dir)
	if err != nil {
		return startRun{}, err
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
		return startRun{}, fmt.Errorf("the run at the start commit: %w", cctx.Err())
	}
	var r startRun
	r.outcome, r.counted = testcounts.OutcomeOf(buf.Bytes())
	tests, err := harness.Tests()
	if err != nil {
		return startRun{}, err
	}
	if tests != nil {
		r.passed = pyharness.PassedHashes(tests)
		if r.passed == nil {
			r.passed = []string{}
		}
	}
	return r, nil
}

// turnedOffSinceStart says which tests that ran to a verdict at the
// session's start commit the gate's run (out, harness) did not: by
// pytest's node ids where a pytest reported at both (lazy pass 36: new
// trivial tests no longer hide old ones turned off, nor a printed
// summary, nor items a conftest drops), else by the runners' counts
// less the tests added. "" when none or nothing to compare.
func turnedOffSinceStart(ctx context.Context, env gateEnv, harness *pyharness.Harness, out []byte, line string, cleaned []string, timeout time.Duration) (string, error) {
	tests, err := harness.Tests()
	if err != nil {
		return "", err
	}
	o, counted := testcounts.OutcomeOf(out)
	notRun := 0
	for _, st := range tests {
		if st == pyharness.Collected || st == pyharness.NotRun {
			notRun++
		}
	}
	if notRun == 0 && (!counted || o.NotRun == 0) {
		return "", nil
	}
	was, err := env.startOutcome(ctx, env.repo.Root(), line, cleaned, timeout)
	if err != nil {
		return "", fmt.Errorf("the run at the session's start commit cannot be compared: %w", err)
	}
	if was.passed != nil && tests != nil {
		off := pyharness.TurnedOff(was.passed, tests)
		if len(off) == 0 {
			return "", nil
		}
		return fmt.Sprintf("%d test(s) that passed at the session's start commit are now collected and not run to a verdict (skipped, expected to fail, deselected, dropped from the run's items, or their function replaced by one that never finished it): %s", len(off), pyharness.ListIDs(off, 5)), nil
	}
	if !was.counted || !counted {
		return "", nil
	}
	if k := testcounts.TurnedOff(was.outcome, o); k > 0 {
		return fmt.Sprintf("%d test(s) that ran to a verdict at the session's start commit do not now: skipped, expected to fail or deselected (start: %d passed, %d not run; now: %d passed, %d not run), with no test added to account for them", k, was.outcome.Passed, was.outcome.NotRun, o.Passed, o.NotRun), nil
	}
	return "", nil
}
