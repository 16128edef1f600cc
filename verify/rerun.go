package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/cmdoutput"
	"github.com/sessiongate/sessiongate/cmdsplice"
	"github.com/sessiongate/sessiongate/gateenv"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/linttrust"
	"github.com/sessiongate/sessiongate/internal/procgroup"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/pyharness"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/testcounts"
)

// --rerun (issue 26.2): every command gate of the config and protocol as
// committed at the base (never the head's: the work under check could
// make the QA command `true`) runs again on the head's tree, in CI's
// environment cleaned as a gate's is (gateenv). {changed:GLOB} takes the
// files the range changed, spliced in as positional parameters like a
// gate's (cmdsplice.SpliceFiles), so the linter gates run too. A gate whose
// program CI lacks stops the run with exit 2 and what to install: it is
// never a pass.

// RerunResult is one command gate run again on the head.
type RerunResult struct {
	Phase    string        `json:"phase"`
	Command  string        `json:"command"`
	Source   string        `json:"source"` // where the command came from
	Status   string        `json:"status"` // ok, fail, skipped
	ExitCode int           `json:"exit_code"`
	Files    int           `json:"files,omitempty"` // changed files spliced in for {changed}
	Note     string        `json:"note,omitempty"`  // why skipped; where its linter came from
	Output   string        `json:"output,omitempty"`
	Seconds  float64       `json:"seconds"`
	Timeout  time.Duration `json:"-"` // the check's own timeout, 0 = the config's
}

// RerunCommands lists the command gates of the baseline: the commands:
// map of its config and the command checks of its protocol, as committed
// at the base, never the head's.
func (bl *Baseline) RerunCommands() ([]RerunResult, error) {
	var out []RerunResult
	seen := map[string]bool{}
	add := func(phase, cmd, src string, timeout time.Duration) {
		cmd = strings.TrimSpace(cmd)
		if cmd == "" || seen[cmd] {
			return
		}
		seen[cmd] = true
		out = append(out, RerunResult{Phase: phase, Command: cmd, Source: src, Timeout: timeout})
	}
	if bl.Config != nil {
		phases := make([]string, 0, len(bl.Config.Commands))
		for p := range bl.Config.Commands {
			phases = append(phases, p)
		}
		sort.Strings(phases)
		for _, p := range phases {
			add(p, bl.Config.Commands[p], fmt.Sprintf("%s at %s: commands.%s", bl.ConfigFile, shorten.SHA(bl.Rev), p), 0)
		}
	}
	if bl.Protocol != nil {
		spec, err := protocolspec.Parse(bl.ProtocolPath, bl.Protocol)
		if err != nil {
			return nil, fmt.Errorf("parse the protocol at the base: %w", err)
		}
		for _, ph := range spec.Phases {
			for _, c := range ph.Checks {
				if c.Kind == protocolspec.CheckCommand {
					src := fmt.Sprintf("%s at %s, line %d", bl.ProtocolPath, shorten.SHA(bl.Rev), c.Line)
					if c.Builtin {
						src = fmt.Sprintf("the built-in gate of %s at %s", bl.ProtocolPath, shorten.SHA(bl.Rev))
					}
					add(ph.ID, c.Arg, src, time.Duration(c.Timeout))
				}
			}
		}
	}
	return out, nil
}

// Rerun runs the baseline's command gates in a fresh worktree of head.
// A faked local run proves nothing here: the commands are the base's, the
// files the head's, the environment CI's own.
func Rerun(ctx context.Context, repo *gitrepo.Repo, bl *Baseline, head string, timeout time.Duration) ([]RerunResult, error) {
	if bl.Rev == "" {
		return nil, &EnvError{Msg: "--rerun needs a range with a base commit: the commands are read from the config and protocol committed there, never from the commits under check"}
	}
	cmds, err := bl.RerunCommands()
	if err != nil {
		return nil, err
	}
	if len(cmds) == 0 {
		return nil, nil
	}
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	dir, err := os.MkdirTemp("", "sessiongate-rerun-")
	if err != nil {
		return nil, fmt.Errorf("rerun: make a worktree folder: %w", err)
	}
	defer os.RemoveAll(dir)
	wt := filepath.Join(dir, "head")
	// The whole head, whatever part of the tree the job checked out.
	if err := repo.AddFullWorktree(ctx, wt, head); err != nil {
		return nil, fmt.Errorf("rerun: check out %s: %w", shorten.SHA(head), err)
	}
	defer repo.RemoveWorktree(context.WithoutCancel(ctx), wt)
	// npm linters come from CI's own install (npm ci in the checkout),
	// never from the agent's machine, and never downloaded by npx here.
	nodeNote := ""
	if st, err := os.Stat(filepath.Join(repo.Root(), "node_modules")); err == nil && st.IsDir() {
		if _, err := os.Lstat(filepath.Join(wt, "node_modules")); errors.Is(err, os.ErrNotExist) {
			if err := os.Symlink(filepath.Join(repo.Root(), "node_modules"), filepath.Join(wt, "node_modules")); err != nil {
				return nil, fmt.Errorf("rerun: link the checkout's node_modules: %w", err)
			}
			nodeNote = "from this CI's install (the checkout's node_modules, npm ci)"
		}
	}
	env := rerunEnv(repo.Root(), wt, dir)
	files, dropped, err := rangeFiles(ctx, repo, bl.Rev, head, wt)
	if err != nil {
		return nil, err
	}
	if missing := missingTools(cmds, env, wt); len(missing) > 0 {
		return nil, &EnvError{Msg: "--rerun cannot run every command gate of the base here, and a gate that cannot run is not a pass:\n  " + strings.Join(missing, "\n  ")}
	}
	sh, err := gateenv.LookPath(env, "sh")
	if err != nil {
		return nil, &EnvError{Msg: "--rerun: no sh on PATH"}
	}
	baseRuns := &baseCheckout{dir: filepath.Join(dir, "base"), sh: sh, node: nodeNote != ""}
	defer baseRuns.close(ctx, repo)
	for i := range cmds {
		c := &cmds[i]
		line, args, n := cmdsplice.SpliceFiles(rerunLine(c.Command), files)
		if n == 0 {
			c.Status, c.ExitCode = "skipped", -1
			c.Note = "no file changed in the range matches its {changed} placeholder: nothing to run (a gate with no files is skipped, never passed)"
			continue
		}
		if n > 0 {
			c.Files = n
		}
		var notes []string
		if len(linttrust.Linters(wt, c.Command)) > 0 && nodeNote != "" {
			notes = append(notes, "linter "+nodeNote)
		}
		if n > 0 && len(dropped) > 0 {
			notes = append(notes, "not given: "+strings.Join(dropped, "; "))
		}
		c.Note = strings.Join(notes, "; ")
		to := timeout
		if c.Timeout > 0 {
			to = c.Timeout
		}
		start := time.Now()
		r, err := runIn(ctx, sh, wt, line, args, env, to)
		if err != nil {
			return nil, err
		}
		buf, found, timedOut := &r.out, r.found, r.timedOut
		err = r.err
		c.Seconds = time.Since(start).Seconds()
		c.Status = "ok"
		if err != nil {
			c.Status, c.ExitCode = "fail", -1
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				c.ExitCode = ee.ExitCode()
			}
			if timedOut {
				buf.WriteString(fmt.Sprintf("\n(timed out after %s)", to))
			}
		}
		// A pass that ran no test is none, as at the gate: a test filter
		// that matched nothing, a make goal with nothing to do (a folder
		// named like a non-.PHONY target, lazy pass 33).
		if line := cmdoutput.RunnerFailed(buf.Bytes()); c.Status == "ok" && line != "" {
			c.Status = "fail" // as at the gate (session/gates.go)
			c.Note = strings.TrimPrefix(c.Note+"; exited 0, but its test runner said tests failed ("+line+")", "; ")
		}
		if found = pyharness.By(found, files); c.ExitCode == 0 && len(found) > 0 {
			c.Status = "fail"
			c.Note = strings.TrimPrefix(c.Note+"; "+pyharness.Texts(found)+": the run's own code changed what decides a test's result", "; ")
		}
		if c.Status == "ok" {
			if reason, tool := cmdoutput.NothingChecked(protocolspec.Check{Arg: c.Command}, buf.Bytes()); tool == cmdoutput.TestFilter || tool == cmdoutput.MakeIdle {
				c.Status = "fail"
				c.Note = strings.TrimPrefix(c.Note+"; "+reason, "; ")
			}
		}
		// Lazy pass 35, P3: the failing tests' ids appended to a
		// known-failures list the conftest turns into xfail; no test
		// file changes, the run says "1 passed, 2 xfailed". The same
		// command at the base says how many ran to a verdict there.
		if c.Status == "ok" && n < 0 {
			if o, ok := testcounts.OutcomeOf(buf.Bytes()); (ok && o.NotRun > 0) || anyNotRun(r.tests) {
				why, err := baseRuns.turnedOff(ctx, repo, bl.Rev, line, args, env, to, o, ok, r.tests)
				if err != nil {
					return nil, err
				}
				if why != "" {
					c.Status = "fail"
					c.Note = strings.TrimPrefix(c.Note+"; "+why, "; ")
				}
			}
		}
		c.Output = tail(buf.String(), 20)
	}
	return cmds, nil
}

// ranLine is one command's run in a worktree.
type ranLine struct {
	out      bytes.Buffer
	err      error // the command's own (exit status)
	timedOut bool
	found    []pyharness.Finding
	tests    map[string]pyharness.TestState // pytest's, by node id; nil: none reported
}

// runIn runs line in dir with the run harness, as a gate does
// (session/gates.go); the error is the harness's, not the command's.
func runIn(ctx context.Context, sh, dir, line string, args, env []string, to time.Duration) (*ranLine, error) {
	harness, err := pyharness.New(dir)
	if err != nil {
		return nil, &EnvError{Msg: "--rerun: " + err.Error()}
	}
	defer harness.Close()
	rctx, cancel := context.WithTimeout(ctx, to)
	defer cancel()
	// "sessiongate" is $0; the file names are $1... and never part of the line.
	cmd := exec.CommandContext(rctx, sh, append([]string{"-c", line, "sessiongate"}, args...)...)
	r := &ranLine{}
	cmd.Dir, cmd.Env, cmd.WaitDelay = dir, harness.Env(env), time.Second
	cmd.Stdout, cmd.Stderr = &r.out, &r.out
	r.err = procgroup.Run(cmd)
	r.timedOut = rctx.Err() == context.DeadlineExceeded
	found, err := harness.Findings()
	if err != nil {
		return nil, &EnvError{Msg: "--rerun: " + err.Error()}
	}
	r.found = found
	if r.tests, err = harness.Tests(); err != nil {
		return nil, &EnvError{Msg: "--rerun: " + err.Error()}
	}
	return r, nil
}

// rerunLine is the line a gate would run: the built-in lint gate's npx
// runs the installed markdownlint-cli2 (builtinlint.Line does the
// same), so npx never downloads one.
func rerunLine(cmd string) string {
	if rest, ok := strings.CutPrefix(cmd, "npx "+linttrust.Name+" "); ok {
		return "./node_modules/.bin/" + linttrust.Name + " " + rest
	}
	return cmd
}

// rerunEnv is CI's environment cleaned as a gate's is (gateenv.Clean: no
// variable that redirects an interpreter or runner, no PATH entry inside
// the checkout or the worktree), without sessiongate's own variables.
func rerunEnv(root, wt, tmp string) []string {
	env, _ := gateenv.Clean(os.Environ(), root, false)
	env, _ = gateenv.Clean(env, wt, false)
	out := env[:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "SESSIONGATE_") && !strings.HasPrefix(kv, "CI=") {
			out = append(out, kv)
		}
	}
	return append(out, "CI=true", "SESSIONGATE_DB="+filepath.Join(tmp, "none.db"))
}

// rangeFiles lists the files base...head changed that head holds, as the
// repository names them; a path that is not a clean repository path or
// resolves outside the worktree (a symlink to /etc/passwd) is left out and
// named, so {changed} never hands a linter a file outside the repository.
func rangeFiles(ctx context.Context, repo *gitrepo.Repo, base, head, wt string) (files, dropped []string, err error) {
	ch, err := repo.RangeFiles(ctx, base, head)
	if err != nil {
		return nil, nil, fmt.Errorf("rerun: the files the range changed: %w", err)
	}
	realWT, err := filepath.EvalSymlinks(wt)
	if err != nil {
		return nil, nil, fmt.Errorf("rerun: %w", err)
	}
	for _, c := range ch {
		if c.Status == "D" {
			continue
		}
		if err := relPath(c.Path); err != nil {
			dropped = append(dropped, fmt.Sprintf("%s (%v)", quotePath(c.Path), err))
			continue
		}
		real, err := filepath.EvalSymlinks(filepath.Join(wt, filepath.FromSlash(c.Path)))
		if err != nil {
			continue // a dangling link: nothing to lint
		}
		if rel, err := filepath.Rel(realWT, real); err != nil || !filepath.IsLocal(rel) {
			dropped = append(dropped, quotePath(c.Path)+" (resolves outside the repository)")
			continue
		}
		files = append(files, c.Path)
	}
	return files, dropped, nil
}

// shellBuiltins run without a program on PATH.
var shellBuiltins = map[string]bool{
	"cd": true, "test": true, "[": true, "true": true, "false": true, "echo": true, "printf": true, "export": true,
	"set": true, "unset": true, "exit": true, ":": true, ".": true, "source": true, "eval": true, "read": true,
	"shift": true, "command": true, "type": true, "umask": true, "wait": true, "trap": true, "return": true, "local": true,
}

// missingTools names, per gate, each program the line runs that this CI
// does not have, and what to install.
func missingTools(cmds []RerunResult, env []string, wt string) []string {
	var out []string
	for _, c := range cmds {
		calls, _, ok := shellline.Calls(rerunLine(c.Command))
		if !ok {
			continue // sh says what is wrong when it runs
		}
		installs := false // the line installs its npm packages itself (npm ci && ...)
		for _, call := range calls {
			w := shellline.StripWrappers(call.Words)
			if len(w) == 0 || shellBuiltins[w[0]] || strings.ContainsAny(w[0], "$`") {
				continue
			}
			prog := w[0]
			if (prog == "npm" || prog == "pnpm" || prog == "yarn") && len(w) > 1 && (w[1] == "ci" || w[1] == "install" || w[1] == "i") {
				installs = true
			}
			if strings.Contains(prog, "/") {
				// The repository's own script, or its node_modules/.bin.
				if strings.Contains(prog, "node_modules/.bin/") && !installs {
					if _, err := os.Stat(filepath.Join(wt, filepath.FromSlash(prog))); err != nil {
						out = append(out, fmt.Sprintf("%s (%s): `%s` is not installed in this CI: run `npm ci` in the checkout before verify --rerun (package-lock.json must list it; npm install --save-dev %s adds it)",
							c.Phase, c.Source, filepath.Base(prog), npmPackage(filepath.Base(prog))))
					}
				}
				continue
			}
			if _, err := gateenv.LookPath(env, prog); err != nil {
				out = append(out, fmt.Sprintf("%s (%s): `%s` is not on PATH in this CI: install it in the job before verify --rerun", c.Phase, c.Source, prog))
				continue
			}
			if np := linttrust.Program(w); np != "" && !installs && linttrust.Bin(wt, np) == "" {
				if _, err := gateenv.LookPath(env, np); err != nil {
					out = append(out, fmt.Sprintf("%s (%s): `%s` runs %s, which is not installed in this CI (npx would download whatever the registry serves): run `npm ci` in the checkout before verify --rerun (npm install --save-dev %s adds it to package-lock.json)",
						c.Phase, c.Source, strings.Join(w[:min(2, len(w))], " "), np, npmPackage(np)))
				}
			}
		}
	}
	return out
}

// npmPackage is the package that provides a known linter's program.
func npmPackage(prog string) string {
	for _, l := range linttrust.Linters("", "npx "+prog) {
		return l.Package
	}
	return prog
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
