package agenthook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sessiongate/sessiongate/cmdoutput"
	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/hookroute"
	"github.com/sessiongate/sessiongate/hooks"
	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/stopnote"
	"github.com/sessiongate/sessiongate/store"
	"github.com/sessiongate/sessiongate/transcript"
)

// MaxInput is the largest event accepted on stdin. Claude Code's
// PostToolUse carries the whole command output; 16 MiB leaves room for a
// verbose test run while bounding memory.
const MaxInput = 16 << 20

// DefaultTimeout is the hard limit of one run until the config says
// otherwise (agent_hooks.timeout).
const DefaultTimeout = 2 * time.Second

// CLITimeout is the limit `install --agent` gives each hook run in the
// agent's own config (Claude Code, Codex and Copilot "timeout"/"timeoutSec"
// 10; Gemini CLI gets more, hooks.GeminiHookTimeoutMS, for its hooks judge
// commits). Past it every one of these CLIs runs the tool
// call as if the hook had allowed it (tried with the real CLIs, issue 25:
// TestGeminiHookTimeout, TestCopilotHookTimeout), so the hook's own limit
// is held to MaxTimeout, leaving the rest for process start on a loaded
// machine: it answers by its fail mode before the CLI gives up on it.
const CLITimeout = 10 * time.Second

// MaxTimeout caps agent_hooks.timeout (the config accepts up to 1m).
const MaxTimeout = CLITimeout * 8 / 10

// JudgeTimeout bounds a hook that judges hooks-off commits (hooksoff.go):
// their pre-commit's command gates run then, each up to command_timeout
// (2 min by default), as `git commit` waits for a live pre-commit. The
// decision's limit (2 s by default) ended that judge on a loaded machine
// and left honest commits to reconciliation as BYPASSes (ci20). It is held
// to 8/10 of the limit install gives Gemini CLI's hooks
// (hooks.GeminiHookTimeoutMS), as MaxTimeout is to CLITimeout.
const JudgeTimeout = time.Duration(hooks.GeminiHookTimeoutMS) * time.Millisecond * 8 / 10

// Exit codes: every answer the agent can read is exit 0; a usage error
// (unknown agent) is 2 with the reason on stderr.
const (
	ExitOK    = 0
	ExitUsage = 2
)

// Runner runs one agent hook in one process.
type Runner struct {
	Dir    string // the process's working directory
	DBPath string // --db; "" means SESSIONGATE_DB, then the repository default
	// ProtocolPath is --protocol; "" means SESSIONGATE_PROTOCOL, the
	// config's protocol, then the default locations.
	ProtocolPath string
	Getenv       func(string) string
	Stdin        io.Reader
	Stdout       io.Writer
	Stderr       io.Writer
	// Timeout overrides agent_hooks.timeout (tests).
	Timeout time.Duration
	// LeaveOpen skips closing the database while its WAL is small (the
	// process exits right after Run); see hooks.Runtime.LeaveOpen.
	LeaveOpen bool
	// Argv is the process's command line; a bare name in Argv[0] (the
	// committed configs' call) defers or execs (byname.go). Nil: neither.
	Argv []string
	// Ancestors lists the process's ancestors, parent first (tests); nil:
	// ancestry.Chain.
	Ancestors func() []ancestry.Process
	// Self is the hook process itself (tests); nil: ancestry.Self, or no
	// process known when Ancestors is set.
	Self func() ancestry.Process
	// StdinPeer is the process that made the socket on stdin (tests): 0
	// none, -1 not read. Nil: read (Linux), or -1 when Ancestors is set.
	StdinPeer func() int
	// Confined reports whether process pid (0: the hook itself) runs under
	// no_new_privs or a seccomp filter (tests); ok false: not read. Nil:
	// read (Linux), or not read when Ancestors is set.
	Confined func(pid int) (confined, ok bool)

	once  sync.Once
	timer *time.Timer
	start time.Time
	// checkouts counts the commit checkouts the handler has made and not
	// yet removed (hooksoff.go): an answer by time limit or signal waits
	// for their removal, so the process does not exit past it.
	checkouts atomic.Int32

	noteMu sync.Mutex
	note   *stopNote // a stop answered by fail mode is written down (uncheckedstop.go)
}

func (r *Runner) getenv(k string) string {
	if r.Getenv == nil {
		return os.Getenv(k)
	}
	return r.Getenv(k)
}

// Run answers one event and returns the process exit code. It writes
// exactly one JSON document to Stdout (none for an unknown agent), within
// the hard time limit, whatever happens.
func (r *Runner) Run(ctx context.Context, agent, event string) int {
	codec, ok := Codecs[agent]
	if !ok {
		fmt.Fprintf(r.Stderr, "sessiongate: agent-hook: unknown agent %q (want one of %s)\n", agent, strings.Join(Agents, ", "))
		return ExitUsage
	}
	r.start = time.Now()
	if len(r.Argv) > 0 && ByName(r.Argv[0]) && r.byName(ctx, codec, agent, event) {
		return ExitOK
	}
	limit := r.Timeout
	if limit <= 0 {
		limit = DefaultTimeout
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The event, as far as it is known, for the fail-mode answer: until
	// it is decoded, its kind from its name and its tool unknown.
	fallback := unreadEvent(agent, event)
	failMode := "closed"
	var mu sync.Mutex
	// The handler goroutine may still be writing its own message when the
	// time limit answers: one lock for both.
	r.Stderr = &lockedWriter{w: r.Stderr}
	done := make(chan struct{})
	r.timer = time.NewTimer(limit)
	defer r.timer.Stop()
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				fmt.Fprintf(r.Stderr, "sessiongate: agent-hook %s %s: internal error: %v\n%s", agent, event, p, debug.Stack())
				mu.Lock()
				ev, fm := fallback, failMode
				mu.Unlock()
				r.noteStop(fmt.Sprintf("internal error: %v", p))
				r.answer(codec, ev, failAnswer(ev, fm, fmt.Errorf("internal error: %v", p)))
			}
		}()
		ev, a := r.handle(ctx, codec, agent, event, func(ev *Event, fm string, limit time.Duration) {
			mu.Lock()
			fallback, failMode = ev, fm
			mu.Unlock()
			if limit > 0 {
				r.timer.Reset(max(time.Millisecond, limit-time.Since(r.start)))
			}
		})
		r.answer(codec, ev, a)
	}()
	select {
	case <-done:
	case <-r.timer.C:
		cancel()
		mu.Lock()
		ev, fm := fallback, failMode
		mu.Unlock()
		if ev.Unread {
			// Stdin was not read in time: the config's fail mode, looked
			// up now (not on every call) and briefly.
			fm = r.quickFailMode(agent)
		}
		fmt.Fprintf(r.Stderr, "sessiongate: agent-hook %s %s: no decision within the time limit; answering by fail_mode %s\n", agent, event, fm)
		r.noteStop("no decision within the time limit")
		r.answer(codec, ev, failAnswer(ev, fm, errors.New("sessiongate did not decide within its time limit (agent_hooks.timeout)")))
	case <-ctx.Done():
		// Interrupted (SIGINT/SIGTERM): still one answer.
		mu.Lock()
		ev, fm := fallback, failMode
		mu.Unlock()
		r.answer(codec, ev, failAnswer(ev, fm, errors.New("sessiongate was interrupted")))
	}
	if r.checkouts.Load() > 0 {
		// Cancelled mid-judge: its command is killed at once, and the
		// checkout's removal takes a git call or two.
		select {
		case <-done:
		case <-time.After(checkoutRemoval):
		}
	}
	return ExitOK
}

// checkoutRemoval bounds the wait for a cancelled judge's checkout to be
// removed before the process exits.
const checkoutRemoval = 3 * time.Second

// answer writes the one answer; later calls (a timed-out handler that
// finishes after all) write nothing.
func (r *Runner) answer(codec Codec, ev *Event, a *Answer) {
	r.once.Do(func() {
		_, _ = r.Stdout.Write(codec.Encode(ev, a))
	})
}

// failAnswer is the answer when sessiongate cannot decide: fail_mode
// closed denies a tool that would change something (reads stay allowed),
// and any tool of an event it could not read (ev.Unread: empty, malformed,
// too large, or not read within the time limit), whose tool is unknown;
// open allows. A stop is never blocked on an error, or the agent could
// loop forever; start and prompt only carry the warning.
func failAnswer(ev *Event, failMode string, err error) *Answer {
	msg := "sessiongate could not check this step: " + err.Error()
	fix := "run `sessiongate doctor` in the repository"
	a := &Answer{Notice: msg + " (" + fix + ")"}
	if ev.Kind == KindPreTool && failMode != "open" && (ev.Unread || ev.Tool.Kind == session.ToolEdit || ev.Tool.Kind == session.ToolShell) {
		a.Deny = true
		a.Reason = msg + ". fail_mode is closed, so file changes and shell commands are refused until it works: " + fix +
			" (or set agent_hooks.fail_mode: open in sessiongate.yaml)"
	}
	return a
}

// setup is called by handle as soon as it knows the event and the config.
type setup func(ev *Event, failMode string, limit time.Duration)

func (r *Runner) handle(ctx context.Context, codec Codec, agent, name string, ready setup) (*Event, *Answer) {
	raw, err := io.ReadAll(io.LimitReader(r.Stdin, MaxInput+1))
	unknown := unreadEvent(agent, name)
	if err != nil {
		return unknown, failAnswer(unknown, r.configFailMode(ctx, agent), fmt.Errorf("read the event from stdin: %w", err))
	}
	if len(raw) > MaxInput {
		return unknown, failAnswer(unknown, r.configFailMode(ctx, agent), fmt.Errorf("the event on stdin is larger than %d MiB", MaxInput>>20))
	}
	ev, err := codec.Decode(name, raw)
	if err != nil {
		fmt.Fprintf(r.Stderr, "sessiongate: agent-hook %s %s: %v\n", agent, name, err)
		return unknown, failAnswer(unknown, r.configFailMode(ctx, agent), err)
	}
	ready(ev, "closed", 0)
	if ev.Kind == KindUnknown {
		msg := fmt.Sprintf("sessiongate: agent-hook %s does not handle the event %q; nothing was checked (remove it from the hook config, or update sessiongate)", agent, name)
		fmt.Fprintln(r.Stderr, msg)
		return ev, &Answer{Notice: msg}
	}
	if ev.Kind == KindEnd {
		r.endConversation(ctx, ev)
		// Claude Code's end may close a turn whose stop waited for
		// background sub-agents and was never judged (endAfterWait); every
		// agent's end is kept, so a CLI gone without one reads as killed
		// (session/clivanished.go).
	}
	// A tool that only reads, or one the agent does not ship whose name
	// does not say it writes files (otherToolPaths), needs no decision.
	if ev.Kind == KindNoop || ev.Kind == KindPreTool && !witnessed(ev) && (ev.Tool.Kind == session.ToolRead || ev.Tool.Kind == session.ToolOther && len(ev.Tool.Paths) == 0) {
		// Nothing to decide: no repository, config or database work.
		return ev, &Answer{}
	}
	a, err := r.decide(ctx, ev, ready)
	if err != nil {
		fmt.Fprintf(r.Stderr, "sessiongate: agent-hook %s %s: %v\n", agent, name, err)
		if errors.Is(err, errFailMode) {
			return ev, a
		}
		return ev, failAnswer(ev, "closed", err)
	}
	return ev, a
}

// witnessed reports whether ev is the PreToolUse of a call whose transcript
// line counts only when this hook kept its id and input digest: Claude
// Code's Bash, sub-agent, MCP and read calls (session.WitnessedTool),
// Codex's shell calls; Gemini CLI's and Copilot's shell calls, whose id is
// only the hook's own pairing of the command line (the digest is what
// counts).
func witnessed(ev *Event) bool {
	if ev.Kind != KindPreTool || ev.ToolID == "" {
		return false
	}
	switch ev.Agent {
	case "claude":
		return hookroute.WitnessedTool(ev.Tool.Name)
	case "gemini":
		return ev.Tool.Kind == session.ToolShell || ev.Tool.Name == "read_file"
	case "codex":
		return ev.Tool.Kind == session.ToolShell
	case "copilot":
		return ev.Tool.Kind == session.ToolShell || ev.Tool.Name == "view"
	}
	return false
}

// unreadEvent is an event whose payload could not be read: its kind comes
// from its name (a pre-tool event is still one), its tool is unknown.
func unreadEvent(agent, name string) *Event {
	return &Event{Agent: agent, Name: name, Kind: eventKind(agent, name), Unread: true}
}

// configFailMode is the repository's agent fail mode for an event it could
// not read ("closed" when the config cannot be found or read): the
// project folder the agent names, else the process's folder.
func (r *Runner) configFailMode(ctx context.Context, agent string) string {
	dir := r.Dir
	if p := r.getenv(projectEnv[agent]); p != "" && filepath.IsAbs(p) {
		dir = p
	}
	repo, err := gitrepo.Find(ctx, dir, r.getenv)
	if err != nil {
		return "closed"
	}
	cfg, err := config.Load(repo.Root())
	if err != nil {
		return "closed"
	}
	if cfg.AgentFailMode() == "open" {
		return "open"
	}
	return "closed"
}

// quickFailMode is configFailMode within 1 s, else "closed".
func (r *Runner) quickFailMode(agent string) string {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	ch := make(chan string, 1)
	go func() { ch <- r.configFailMode(ctx, agent) }()
	select {
	case fm := <-ch:
		return fm
	case <-ctx.Done():
		return "closed"
	}
}

// errFailMode marks an error decide already answered by fail mode.
var errFailMode = errors.New("answered by fail mode")

// project is the folder the event belongs to: the agent's project
// variable, the event's folder, else the process's.
func (r *Runner) project(ev *Event) string {
	if p := r.getenv(projectEnv[ev.Agent]); p != "" && filepath.IsAbs(p) {
		return p
	}
	if ev.Dir != "" && filepath.IsAbs(ev.Dir) {
		if st, err := os.Stat(ev.Dir); err == nil && st.IsDir() {
			return ev.Dir
		}
	}
	return r.Dir
}

// projectEnv names the variable each agent sets to its project folder.
var projectEnv = map[string]string{"claude": "CLAUDE_PROJECT_DIR", "gemini": "GEMINI_PROJECT_DIR", "cursor": "CURSOR_PROJECT_DIR"}

func (r *Runner) decide(ctx context.Context, ev *Event, ready setup) (*Answer, error) {
	repo, err := gitrepo.Find(ctx, r.project(ev), r.getenv)
	if err != nil {
		return nil, fmt.Errorf("find the git repository: %w", err)
	}
	r.touchConversation(repo, ev)
	cfg, err := config.Load(repo.Root())
	if err != nil {
		a := failAnswer(ev, "closed", fmt.Errorf("the repository's config cannot be read: %w", err))
		return a, fmt.Errorf("%w: %v", errFailMode, err)
	}
	ah := cfg.AgentHooks
	limit := min(time.Duration(ah.Timeout), MaxTimeout)
	if r.Timeout > 0 {
		limit = r.Timeout
	}
	ready(ev, cfg.AgentFailMode(), limit)
	// A gate read here may wait for a lagging transcript
	// (session/transcript_catchup.go): at most half of what the time
	// limit leaves, so the hook still answers itself.
	ctx = session.WithTranscriptWait(ctx, min(session.DefaultTranscriptWait, (limit-time.Since(r.start))/2))
	if !ah.Enabled {
		return &Answer{}, nil
	}
	switch ev.Kind {
	case KindPreTool:
		dir := ev.Dir
		if dir == "" || !filepath.IsAbs(dir) {
			dir = repo.Root()
		}
		if judgeOther(&ev.Tool, repo.Root(), dir); ev.Tool.Kind == session.ToolOther && !witnessed(ev) {
			return &Answer{}, nil // it names no file of this worktree
		}
		if ev.Tool.Kind == session.ToolShell && ev.Tool.Dir == "" {
			ev.Tool.Dir = dir // where the agent's shell is
		}
		// A patch's paths (Codex's apply_patch) are relative to the
		// agent's folder, which may be below the worktree root.
		for i, p := range ev.Tool.Paths {
			if !filepath.IsAbs(p) {
				ev.Tool.Paths[i] = filepath.Join(dir, p)
			}
		}
		if ah.Protect {
			if why := transcriptWrite(ev, dir, r.getenv); why != "" {
				return &Answer{Deny: true, Reason: why}, nil
			}
			if why := agentConfigWrite(ev, dir, r.getenv); why != "" {
				return &Answer{Deny: true, Reason: why}, nil
			}
			if why := selfBinaryWrite(ev, dir, r.getenv); why != "" {
				return &Answer{Deny: true, Reason: why}, nil
			}
			if why := gitHookBinaryWrite(ctx, ev, dir, repo, r.getenv); why != "" {
				return &Answer{Deny: true, Reason: why}, nil
			}
			if why := startupFileWrite(ev, dir, r.getenv); why != "" {
				return &Answer{Deny: true, Reason: why}, nil
			}
			if ev.Tool.Kind == session.ToolShell {
				// A hook that dies is an allow in Claude Code and Codex.
				if why := shellline.SignalsHooks(ev.Tool.Command); why != "" {
					return &Answer{Deny: true, Reason: "sessiongate: " + why}, nil
				}
				if ev.Agent == "codex" {
					// Codex keeps a tty process running and feeds it lines
					// with write_stdin, which reaches no hook (stdinprogram.go).
					if p := shellline.StdinProgram(ev.Tool.Command); p != "" {
						return &Answer{Deny: true, Reason: "sessiongate: `" + shortCmd(ev.Tool.Command) + "` starts " + p + " reading its commands from the terminal: lines sent to it later (write_stdin) reach no hook, so nothing judges what they run or write. Run each command itself, or give the program its script on the line (`" + p + " FILE`, a -c/-e argument, a here-document)"}, nil
					}
				}
				if why := gitRunsShim(ev.Tool.Command, dir, r.getenv, ev.Agent == "copilot"); why != "" {
					return &Answer{Deny: true, Reason: why}, nil
				}
				if why := earlierVarWrite(ev, r.getenv); why != "" {
					return &Answer{Deny: true, Reason: why}, nil // earliervars.go
				}
				if ev.Tool.Shell != shellline.PowerShell {
					if set := shellline.SetsStartupVar(ev.Tool.Command); set != "" {
						return &Answer{Deny: true, Reason: "sessiongate: `" + shortCmd(set) + "` makes a shell run code the line does not show (BASH_ENV: a file every bash script sources first; ENV: the file an interactive sh sources; PROMPT_COMMAND: a line run before each prompt), which no check reads. Run the file or the command itself, by its name, so it is judged"}, nil
					}
				}
			}
			if why := gitDirWrite(ev, dir, repo); why != "" {
				return &Answer{Deny: true, Reason: why}, nil
			}
		}
		if ev.Tool.Kind == session.ToolShell && !ah.DenyBeforeStart && !ah.Protect && !ah.Observe {
			return &Answer{}, nil
		}
		if ev.Tool.Kind == session.ToolEdit && !ah.DenyBeforeStart && !ah.Protect {
			return &Answer{}, nil
		}
	case KindPostTool:
		// Claude Code's input as run is compared with the judged one
		// (inputRewritten) whether or not runs are observed, writes too;
		// Copilot's is paired with a judged call the same way.
		if !postCompared(ev) && !copilotPaired(ev) && (!ah.Observe || ev.Result == nil || strings.TrimSpace(ev.Tool.Command) == "") {
			return &Answer{}, nil
		}
	case KindStop, KindEnd:
		if !ah.BlockStop || ah.MaxStopBlocks <= 0 && ev.Kind == KindEnd {
			return &Answer{}, nil
		}
	}
	if err := session.ValidateAgentSession(ev.AgentSession); err != nil {
		a := failAnswer(ev, cfg.AgentFailMode(), fmt.Errorf("the event's session id: %w", err))
		return a, fmt.Errorf("%w: %v", errFailMode, err)
	}
	// The prompt's turn mark and the stop's work state read the worktree:
	// start it now, so it runs while the database opens.
	var work *workJob
	if ev.Kind == KindPrompt || (ev.Kind == KindStop || ev.Kind == KindEnd) && ah.BlockStop {
		work = startWork(ctx, repo)
	}
	dbPath := r.dbPath(repo)
	if ev.Kind == KindStop && ah.BlockStop {
		r.setStopNote(&stopNote{dbPath: dbPath, dir: repo.Root(), ref: stopRecordsRef(cfg.SessionRecord), ev: ev, work: work})
	}
	var notes []string
	if _, err := os.Stat(dbPath); errors.Is(err, fs.ErrNotExist) && ev.Kind != KindStart {
		notes = append(notes, "the sessiongate database "+dbPath+" was missing (deleted?); a new one was created, so earlier sessions of this repository are gone from it")
	}
	db, err := store.OpenSingle(ctx, dbPath)
	if err != nil {
		r.noteStop("open the database: " + err.Error())
		a := failAnswer(ev, cfg.AgentFailMode(), fmt.Errorf("open the database: %w", err))
		return a, fmt.Errorf("%w: %v", errFailMode, err)
	}
	defer r.closeDB(db)
	eng := session.NewEngine(db, cfg.Engine(), func(ctx context.Context, wt string) (session.Repo, error) {
		if wt == repo.Root() {
			return repo, nil
		}
		return gitrepo.Open(ctx, wt)
	})
	if _, err := stopnote.Fold(ctx, db, dbPath); err != nil {
		fmt.Fprintf(r.Stderr, "sessiongate: agent-hook %s %s: %v\n", ev.Agent, ev.Name, err)
	}
	a, err := r.act(ctx, eng, cfg, repo, ev, work)
	if err != nil {
		r.noteStop(err.Error())
		a := failAnswer(ev, cfg.AgentFailMode(), err)
		return a, fmt.Errorf("%w: %v", errFailMode, err)
	}
	if len(notes) > 0 {
		n := "sessiongate: " + strings.Join(notes, "; ")
		if a.Notice != "" {
			n += "; " + a.Notice
		}
		a.Notice = n
		if a.Deny {
			a.Reason += " (" + strings.Join(notes, "; ") + ")"
		}
	}
	return a, nil
}

// act is one event against the engine.
func (r *Runner) act(ctx context.Context, eng *session.Engine, cfg *config.Config, repo *gitrepo.Repo, ev *Event, work *workJob) (*Answer, error) {
	if work == nil {
		work = &workJob{repo: repo} // run on demand
	}
	ah := cfg.AgentHooks
	// The hook's ancestry, read once (a /proc walk) for both the check
	// that the CLI sent the event and the CLI a turn runs in.
	chain := sync.OnceValue(r.chain)
	if a, err := r.refuseNotFromCLI(ctx, eng, repo, ev, work, chain); a != nil || err != nil {
		return a, err
	}
	// Claude Code's <task-notification> prompt (a background sub-agent
	// stopped) is the CLI's, not the user's: it continues the session and
	// starts none (round 25 saw it open a second session after COMPLETE).
	notice, isNotice := taskNotification(ev)
	create := ah.BindSession && (ev.Kind == KindStart || ev.Kind == KindPrompt && !isNotice || ev.Kind == KindPreTool)
	req := session.AgentBindRequest{
		Agent: ev.Agent, AgentSession: ev.AgentSession, Repo: repo, Create: create,
		Spec: func(ctx context.Context) (*protocolspec.Spec, error) { return r.loadSpec(ctx, eng, cfg, repo) },
		// A turn begins at the prompt; a new binding is marked whatever the event.
		// A prompt that only carries sessiongate's own stop-block reason
		// back (Gemini CLI's retry) continues the turn it blocked.
		// A notification continues the turn too: marked, the work before
		// it would read as an earlier turn's and the stop after it as idle.
		Mark: ev.Kind == KindPrompt && !isStopRetry(ev.Prompt) && !isNotice,
		Work: work.wait,
	}
	if ev.Kind == KindPrompt && !isStopRetry(ev.Prompt) && !isNotice {
		req.Objective = firstLine(withoutContextBlocks(ev.Prompt))
	}
	if req.Mark {
		// The CLI process the turn runs in: a later prompt from another
		// while this one vanished without SessionEnd continues its turn.
		chain := chain()
		if _, nested := nestedAgent(chain); nested {
			// A CLI started from an agent's tool call (`claude -p
			// --continue` in the agent's shell): its prompt is the outer
			// agent's doing, not a person's. It neither begins a turn nor
			// becomes the session's CLI, so its own proper SessionEnd
			// cannot stand for the outer CLI's when that one is killed
			// (round 29, c4).
			req.Mark = false
		} else if p, ok := ancestry.Agent(chain); ok && p.Start != 0 {
			req.CLI, req.CLIGone, req.CLIShape = p.Key(), ancestry.Gone, r.cliShape(p, chain)
			req.CLINamespace = ancestry.PIDNamespace()
			req.CLIMountNamespace = ancestry.MountNamespace()
		}
	}
	if ev.Kind == KindEnd {
		return r.endAfterWait(ctx, eng, cfg, repo, ev, work)
	}
	// A prompt after a stop that waited for background sub-agents, never
	// judged since, continues that turn (session.StopWaitOpen).
	req.KeepOpenWait = ev.Agent == "claude" && req.Mark
	bd, err := eng.AgentBind(ctx, req)
	if err != nil {
		return nil, err
	}
	if bd.Session != nil {
		if err := r.bindConversation(ctx, eng, repo, ev, bd); err != nil {
			return nil, err
		}
	}
	// Why the CLI running this hook is no witness of the conversation's
	// tool calls ("" when it is one), asked at most once.
	var unwitnessed func() (string, error)
	if bd.Session != nil {
		sid := bd.Session.ID
		unwitnessed = sync.OnceValues(func() (string, error) { return r.unwitnessed(ctx, eng, sid, ev, chain()) })
	}
	if ev.Transcript != "" && bd.Session != nil {
		// (A transcript named by a CLI that is no witness is its own
		// word, as its statuses are: not bound. One bound already is
		// sealed whoever names it.)
		r.bindTranscript(ctx, eng, repo, ev, bd.Session.ID, unwitnessed)
	}
	if ev.Kind != KindPostTool {
		// A shell call's own post-tool hook judges its commits below,
		// after the call's report.
		if err := r.resumeHooksOff(ctx, eng, cfg, repo, ev, bd.Session); err != nil {
			return nil, err
		}
	}
	a := &Answer{}
	switch ev.Kind {
	case KindError:
		// The agent cannot be stopped by this answer; the error is kept in
		// the session's events (what failed, shortened).
		if bd.Session != nil {
			err := eng.Store.Update(ctx, func(w session.Writer) error {
				return w.AppendEvent(ctx, &session.Event{SessionID: bd.Session.ID, Token: "agent:" + ev.Agent + ":error", Detail: shorten.Bytes(ev.Prompt, 300, "")})
			})
			if err != nil {
				return nil, fmt.Errorf("record the agent's error: %w", err)
			}
		}
	case KindStart:
		if ah.Context {
			a.Context = eng.AgentSummary(ctx, bd)
		}
	case KindPrompt:
		// A notification after the session ended (COMPLETE) still judges
		// the sub-agent's calls its end gate left pending (round 28).
		noteSID := ""
		if bd.Session != nil {
			noteSID = bd.Session.ID
		} else if bd.Ended != "" {
			noteSID = bd.Ended
		}
		if isNotice && noteSID != "" {
			// A notification sent by a CLI that itself runs inside an
			// agent's tool call (`claude -p --continue "<task-notification>
			// ..."` from the agent's shell: the same conversation, hooks
			// and database) is the agent's words, not its CLI's: not kept,
			// so the sub-agent's call stays open (round 27).
			if outer, ok := nestedAgent(ancestry.Chain()); ok {
				err := eng.Store.Update(ctx, func(w session.Writer) error {
					return w.AppendEvent(ctx, &session.Event{SessionID: noteSID, Token: "agent:claude:notification-refused",
						Detail: shorten.Bytes(fmt.Sprintf("%s %s: sent by a CLI under %s (pid %d)", notice.ToolUseID, notice.Status, outer.Name, outer.PID), 300, "")})
				})
				return a, err
			}
			// Kept for the gate: the transcript's notification counts only
			// if this hook saw it (session.failedByHook). Not a new turn
			// either: another background sub-agent's calls may be running,
			// and settling them as interrupted would be false.
			if err := eng.RecordTaskNotified(ctx, noteSID, notice); err != nil {
				return nil, err
			}
			// The sub-agent stopped: its calls the gates left pending are
			// judged now (session.SubagentCallsEnded).
			if session.ValidSubagentID(notice.TaskID) {
				v, err := eng.SubagentCallsEnded(ctx, noteSID, ev.Agent, notice.TaskID, notice.Status)
				if err != nil {
					return nil, err
				}
				if v != nil {
					a.Notice = fmt.Sprintf("sessiongate: %s %s violation recorded: %s", v.Severity, v.Code, v.Message)
				}
			}
			return a, nil
		}
		if (ev.Agent == "claude" || ev.Agent == "copilot" || ev.Agent == "codex" || ev.Agent == "gemini" || ev.Agent == "cursor") && bd.Session != nil && !isStopRetry(ev.Prompt) && !bd.WaitOpen {
			// (Not while a stop waits for background sub-agents: the
			// main turn's calls all reported before that stop, and the
			// sub-agents' may still run.)
			// A prompt from a new CLI that continues a vanished one's turn:
			// the call the killed CLI was running never reports, and no
			// interrupt of it is in the transcript (session.SettleVanishedCall).
			if bd.Vanished != "" {
				if err := eng.SettleVanishedCall(ctx, bd.Session.ID, ev.Agent); err != nil {
					return nil, err
				}
			}
			// A judged call still unreported at a new prompt was interrupted
			// (Claude Code then sends no PostToolUse and no Stop; Copilot is
			// given the same benefit of the doubt).
			if err := eng.SettleUnreported(ctx, bd.Session.ID, ev.Agent, "interrupted"); err != nil {
				return nil, err
			}
		}
		if len(bd.Notes) > 0 && ah.Context {
			a.Context = eng.AgentSummary(ctx, bd)
		}
	case KindPreTool:
		// A call's witness (its id and input digest: a transcript line
		// of it counts only with one) is kept only from a CLI that is a
		// witness (Runner.unwitnessed): a nested or detached CLI's call
		// would otherwise vouch for a line written into the outer
		// conversation's transcript (helper 343's lead).
		keepWitness := witnessed(ev) && bd.Session != nil
		if keepWitness {
			why, err := unwitnessed()
			if err != nil {
				return nil, err
			}
			keepWitness = why == ""
		}
		if ev.Tool.Kind == session.ToolRead {
			// A read is never denied: its hook only keeps the witness, so
			// the hook process per read stays one transaction.
			if keepWitness {
				if err := eng.AgentToolCall(ctx, bd.Session.ID, ev.Agent, ev.ToolID, ev.Tool.Name, ev.ToolDigest, false); err != nil {
					return nil, err
				}
			}
			return a, nil
		}
		pol := session.AgentPolicy{DenyBeforeStart: ah.DenyBeforeStart, Protect: ah.Protect}
		ev.Tool.Transcript = ev.Transcript
		v, err := eng.AgentPreTool(ctx, bd, repo.Root(), ev.Tool, pol)
		if err != nil {
			return nil, err
		}
		scripts := v.Scripts
		if !v.Deny {
			v = gateDefaultsVerdict(ev.Tool, bd.Session)
		}
		if v.Deny {
			a.Deny, a.Reason = true, v.Message()
			if bd.Session != nil {
				tok := "agent:" + ev.Agent + ":denied"
				_ = eng.Store.Update(ctx, func(w session.Writer) error {
					return w.AppendEvent(ctx, &session.Event{SessionID: bd.Session.ID, Token: tok, Detail: shorten.Bytes(v.Gate+": "+ev.Tool.Name, 200, "")})
				})
			}
			return a, nil
		}
		if len(scripts) > 0 && bd.Session != nil {
			// The scripts it runs, by hash: what a script writes and runs
			// in turn is not read here, but what ran is on record.
			if err := eng.RecordScripts(ctx, bd.Session.ID, scripts); err != nil {
				return nil, err
			}
		}
		// Claude Code before 2.1 and Gemini CLI report no duration: time
		// a shell call from here (Cursor reports one).
		timed := ev.Tool.Kind == session.ToolShell && ah.Observe && bd.Session != nil && ev.ToolID != "" && ev.Agent != "cursor"
		switch {
		case keepWitness:
			// One transaction keeps the witness and the start.
			if err := eng.AgentToolCall(ctx, bd.Session.ID, ev.Agent, ev.ToolID, ev.Tool.Name, ev.ToolDigest, timed); err != nil {
				return nil, err
			}
		case timed:
			if err := eng.AgentToolStart(ctx, ev.Agent, ev.ToolID); err != nil {
				return nil, err
			}
		}
		if ev.Agent == "claude" && bd.Session != nil && (ev.Tool.Kind == session.ToolShell || ev.Tool.Kind == session.ToolEdit) {
			// The whole input allowed, for PostToolUse to compare.
			if err := eng.KeepJudgedInput(ctx, bd.Session.ID, ev.ToolID, ev.Tool.Name, ev.InputDigest, ev.SubAgent); err != nil {
				return nil, err
			}
		}
		if owesReport(ev) && bd.Session != nil {
			// Its post-tool hook marks it reported (TOOL_RESULT_MISSING).
			if err := eng.KeepOwedReport(ctx, bd.Session.ID, ev.Agent, ev.ToolID, ev.Tool.Name); err != nil {
				return nil, err
			}
		}
		if copilotPaired(ev) && bd.Session != nil {
			// No call id: postToolUse pairs by tool and input (CopilotPost).
			if err := eng.KeepCopilotJudged(ctx, bd.Session.ID, ev.Tool.Name, ev.InputDigest); err != nil {
				return nil, err
			}
		}
	case KindPostTool:
		if sid := latePostSession(ev, bd); sid != "" {
			return r.latePost(ctx, eng, ev, sid)
		}
		if bd.Session == nil {
			return a, nil
		}
		if postCompared(ev) || (ev.Agent == "codex" || ev.Agent == "gemini" || ev.Agent == "cursor") && ev.ToolID != "" && ev.Tool.Kind == session.ToolShell {
			// Reported: not a TOOL_RESULT_MISSING at Stop.
			// A Claude Code MCP or sub-agent call that failed: its
			// transcript line must say so too (a Bash call's status is
			// observed from the payload already).
			failed := ev.Agent == "claude" && ev.Name == "PostToolUseFailure" && ev.Tool.Kind != session.ToolShell && hookroute.WitnessedTool(ev.Tool.Name)
			if err := eng.RecordToolResult(ctx, bd.Session.ID, ev.Agent, ev.ToolID, failed); err != nil {
				return nil, err
			}
			// Settled as interrupted by a prompt, yet it ran on: that
			// prompt came from inside it (PROMPT_DURING_CALL).
			if v, err := eng.ReportAfterPrompt(ctx, bd.Session.ID, ev.Agent, ev.ToolID); err != nil {
				return nil, err
			} else if v != nil {
				a.Notice = "sessiongate: " + v.Severity + " " + v.Code + " violation recorded: " + v.Message
			}
		}
		if ev.Tool.Kind == session.ToolShell && r.ranByHooksOffAgent(ev) {
			// After the call's report (pre-commit's gate counts unreported
			// calls), before any engine call below reconciles the commit.
			if err := r.hooksOffCommit(ctx, eng, cfg, repo, bd.Session, ev.Agent); err != nil {
				return nil, err
			}
		}
		if why, err := r.inputRewritten(ctx, eng, ev, bd.Session.ID); err != nil || why != "" {
			// A call nothing judged is no evidence of anything.
			if why != "" {
				a.Notice = "sessiongate: HIGH " + session.CodeToolInputRewritten + " violation recorded: " + why
			}
			return a, err
		}
		if !ah.Observe || ev.Result == nil || strings.TrimSpace(ev.Tool.Command) == "" {
			// A write tool's PostToolUse, or runs not observed: compared
			// above, nothing to record.
			return a, nil
		}
		if ev.Background {
			// run_in_background: PostToolUse comes when the command started,
			// exit 0 and no output of it; that proves nothing it ran.
			if err := eng.Store.Update(ctx, func(w session.Writer) error {
				return w.AppendEvent(ctx, &session.Event{SessionID: bd.Session.ID, Token: "agent:" + ev.Agent + ":background", Detail: shorten.Bytes(ev.ToolID+" "+ev.Tool.Command, 300, "")})
			}); err != nil {
				return nil, fmt.Errorf("record the backgrounded call: %w", err)
			}
			return a, nil
		}
		res := ev.Result
		if res.ExitCode == -1 && ev.Agent == "codex" {
			// Codex's PostToolUse has no exit status; its rollout does.
			if path, err := transcript.Check(ev.Agent, ev.Transcript, r.getenv, repo.Root()); err == nil {
				st := codexExitFromRollout(path, ev.ToolID, 500*time.Millisecond)
				if st.ok() {
					res.ExitCode = st.exit
				}
				// The rollout can be rewritten in place (exit 1 to 0) before
				// this reads it; the output in the payload is Codex's own.
				// A runner that printed its failure did not pass.
				if line := cmdoutput.RunnerFailed(res.Output); res.ExitCode == 0 && line != "" {
					res.ExitCode = -1
					detail := shorten.Bytes(ev.ToolID+": the rollout says exit 0, the output says `"+line+"`", 300, "")
					if err := eng.Store.Update(ctx, func(w session.Writer) error {
						return w.AppendEvent(ctx, &session.Event{SessionID: bd.Session.ID, Token: "agent:codex:exit-disputed", Detail: detail})
					}); err != nil {
						return nil, fmt.Errorf("record the disputed exit status: %w", err)
					}
				}
				if st.conflict {
					// Something other than Codex wrote into its rollout.
					why := fmt.Sprintf("the Codex rollout gives shell call %s two exit statuses (%d and %d): a line was written into it by something other than Codex, so its status is unknown", ev.ToolID, st.first, st.exit)
					if err := eng.TranscriptForged(ctx, bd.Session.ID, ev.Agent, path, why); err != nil {
						return nil, err
					}
				}
			}
		}
		req := session.ObservedRequest{
			ID: bd.Session.ID, Source: ev.Agent, Command: ev.Tool.Command,
			ExitCode: res.ExitCode, Duration: res.Duration, Output: res.Output,
		}
		if ev.Dir != "" && filepath.IsAbs(ev.Dir) {
			req.Dir = ev.Dir // where the agent's shell ran it
		}
		if ev.Agent != "cursor" {
			req.ToolID = ev.ToolID // its start, from PreToolUse/BeforeTool
		}
		why, err := unwitnessed()
		if err != nil {
			return nil, err
		}
		if why != "" {
			// Kept (its pre-tool event was judged as any), its status
			// unknown: see nestedWitness, Runner.unwitnessed.
			req.Unwitnessed = why
			a.Notice = "sessiongate: this run's exit status is not taken as observed: " + why
		}
		if _, err := eng.RecordObserved(ctx, req); err != nil {
			return nil, err
		}
	case KindStop:
		if bd.Session == nil {
			if bd.Ended != "" && len(ev.Waiting) == 0 && ev.Agent == "claude" {
				// No sub-agent runs: the calls of sub-agents the session's
				// end gate left pending owed their reports by now.
				v, err := eng.SubagentCallsEnded(ctx, bd.Ended, ev.Agent, "", "completed")
				if err != nil {
					return nil, err
				}
				if v != nil {
					a.Notice = fmt.Sprintf("sessiongate: %s %s violation recorded: %s", v.Severity, v.Code, v.Message)
				}
			}
			return a, nil
		}
		if len(ev.Waiting) > 0 {
			// Sub-agents still run in the background: the CLI sends their
			// notification as the next prompt and the turn goes on, so
			// this stop is no end. Neither blocked (the agent can only
			// wait; blocked three times, an honest wait was recorded as
			// END_PROTOCOL_SKIPPED) nor judged for unreported calls (the
			// sub-agents' own are still running); the next stop is.
			err := eng.Store.Update(ctx, func(w session.Writer) error {
				return w.AppendEvent(ctx, &session.Event{SessionID: bd.Session.ID, Token: "agent:" + ev.Agent + ":stop:waiting", Detail: shorten.Bytes(strings.Join(ev.Waiting, " "), 300, "")})
			})
			if err != nil {
				return nil, fmt.Errorf("record the stop waiting for sub-agents: %w", err)
			}
			return a, nil
		}
		ws, err := work.wait(ctx)
		if err != nil {
			return nil, err
		}
		var afterWait bool
		if ev.Agent == "claude" {
			if afterWait, err = eng.StopWaitOpen(ctx, bd.Session.ID, ev.Agent); err != nil {
				return nil, err
			}
		}
		v, err := eng.AgentStop(ctx, session.AgentStopRequest{Bound: bd, Work: ws, Continuing: ev.Continuing, MaxBlocks: ah.MaxStopBlocks, AfterWait: afterWait})
		if err != nil {
			return nil, err
		}
		var missing *session.Violation
		if ev.Agent == "claude" || ev.Agent == "copilot" || ev.Agent == "codex" || ev.Agent == "gemini" || ev.Agent == "cursor" {
			// The turn ended normally: every judged call has reported
			// (Copilot's agentStop too, TestUnreportedAtGates).
			if missing, err = eng.ToolResultsMissing(ctx, bd.Session.ID, ev.Agent); err != nil {
				return nil, err
			}
		}
		if v.Deny {
			a.Deny, a.Reason = true, v.Message()
		}
		for _, x := range []*session.Violation{v.Violation, missing} {
			if x == nil {
				continue
			}
			if a.Notice != "" {
				a.Notice += "; "
			}
			a.Notice += fmt.Sprintf("sessiongate: %s %s violation recorded: %s", x.Severity, x.Code, x.Message)
		}
	}
	return a, nil
}

// endAfterWait is Claude Code's SessionEnd: a turn whose stop waited for
// background sub-agents (agent:claude:stop:waiting) and that no later stop
// judged ends here, so it is judged now, as a stop that cannot be blocked
// (session.AgentEndAfterWait). Measured with the real CLI: Ctrl+C,
// SIGTERM or SIGHUP while -p waits for a sub-agent sends SessionEnd
// (reason "other") and no further Stop (TestClaudeStopWaitedThenInterrupted).
func (r *Runner) endAfterWait(ctx context.Context, eng *session.Engine, cfg *config.Config, repo *gitrepo.Repo, ev *Event, work *workJob) (*Answer, error) {
	a := &Answer{}
	bd, err := eng.AgentBind(ctx, session.AgentBindRequest{Agent: ev.Agent, AgentSession: ev.AgentSession, Repo: repo})
	if err != nil {
		return a, err
	}
	if err := r.resumeHooksOff(ctx, eng, cfg, repo, ev, bd.Session); err != nil {
		return a, err
	}
	if sid := bd.Ended; bd.Session != nil || sid != "" {
		if bd.Session != nil {
			sid = bd.Session.ID
		}
		// This CLI ended as it should: not a vanished one. A CLI nested in
		// an agent's tool call is never the session's CLI (act).
		chain := r.chain()
		if _, nested := nestedAgent(chain); nested {
			chain = nil
		}
		if p, ok := ancestry.Agent(chain); ok && p.Start != 0 {
			if err := eng.RecordCLIEnded(ctx, sid, ev.Agent, p.Key()); err != nil {
				return nil, err
			}
			// The call Ctrl+C stopped never reports (round 29, c4).
			if err := eng.SettleAtCLIEnd(ctx, sid, ev.Agent); err != nil {
				return nil, err
			}
		}
		// Background sub-agents' calls still pending ended with the CLI
		// (interrupted: no post-tool event comes); the gates had left them
		// to this end (session.SubagentCallsEnded), the end gate too.
		if ev.Agent == "claude" {
			if _, err := eng.SubagentCallsEnded(ctx, sid, ev.Agent, "", ""); err != nil {
				return nil, err
			}
		}
	}
	if bd.Session == nil || bd.Binding == nil || ev.Agent != "claude" {
		return a, nil
	}
	if open, err := eng.StopWaitOpen(ctx, bd.Session.ID, ev.Agent); err != nil || !open {
		return a, err
	}
	ws, err := work.wait(ctx)
	if err != nil {
		return nil, err
	}
	v, err := eng.AgentEndAfterWait(ctx, bd, ws, ev.Source)
	if err != nil {
		return nil, err
	}
	if v != nil {
		a.Notice = fmt.Sprintf("sessiongate: %s %s violation recorded: %s", v.Severity, v.Code, v.Message)
	}
	return a, nil
}

// nestedAgent returns the agent CLI above the one that runs this hook: the
// hook's own CLI is the nearest agent in its ancestry, and a second one
// further up means that CLI was started from an agent's tool call. It is
// evidence, not proof (a process that detaches leaves its ancestors);
// read only for a notification prompt.
func nestedAgent(chain []ancestry.Process) (ancestry.Process, bool) {
	for i := range chain {
		if _, ok := ancestry.Agent(chain[i : i+1]); ok {
			j := i + 1
			if j < len(chain) && launcher(chain[j], chain[i]) {
				j++ // the same CLI's npm launcher, not a second agent
			}
			for j < len(chain) && (wrapperScript(chain[j], chain[j-1]) || nativeShim(chain[j], chain[j-1])) {
				j++ // a script or shim named as the CLI that started it
			}
			return ancestry.Agent(chain[j:])
		}
	}
	return ancestry.Process{}, false
}

// launcher reports whether parent is the npm launcher of the native agent
// binary child: Codex's `node .../bin/codex.js` (or .bin/codex) runs its
// vendor binary named codex, so one Codex CLI is two agent processes in a
// row (measured round 29, c4: read as nested, the first prompt of every
// Codex run was taken for a nested CLI's). An agent's tool call always
// runs a shell, so a CLI started from it has a shell or the outer native
// binary, not a JavaScript runtime, as its parent.
func launcher(parent, child ancestry.Process) bool {
	if _, ok := ancestry.Agent([]ancestry.Process{parent}); !ok {
		return false
	}
	args := strings.Fields(parent.Args)
	if len(args) < 2 || !jsRuntimes[strings.ToLower(path.Base(args[0]))] {
		return false
	}
	return !jsRuntimes[strings.ToLower(child.Name)] || relaunch(parent, child)
}

// wrapperScript reports whether parent is a shell running a script named
// as the CLI child is (or starts): a person's ~/bin/claude that sets the
// environment and runs the real CLI without exec, a version manager's
// shell shim. Linux names a script's process after the script, so it
// reads as an agent CLI, and every honest hook under it as a nested
// CLI's, its runs unwitnessed (helper 343). Skipping it only looks
// further up: the same script run from an agent's shell still has that
// agent above it. A shell's -c line is no script (an agent's tool call).
func wrapperScript(parent, child ancestry.Process) bool {
	name := ancestry.AgentName(child)
	if name == "" || ancestry.AgentName(parent) != name {
		return false
	}
	args := strings.Fields(parent.Args)
	if len(args) < 2 || !hookShells[strings.ToLower(path.Base(args[0]))] {
		return false
	}
	i := 1
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		if !strings.HasPrefix(args[i], "--") && strings.Contains(args[i], "c") {
			return false
		}
	}
	return i < len(args) && strings.ToLower(path.Base(args[i])) == name
}

// nativeShim reports whether parent is a version manager's native shim
// that runs the CLI child as a child, not by exec: Volta's volta-shim,
// linked as ~/.volta/bin/claude, so its process reads as claude above the
// node that runs Claude Code's cli.js (volta-cli/volta#37: every shim
// spawns a child). Every honest hook of a CLI installed with Volta read as
// a nested CLI's, its runs unwitnessed. As with wrapperScript, skipping it
// only looks further up: one the agent's tool call started still has that
// agent above it.
func nativeShim(parent, child ancestry.Process) bool {
	name, args := ancestry.AgentName(child), strings.Fields(child.Args)
	if name == "" || ancestry.AgentName(parent) != name || len(args) == 0 || !jsRuntimes[strings.ToLower(path.Base(args[0]))] {
		return false
	}
	// A shim replaced on disk while it runs (Volta upgraded) reads as
	// ".../volta-shim (deleted)" (helper 348).
	return nativeShims[path.Base(strings.TrimSuffix(parent.Exe, " (deleted)"))]
}

// nativeShims are the executables of version managers' shims that run
// the tool as a child (Volta's, on Unix).
var nativeShims = map[string]bool{"volta-shim": true}

// relaunch reports whether child is its parent CLI started again under
// the same runtime with runtime options added and the same script and
// arguments: Gemini CLI relaunches itself as `node
// --max-old-space-size=N .../bin/gemini ARGS` (measured, round 57), one
// CLI in two processes.
func relaunch(parent, child ancestry.Process) bool {
	pa, ca := strings.Fields(parent.Args), strings.Fields(child.Args)
	if len(pa) < 2 || len(ca) <= len(pa) || ancestry.AgentName(child) != ancestry.AgentName(parent) {
		return false
	}
	tail := ca[len(ca)-(len(pa)-1):]
	return slices.Equal(tail, pa[1:]) && strings.HasPrefix(ca[1], "-")
}

// jsRuntimes run the npm launchers of agent CLIs.
var jsRuntimes = map[string]bool{"node": true, "bun": true, "deno": true}

// taskNotification reads a Claude Code prompt that is a <task-notification>.
func taskNotification(ev *Event) (transcript.TaskNotification, bool) {
	if ev.Agent != "claude" || ev.Kind != KindPrompt {
		return transcript.TaskNotification{}, false
	}
	return transcript.ParseTaskNotification(ev.Prompt)
}

// gateDefaultsVerdict denies, during a session, a shell line that changes
// a tool's own persistent defaults that reach the gates' commands (`go env
// -w GOFLAGS=-exec=true`: every package of `go test ./...` then reports ok
// without running a test). The gates drop such variables from their
// environment; the tool's config file is the same setting by other means.
func gateDefaultsVerdict(call session.ToolCall, s *session.Session) *session.AgentVerdict {
	v := &session.AgentVerdict{}
	if call.Kind != session.ToolShell || s == nil || !s.Active() {
		return v
	}
	for _, l := range shellline.LinesIn(call.Shell, call.Command) {
		if how := shellline.ChangesGateDefaults(l); how != "" {
			v.Deny, v.Gate = true, "gate commands"
			v.Reason = how + " changes how the gates' commands run (a gate runs without GOFLAGS and npm_config_* from the caller, and the tool's config file is the same setting)"
			v.Next = "run the command with the flag on its own line instead (`go test -run X ./pkg`); a project default belongs in the protocol or sessiongate.yaml, which a person accepts"
			return v
		}
	}
	return v
}

// bindTranscript records the transcript the agent CLI named for the
// session, once it passes transcript.Check (the agent's own data folder,
// outside the work tree). Nothing is read here: the gates read it when they
// need evidence. A refused path is said on stderr and in the session's
// events; the session then has no transcript and claims count as before.
func (r *Runner) bindTranscript(ctx context.Context, eng *session.Engine, repo *gitrepo.Repo, ev *Event, sid string, unwitnessed func() (string, error)) {
	path, err := transcript.Check(ev.Agent, ev.Transcript, r.getenv, repo.Root())
	if err == nil {
		err = eng.BindTranscriptIf(ctx, sid, ev.Agent, ev.AgentSession, path, unwitnessed)
	}
	if err != nil {
		fmt.Fprintf(r.Stderr, "sessiongate: agent-hook %s %s: transcript not used: %v\n", ev.Agent, ev.Name, err)
		if ev.Kind != KindStart {
			return // said once in the events, at session start
		}
		_ = eng.Store.Update(ctx, func(w session.Writer) error {
			return w.AppendEvent(ctx, &session.Event{SessionID: sid, Token: "agent:" + ev.Agent + ":transcript-refused", Detail: shorten.Bytes(err.Error(), 300, "")})
		})
	}
}

// loadSpec reads the worktree's protocol for a new session.
func (r *Runner) loadSpec(ctx context.Context, eng *session.Engine, cfg *config.Config, repo *gitrepo.Repo) (*protocolspec.Spec, error) {
	p := r.ProtocolPath
	if p == "" {
		p = r.getenv("SESSIONGATE_PROTOCOL")
	}
	var cands []string
	switch {
	case p != "":
		cands = []string{p}
	case cfg.Protocol != "":
		cands = []string{cfg.Protocol}
	default:
		cands = []string{"SESSION-PROTOCOL.md", filepath.Join(".agents", "SESSION-PROTOCOL.md")}
	}
	for _, c := range cands {
		abs := c
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(repo.Root(), c)
		}
		b, err := boundedread.File(abs, boundedread.DefaultLimit)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read protocol: %w", err)
		}
		name := c
		if rel, err := filepath.Rel(repo.Root(), abs); err == nil && filepath.IsLocal(rel) {
			name = filepath.ToSlash(rel)
		}
		return eng.LoadSpec(ctx, name, b)
	}
	return nil, fmt.Errorf("no protocol found (looked for %s in %s): run `sessiongate init`", strings.Join(cands, ", "), repo.Root())
}

func (r *Runner) dbPath(repo *gitrepo.Repo) string {
	if r.DBPath != "" {
		return r.DBPath
	}
	if p := r.getenv("SESSIONGATE_DB"); p != "" {
		return p
	}
	return filepath.Join(repo.CommonDir(), "sessiongate", "sessiongate.db")
}

// walCloseBytes: past this WAL size a LeaveOpen run closes (checkpoints).
const walCloseBytes = 1 << 20

func (r *Runner) closeDB(db *store.DB) {
	if r.LeaveOpen {
		if st, err := os.Stat(db.Path() + "-wal"); err == nil && st.Size() < walCloseBytes {
			return
		}
	}
	db.Close()
}

// withoutContextBlocks drops the blocks Gemini CLI puts before the user's
// words in BeforeAgent's prompt: the SessionStart context sessiongate
// itself gave, wrapped in <hook_context> (and <session_context>, the CLI's
// own). The objective was stored as "<hook_context>sessiongate: session
// ... started" (TestGeminiAgentHooksCompliant).
func withoutContextBlocks(s string) string {
	for {
		t := strings.TrimSpace(s)
		done := true
		for _, tag := range []string{"hook_context", "session_context"} {
			open, end := "<"+tag+">", "</"+tag+">"
			if rest, ok := strings.CutPrefix(t, open); ok {
				if i := strings.Index(rest, end); i >= 0 {
					s, done = rest[i+len(end):], false
				}
			}
		}
		if done {
			return t
		}
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if len(s) > 300 {
		s = s[:300]
		for len(s) > 0 && s[len(s)-1]&0xc0 == 0x80 {
			s = s[:len(s)-1]
		}
		if len(s) > 0 && s[len(s)-1] >= 0xc0 {
			s = s[:len(s)-1]
		}
	}
	return s
}

// lockedWriter serialises writes from the handler and the time limit.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// nestedWitness says why the agent CLI running this hook is no witness of
// its tool calls' outcomes ("" when it is one): it runs inside another
// agent CLI's tool call (nestedAgent). Whatever names itself so is taken
// for a nested CLI (a python3 renamed claude by prctl or `exec -a`, a copy
// of sh named claude: helper 341), and a real nested CLI runs whatever
// hooks its folder's config names (a script forwarding a made-up event
// for the outer conversation: helper 340's F5): a process the agent's
// shell started cannot witness a run, a real CLI included. Its calls are
// still judged (a nested CLI's edit of a protected file is denied as
// any); honest delegation (`claude -p "run the tests"` from the agent's
// shell) loses only the nested run as evidence: the agent runs the
// command in its own tool call.
func nestedWitness(chain []ancestry.Process) string {
	outer, ok := nestedAgent(chain)
	if !ok {
		return ""
	}
	cli, _ := ancestry.Agent(chain)
	return fmt.Sprintf("%s (pid %d) that reported it runs inside a tool call of %s (pid %d), and a CLI the agent's shell started is not a witness (run the command in the agent's own tool call)", cli.Name, cli.PID, ancestry.AgentName(outer), outer.PID)
}

// above lists the keys of the processes above cli in chain.
func above(chain []ancestry.Process, cli ancestry.Process) []string {
	for i, p := range chain {
		if p.PID == cli.PID && p.Start == cli.Start {
			keys := make([]string, 0, len(chain)-i-1)
			for _, q := range chain[i+1:] {
				keys = append(keys, q.Key())
			}
			return keys
		}
	}
	return nil
}

// unwitnessed says why the agent CLI running this hook is no witness of
// the conversation's tool calls' outcomes ("" when it is one): it runs
// inside another agent CLI's tool call (nestedWitness), or another CLI
// process the conversation's prompts came from earlier still runs
// (session.EarlierLiveCLI): a program the agent's shell started, named
// like the CLI and detached (setsid, a double fork), has no agent above
// it, so nestedWitness took it for the conversation's own CLI and its
// made-up passing run was recorded as observed (helper 343).
func (r *Runner) unwitnessed(ctx context.Context, eng *session.Engine, sessionID string, ev *Event, chain []ancestry.Process) (string, error) {
	if p, ok := ancestry.Forged(chain); ok {
		return fmt.Sprintf("the process above the hook (pid %d) has a /proc entry that is not the kernel's (a file mounted over it), so what runs the hook is not known, and a program the agent's shell started can mount one (run the command in the agent's own tool call)", p.PID), nil
	}
	if why := nestedWitness(chain); why != "" {
		return why, nil
	}
	cli, ok := ancestry.Agent(chain)
	if a := ancestry.AgentName(cli); ok && ev.Agent == "cursor" && a != "cursor-agent" {
		// Cursor's editor runs its hooks under no agent CLI; one under
		// another agent's CLI was sent from that agent's tool call
		// (helper 344).
		return fmt.Sprintf("a Cursor hook event ran under %s (pid %d): it was sent from a tool call of that agent, not by Cursor (run the command in the agent's own tool call)", a, cli.PID), nil
	}
	if !ok && ev.Agent != "cursor" && r.Ancestors == nil && ancestry.Blinded() {
		// No process is read here, where the session's CLIs were read: a
		// tmpfs mounted over /proc in a mount namespace of one's own
		// (helper 344). A system that never reads /proc kept no CLI.
		for _, a := range Agents {
			key, err := eng.NewestCLI(ctx, sessionID, a)
			if err != nil {
				return "", err
			}
			if key != "" {
				return fmt.Sprintf("no process is read where the hook runs (/proc is not procfs there), while the session's %s CLI (pid %s) was read: a program the agent's shell started can hide /proc in a mount namespace of its own (run the command in the agent's own tool call)", a, strings.SplitN(key, ":", 2)[0]), nil
			}
		}
	}
	if !ok || cli.Start == 0 || ev.Agent == "cursor" {
		return "", nil
	}
	if why := ancestry.TimeShifted(); why != "" {
		return fmt.Sprintf("%s (pid %d) that reported it is no witness: %s (run the command in the agent's own tool call)", cli.Name, cli.PID, why), nil
	}
	other, rel, err := eng.EarlierLiveCLI(ctx, session.CLIWitnessQuery{
		SessionID: sessionID, Agent: ev.Agent, AgentSession: ev.AgentSession, CLI: cli.Key(),
		Oldest: ancestry.Oldest(chain, cli), Visible: ancestry.OldestVisible(chain, cli), Above: above(chain, cli),
		Namespace: ancestry.PIDNamespace(), MountNamespace: ancestry.MountNamespace(), Agents: Agents, Gone: ancestry.Gone,
	})
	if err != nil || other == "" {
		return "", err
	}
	pid, _, _ := strings.Cut(other, ":")
	switch rel {
	case session.Below:
		return fmt.Sprintf("%s (pid %d) that reported it runs under the session's CLI (pid %s), started from its tool call, and a CLI the agent's shell started is not a witness (run the command in the agent's own tool call)", cli.Name, cli.PID, pid), nil
	case session.SameConversation:
		return fmt.Sprintf("%s (pid %d) that reported it is not the conversation's CLI (pid %s, which still runs), and a CLI the agent's shell started is not a witness (run the command in the agent's own tool call)", cli.Name, cli.PID, pid), nil
	}
	return fmt.Sprintf("%s (pid %d) that reported it, and every process above it up to the one adopting orphans, started after the session's CLI (pid %s), which still runs: that is what the agent's shell starts and detaches, and a CLI the agent's shell started is not a witness (run the command in the agent's own tool call; run a second agent at once in its own worktree: git worktree add)", cli.Name, cli.PID, pid), nil
}
