package session

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sessiongate/sessiongate/cachedrun"
	"github.com/sessiongate/sessiongate/gateenv"
	"github.com/sessiongate/sessiongate/godepchange"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/quietlint"
	"github.com/sessiongate/sessiongate/scriptrun"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/slowsuite"
	"github.com/sessiongate/sessiongate/testcounts"
	"github.com/sessiongate/sessiongate/testrun"
	"github.com/sessiongate/sessiongate/toolneed"
	"github.com/sessiongate/sessiongate/venvtrust"
)

// MaxCommandBytes caps the stored command line of observed evidence.
const MaxCommandBytes = 512

// ObservedRequest is a command sessiongate saw run: by an agent hook after
// the agent's shell tool returned, or by `sessiongate run`. The output body
// is hashed here and kept only when the config opts in to raw bodies.
type ObservedRequest struct {
	ID          string
	Phase       string // "" attributes the command with MatchPhase, else the current phase
	Requirement string // optional requirement id
	Source      string // who observed it: "claude", "codex", "copilot", "cursor", "gemini", "run"
	Command     string
	ExitCode    int
	Duration    time.Duration
	Output      []byte
	// ToolID is the agent's tool call id when an agent hook recorded its
	// start (AgentToolStart): the start is taken in the same transaction
	// and, when Duration is 0, gives the duration.
	ToolID string
	// Dir is the folder the command ran in (the agent's shell folder),
	// "" for the worktree root: a run that worked outside the worktree
	// proves nothing about the session's work (shellline.RanElsewhere).
	Dir string
	// Unwitnessed says why the reported status is no witness of the run
	// (a CLI inside the agent's own tool call reported it: agenthook's
	// nested CLI): the run is kept, its status unknown (-1).
	Unwitnessed string
	// gateTree is the tree a `sessiongate run` of a QA gate's own command
	// saw, unchanged from start to end (Run, slowsuite.go); set only here.
	gateTree string
}

// RecordObserved stores observed evidence: the command line, exit code,
// duration and the sha256 of the output, attached to the phase whose gate
// command or requirement names the command (or the one asked for).
func (e *Engine) RecordObserved(ctx context.Context, req ObservedRequest) (*Evidence, error) {
	s, spec, err := e.load(ctx, req.ID)
	if err != nil {
		return nil, err
	}
	cmd := strings.TrimSpace(req.Command)
	if cmd == "" {
		return nil, invalidf("observed evidence needs the command line")
	}
	if !utf8.ValidString(cmd) {
		return nil, invalidf("observed command line is not valid UTF-8")
	}
	phase := req.Phase
	if phase != "" {
		if p, ok := spec.Phase(phase); ok {
			if err := evidenceBeforeTheWork(s, p); err != nil {
				return nil, err
			}
		}
	}
	if phase == "" {
		phase = e.configuredPhase(spec, cmd)
	}
	if phase == "" && (s.State == StateInit || s.State == StateEnding) && currentBranchCheck(spec, s, cmd) {
		phase = s.Phase // branchcheck.go
	}
	if phase == "" {
		phase = workingBranchCheck(spec, s, cmd) // branchcheck.go
	}
	if phase == "" {
		phase = MatchPhase(spec, cmd)
	}
	if p, ok := spec.Phase(phase); ok && req.Phase == "" && evidenceBeforeTheWork(s, p) != nil {
		phase = "" // a run seen before the work proves no end phase: it is the current start phase's
	}
	if phase == "" && (s.State == StateInit || s.State == StateEnding) {
		phase = s.Phase
	}
	if phase != "" {
		if _, ok := spec.Phase(phase); !ok {
			return nil, invalidf("unknown phase %q: the protocol has %s", truncate(phase, 64), phaseIDs(spec))
		}
	}
	code := req.ExitCode
	ref := fmt.Sprintf("exit %d, %d bytes", code, len(req.Output))
	if req.Unwitnessed != "" && code >= 0 {
		ref = truncate(fmt.Sprintf("exit %d as reported, not witnessed: %s, %d bytes", code, req.Unwitnessed, len(req.Output)), 300)
		code = -1
	}
	// The line's exit status says whether the phase's command succeeded
	// only when it is that command's own: not after `| tail`, `|| true` or
	// `; echo done`. Otherwise the run is kept, its status unknown (-1).
	// A run through `sessiongate run` is the program's own exit status,
	// unless the program is a shell running a script (sh -c '... | tail').
	if p, ok := spec.Phase(phase); ok && (req.Source != SourceRun || shellline.Unwrap(cmd) != cmd) {
		key := relevantKey(cmd, p, e.Config)
		if key == "" {
			key = shellline.FirstWorkKey(cmd) // a run bound by its phase or requirement
		}
		// A git log read through a pager or head (`git log -5 | cat`) is
		// judged by what it showed (recentLogShort), not by its exit
		// (round 40's re-check, HLA6).
		logRead := code == 0 && logCheckRun(spec, phase, cmd, req.Requirement) && toolneed.LogAlone(cmd) // cheap test first: every observed run passes here
		if key != "" && code >= 0 && !logRead && !shellline.ExitIsOwn(cmd, key) {
			ref = fmt.Sprintf("exit %d of the whole line, not of %s (a pipe, ||, ; or & decides it), %d bytes", code, key, len(req.Output))
			code = -1
		}
	}
	if code == 0 && testrun.RanNoTests(req.Output) {
		ref = fmt.Sprintf("exit 0, but the runner says it ran no tests (a filter that matched none), %d bytes", len(req.Output))
		code = -1
	}
	if code == 0 {
		if where := shellline.RanElsewhere(s.Worktree, req.Dir, cmd); where != "" {
			ref = fmt.Sprintf("exit 0, but it ran in %s, outside the session's worktree, %d bytes", truncate(where, 120), len(req.Output))
			code = -1
		}
	}
	if code == 0 {
		if why := shellline.TestsNotRun(cmd); why != "" {
			ref = fmt.Sprintf("exit 0, but %s, %d bytes", why, len(req.Output))
			code = -1
		}
	}
	if code == 0 {
		// A linter given only paths that match nothing, or whose summary
		// says it linted nothing, exits 0 silently (round 19 t8).
		dir := req.Dir
		if dir == "" {
			dir = s.Worktree
		}
		if why := quietlint.Why(dir, cmd, req.Output); why != "" {
			ref = fmt.Sprintf("exit 0, but %s, %d bytes", why, len(req.Output))
			code = -1
		}
	}
	if code == 0 && e.OpenRepo != nil {
		// A config the session wrote that makes the linter unable to fail
		// (lintconfig.go); the team's own is noted, not refused.
		fail, note, err := lintConfigVerdict(ctx, func() (Repo, error) { return e.OpenRepo(ctx, s.Worktree) }, s, req.Dir, cmd, os.Getenv)
		switch {
		case err != nil:
			return nil, err
		case fail != "":
			ref = fmt.Sprintf("exit 0, but %s, %d bytes", fail, len(req.Output))
			code = -1
		case note != "":
			ref = fmt.Sprintf("exit 0 (%s), %d bytes", note, len(req.Output))
		}
	}
	if code == 0 {
		if why := e.userNpmrcChange(ctx, s, cmd); why != "" {
			ref = fmt.Sprintf("exit 0, but %s, %d bytes", why, len(req.Output))
			code = -1
		}
	}
	if code == 0 {
		// `pytest() { echo '1 passed'; }` then `pytest` in the same call
		// runs the line's own definition, not the program (review c10).
		if def := definesItsProgram(cmd); def != "" {
			ref = fmt.Sprintf("exit 0, but the line defines %s, which it then runs in place of the program, %d bytes", def, len(req.Output))
			code = -1
		}
	}
	if code == 0 {
		if vars := gateenv.RedirectsSet(cmd); len(vars) > 0 {
			ref = fmt.Sprintf("exit 0, but the line sets %s, which a gate's command never has, %d bytes", strings.Join(vars, ", "), len(req.Output))
			code = -1
		}
	}
	if code == 0 {
		env, _, err := e.gateEnviron(ctx, s, s.Worktree, false)
		if err != nil {
			return nil, err
		}
		if progs := gateenv.ProgramsElsewhere(cmd, env, s.Worktree); len(progs) > 0 {
			ref = fmt.Sprintf("exit 0, but it ran %s, which is not a program a gate's command would run (outside the work tree and the gate's PATH), %d bytes", truncate(strings.Join(progs, ", "), 120), len(req.Output))
			code = -1
		}
		if code == 0 {
			// A program written after the start where the gate's PATH or
			// the work tree's node_modules/.venv finds it (gateprog).
			why, err := e.programsWhy(ctx, s, cmd, env, s.Worktree)
			if err != nil {
				return nil, err
			}
			if why != "" {
				ref = fmt.Sprintf("exit 0, but %s, %d bytes", truncate(why, 300), len(req.Output))
				code = -1
			}
		}
	}
	// A test run records the tree it saw (observedtree.go), unless the
	// line put files in place for its tests and took them away after: the
	// tree after it is not the one the tests read (round 28, c4: a stash
	// popped and put back; round 56, helper 333: `mv greet.go /tmp/b &&
	// cp /tmp/good.go greet.go && go test ./... && mv /tmp/b greet.go`).
	// Asked once: the end phase's QA run then records no tree, and the
	// note saying why is added with the other runs' (below).
	around := ""
	if code == 0 && e.OpenRepo != nil && shellline.RunsTests(cmd) {
		around = shellline.WritesTreeAroundTests(cmd)
	}
	if p, ok := spec.Phase(phase); ok && code == 0 && p.Section == protocolspec.SectionEnd && qaPhase(p, e.Config) && e.OpenRepo != nil {
		repo, err := e.OpenRepo(ctx, s.Worktree)
		if err != nil {
			return nil, err
		}
		files, err := untrackedRead(ctx, repo, s, cmd)
		if err != nil {
			return nil, err
		}
		if len(files) > 0 {
			ref = fmt.Sprintf("exit 0, but %s, %d bytes", untrackedMsg(files), len(req.Output))
			code = -1
		}
		// A pass the agent's caches may have answered (observedcache.go),
		// and compiled Python answering for the session's source.
		if code == 0 && !e.hasCommand(p) {
			changed, err := sessionFiles(ctx, repo, s)
			if err != nil {
				return nil, fmt.Errorf("list the session's files for the run's caches: %w", err)
			}
			if why := cachedrun.Why(repo.Root(), changed, cmd, req.Output, s.CreatedAt); why != "" {
				ref = fmt.Sprintf("exit 0, but %s, %d bytes", why, len(req.Output))
				code = -1
			} else if sh := cachedrun.PythonShadows(repo.Root(), changed); len(sh) > 0 {
				ref = fmt.Sprintf("exit 0, but %s: remove the compiled file, or rebuild it from the source in the command, %d bytes", truncate(strings.Join(sh, "; "), 300), len(req.Output))
				code = -1
			}
		}
		// Without a command of its own the phase is proven by this run:
		// what `make test` or `npm test` runs must be the project's.
		if code == 0 && !e.hasCommand(p) {
			why, err := testrun.WeakScript(ctx, repo, s.StartCommit, cmd)
			if err != nil {
				return nil, err
			}
			if why != "" {
				ref = fmt.Sprintf("exit 0, but %s, %d bytes", why, len(req.Output))
				code = -1
			}
		}
		// A program of the work tree's untracked venv swapped or edited
		// since the start answers for the tests (venvtrust).
		if code == 0 && !e.hasCommand(p) {
			why, err := venvtrust.Changed(repo.Root(), cmd, s.CreatedAt)
			if err != nil {
				return nil, fmt.Errorf("check the run's venv: %w", err)
			}
			if why != "" {
				ref = fmt.Sprintf("exit 0, but %s: recreate the venv before a session, or set commands.QA_VALIDATION, %d bytes", why, len(req.Output))
				code = -1
			}
		}
		// The toolchain's or a dependency's source patched outside the
		// work tree (godeps.go).
		if code == 0 && !e.hasCommand(p) {
			genv, _, err := e.gateEnviron(ctx, s, s.Worktree, false)
			if err != nil {
				return nil, err
			}
			why, err := testrun.GoDepsChanged(ctx, repo, genv, cmd, s.CreatedAt, s.StartCommit, e.toolchainCache())
			if err != nil {
				return nil, fmt.Errorf("check the run's Go dependencies: %w", err)
			}
			if why != "" {
				ref = fmt.Sprintf("exit 0, but %s, %d bytes", why, len(req.Output))
				code = -1
			}
		}
		// Work done through a tracked link in a target outside the
		// repository is in no commit (outsidelink.go).
		if code == 0 && !e.hasCommand(p) && shellline.RunsTests(cmd) {
			why, err := outsideLinks(ctx, repo, s)
			if err != nil {
				return nil, err
			}
			if why == "" {
				if why, err = outsideConfig(repo, s); err != nil {
					return nil, err
				}
			}
			if why != "" {
				ref = fmt.Sprintf("exit 0, but %s, %d bytes", why, len(req.Output))
				code = -1
			}
		}
		// What the target or script calls, and the runner's config
		// (testinputs.go): weakened, the run proves less; added to, noted.
		if code == 0 && !e.hasCommand(p) {
			cs, err := e.inputChanges(ctx, repo, s, cmd, false)
			if err != nil {
				return nil, err
			}
			weak, noted := testrun.SplitChanges(cs)
			if len(weak) > 0 {
				ref = fmt.Sprintf("exit 0, but what it runs changed in this session so that it proves less (%s): restore it, or run the test runner itself on the start commit's config, %d bytes", truncate(strings.Join(weak, "; "), 300), len(req.Output))
				code = -1
			} else if len(noted) > 0 {
				ref += fmt.Sprintf(" (noted: %s)", truncate(strings.Join(noted, "; "), 200))
			}
		}
		// Tests the session's change skips did not run (testrun/skips.go).
		if code == 0 && !e.hasCommand(p) && shellline.RunsTests(cmd) {
			// Judged by the environment the command ran with: the
			// recorder's (an agent hook's is the agent's; `sessiongate
			// run` runs it in the gate's clean one) with what the line
			// set (`GREET_SKIP=1 go test ./...`, testrun.RunEnv).
			var base testrun.LookupEnv
			if req.Source == SourceRun {
				env, _, err := e.gateEnviron(ctx, s, s.Worktree, false)
				if err != nil {
					return nil, err
				}
				base = testrun.EnvOf(env)
			}
			skips, err := testrun.SkipsAddedIn(ctx, repo, s.StartCommit, testrun.RunEnv(base, cmd))
			if err != nil {
				return nil, err
			}
			if len(skips) > 0 {
				ref = fmt.Sprintf("exit 0, but the session's change skips tests the start ran (%s): skipped tests are not run; remove the skip, or have a person sign it, %d bytes", truncate(strings.Join(skips, "; "), 300), len(req.Output))
				code = -1
			}
		}
		// New tests that check nothing, as the change's only tests (skipqa.go).
		if code == 0 && !e.hasCommand(p) && shellline.RunsTests(cmd) {
			why, err := weakNewTests(ctx, repo, s)
			if err != nil {
				return nil, err
			}
			if why != "" {
				ref = fmt.Sprintf("exit 0, but %s, %d bytes", why, len(req.Output))
				code = -1
			}
		}
		// Files whose committed content differs from what the tests read,
		// by a means status does not show (a clean filter the agent
		// configured, update-index flags): the tree recorded below would
		// hold content no test ran on. Git LFS's filter is not counted.
		if code == 0 && !e.hasCommand(p) && shellline.RunsTests(cmd) {
			hiddenCode, err := e.hiddenCode(ctx, repo, s)
			if err != nil {
				return nil, err
			}
			if len(hiddenCode) > 0 {
				ref = fmt.Sprintf("exit 0, but git would commit other content than the tests read (%s): undo the filter or flag and run again, %d bytes", truncate(strings.Join(hiddenCode, "; "), 300), len(req.Output))
				code = -1
			}
		}
		// What it saw, compared with what gets committed (observedtree.go).
		// A line that writes around its tests records none: below.
		if code == 0 && !e.hasCommand(p) && shellline.RunsTests(cmd) && around == "" {
			tree, err := repo.WorkTreeTree(ctx)
			if err != nil {
				return nil, fmt.Errorf("record the tree the run saw: %w", err)
			}
			ref += ", saw tree " + tree
		}
	}
	if code == 0 {
		// The test files the line's flags apply to (scriptrun reads them):
		// after the end phase's checks, so a skip the session added is named
		// as such (signable by a person), not only as a run of nothing.
		// `go test -run '^$' ./... >/dev/null` prints nothing to go by.
		dir := s.Worktree
		if req.Dir != "" && filepath.IsAbs(req.Dir) {
			dir = req.Dir
		}
		if why := (scriptrun.Places{Root: s.Worktree, Temp: scriptrun.DefaultTemp()}).RunsNothing(dir, cmd); why != "" {
			ref = fmt.Sprintf("exit 0, but %s, %d bytes", why, len(req.Output))
			code = -1
		}
	}
	// A passing test run in any other phase records what it saw too
	// (issue 25 item 5): a run made while working answers a qa sub-agent
	// the CLI does not have only when it saw the tree committed at the
	// end (unwitnessedqa.go). Three git calls, only for test runs; a tree
	// it cannot read is left out (the run then answers no such phase).
	// Untracked files are in it: nothing told the agent to stage a new
	// file before this run (TestCodexHonestV1222NewFileWhileWorking).
	//
	// A file git hides (update-index flags, a clean filter) would put
	// content no test read in that tree: the run then records no tree
	// and says why (round 26, c9: a broken greet.sh staged, flagged
	// through `xargs`, which the hook's line check cannot read, and the
	// working copy put back; TestCodexLazyV1222AssumeUnchanged).
	if code == 0 && e.OpenRepo != nil && sawTree(ref) == "" && shellline.RunsTests(cmd) {
		if around != "" {
			ref += ", no tree recorded: the line writes " + truncate(around, 120) + " before its tests and runs more after them: run the tests on the work as it stands"
		} else if repo, err := e.OpenRepo(ctx, s.Worktree); err == nil {
			if hidden, err := e.hiddenCode(ctx, repo, s); err != nil || len(hidden) > 0 {
				if err == nil {
					ref += ", " + noTreeHidden + truncate(strings.Join(hidden, "; "), 300) + ")"
				}
			} else if tree, err := workTreeTreeAll(ctx, repo); err == nil {
				// `git add -A` leaves out what .git/info/exclude or
				// core.excludesFile ignores; an untracked file the runner
				// read and hid there since the start (a conftest.py that
				// skips everything) is not in the tree, which then
				// matches a broken commit (round 26, c9,
				// TestWorkingRunTreeHoldsIgnoredReads); so is a stub made
				// since the start under an older ignore (round 27, c7,
				// TestWorkingRunIgnoredStubs27).
				if left := e.leftOutReads(ctx, repo, s, cmd, tree); len(left) > 0 {
					ref += ", no tree recorded: the run read untracked files no commit will hold, ignored or made since the session started (" + shorten.List(left, 5) + "): commit them, or delete them and run again"
				} else {
					ref += ", saw tree " + tree
				}
			}
		}
	}
	if code == 0 && req.gateTree != "" && req.Source == SourceRun {
		ref += slowsuite.Tag(req.gateTree)
	}
	if code == 0 && req.Source == SourceRun && len(bytes.TrimSpace(req.Output)) == 0 && branchCheckRun(spec, phase, cmd, req.Requirement) {
		// `sh -c 'git branch --show-current >/dev/null'` (lazy pass 39):
		// a check that showed no branch. Only `sessiongate run`, whose
		// output is the command's own; an agent hook may pass none.
		ref = fmt.Sprintf("exit 0, but it printed nothing: it showed no branch, %d bytes", len(req.Output))
		code = -1
	}
	if code == 0 && branchCheckRun(spec, phase, cmd, req.Requirement) {
		// The branch it showed: a later switch makes it stale (beforecommit.go).
		if repo, err := e.OpenRepo(ctx, s.Worktree); err == nil {
			if _, b, err := repo.Head(ctx); err == nil && b != "" {
				ref += ", on branch " + toolneed.ShownBranch(cmd, req.Output, b)
			}
		}
	}
	if one, asked := logAsked(spec, phase, cmd, req.Requirement); code == 0 && e.OpenRepo != nil && asked {
		// A review of the recent commits that showed none (toolneed/recentlog.go).
		if repo, err := e.OpenRepo(ctx, s.Worktree); err == nil {
			if !toolneed.LogAlone(cmd) {
				ref = fmt.Sprintf("exit 0, but the line runs more than git log, so what it printed is not the log's (%d bytes): run git log alone", len(req.Output))
				code = -1
			} else if why := recentLogShort(ctx, repo, cmd, req.Output, one); why != "" {
				ref = fmt.Sprintf("exit 0, but %s (%d bytes): run it as the protocol quotes it, on HEAD", why, len(req.Output))
				code = -1
			}
		}
	}
	// The pass counts the output reports: numbers, not the body, kept so
	// a handoff's "181 passed" can be held against them (testcounts.go).
	// Only a test run's: `echo 42 passed` prints a count and runs nothing.
	if shellline.RunsTests(cmd) {
		ref += testcounts.RefNote(testcounts.FromOutput(req.Output))
	}
	if sub := subfolder(s.Worktree, req.Dir); sub != "" && shellline.RunsTests(cmd) {
		// A test run the agent's shell made from a subfolder (`cd web` in
		// one call, `make test` in the next) is recorded where it ran, as
		// `sessiongate run` records one: which subproject's suite it ran
		// is what QA judges (testrun/foldersuite.go).
		cmd = "cd " + shellline.Join([]string{sub}) + " && " + cmd
	}
	ev := &Evidence{
		SessionID: s.ID, Phase: phase, Kind: EvidenceToolOutput, Origin: OriginObserved,
		Requirement: req.Requirement, Source: req.Source, Command: truncate(cmd, MaxCommandBytes),
		ExitCode: &code, Duration: req.Duration, SHA256: sha256Hex(req.Output), Size: len(req.Output),
		Ref: ref, CreatedAt: e.now(),
	}
	if e.Config.StoreRawEvidence && len(req.Output) <= MaxEvidenceBytes {
		ev.Body = req.Output
	}
	now := e.now()
	err = e.Store.Update(ctx, func(w Writer) error {
		cur, err := w.GetSession(ctx, s.ID)
		if err != nil {
			return err
		}
		if err := refuseWhileEnding(cur, e.now()); err != nil {
			return err
		}
		e.touch(cur)
		if err := w.UpdateSession(ctx, cur); err != nil {
			return err
		}
		if req.ToolID != "" {
			if aw, ok := w.(AgentWriter); ok {
				t, err := aw.TakeToolStart(ctx, req.Source, req.ToolID)
				if err != nil {
					return err
				}
				if ev.Duration == 0 && !t.IsZero() {
					ev.Duration = max(0, now.Sub(t))
				}
			}
		}
		if err := w.AddEvidence(ctx, ev); err != nil {
			return err
		}
		tok := "observed:" + req.Source
		if code != 0 {
			tok += ":failed"
		}
		return e.appendEvents(ctx, w, s.ID, now, tok)
	})
	if err != nil {
		return nil, fmt.Errorf("record observed evidence: %w", err)
	}
	return ev, nil
}

// MatchPhase returns the phase whose gate command, or a requirement quoting
// a command in backticks, starts with the same program and subcommand as cmd
// ("npx markdownlint-cli2 ..." matches a gate "npx markdownlint-cli2
// {changed:*.md}"). "" when no phase names it.
func MatchPhase(spec *protocolspec.Spec, cmd string) string {
	keys := shellline.Keys(cmd) // every command of the line: `cd web && npm test`
	for _, key := range keys {
		for i := range spec.Phases {
			p := &spec.Phases[i]
			for _, c := range p.Checks {
				if c.Kind == protocolspec.CheckCommand && shellline.Key(c.Arg) == key {
					return p.ID
				}
			}
		}
	}
	// Requirements are plain text (code spans lose their backticks), so only
	// a two-word key (program and subcommand) is specific enough to look for.
	for _, key := range keys {
		if !strings.Contains(key, " ") {
			continue
		}
		for i := range spec.Phases {
			p := &spec.Phases[i]
			for _, r := range p.Requirements {
				if shellline.ContainsWords(r.Text, key) {
					return p.ID
				}
			}
		}
	}
	return ""
}

// toolchainCache keeps godepchange's proven toolchains (a GOTOOLCHAIN
// switch in the session, hashed once rather than at every go test) in a
// file beside the database, each entry sealed with the gate event key; a
// store without a file keeps none.
func (e *Engine) toolchainCache() godepchange.Cache {
	if e.seal == nil {
		return godepchange.Cache{}
	}
	return godepchange.Cache{Path: e.seal.Beside("toolchains.proven"), MAC: e.seal.MAC}
}

// definesItsProgram names a function, alias, hashed path or loaded builtin
// the line defines under the name of a program it runs ("" for none).
func definesItsProgram(cmd string) string {
	calls, _, ok := shellline.Calls(shellline.Unwrap(cmd))
	if !ok {
		return ""
	}
	var names []string
	for _, c := range calls {
		if w := shellline.StripWrappers(c.Words); len(w) > 0 && w[0] != "" && !strings.Contains(w[0], "/") {
			names = append(names, w[0])
		}
	}
	if len(names) == 0 {
		return ""
	}
	return shellline.DefinesCommand(cmd, names...)
}
