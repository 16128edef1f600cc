package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/gateenv"
	"github.com/sessiongate/sessiongate/internal/procgroup"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/shellline"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// ErrCannotRun: `sessiongate run` refused or could not start the command,
// or it outlived its timeout; the CLI exits 2.
var ErrCannotRun = errors.New("cannot run")

// RunRequest is a command `sessiongate run` runs itself and records as
// observed evidence. The command is an argv, run without a shell, with the
// repository root as working directory. It comes from the person or agent
// at the command line, never from an MCP caller.
type RunRequest struct {
	ID          string
	Phase       string // required
	Requirement string // optional: PHASE.slug or the slug
	Argv        []string
	Timeout     time.Duration // 0: the config's command_timeout, else 2 minutes
	// Cwd is where the caller stands (absolute; "" for the root). A
	// folder inside the work tree runs the command there and records it
	// as `cd DIR && COMMAND`, as the agent's own shell line would be: run
	// at the root, `make test` from a monorepo's api/ failed, and its
	// failed run blocked the honest `make -C api test` after it (round
	// 55, helper 329). A place outside the work tree runs at the root.
	Cwd string
	// Stdout and Stderr receive the command's output as it runs.
	Stdout, Stderr io.Writer
}

// RunResult is what the run did.
type RunResult struct {
	Evidence *Evidence     `json:"evidence"`
	ExitCode int           `json:"exit_code"`
	Duration time.Duration `json:"duration_ns"`
	TimedOut bool          `json:"timed_out,omitempty"`
	// ProvesNothing says why the recorded run does not count for its phase
	// (`true`, `--help`, a command other than the one the phase names);
	// "" when it does. The run is recorded either way.
	ProvesNothing string `json:"proves_nothing,omitempty"`
}

// Run checks the phase and requirement, runs the command and records it as
// observed evidence (exit code, duration, output hash) with RecordObserved.
// Nothing is recorded when the request is refused or the command cannot
// start; a run that timed out is recorded as a failed run (exit -1) and
// reported as an ErrCannotRun error.
func (e *Engine) Run(ctx context.Context, req RunRequest) (*RunResult, error) {
	s, spec, err := e.load(ctx, req.ID)
	if err != nil {
		return nil, err
	}
	if len(req.Argv) == 0 || strings.TrimSpace(req.Argv[0]) == "" {
		return nil, fmt.Errorf("%w: no command: sessiongate run --phase PHASE -- COMMAND ARGS...", ErrCannotRun)
	}
	if req.Phase == "" && req.Requirement != "" {
		req.Phase = phaseOfRequirement(spec, req.Requirement)
	}
	if req.Phase == "" {
		return nil, fmt.Errorf("%w: name the phase the command proves with --phase (one of %s)", ErrCannotRun, phaseIDs(spec))
	}
	p, ok := spec.Phase(req.Phase)
	if !ok {
		return nil, fmt.Errorf("%w: unknown phase %q: the protocol has %s", ErrCannotRun, truncate(req.Phase, 64), phaseIDs(spec))
	}
	if err := evidenceBeforeTheWork(s, p); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCannotRun, err)
	}
	reqID := ""
	if strings.TrimSpace(req.Requirement) != "" {
		r, err := resolveRequirement(spec, p, req.Requirement)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCannotRun, err)
		}
		reqID = r.ID
	} else if needsPerRequirement(p, e.Config) {
		evs, err := e.Store.GateEvidence(ctx, s.ID, p.ID) // bindRequirement reads the phase's only
		if err != nil {
			return nil, fmt.Errorf("load evidence: %w", err)
		}
		if reqID, err = bindRequirement(p, evs, e.Config); err != nil {
			return nil, fmt.Errorf("%w: %w (--requirement ID)", ErrCannotRun, err)
		}
	}
	cleaned, dropped, err := e.gateEnviron(ctx, s, s.Worktree, false)
	if err != nil {
		return nil, err
	}
	dir := subfolder(s.Worktree, req.Cwd)
	prog, err := lookProgram(filepath.Join(s.Worktree, filepath.FromSlash(dir)), req.Argv[0], cleaned)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCannotRun, err)
	}
	if p.Section == protocolspec.SectionEnd && qaPhase(p, e.Config) && e.OpenRepo != nil {
		// A QA run here may be what proves the phase (no command of its
		// own): it gets a QA gate's dates (freshmtime.go), or `make test`
		// keeps a build older than a back-dated source.
		repo, err := e.OpenRepo(ctx, s.Worktree)
		if err != nil {
			return nil, err
		}
		if _, err := freshenChanged(ctx, repo, s, time.Now()); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCannotRun, err)
		}
	}
	// A run of the QA gate's own command may stand in for the gate's run
	// when that outlives command_timeout (slowsuite.go): note the tree it
	// starts on; it counts only if the tree is the same when it ends.
	var gateRepo Repo
	gateLine, treeBefore := gateCommandRun(p, e.Config, req.Argv), ""
	if dir != "" {
		gateLine = "" // the gate runs its command at the root
	}
	if gateLine != "" && e.OpenRepo != nil {
		if gateRepo, err = e.OpenRepo(ctx, s.Worktree); err != nil {
			return nil, err
		}
		if treeBefore, err = treeForGate(ctx, gateRepo, s, gateLine); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCannotRun, err)
		}
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = e.Config.CommandTimeout
	}
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, prog, req.Argv[1:]...)
	cmd.Dir = filepath.Join(s.Worktree, filepath.FromSlash(dir))
	cmd.Stdin = nil
	// The same clean environment as a gate's command: an observed run is
	// evidence only if a gate would have run the same thing. Run without
	// the variables rather than refuse, and say so: the run stays useful.
	cmd.Env = cleaned
	if len(dropped) > 0 {
		fmt.Fprintf(orDiscard(req.Stderr), "sessiongate: running without %s from your environment (a gate's command never sees them; set what the project needs in its own config)\n", strings.Join(dropped, ", "))
	}
	// Kill the whole tree on timeout, not only the first process.
	group := procgroup.New(cmd)
	cmd.WaitDelay = time.Second
	var out bytes.Buffer // both streams, in the order they arrive: what the hash is of
	var mu sync.Mutex
	// One lock for both copiers: the shared buffer, and callers that pass
	// one writer for both streams.
	cmd.Stdout = &lockedWriter{mu: &mu, w: io.MultiWriter(orDiscard(req.Stdout), &out)}
	cmd.Stderr = &lockedWriter{mu: &mu, w: io.MultiWriter(orDiscard(req.Stderr), &out)}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: start %s: %v: check the program and its permissions", ErrCannotRun, req.Argv[0], err)
	}
	if err := group.Started(); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		group.Close()
		return nil, fmt.Errorf("%w: %v", ErrCannotRun, err)
	}
	err = cmd.Wait()
	group.Close()
	dur := time.Since(start)
	res := &RunResult{Duration: dur}
	var ee *exec.ExitError
	switch {
	case cctx.Err() == context.DeadlineExceeded:
		res.TimedOut, res.ExitCode = true, -1
	case err == nil:
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode() // -1 when a signal ended it
	default:
		return nil, fmt.Errorf("%w: wait for %s: %v", ErrCannotRun, req.Argv[0], err)
	}
	line := commandLine(req.Argv)
	if dir != "" {
		line = "cd " + shellline.Join([]string{dir}) + " && " + line
	}
	gateTree := ""
	// A line that swaps files in for its tests and back after them
	// (`mv greet.go /tmp/b && cp /tmp/good.go greet.go && go test ./...
	// && mv /tmp/b greet.go`) leaves the tree it found: equal trees before
	// and after do not say what the tests read (round 56, helper 333).
	if treeBefore != "" && res.ExitCode == 0 && !res.TimedOut && shellline.WritesTreeAroundTests(line) == "" {
		after, err := treeForGate(ctx, gateRepo, s, gateLine)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCannotRun, err)
		}
		if after == treeBefore {
			gateTree = after
		}
	}
	ev, err := e.RecordObserved(ctx, ObservedRequest{ID: s.ID, Phase: p.ID, Requirement: reqID, Source: SourceRun,
		Command: line, ExitCode: res.ExitCode, Duration: dur, Output: out.Bytes(), gateTree: gateTree})
	if err != nil {
		return nil, err
	}
	res.Evidence = ev
	if !relevantObserved(*ev, p, e.Config) {
		want := "a command that checks something; this one checks nothing"
		if c, ok := e.Config.Commands[p.ID]; ok {
			want = "`" + truncate(c, 80) + "`"
		} else if phaseNamesCommand(p, e.Config) {
			want = "the command its text names"
		}
		or := " (or a run bound to one of its requirements with --requirement)"
		if reqID != "" {
			// Bound already: the binding does not make another command
			// the one the gate runs (lazy pass 43 read the old hint as a
			// contradiction).
			or = fmt.Sprintf(" (bound to %s, it is still not that command)", reqID)
		}
		res.ProvesNothing = fmt.Sprintf("%q does not count for %s: its gate wants %s%s", truncate(line, 80), p.ID, want, or)
	}
	if res.TimedOut {
		return res, fmt.Errorf("%w: %s timed out after %s and was killed (recorded as a failed run): make it finish sooner, or raise command_timeout in sessiongate.yaml or pass --timeout", ErrCannotRun, truncate(line, 80), timeout)
	}
	return res, nil
}

// subfolder is cwd as a slash path relative to the work tree root, "" for
// the root itself or a place outside it (symlinks resolved on both).
func subfolder(root, cwd string) string {
	if cwd == "" {
		return ""
	}
	r, err1 := filepath.EvalSymlinks(root)
	c, err2 := filepath.EvalSymlinks(cwd)
	if err1 != nil || err2 != nil {
		return ""
	}
	rel, err := filepath.Rel(r, c)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return ""
	}
	rel = filepath.ToSlash(rel)
	if rel == ".git" || strings.HasPrefix(rel, ".git/") {
		return "" // git's own folder is no place to run a check
	}
	return rel
}

// lookProgram finds the program of an argv: a name with a slash is a path
// relative to the folder the command runs in (or absolute), anything else is looked
// up on env's PATH (gateenv.Clean's, without the work tree's folders).
func lookProgram(root, name string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		st, err := os.Stat(p)
		if err != nil {
			return "", invalidf("command %s does not exist: give a path relative to the folder you run it from, or a program on PATH", name)
		}
		if st.IsDir() || st.Mode()&0o111 == 0 {
			return "", invalidf("command %s is not an executable file: chmod +x it, or run it through its interpreter (sessiongate run ... -- sh %s)", name, name)
		}
		return p, nil
	}
	p, err := gateenv.LookPath(env, name)
	if err != nil {
		return "", invalidf("command %q not found on PATH: install it, or give its path", name)
	}
	return p, nil
}

// commandLine shows an argv as one line, quoting words that need it.
func commandLine(argv []string) string { return shellline.Join(argv) }

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// lockedWriter lets the stdout and stderr copiers share one buffer.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
