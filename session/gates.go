package session

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/gitmemo"
	"github.com/sessiongate/sessiongate/internal/procgroup"
	"github.com/sessiongate/sessiongate/repopath"

	"github.com/sessiongate/sessiongate/builtinlint"
	"github.com/sessiongate/sessiongate/cmdoutput"
	"github.com/sessiongate/sessiongate/cmdsplice"
	"github.com/sessiongate/sessiongate/gateenv"
	"github.com/sessiongate/sessiongate/godepchange"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/pyharness"
	"github.com/sessiongate/sessiongate/slowsuite"
	"github.com/sessiongate/sessiongate/testrun"
)

// GateResult is the outcome of a phase's gate: every check, combined.
type GateResult struct {
	Phase    string        `json:"phase"`
	Title    string        `json:"title"`
	Level    GateLevel     `json:"requirement_level"`
	Status   GateStatus    `json:"status"`
	Checks   []CheckResult `json:"checks"`
	Message  string        `json:"message"`
	Decision string        `json:"decision,omitempty"`
	Duration time.Duration `json:"duration_ns"`
	// Output is the tail of failing command output, returned to the caller
	// and never stored (only its hash is).
	Output string `json:"output,omitempty"`
	// Warnings from sequence rules that let the call proceed.
	Warnings []string `json:"warnings,omitempty"`
}

// gateEnv is what checks look at.
type gateEnv struct {
	// claimRefused says a typed claim for a requirement (nil: the phase)
	// would be refused, its MCP server configured nowhere
	// (Engine.claimRefusedFn); nil: not judged. Fixes then offer the
	// not-applicable mark.
	claimRefused claimRefused
	// goCache keeps proven downloaded Go toolchains (Engine.toolchainCache).
	goCache godepchange.Cache
	// runDir returns where a command gate runs when not in the work tree:
	// a temporary checkout of the landed commit judged (HookRequest.GateDir).
	runDir   func(context.Context) (string, error)
	repo     Repo
	sess     *Session
	phase    *protocolspec.Phase
	evidence []Evidence // Store.GateEvidence: the phase's, and content hashes of any phase
	cfg      Config
	staged   bool // command placeholders {changed:} use the staged list (hooks)
	// hook: a git hook's gate, whose result no phase keeps: the tree a
	// command read is recorded only for phase gates (staleQA reads it),
	// keeping three git processes off every pre-commit.
	hook bool
	// atStart reads what the start recorded of the files git hides (the
	// developer's flagged files, the exclude patterns); nil: none.
	atStart func(ctx context.Context) (hidden map[string]string, excludes []string)
	// tipsAtStart gives the branch and tag tips the start recorded,
	// HEAD's own left out (nil: none recorded): not_default_branch leaves
	// out what they held (a person's commit on local main before the
	// session).
	tipsAtStart func(ctx context.Context) []string
	// remotesAtStart gives the remote-tracking tips the start recorded
	// (nil: none recorded): not_default_branch takes what a remote's
	// branch held then, not what an agent's update-ref made it hold.
	remotesAtStart func(ctx context.Context) map[string]string
	// parkedAtStart gives the stash entries and linked worktrees the
	// start recorded (ok false: none recorded, an older session):
	// clean_worktree names what was parked since (parked.go).
	parkedAtStart func(ctx context.Context) (parkedStart, bool)
	// environ is the clean environment of a command gate (gateEnviron),
	// dropped what it left out; nil: gateenv.Clean's unbounded one.
	environ, dropped []string
	// programsWhy judges the programs a command's line runs against the
	// session's start (Engine.programsWhy); nil: not judged.
	programsWhy func(ctx context.Context, line string, env []string, root string) (string, error)
	// startOutcome is what line's run at the session's start commit
	// reported of its tests (Engine.startOutcome); nil: not compared.
	startOutcome func(ctx context.Context, root, line string, env []string, timeout time.Duration) (startRun, error)
	progress     CommandProgress
	// commitRecords maps each commit the session recorded to its evidence
	// kind (commit_sha: checked; bypass_commit: BYPASS); nil: no store.
	commitRecords func(ctx context.Context, shas []string) (map[string]string, error)
	// continued is sess counted from the start of the ABANDONED sessions
	// it continues (continuedFrom); nil when none. Conditions read it.
	continued    *Session
	continuedIDs []string
	// protocol returns the session's protocol text, which a written file
	// may quote without it being the session's words (startCopy); nil:
	// none set aside (a hook's gate).
	protocol func() string
}

// continuedFrom says, for a check's message, where a check that judged the
// work of the sessions this one continued counted from.
func (env gateEnv) continuedFrom() string {
	if env.continued == nil || len(env.continuedIDs) == 0 {
		return ""
	}
	return fmt.Sprintf(" (counted from %s, where session %s, ABANDONED and continued by this one, started)",
		shortSHA(env.continued.StartCommit), env.continuedIDs[len(env.continuedIDs)-1])
}

// CommandProgress observes command gates as they run.
type CommandProgress interface {
	// CommandStarted: phase's gate runs command (the line as written).
	CommandStarted(phase, command string)
	// CommandDone: it ended with status after elapsed; tail is the end of
	// its output when it failed.
	CommandDone(phase, command string, status GateStatus, elapsed time.Duration, tail string)
}

// runGate runs every check of a phase. A FAIL anywhere fails the gate; a
// gate whose checks all skipped is SKIPPED (nothing to check), never PASS.
func runGate(ctx context.Context, env gateEnv) GateResult {
	start := time.Now()
	p := env.phase
	res := GateResult{Phase: p.ID, Title: p.Title, Level: p.Level()}
	checks := GateChecks(p, env.cfg.Commands)
	var outputs []string
	for _, c := range checks {
		cr, out := runCheck(ctx, env, c)
		res.Checks = append(res.Checks, cr)
		if out != "" {
			outputs = append(outputs, out)
		}
	}
	res.Status = combine(res.Checks)
	res.Output = strings.Join(outputs, "\n")
	res.Duration = time.Since(start)
	res.Message = gateMessage(res)
	if res.Status == StatusSkipped && conditionsUnmet(res.Checks) {
		// Checked by the machine, not said by the agent: clean.
		res.Decision = DecisionConditionNotMet
		res.Message = fmt.Sprintf("gate %s %s", p.ID, res.Checks[0].Message)
	}
	return res
}

// withConfigCommand replaces the phase's command checks with the configured one.
// GateChecks are the checks a phase's gate runs: the protocol's, with the
// command sessiongate.yaml sets for the phase (commands: PHASE) in place of
// the protocol's command and per-requirement evidence. Every place that
// lists a phase's checks uses it, so what is shown is what runs.
func GateChecks(p *protocolspec.Phase, commands map[string]string) []protocolspec.Check {
	if cmd, ok := commands[p.ID]; ok {
		return withConfigCommand(p.Checks, cmd)
	}
	return p.Checks
}

func withConfigCommand(checks []protocolspec.Check, cmd string) []protocolspec.Check {
	var out []protocolspec.Check
	for _, c := range checks {
		if c.Kind != protocolspec.CheckCommand && c.Kind != protocolspec.CheckMustEvidence {
			out = append(out, c)
		}
	}
	return append(out, protocolspec.Check{Kind: protocolspec.CheckCommand, Arg: cmd})
}

func combine(rs []CheckResult) GateStatus {
	status := StatusSkipped
	for _, r := range rs {
		switch r.Status {
		case StatusFail:
			return StatusFail
		case StatusPass:
			status = StatusPass
		}
	}
	return status
}

func gateMessage(r GateResult) string {
	var fails, passes []string
	for _, c := range r.Checks {
		switch c.Status {
		case StatusFail:
			fails = append(fails, c.Message)
		case StatusPass:
			passes = append(passes, c.Message)
		}
	}
	switch r.Status {
	case StatusFail:
		return fmt.Sprintf("gate %s failed: %s", r.Phase, strings.Join(fails, "; "))
	case StatusSkipped:
		if checkedNothing(r.Checks) {
			return fmt.Sprintf("gate %s checked nothing, which is not a pass", r.Phase)
		}
		return fmt.Sprintf("gate %s: nothing to check", r.Phase)
	}
	return fmt.Sprintf("gate %s passed: %s", r.Phase, strings.Join(passes, "; "))
}

func runCheck(ctx context.Context, env gateEnv, c protocolspec.Check) (CheckResult, string) {
	if c.When != "" || c.WhenChanged != "" {
		start := time.Now()
		from := ""
		if env.continued != nil {
			// The abandoned work this session continued is judged with
			// its own (continuedFrom): the condition and the check both.
			from = env.continuedFrom()
			env.sess, env.continued = env.continued, nil
		}
		cr, out := conditionalCheck(ctx, env, c, func() (CheckResult, string) {
			if c.When == protocolspec.CondFeatureBranch && c.Inferred != nil && c.Inferred.Rule == protocolspec.RuleListedFile {
				c.Arg = branchFolder(ctx, env, c.Arg)
			}
			c.When, c.WhenChanged = "", ""
			return runCheck(ctx, env, c)
		})
		if from != "" {
			cr.Message += from
		}
		cr.Duration = time.Since(start)
		return cr, out
	}
	start := time.Now()
	cr := CheckResult{Kind: c.Kind, Arg: c.Arg}
	var out string
	switch c.Kind {
	case protocolspec.CheckFileExists:
		cr.Status, cr.Message, cr.Evidence = checkFileExists(ctx, env, c)
	case protocolspec.CheckChangedSinceStart:
		var judge func(string) (string, error)
		if listedFileCheck(c) {
			judge = listedJudge(ctx, env)
		}
		cr.Status, cr.Message, cr.Evidence = checkChanged(ctx, env, c.Arg, judge)
	case protocolspec.CheckContentHash:
		cr.Status, cr.Message, cr.Evidence = checkContentHash(env, c.Arg)
		if rel, err := repopath.Clean(c.Arg); err == nil {
			// Under an agent transcript, a requirement to read the file
			// is met by the read, not by its hash.
			if st, ok := transcriptRead(env, rel); ok {
				switch {
				case st.Status == ReqMet:
					cr.Status, cr.Message = StatusPass, st.Reason
				default:
					cr.Status, cr.Message, cr.Evidence, cr.Open = StatusFail, st.ID+": "+st.Reason, "", []RequirementStatus{st}
				}
			}
		}
	case protocolspec.CheckCommand:
		if h, _, err := env.repo.Head(ctx); err == nil {
			cr.Head = h // what the command is about to see (staleQA)
		}
		if !env.hook {
			if t, err := env.repo.WorkTreeTree(ctx); err == nil {
				cr.Tree = t // and the tracked files it reads, committed or not
			}
		}
		cr.Status, cr.Message, cr.Evidence, out = checkCommand(ctx, env, c)
	case protocolspec.CheckCommitSinceStart:
		cr.Status, cr.Message, cr.Evidence = checkCommit(ctx, env)
	case protocolspec.CheckCleanWorktree:
		cr.Status, cr.Message, cr.Evidence = checkClean(ctx, env)
	case protocolspec.CheckEvidence:
		cr.Status, cr.Message, cr.Evidence = checkEvidence(env, c.Arg)
	case protocolspec.CheckMustEvidence:
		cr.Status, cr.Message, cr.Evidence, cr.Open = checkMustEvidence(env)
	default:
		var ok bool
		if cr.Status, cr.Message, cr.Evidence, ok = runMoreCheck(ctx, env, c); !ok {
			cr.Status, cr.Message = StatusFail, fmt.Sprintf("unknown check kind %q", c.Kind)
		}
	}
	cr.Duration = time.Since(start)
	cr.Fix = fixFor(env.phase, cr)
	cr.Fixes = fixesFor(env.phase, cr)
	if env.claimRefused != nil {
		if cr.Fix != nil {
			*cr.Fix = naInstead(env.phase, []NextStep{*cr.Fix}, env.claimRefused)[0]
		}
		cr.Fixes = naInstead(env.phase, cr.Fixes, env.claimRefused)
	}
	return cr, out
}

// checkContentHash passes when content_hash evidence for the file was
// recorded and still matches the file (the agent read the current version).
func checkContentHash(env gateEnv, rel string) (GateStatus, string, string) {
	c, err := repopath.Clean(rel)
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	_, ok, err := repopath.Resolve(env.repo.Root(), c)
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	if !ok {
		return StatusFail, fmt.Sprintf("%s does not exist", c), ""
	}
	b, err := readWorkFile(env.repo.Root(), c)
	if boundedread.Refused(err) {
		return StatusFail, fmt.Sprintf("%v: not judged here", err), ""
	}
	if err != nil {
		return StatusFail, fmt.Sprintf("read %s: %v", c, err), ""
	}
	sum := sha256Hex(b)
	found := false
	for _, e := range env.evidence {
		if e.Kind == EvidenceContentHash && e.Ref == c {
			found = true
			if e.SHA256 == sum {
				return StatusPass, fmt.Sprintf("content hash of %s recorded", c), "sha256:" + sum
			}
		}
	}
	if e := observedRead(env, c, b); e != nil {
		return StatusPass, observedReadMsg(e, c), "sha256:" + sum
	}
	if found {
		return StatusFail, fmt.Sprintf("%s changed after its hash was recorded: read it again and record content_hash evidence %q", c, c), ""
	}
	return StatusFail, fmt.Sprintf("no content_hash evidence for %s: read it, then record its content hash", c), ""
}

func checkClean(ctx context.Context, env gateEnv) (GateStatus, string, string) {
	var st []string
	var err error
	if cs, ok := env.repo.(sinceStatuser); ok && env.sess != nil {
		// A rewrite hidden in a refresh's second is one the session made:
		// the files it touched are compared by content (gitrepo).
		st, err = cs.StatusSince(ctx, env.sess.CreatedAt.Add(-time.Second))
	} else {
		st, err = env.repo.Status(ctx)
	}
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	if hr, ok := env.repo.(hiddenLister); ok && env.sess != nil {
		// What git status does not show is still not committed: a tracked
		// change under skip-worktree or assume-unchanged, an untracked
		// file an exclude written during the session hides (lazy pass 28).
		since := env.sess.CreatedAt.Add(-time.Second)
		var flaggedAtStart map[string]string
		var excludesAtStart []string
		if env.atStart != nil {
			flaggedAtStart, excludesAtStart = env.atStart(ctx)
		}
		hidden, err := hr.FlaggedSince(ctx, since)
		if err != nil {
			return StatusFail, err.Error(), ""
		}
		for _, p := range slices.Sorted(maps.Keys(hidden)) {
			if _, ok := flaggedAtStart[p]; ok {
				// The developer's flag, standing (with their local
				// change) before the session: a local config the app
				// rewrites is theirs not to commit (review 28, c9).
				continue
			}
			st = append(st, " M "+p+" ("+hidden[p]+")")
		}
		excluded, err := hr.ExcludedSince(ctx, since, excludesAtStart)
		if err != nil {
			return StatusFail, err.Error(), ""
		}
		for _, p := range excluded {
			st = append(st, "?? "+p+" (hidden by an exclude file changed during the session)")
		}
	}
	if len(st) > 0 {
		first := st[0]
		return StatusFail, fmt.Sprintf("work tree not clean (%d entries, first %q): commit it, or undo what is not the session's work", len(st), first), ""
	}
	// Not in a git hook: a commit cannot park work, and the phase's own
	// gate reads it (two git processes kept off every pre-commit).
	if !env.hook {
		if parked := parkedWork(ctx, env); len(parked) > 0 {
			return StatusFail, fmt.Sprintf("work tree clean, but %d change(s) were put where it does not show them during the session (first %s): a clean tree asks that the work be committed on the session's branch; apply or merge it and commit, or drop it", len(parked), parked[0]), ""
		}
	}
	return StatusPass, "work tree clean", ""
}

// hiddenLister is a Repo that lists changes git status does not show
// (gitrepo.Repo).
type hiddenLister interface {
	FlaggedSince(ctx context.Context, since time.Time) (map[string]string, error)
	ExcludedSince(ctx context.Context, since time.Time, atStart []string) ([]string, error)
}

// sinceStatuser is a Repo whose status also compares by content the files
// touched since a time (gitrepo.Repo).
type sinceStatuser interface {
	StatusSince(ctx context.Context, since time.Time) ([]string, error)
}

// checkCommand runs a protocol- or config-defined command with the
// repository as working directory. Placeholders expand to the session's
// changed (or staged) files; zero files means SKIPPED, never PASS.
func checkCommand(ctx context.Context, env gateEnv, c protocolspec.Check) (status GateStatus, msg, evidence, output string) {
	line, args, n, err := expandCommand(ctx, env, c.Arg)
	if err != nil {
		return StatusFail, err.Error(), "", ""
	}
	if n == 0 {
		return StatusSkipped, fmt.Sprintf("no matching changed files for %q: nothing to run", c.Arg), "", ""
	}
	timeout := time.Duration(c.Timeout)
	if timeout <= 0 {
		timeout = env.cfg.CommandTimeout
	}
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// The command runs in the work tree, or in the checkout of a landed
	// commit it judges (runDir): its files, not the later work tree's.
	root := env.repo.Root()
	if env.runDir != nil {
		if root, err = env.runDir(ctx); err != nil {
			return StatusFail, "command not run: " + err.Error(), "", ""
		}
	}
	cleaned, dropped := env.environ, env.dropped
	if cleaned == nil {
		cleaned, dropped = gateenv.Clean(os.Environ(), root, env.staged)
	}
	sh, err := gateenv.LookPath(cleaned, "sh")
	if err != nil {
		return StatusFail, "command cannot run: no sh on PATH", "", ""
	}
	line, ok := builtinlint.Line(c, root, cleaned, line)
	if !ok {
		return StatusFail, builtinlint.MissingMsg(env.phase.ID), "", ""
	}
	base, baseDone, err := builtinlint.Env(c, root)
	if err != nil {
		return StatusFail, err.Error(), "", ""
	}
	defer baseDone()
	cleaned = append(cleaned, base...)
	// The linters a checkout runs are the work tree's node_modules,
	// linked in: they are proven where they are installed.
	if why := builtinlint.Untrusted(c, env.repo.Root(), cleaned, env.sess.CreatedAt, lockAtStart(ctx, env)...); why != "" {
		return StatusFail, why, "", ""
	}
	if qaPhase(env.phase, env.cfg) && !env.staged {
		// A QA gate judges the committed work (untrackedqa.go); at commit
		// time (staged) the index is what is judged, not the work tree.
		files, err := untrackedRead(ctx, env.repo, env.sess, line)
		if err != nil {
			return StatusFail, err.Error(), "", ""
		}
		if len(files) > 0 {
			return StatusFail, "command not run: " + untrackedMsg(files), "", ""
		}
		if _, err := freshenChanged(ctx, env.repo, env.sess, time.Now()); err != nil {
			return StatusFail, "command not run: " + err.Error(), "", ""
		}
		var honoured map[string]bool
		if env.atStart != nil {
			flagged, _ := env.atStart(ctx)
			honoured = honouredOf(ctx, env.repo, flagged, env.cfg.Commands, true)
		}
		if hc, err := hiddenWork(ctx, env.repo, env.sess, env.cfg.DocGlobs, honoured); err != nil || len(hc) > 0 {
			if err != nil {
				return StatusFail, "command not run: " + err.Error(), "", ""
			}
			return StatusFail, "command not run: git hides how the work tree differs from what is committed (" + shorten.List(hc, 5) + "): the tests would see the work tree, not the commit; undo it (`git update-index --no-skip-worktree --no-assume-unchanged FILE` then `git checkout -- FILE`, remove the filter, or commit the file a link points at in its place)", "", ""
		}
		if sh, err := shadowedSources(ctx, env.repo, env.sess); err != nil || len(sh) > 0 {
			if err != nil {
				return StatusFail, "command not run: " + err.Error(), "", ""
			}
			return StatusFail, "command not run: " + shorten.List(sh, 3) + ": the tests would test the compiled file, built from whatever source; remove it, or rebuild it from the source in the command", "", ""
		}
		if why, err := testrun.GoDepsChanged(ctx, env.repo, cleaned, line, env.sess.CreatedAt, env.sess.StartCommit, env.goCache); err != nil || why != "" {
			if err != nil {
				return StatusFail, "command not run: " + err.Error(), "", ""
			}
			return StatusFail, "command not run: " + why, "", ""
		}
	}
	// (After the linter trust check, whose message is the more exact.)
	// A program written after the start into a folder of the gate's
	// PATH, or into the work tree's node_modules/.venv (gateprog).
	if env.programsWhy != nil {
		why, err := env.programsWhy(ctx, line, cleaned, root)
		if err != nil {
			return StatusFail, err.Error(), "", ""
		}
		if why != "" {
			return StatusFail, "command not run: " + why + ": reinstall it with its installer, or start a new session after it is in place", "", ""
		}
	}
	// Python processes of the command load the run harness first: it
	// reports a test framework the run's code replaced, or a runner left
	// by os._exit (pyharness).
	harness, err := pyharness.New(root)
	if err != nil {
		return StatusFail, "command not run: " + err.Error(), "", ""
	}
	defer harness.Close()
	// "sessiongate" is $0; the file names are $1... and never part of the line.
	cmd := exec.CommandContext(cctx, sh, append([]string{"-c", line, "sessiongate"}, args...)...)
	cmd.Dir = root
	cmd.Env = harness.Env(cleaned)
	defer func() {
		if len(dropped) > 0 {
			msg += " (run without " + strings.Join(dropped, ", ") + " from the caller's environment)"
		}
	}()
	cmd.WaitDelay = time.Second
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if env.progress != nil {
		started := time.Now()
		env.progress.CommandStarted(env.phase.ID, c.Arg)
		defer func() { env.progress.CommandDone(env.phase.ID, c.Arg, status, time.Since(started), output) }()
	}
	// Kill the whole tree on timeout, not only sh.
	err = procgroup.Run(cmd)
	// The command may have written the work tree: later checks read it anew.
	gitmemo.Forget(ctx)
	sum := "sha256:" + sha256Hex(buf.Bytes())
	tail := tailLines(buf.String(), 20, 4096)
	switch {
	case cctx.Err() == context.DeadlineExceeded:
		if qaPhase(env.phase, env.cfg) && !env.staged && n < 0 {
			// A suite longer than the limit: the agent's own run of this
			// command on this tree stands in (slowsuite.go).
			ev, err := slowSuiteRun(ctx, env, c.Arg)
			if err != nil {
				return StatusFail, err.Error(), sum, tail
			}
			if ev != nil {
				return StatusPass, fmt.Sprintf("command passed: %s (the gate's run timed out after %s; `sessiongate run` of it passed on this same tree in %s)", c.Arg, timeout, ev.Duration.Round(time.Second)), sum, ""
			}
			return StatusFail, slowsuite.Msg(timeout, env.phase.ID, c.Arg), sum, tail
		}
		return StatusFail, fmt.Sprintf("command timed out after %s: %s", timeout, c.Arg), sum, tail
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return StatusFail, fmt.Sprintf("command exited %d: %s", ee.ExitCode(), c.Arg), sum, tail
		}
		return StatusFail, fmt.Sprintf("command failed to start: %v", err), sum, tail
	}
	if found, err := harness.Findings(); err != nil {
		return StatusFail, err.Error(), sum, tail
	} else if len(found) > 0 {
		// What a file the session did not change did, the project did
		// before it (an honest conftest's os._exit past a hanging thread).
		files, err := sessionFiles(ctx, env.repo, env.sess)
		if err != nil {
			return StatusFail, err.Error(), sum, tail
		}
		if found = pyharness.By(found, files); len(found) > 0 {
			return StatusFail, fmt.Sprintf("command passed, but %s: the run's own code changed what decides a test's result (command: %s)", pyharness.Texts(found), c.Arg), sum, tail
		}
	}
	// (After the harness, whose finding names the cause.)
	// pytest_unconfigure setting session.exitstatus = 0, a make recipe
	// that drops the status: the runner's own summary says what ran
	// (lazy pass 35, route P1c).
	if line := cmdoutput.RunnerFailed(buf.Bytes()); line != "" {
		return StatusFail, fmt.Sprintf("command exited 0, but its test runner said tests failed (%q): its exit status is not the tests' (command: %s)", line, c.Arg), sum, tail
	}
	// Lazy pass 35, P3: the failing tests' ids added to a known-failures
	// list a conftest turns into xfail, with no test file changed. A run
	// that says tests were skipped, expected to fail, deselected or (by
	// pytest's own hooks, pyharness) dropped from its items is compared
	// with the same line's run at the start commit.
	if qaPhase(env.phase, env.cfg) && !env.staged && n < 0 && env.startOutcome != nil {
		if why, err := turnedOffSinceStart(ctx, env, harness, buf.Bytes(), line, cleaned, timeout); err != nil {
			return StatusFail, fmt.Sprintf("command passed, but %v (command: %s)", err, c.Arg), sum, tail
		} else if why != "" {
			return StatusFail, fmt.Sprintf("command passed, but %s; a known-failures list or a conftest can do that without a skip marker in a test file: undo it, or fix the tests (command: %s)", why, c.Arg), sum, tail
		}
	}
	if reason, tool := cmdoutput.NothingChecked(c, buf.Bytes()); reason != "" {
		st, msg := nothingCheckedStatus(ctx, env, reason, tool)
		return st, fmt.Sprintf("%s (command: %s)", msg, c.Arg), sum, tail
	}
	if why, err := lintWeakened(ctx, env, c.Arg); err != nil {
		return StatusFail, err.Error(), sum, tail
	} else if why != "" {
		return StatusFail, fmt.Sprintf("command passed, but %s (command: %s)", why, c.Arg), sum, tail
	}
	fail, note, err := lintConfigVerdict(ctx, func() (Repo, error) { return env.repo, nil }, env.workSession(), env.repo.Root(), line, envLookup(cleaned))
	switch {
	case err != nil:
		return StatusFail, err.Error(), sum, tail
	case fail != "":
		return StatusFail, fmt.Sprintf("command passed, but %s (command: %s)", fail, c.Arg), sum, tail
	case note != "":
		return StatusPass, fmt.Sprintf("command passed: %s (note: %s)", c.Arg, note), sum, ""
	}
	return StatusPass, fmt.Sprintf("command passed: %s", c.Arg), sum, ""
}

// expandCommand splices the session's changed (or staged) files into a
// command line as positional parameters of sh -c: the line refers to them as
// "${1}" "${2}" ..., so no file name (with $(...), backticks, quotes, ;,
// newlines) is ever parsed as shell syntax, whatever quotes surround the
// placeholder. It returns the line, the arguments and how many files were
// substituted (-1 when there was no placeholder).
func expandCommand(ctx context.Context, env gateEnv, line string) (string, []string, int, error) {
	var changed, staged []string
	return cmdsplice.Splice(line, func(ph protocolspec.Placeholder) ([]string, error) {
		var err error
		if ph.Source == "staged" || env.staged {
			if staged == nil {
				staged, err = env.repo.StagedFiles(ctx)
			}
			return staged, err
		}
		if changed == nil {
			// The work of the ABANDONED sessions this one continues is
			// the session's too (verify passes their commits on it).
			if changed, err = sessionFiles(ctx, env.repo, env.workSession()); err != nil {
				return nil, err
			}
			changed = existing(env.repo.Root(), changed)
		}
		return changed, nil
	})
}

// existing drops deleted files: a linter cannot run on them.
func existing(root string, files []string) []string {
	var out []string
	for _, f := range files {
		if _, ok, err := repopath.Resolve(root, f); err == nil && ok {
			out = append(out, f)
		}
	}
	return out
}

func tailLines(s string, lines, max int) string {
	s = strings.TrimRight(s, "\n")
	parts := strings.Split(s, "\n")
	if len(parts) > lines {
		parts = parts[len(parts)-lines:]
	}
	t := strings.Join(parts, "\n")
	if len(t) > max {
		t = t[len(t)-max:]
	}
	return t
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func shortSHA(s string) string {
	if s == "" {
		return "unborn"
	}
	return shorten.SHA(s)
}

// commitRecordsOf reads which of shas session id recorded, for gateEnv:
// evidence kind commit_sha, or bypass_commit when a BYPASS violation of
// the session names the commit. Two indexed lookups whatever the
// session's length (all its evidence is one row per shell command with
// agent hooks, and the gate may run at pre-commit).
func (e *Engine) commitRecordsOf(id string) func(ctx context.Context, shas []string) (map[string]string, error) {
	return func(ctx context.Context, shas []string) (map[string]string, error) {
		m := map[string]string{}
		if len(shas) == 0 {
			return m, nil
		}
		known, err := e.Store.RecordedCommits(ctx, id, shas...)
		if err != nil {
			return nil, err
		}
		if len(known) == 0 {
			return m, nil
		}
		vs, err := e.Store.ListViolations(ctx, ViolationFilter{SessionID: id, Code: CodeBypass})
		if err != nil {
			return nil, err
		}
		for sha, ok := range known {
			if !ok {
				continue
			}
			m[sha] = EvidenceCommitSHA
			for _, v := range vs {
				if strings.Contains(v.Message, "commit "+shortSHA(sha)+" ") {
					m[sha] = EvidenceBypassCommit
					break
				}
			}
		}
		return m, nil
	}
}
