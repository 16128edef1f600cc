package session

import (
	"context"
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/repopath"
	"github.com/sessiongate/sessiongate/selfbinary"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/conversation"
	"github.com/sessiongate/sessiongate/gitalias"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/startupfile"
)

// Agent lifecycle hooks (issue 10): an agent (Claude Code, Cursor, Gemini
// CLI) runs `sessiongate agent-hook <agent> <event>` at session start, before
// and after tools, and when it stops. The adapter in package agenthook turns
// each agent's JSON into the calls below; the decisions are made here.

// AgentBinding ties an agent's own session id to the sessiongate session
// its hooks act for.
type AgentBinding struct {
	Agent        string
	AgentSession string
	SessionID    string
	Worktree     string
	// StopBlocks counts the stops blocked in a row.
	StopBlocks int
	// TurnMark fingerprints the work tree (HEAD and status) when the agent's
	// current turn began: a stop with the same fingerprint changed nothing.
	TurnMark  string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// AgentReader and AgentWriter are the store's agent-binding side; the
// SQLite store has them. They are apart from Reader and Writer so a store
// without agent hooks needs nothing new.
type AgentReader interface {
	// GetAgentBinding returns ErrNotFound when the agent session is unbound.
	GetAgentBinding(ctx context.Context, agent, agentSession string) (*AgentBinding, error)
}

// SessionAgentReader tells whether an agent's hooks bound a session; the
// SQLite and PostgreSQL stores have it.
type SessionAgentReader interface {
	SessionBoundTo(ctx context.Context, sessionID, agent string) (bool, error)
}

// AgentWriter writes bindings and tool start times inside Update.
type AgentWriter interface {
	PutAgentBinding(ctx context.Context, b *AgentBinding) error
	PutToolStart(ctx context.Context, agent, toolID string, at time.Time) error
	// TakeToolStart returns the zero time when none was recorded.
	TakeToolStart(ctx context.Context, agent, toolID string) (time.Time, error)
}

// PendingObjective is the objective of a session an agent hook started
// before the user said what it is for; the first prompt replaces it.
const PendingObjective = "(set by the agent's first prompt)"

// CodeEndProtocolSkipped: an agent stopped with work done and the end
// protocol undone, after its stop was blocked the configured number of times.
const CodeEndProtocolSkipped = "END_PROTOCOL_SKIPPED"

// ErrAgentSession: the agent's session id is missing or unusable.
var ErrAgentSession = conversation.ErrID

// ValidateAgentSession checks an agent's session id (conversation.ValidateID).
func ValidateAgentSession(id string) error { return conversation.ValidateID(id) }

// AgentBindRequest finds or starts the session an agent's hooks act for.
type AgentBindRequest struct {
	Agent        string
	AgentSession string
	Repo         Repo
	// Spec loads the worktree's protocol; called only to start a session.
	Spec func(ctx context.Context) (*protocolspec.Spec, error)
	// Create starts a session when none is bound or active here.
	Create bool
	// Objective, when set, replaces a pending objective.
	Objective string
	// Mark sets the binding's turn mark (a new turn or session began).
	Mark bool
	// Work reads the worktree's state for the turn mark; called only when
	// the mark is set (Mark, or a binding without one).
	Work func(ctx context.Context) (WorkState, error)
	// KeepOpenWait: Mark is not set while the agent's newest stop is a
	// wait no stop judged since (StopWaitOpen): the turn that waited is
	// still owed its judgment, so a prompt in between (a person's, or a
	// resumed CLI's) does not start a new one (round 27).
	KeepOpenWait bool
	// CLI names the agent CLI process that sent a prompt ("<pid>:<start>",
	// "" unknown) and CLIGone reports whether such a process has ended: a
	// prompt from another CLI while the newest kept one vanished without
	// SessionEnd (killed) continues that CLI's turn (clivanished.go).
	CLI     string
	CLIGone func(string) bool
	// CLINamespace is that CLI's PID namespace ("" unknown), kept with
	// it: from another one it is not seen, so not known to have ended
	// (EarlierLiveCLI).
	CLINamespace string
	// CLIMountNamespace is that CLI's mount namespace ("" unknown): a
	// hidden ancestor (hidepid=2) is trusted only by a reader in the same
	// one (EarlierLiveCLI).
	CLIMountNamespace string
	// CLIShape is how that CLI started this hook (words, agenthook's
	// shapes), kept with the CLI: a later hook of it in another shape was
	// not started by it (CLIShape).
	CLIShape string
}

// WorkState is a worktree at one moment, as the hook adapter reads it: a
// fingerprint, HEAD, and whether anything is uncommitted.
type WorkState struct {
	Mark string // equal marks: nothing committed, changed or created in between
	Head string // HEAD commit, "" on an unborn branch
	// Dirty reports changed, staged or untracked files. It may cost a git
	// process, so AgentStop asks only when the mark moved and HEAD did not.
	Dirty func(ctx context.Context) (bool, error)
}

// AgentBound is the session an agent's hooks act for.
type AgentBound struct {
	Session *Session // nil when there is none and none was started
	Binding *AgentBinding
	Spec    *protocolspec.Spec // the session's pinned protocol, once loaded (boundSpec)
	Started bool               // started by this call
	Resumed bool               // an existing session was bound or resumed
	// WaitOpen: KeepOpenWait found the agent's newest stop a wait still
	// owed its judgment, and the turn mark was kept.
	WaitOpen bool
	// Vanished is the CLI process (CLI's form) whose turn this prompt
	// continues: it ended without SessionEnd; the turn mark was kept.
	Vanished string
	// Notes are things to tell the agent: a binding moved from another
	// worktree, a bound session that ended.
	Notes []string
	// Replaced is the session the agent session was bound to before this
	// call bound it to another ("" when it was not).
	Replaced string
	// Ended is the session the agent session is bound to when that one
	// has ended ("" otherwise): a post-tool event of the call that ended
	// it comes after (agenthook latePost).
	Ended string
}

func (e *Engine) agentReader() (AgentReader, error) {
	ar, ok := e.Store.(AgentReader)
	if !ok {
		return nil, errors.New("this store does not keep agent bindings")
	}
	return ar, nil
}

// AgentBind returns the session an agent session acts for: the bound one
// while it runs in this worktree, else the worktree's active session
// (started by MCP or the CLI), else, with Create, a new one. The binding is
// stored so later hooks of the same agent session find it.
func (e *Engine) AgentBind(ctx context.Context, req AgentBindRequest) (*AgentBound, error) {
	if err := ValidateAgentSession(req.AgentSession); err != nil {
		return nil, err
	}
	ar, err := e.agentReader()
	if err != nil {
		return nil, err
	}
	out := &AgentBound{}
	root := req.Repo.Root()
	b, err := ar.GetAgentBinding(ctx, req.Agent, req.AgentSession)
	switch {
	case errors.Is(err, ErrNotFound):
		b = nil
	case err != nil:
		return nil, fmt.Errorf("load agent binding: %w", err)
	}
	var s *Session
	if b != nil {
		cur, err := e.Store.GetSession(ctx, b.SessionID)
		switch {
		case errors.Is(err, ErrNotFound):
			out.Notes = append(out.Notes, fmt.Sprintf("the session this %s session was bound to (%s) no longer exists", req.Agent, b.SessionID))
		case err != nil:
			return nil, fmt.Errorf("load session %s: %w", b.SessionID, err)
		case cur.Worktree != root:
			out.Notes = append(out.Notes, fmt.Sprintf("this %s session was bound to session %s of worktree %s; it now runs in %s, so it acts for this worktree's session", req.Agent, cur.ID, cur.Worktree, root))
		case e.checkUsable(ctx, cur) != nil:
			out.Notes = append(out.Notes, fmt.Sprintf("the bound session %s has ended (%s)", cur.ID, cur.State))
			out.Ended = cur.ID
		default:
			s = cur
		}
	}
	if s == nil {
		cur, err := e.ActiveSession(ctx, req.Repo)
		switch {
		case errors.Is(err, ErrNotFound):
		case err != nil:
			return nil, fmt.Errorf("look up the worktree's active session: %w", err)
		case e.checkUsable(ctx, cur) == nil:
			s = cur
		}
	}
	if s != nil {
		out.Resumed = true
	} else if req.Create {
		spec, err := req.Spec(ctx)
		if err != nil {
			return nil, err
		}
		obj := strings.TrimSpace(req.Objective)
		if obj == "" {
			obj = PendingObjective
		}
		res, err := e.Start(ctx, StartRequest{Repo: req.Repo, Spec: spec, Objective: truncate(obj, 1900), KeepActive: true})
		if errors.Is(err, ErrActiveExists) {
			// Another hook of the agent started one meanwhile: adopt it when
			// it is usable, else supersede it as before.
			cur, aerr := e.ActiveSession(ctx, req.Repo)
			if aerr == nil && e.checkUsable(ctx, cur) == nil {
				s, out.Resumed = cur, true
			} else {
				res, err = e.Start(ctx, StartRequest{Repo: req.Repo, Spec: spec, Objective: truncate(obj, 1900)})
			}
		}
		if err != nil && s == nil {
			return nil, err
		}
		if s == nil {
			if s, err = e.Store.GetSession(ctx, res.SessionID); err != nil {
				return nil, fmt.Errorf("load new session: %w", err)
			}
			out.Started, out.Spec = true, spec
			req.Objective = ""
		}
	} else {
		return out, nil
	}
	now := e.now()
	nb := &AgentBinding{Agent: req.Agent, AgentSession: req.AgentSession, SessionID: s.ID, Worktree: root, CreatedAt: now, UpdatedAt: now}
	changed := b == nil || b.SessionID != s.ID || b.Worktree != root
	if b != nil && b.SessionID != s.ID {
		out.Replaced = b.SessionID
	}
	if b != nil {
		nb.CreatedAt, nb.StopBlocks, nb.TurnMark = b.CreatedAt, b.StopBlocks, b.TurnMark
		if changed {
			nb.StopBlocks, nb.TurnMark = 0, ""
		}
	}
	if req.Mark && req.KeepOpenWait && nb.TurnMark != "" && !changed {
		open, err := e.StopWaitOpen(ctx, s.ID, req.Agent)
		if err != nil {
			return nil, err
		}
		req.Mark = !open
		out.WaitOpen = open
	}
	var newestCLI string
	if req.Mark && req.CLI != "" {
		gone, goneSession, newest, err := e.vanishedCLI(ctx, s.ID, req.Agent, req.CLI, req.CLIGone)
		if err != nil {
			return nil, err
		}
		newestCLI = newest
		if gone != "" {
			mark := nb.TurnMark
			if goneSession != "" && goneSession != req.AgentSession {
				// A fresh CLI (a new agent session, bound at its
				// SessionStart with a mark of its own): the vanished one's
				// turn.
				if ob, err := ar.GetAgentBinding(ctx, req.Agent, goneSession); err == nil && ob.SessionID == s.ID {
					mark = ob.TurnMark
				}
			}
			if mark != "" {
				nb.TurnMark, req.Mark, out.Vanished = mark, false, gone
				changed = true
			}
		}
	}
	if (req.Mark || nb.TurnMark == "") && req.Work != nil {
		ws, err := req.Work(ctx)
		if err != nil {
			return nil, err
		}
		changed = changed || ws.Mark != nb.TurnMark || nb.StopBlocks != 0
		nb.TurnMark, nb.StopBlocks = ws.Mark, 0
	}
	obj := strings.TrimSpace(req.Objective)
	setObj := obj != "" && s.Objective == PendingObjective
	if !changed && !setObj && (req.CLI == "" || req.CLI == newestCLI) {
		out.Session, out.Binding = s, nb
		return out, nil
	}
	err = e.Store.Update(ctx, func(w Writer) error {
		aw, ok := w.(AgentWriter)
		if !ok {
			return errors.New("this store does not keep agent bindings")
		}
		if setObj {
			cur, err := w.GetSession(ctx, s.ID)
			if err != nil {
				return err
			}
			cur.Objective = truncate(obj, 1900)
			e.touch(cur)
			if err := w.UpdateSession(ctx, cur); err != nil {
				return err
			}
			s = cur
			if err := w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: "agent:" + req.Agent + ":objective", CreatedAt: now}); err != nil {
				return err
			}
		}
		if b == nil || b.SessionID != s.ID {
			if err := w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: "agent:" + req.Agent + ":bind", Detail: truncate(req.AgentSession, 200), CreatedAt: now}); err != nil {
				return err
			}
		}
		if err := e.keepCLI(ctx, w, s.ID, req, newestCLI, out.Vanished, now); err != nil {
			return err
		}
		return aw.PutAgentBinding(ctx, nb)
	})
	if err != nil {
		return nil, fmt.Errorf("bind %s session: %w", req.Agent, err)
	}
	out.Session, out.Binding = s, nb
	return out, nil
}

// ToolKind is what a tool call may do, as far as the protocol cares.
type ToolKind string

// Tool kinds.
const (
	ToolRead  ToolKind = "read"  // reads only
	ToolEdit  ToolKind = "edit"  // writes or deletes files (Write, Edit, ...)
	ToolShell ToolKind = "shell" // runs a shell command
	ToolOther ToolKind = "other" // anything else (MCP tools, web fetches)
)

// ToolCall is a tool the agent is about to run.
type ToolCall struct {
	Kind ToolKind
	Name string // the agent's tool name, for messages
	// Paths are the files an edit touches (absolute or worktree-relative);
	// for a shell call, files it writes that its line does not show (a
	// patch the agent's shell applies).
	Paths   []string
	Command string // the shell command line
	// Shell is the command line's dialect: "" a POSIX shell, or
	// shellline.PowerShell (Copilot's powershell tool on Windows).
	Shell shellline.Dialect
	// Dir is the folder the shell command runs in, when the agent says
	// (its cwd); relative paths it writes are taken from there.
	Dir string
	// Transcript is the agent's transcript file when its hook names it: a
	// script the agent runs may not name it (agent_scripts.go).
	Transcript string
}

// AgentPolicy is what the config turns on (sessiongate.yaml agent_hooks).
type AgentPolicy struct {
	DenyBeforeStart bool // deny edits and git commit/push while INIT
	Protect         bool // deny edits of protected paths
	// inString is the text of the (non-shell) script whose string literal
	// the line is: that string may be a message, not a command (agent_scripts.go).
	inString string
	// inList: the line is a list of inString's literals joined, so each
	// of its words is one literal of the script already.
	inList bool
	// inShell is the text of the shell script the line is a statement of:
	// a program it builds (go build, cc -o) is not there until it runs.
	inShell string
}

// AgentVerdict is a pre-tool or stop decision.
type AgentVerdict struct {
	Deny   bool
	Gate   string
	Reason string
	Next   string
	// Violation is set when a stop was let through after the configured
	// number of blocks.
	Violation *Violation
	// Scripts are the script files an allowed shell call runs, as read
	// (agent_scripts.go): the hook records their hashes.
	Scripts []ScriptRead
}

// Message is the reason and the next step in one text for the agent.
func (v *AgentVerdict) Message() string {
	var b strings.Builder
	b.WriteString("sessiongate: ")
	b.WriteString(v.Reason)
	if v.Gate != "" {
		b.WriteString(" (gate ")
		b.WriteString(v.Gate)
		b.WriteString(")")
	}
	if v.Next != "" {
		b.WriteString(". Next: ")
		b.WriteString(v.Next)
	}
	return b.String()
}

// AgentPreTool decides whether a tool may run. s may be nil (no session):
// then only protected paths are checked.
func (e *Engine) AgentPreTool(ctx context.Context, bd *AgentBound, root string, call ToolCall, pol AgentPolicy) (*AgentVerdict, error) {
	return e.agentPreTool(ctx, bd, root, call, pol, 0)
}

// agentPreTool is AgentPreTool for a line at depth: 0 for the agent's own
// line, more for a line of a script it runs (agent_scripts.go).
func (e *Engine) agentPreTool(ctx context.Context, bd *AgentBound, root string, call ToolCall, pol AgentPolicy, depth int) (*AgentVerdict, error) {
	var s *Session
	if bd != nil {
		s = bd.Session
	}
	v := &AgentVerdict{}
	// The files a shell command writes, parsed once for both checks below.
	var shellWrites, rawWrites []string
	if call.Kind == ToolShell && (pol.Protect && e.Config.Protect || pol.DenyBeforeStart && s != nil && s.State == StateInit) {
		ps, ok := shellline.WritesIn(call.Shell, call.Command)
		// Paths the agent's tool names beside the line: a patch the shell
		// applies (Codex runs `apply_patch <<'EOF'` itself).
		if extra := call.Paths; len(extra) > 0 {
			ps, ok = append(ps, extra...), true
		}
		if ok {
			dir := root
			if call.Dir != "" && filepath.IsAbs(call.Dir) && len(inWorktree(root, []string{call.Dir})) > 0 {
				dir = call.Dir
			}
			for i, p := range ps {
				if !filepath.IsAbs(p) {
					ps[i] = filepath.Join(dir, p)
				}
			}
			rawWrites = ps
			shellWrites = inWorktree(root, ps)
		}
	}
	// The lines the command checks read: a PowerShell line's commands are
	// also given as POSIX words (`& git commit -n`, Start-Process...).
	lines := shellline.LinesIn(call.Shell, call.Command)
	if call.Kind == ToolShell && anyLine(lines, shellline.RunsAgentHook) {
		// Whatever the config: an agent that feeds its own hook a payload
		// could record a test run that never happened as an observed pass.
		v.Deny, v.Gate = true, "observed evidence"
		v.Reason = "`sessiongate agent-hook` is the agent client's to run, not the agent's: run from the shell it would record tool calls that never happened as observed evidence"
		v.Next = "run the command itself (the hooks record it), or `sessiongate run --phase PHASE -- COMMAND`"
		return v, nil
	}
	if pol.Protect && e.Config.Protect {
		sc := startupfile.Call{Tool: call.Name, Edit: call.Kind == ToolEdit, Shell: call.Kind == ToolShell, Dialect: call.Shell, Command: call.Command, Paths: call.Paths}
		if how := startupfile.Write(root, sc, rawWrites, s != nil && s.Active()); how != "" {
			v.Deny, v.Gate = true, "protected files"
			v.Reason = how
			v.Next = "install packages with pip, uv or poetry (their .pth files are theirs); leave the user's tool config as it was at the session's start"
			return v, nil
		}
		if how := e.mcpProgramWrite(ctx, bd, root, call, rawWrites, lines); how != "" {
			v.Deny, v.Gate = true, "protected files"
			v.Reason = how
			v.Next = "leave the MCP servers' programs and definitions as a person set them; a person who wants a change makes it"
			return v, nil
		}
		switch call.Kind {
		case ToolEdit:
			if rel := gitDirPath(root, call.Paths); rel != "" {
				v.Deny, v.Gate = true, "git directory"
				v.Reason = fmt.Sprintf("%s may not change %s: the git directory holds the hooks, the config and sessiongate's records", orTool(call.Name), rel)
				v.Next = "leave it as it is"
				return v, nil
			}
			for _, p := range call.Paths {
				rel, ok := e.ProtectedRel(root, p)
				if !ok && rel != "" && e.ProtectedBelow(rel) {
					ok = true // a folder that holds protected files (an MCP move_file or delete)
				}
				if ok {
					v.Deny, v.Gate = true, "protected files"
					v.Reason = fmt.Sprintf("%s may not change %s during a session: it decides how the session is policed", orTool(call.Name), rel)
					v.Next = "leave it as it is; a person who wants the change makes it and runs `sessiongate protocol accept`"
					return v, nil
				}
			}
		case ToolShell:
			if anyLine(lines, ShellRunsAccept) {
				v.Deny, v.Gate = true, "protected files"
				v.Reason = "`sessiongate protocol accept` and `session accept-na` are for a person, not for the agent being policed"
				v.Next = "ask the user to review the change and run it themselves"
				return v, nil
			}
			if how := firstOf(lines, ShellRemovesSession); how != "" {
				v.Deny, v.Gate = true, "records"
				v.Reason = how + " is for a person, not for the agent being policed: a session deleted or terminated and started again leaves its transcript and its refused claims behind"
				v.Next = "go on in this session; if it cannot be finished, ask the user to end it"
				return v, nil
			}
			if how := e.personRoute(lines, root, call.Dir); how != "" {
				v.Deny, v.Gate = true, "records"
				v.Reason = how + " is for a person, not for the agent being policed: what the agent runs stays the agent's, however it is spelled or wrapped"
				v.Next = "go on in this session; if it cannot be finished, ask the user to end it"
				return v, nil
			}
			if p := selfCopy(lines, root, call.Dir); p != "" {
				v.Deny, v.Gate = true, "records"
				v.Reason = "`" + p + "` is the sessiongate binary under another name: a copy or link hides its person commands from the checks of its name"
				v.Next = "run `sessiongate` by its name"
				return v, nil
			}
			if how := firstOf(lines, func(l string) string { return shellline.TouchesRecords(l, e.recordsRefs()) }); how != "" {
				v.Deny, v.Gate = true, "records"
				v.Reason = how + ": sessiongate's records ref holds the sessions' records, violations and person acts, and is not the agent's to change"
				v.Next = "leave it as it is; the hooks and `sessiongate records push` move it"
				return v, nil
			}
			if how := firstOf(lines, shellline.DeletesSessiongateFiles); how != "" {
				v.Deny, v.Gate = true, "git directory"
				v.Reason = how + ": the git directory holds sessiongate's database and its note of unchecked stops, which are not the agent's to delete"
				v.Next = "leave them as they are"
				return v, nil
			}
			if how := firstOf(lines, shellline.Unhooks); how != "" {
				v.Deny, v.Gate = true, "git hooks"
				v.Reason = how + " would take away the git hooks that check the session's gates; that is for a person, not for the agent being policed"
				v.Next = "leave the hooks as they are; ask the user if they should change"
				return v, nil
			}
			if how := firstOf(lines, shellline.HidesChanges); how != "" {
				v.Deny, v.Gate = true, "protected files"
				v.Reason = how + " would make git hide how the work tree differs from what is committed, past the protected-file and end-of-session QA checks"
				v.Next = "leave git's index flags and filters as they are; commit what you tested"
				return v, nil
			}
			if how := firstOf(lines, shellline.SkipsCI); how != "" {
				// With or without a session: CI's verify is the net for
				// every commit the agent pushes, ended session or not.
				v.Deny, v.Gate = true, "CI"
				v.Reason = how + ": CI is where `sessiongate verify` checks the pushed commits against the session records; a push that starts no pipeline lands them unchecked"
				v.Next = "push without the ci.skip option (and leave push.pushOption without it)"
				return v, nil
			}
			if s != nil && s.Active() {
				gc := &lazyAliases{load: func() *gitalias.GitCommands { return gitalias.Load(ctx, root) }}
				if how := gitBypass(lines, gc); how != "" {
					v.Deny, v.Gate = true, "git hooks"
					v.Reason = how + ": the git hooks are where the session's gates are checked, and a commit that skips them is recorded as a bypass"
					v.Next = "run it without --no-verify (or -n) and without -c core.hooksPath; if the hook blocks, do what it says"
					return v, nil
				}
				if how := e.hooksMoved(ctx, root, s, lines); how != "" {
					v.Deny, v.Gate = true, "git hooks"
					v.Reason = how + ": the commit would run none of sessiongate's hooks, which check the session's gates"
					v.Next = "ask the user to restore core.hooksPath (`git config --show-origin --get-all core.hooksPath` says where it is set)"
					return v, nil
				}
				if how := firstOf(lines, shellline.LandsUnchecked); how != "" {
					v.Deny, v.Gate = true, "git hooks"
					v.Reason = how + " lands a commit on a branch past pre-commit, where the session's gates are checked"
					v.Next = "commit the work with `git commit`; if the hook blocks, do what it says"
					return v, nil
				}
				if how := firstOf(lines, func(l string) string { return shellline.CommitsWithoutHooks(l, gc) }); how != "" {
					v.Deny, v.Gate = true, "git hooks"
					v.Reason = how + " makes a commit that git's commit hooks never see: the session's gates are checked there, and such a commit is recorded as a bypass"
					v.Next = "commit with `git commit`; if the hook blocks, do what it says"
					return v, nil
				}
				if how := firstOf(lines, shellline.Schedules); how != "" {
					v.Deny, v.Gate = true, "records"
					v.Reason = how + ": scheduling commands during a session is denied, since what a scheduler runs would pass for a person's act"
					v.Next = "run the command now, in the session"
					return v, nil
				}
				if how := firstOf(lines, shellline.Obfuscated); how != "" {
					v.Deny, v.Gate = true, "records"
					v.Reason = "obfuscated command: " + how + ", which no check can read; during a session the agent's commands must be readable"
					v.Next = "run the decoded command itself, in plain text"
					return v, nil
				}
				if how := firstOf(lines, shellline.PrunesUnreachable); how != "" {
					v.Deny, v.Gate = true, "records"
					v.Reason = how + " removes what would bring back deleted records (unreachable objects, reflog entries); not during a session"
					v.Next = "leave git's housekeeping to `git gc` with its default grace period, or to a person"
					return v, nil
				}
			}
			if rel := gitDirPath(root, shellWrites); rel != "" {
				v.Deny, v.Gate = true, "git directory"
				v.Reason = fmt.Sprintf("the shell command writes %s: the git directory holds the hooks, the config and sessiongate's records", rel)
				v.Next = "leave it as it is"
				return v, nil
			}
			for _, p := range shellWrites {
				rel, ok := e.ProtectedRel(root, p)
				if !ok && e.ProtectedBelow(p) {
					ok = true // a folder that holds protected files (rm -rf .claude)
				}
				if ok {
					v.Deny, v.Gate = true, "protected files"
					v.Reason = fmt.Sprintf("the shell command writes %s, which may not change during a session: it decides how the session is policed", rel)
					v.Next = "leave it as it is; a person who wants the change makes it and runs `sessiongate protocol accept`"
					return v, nil
				}
			}
			if rv := e.shellReach(root, call); rv != nil {
				return rv, nil
			}
			if len(lines) > 1 {
				if rv := e.innerWrites(root, call, lines[1:]); rv != nil {
					return rv, nil // agentindirect.go
				}
			}
			if rv := e.fileValueWrites(root, call, lines); rv != nil {
				return rv, nil // agentfilevalues.go
			}
			if rv := e.unpackWrites(ctx, root, call); rv != nil {
				return rv, nil // agentindirect.go
			}
			if rv := e.globCopyWrites(root, call, lines); rv != nil {
				return rv, nil // agentglobcopy.go
			}
			var repoID int64
			if s != nil {
				repoID = s.RepoID
			}
			if rv := e.gitMoveWrites(ctx, root, call, lines, repoID); rv != nil {
				return rv, nil // agentgitmoves.go
			}
			if rv := e.gitRouteWrites(ctx, root, call, lines, repoID); rv != nil {
				return rv, nil // agentgitroutes.go
			}
			// The script files the line runs are judged as the line is.
			sv, err := e.scriptVerdict(ctx, bd, root, call, pol, lines, depth)
			if err != nil || sv.Deny {
				return sv, err
			}
			v.Scripts = sv.Scripts
		}
	}
	if !pol.DenyBeforeStart || s == nil || s.State != StateInit {
		return v, nil
	}
	what := ""
	var writes []string // files the call changes
	switch call.Kind {
	case ToolEdit:
		what, writes = orTool(call.Name)+" changes files", call.Paths
	case ToolShell:
		var gc *gitalias.GitCommands
		if slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "git") }) {
			gc = gitalias.Load(ctx, root) // two git calls, only for a line that may run git
		}
		if sub := firstOf(lines, func(l string) string { return ShellGitWriteIn(l, gc) }); sub != "" {
			what = "`git " + sub + "`"
		} else if writes = shellWrites; len(writes) > 0 {
			what = "the shell command writes " + strings.Join(writes, ", ")
		}
	}
	if what == "" {
		return v, nil
	}
	spec, err := e.boundSpec(ctx, bd)
	if err != nil {
		return nil, err
	}
	if len(writes) > 0 && startFiles(spec, root, writes) {
		return v, nil // the start protocol asks for these files (a session log)
	}
	d := &HookDecision{Allowed: true}
	blockInit(d, s, spec, e.naOffer(ctx, s, spec), e.claimRefusedFn(ctx, s))
	v.Deny, v.Gate, v.Next = true, d.Gate, d.NextStep
	v.Reason = what + " before the session's start gates have passed: " + strings.Join(d.Reasons, "; ")
	return v, nil
}

// gitDirPath returns the first path (absolute, or relative to root) that
// lies in the worktree's .git (folder or file), "" when none does.
func gitDirPath(root string, paths []string) string {
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		rel, err := filepath.Rel(root, filepath.Clean(p))
		if err != nil || !filepath.IsLocal(rel) {
			continue
		}
		rel = filepath.ToSlash(rel)
		if strings.EqualFold(rel, ".git") || strings.HasPrefix(strings.ToLower(rel), ".git/") {
			return rel
		}
	}
	return ""
}

// inWorktree keeps the paths inside the worktree at root (relative paths
// are taken from root, where the agents run their shell commands).
func inWorktree(root string, paths []string) []string {
	var out []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		if rel, err := filepath.Rel(root, filepath.Clean(p)); err == nil && filepath.IsLocal(rel) {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	return out
}

// startFiles reports whether every path is a file a start phase's gate
// names (file_exists, changed_since_start, no_placeholders, has_section):
// writing it is the start protocol's own work, such as its session log.
func startFiles(spec *protocolspec.Spec, root string, paths []string) bool {
	if len(paths) == 0 {
		return false
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		rel, err := filepath.Rel(root, filepath.Clean(p))
		if err != nil || !filepath.IsLocal(rel) {
			return false
		}
		named := false
		for i := range spec.Phases {
			ph := &spec.Phases[i]
			if ph.Section != protocolspec.SectionStart {
				continue
			}
			for _, c := range ph.Checks {
				switch c.Kind {
				case protocolspec.CheckFileExists, protocolspec.CheckChangedSinceStart, protocolspec.CheckNoPlaceholders, protocolspec.CheckHasSection:
					if c.Arg != "" && repopath.Match(c.Arg, filepath.ToSlash(rel)) {
						named = true
					}
				}
			}
		}
		if !named {
			return false
		}
	}
	return true
}

func orTool(name string) string {
	if name == "" {
		return "the tool"
	}
	return name
}

// ShellGitWrite names the git command when a shell command line runs one
// that makes a commit, moves a branch or writes tracked files from
// elsewhere in any of its parts (after ;, &&, ||, |, a newline or a
// subshell paren), skipping environment assignments and git's global
// options; "" otherwise. Before the start gates pass, `git commit` is not
// the only way to land work: plumbing (commit-tree, update-ref,
// update-index), replays (cherry-pick, am, revert, which run post-commit
// but never pre-commit), patches (apply), and restoring files from another
// commit or a stash do it too (issue 25 adversarial pass, route 1b). A
// person's start routine stays allowed: pull, merge, rebase, fetch,
// status, log, diff, stash (push), switch -c.
func ShellGitWrite(cmd string) string { return shellGitWrite(cmd, nil, 0) }

// ShellGitWriteIn is ShellGitWrite with git's aliases and commands
// resolved (gitalias): `git x` runs what alias x expands to.
func ShellGitWriteIn(cmd string, gc *gitalias.GitCommands) string { return shellGitWrite(cmd, gc, 0) }

func shellGitWrite(cmd string, gc *gitalias.GitCommands, depth int) string {
	for _, part := range shellParts(cmd) {
		f := strings.Fields(part)
		for len(f) > 0 && (strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "-") || f[0] == "env" || f[0] == "command" || f[0] == "exec" || f[0] == "sudo" || f[0] == "nohup" || f[0] == "time") {
			f = f[1:]
		}
		if len(f) == 0 || (f[0] != "git" && !strings.HasSuffix(f[0], "/git")) {
			continue
		}
		for i := 1; i < len(f); i++ {
			a := f[i]
			switch {
			case a == "-c" && i+1 < len(f) && strings.HasPrefix(strings.ToLower(f[i+1]), "alias."):
				return "-c alias" // an alias could name any command
			case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
				i++
			case strings.HasPrefix(a, "-"):
			default:
				if gitWrites(a, f[i+1:]) {
					return a
				}
				if w, _ := gc.Resolve(a, f[i+1:], depth, shellGitWrite); w != "" {
					return w
				}
				i = len(f)
			}
		}
	}
	return ""
}

// gitWrites reports whether git subcommand sub with args commits, moves a
// ref or writes tracked files with content from elsewhere.
func gitWrites(sub string, args []string) bool {
	has := func(opts ...string) bool {
		for _, a := range args {
			if slices.Contains(opts, a) {
				return true
			}
		}
		return false
	}
	// operands are the arguments that are not options, up to "--".
	var operands []string
	dashdash := false
	for _, a := range args {
		if a == "--" {
			dashdash = true
			break
		}
		if !strings.HasPrefix(a, "-") {
			operands = append(operands, a)
		}
	}
	switch sub {
	case "commit", "push", "commit-tree", "update-ref", "cherry-pick", "am", "revert", "read-tree", "mv", "rm", "symbolic-ref":
		return true
	case "update-index":
		return !has("--refresh", "--really-refresh") || has("--add", "--cacheinfo", "--index-info", "--remove", "--force-remove")
	case "apply":
		// --check, --stat, --numstat and --summary only read, unless --apply.
		return !has("--check", "--stat", "--numstat", "--summary") || has("--apply", "--index", "--cached")
	case "checkout":
		// `git checkout REV -- PATH` or `git checkout REV PATH` writes
		// files from another commit; `git checkout BRANCH` switches.
		if has("-b", "-B", "--orphan") {
			return false // a new branch: its start point is the operand
		}
		return dashdash && len(operands) > 0 || len(operands) > 1 || has("-p", "--patch")
	case "restore":
		return has("-s", "--source") || slices.ContainsFunc(args, func(a string) bool {
			return strings.HasPrefix(a, "--source=") || strings.HasPrefix(a, "-s") && len(a) > 2
		})
	case "stash":
		return len(args) > 0 && (args[0] == "apply" || args[0] == "pop" || args[0] == "branch")
	case "reset":
		return len(operands) > 0 && has("--hard", "--merge", "--keep", "--soft")
	}
	return false
}

// anyLine reports whether check holds for one of lines.
func anyLine(lines []string, check func(string) bool) bool {
	for _, l := range lines {
		if check(l) {
			return true
		}
	}
	return false
}

// firstOf is the first non-empty answer of check over lines.
func firstOf(lines []string, check func(string) string) string {
	for _, l := range lines {
		if how := check(l); how != "" {
			return how
		}
	}
	return ""
}

// ShellRunsAccept reports whether a command line runs `sessiongate
// protocol accept` or `sessiongate session accept-na`.
func ShellRunsAccept(cmd string) bool {
	for _, part := range shellParts(cmd) {
		f := strings.Fields(part)
		for i := 0; i+2 < len(f); i++ {
			if (f[i] == "sessiongate" || strings.HasSuffix(f[i], "/sessiongate")) && (slices.Index(f[i+1:], "protocol") >= 0 && slices.Index(f[i+1:], "accept") >= 0 || slices.Index(f[i+1:], "accept-na") >= 0) {
				return true
			}
		}
	}
	return false
}

// ShellRemovesSession describes a command line that runs `sessiongate
// session delete` or `session terminate`, "" when it runs neither. A line
// the shell parser cannot read is judged word by word, erring on the side
// of seeing the command.
func ShellRemovesSession(cmd string) string {
	calls, _, ok := shellline.Calls(shellline.Unwrap(cmd))
	if !ok {
		f := strings.Fields(cmd)
		for i := 0; i+1 < len(f); i++ {
			if f[i] == "session" && (f[i+1] == "delete" || f[i+1] == "terminate") && strings.Contains(cmd, "sessiongate") {
				return "`sessiongate session " + f[i+1] + "`"
			}
		}
		return ""
	}
	for _, c := range calls {
		w := shellline.StripWrappers(c.Words)
		if len(w) < 3 || path.Base(w[0]) != "sessiongate" {
			continue
		}
		for i := 1; i+1 < len(w); i++ {
			if w[i] == "session" {
				if sub := w[i+1]; sub == "delete" || sub == "terminate" {
					return "`sessiongate session " + sub + "`"
				}
				break
			}
		}
	}
	return ""
}

// personRoute describes a person command a line runs past the name check
// (ShellRemovesSession): wrapped, fed by xargs, or run by a copy of the
// binary.
func (e *Engine) personRoute(lines []string, root, dir string) string {
	if dir == "" || !filepath.IsAbs(dir) {
		dir = root
	}
	isSelf := func(prog string) bool { return selfbinary.Is(dir, prog) }
	for _, l := range lines {
		if how := shellline.PersonCommand(l, isSelf); how != "" {
			return how
		}
	}
	return ""
}

// selfCopy names a program of the lines that is the sessiongate binary
// under another name, "" when none is: there is no honest reason for the
// agent to hide which program it runs.
func selfCopy(lines []string, root, dir string) string {
	if dir == "" || !filepath.IsAbs(dir) {
		dir = root
	}
	for _, l := range lines {
		for _, w := range shellline.Programs(l) {
			if shellline.CommandName(w[0]) != "sessiongate" && shellline.MaybeSessiongate(w) && selfbinary.Is(dir, w[0]) {
				return w[0]
			}
		}
	}
	return ""
}

// recordsRefs are the refs the agent may not change: sessiongate's own
// namespace, and the configured records ref.
func (e *Engine) recordsRefs() []string {
	refs := append([]string{}, shellline.RecordsRefs...)
	if IsRecordRef(e.Config.SessionRecord) {
		refs = append(refs, e.Config.SessionRecord)
	}
	return refs
}

// shellParts splits a command line at the shell's command separators
// (shellline.Parts: gitalias splits by it too).
func shellParts(cmd string) []string { return shellline.Parts(cmd) }

// AgentStopRequest asks whether an agent may stop.
type AgentStopRequest struct {
	Bound *AgentBound
	// Work is the worktree now.
	Work WorkState
	// Continuing is set when the agent goes on because a stop hook blocked
	// it (Claude Code's and Gemini CLI's stop_hook_active); when false the
	// count of blocks in a row starts again.
	Continuing bool
	// MaxBlocks is how many stops in a row may be blocked; the next is let
	// through with a violation. 0 never blocks.
	MaxBlocks int
	// AfterWait: the agent's newest stop was a wait for background
	// sub-agents (StopWaitOpen); a stop this judges and allows is recorded
	// (agent:<a>:stop:judged), so the wait is no longer open.
	AfterWait bool
}

// AgentStop blocks a stop while the session has work (changes or commits
// since it started, and this turn changed something) and its end protocol
// has not completed. After MaxBlocks blocks in a row it lets the agent stop
// and records an END_PROTOCOL_SKIPPED violation.
func (e *Engine) AgentStop(ctx context.Context, req AgentStopRequest) (*AgentVerdict, error) {
	v := &AgentVerdict{}
	bd := req.Bound
	if bd == nil || bd.Session == nil || req.MaxBlocks <= 0 {
		return v, nil
	}
	s, b := bd.Session, bd.Binding
	prevBlocks := b.StopBlocks
	if !req.Continuing {
		b.StopBlocks = 0
	}
	mark := req.Work.Mark
	idle := mark == b.TurnMark
	// Work since the start: HEAD moved (commits), or anything uncommitted.
	work := req.Work.Head != s.StartCommit
	if !idle && !work && req.Work.Dirty != nil {
		dirty, err := req.Work.Dirty(ctx)
		if err != nil {
			return nil, fmt.Errorf("read the worktree: %w", err)
		}
		work = dirty
	}
	// A protected file changed and not accepted blocks the stop like an
	// undone end protocol (issue 25.6): the agent reverts it or a person
	// accepts it; recorded once as PROTECTED_CHANGE either way.
	var protected string
	var pvio *Violation
	if s.Active() && e.OpenRepo != nil {
		repo, err := e.OpenRepo(ctx, s.Worktree)
		if err != nil {
			return nil, fmt.Errorf("open worktree %s to check protected files: %w", s.Worktree, err)
		}
		if protected, pvio, err = e.sessionProtected(ctx, s, repo); err != nil {
			return nil, fmt.Errorf("check protected files: %w", err)
		}
	}
	now := e.now()
	var tok string
	switch {
	case protected != "" && b.StopBlocks < req.MaxBlocks:
		b.StopBlocks++
		v.Deny = true
		v.Gate, v.Reason, v.Next = "protected files", protected, AcceptStep
		v.Reason += fmt.Sprintf(" (stop blocked %d of %d times)", b.StopBlocks, req.MaxBlocks)
		tok = "agent:" + b.Agent + ":stop:protected"
	case idle || !work:
		b.StopBlocks = 0
		tok = ""
	case b.StopBlocks >= req.MaxBlocks:
		v.Violation = &Violation{
			SessionID: s.ID, RepoID: s.RepoID, Phase: s.Phase, Severity: SeverityHigh, Code: CodeEndProtocolSkipped,
			Message: fmt.Sprintf("%s stopped with work done and the end protocol undone (state %s) after %d blocked stops", b.Agent, s.State, b.StopBlocks),
			Window:  WindowSession, CreatedAt: now,
		}
		b.StopBlocks = 0
		tok = "agent:" + b.Agent + ":stop:violation"
	default:
		b.StopBlocks++
		v.Deny = true
		spec, err := e.boundSpec(ctx, bd)
		if err != nil {
			return nil, err
		}
		v.Gate, v.Reason, v.Next = endProtocolStep(ctx, e, s, spec)
		v.Reason += fmt.Sprintf(" (stop blocked %d of %d times; then it is let through and recorded as a violation)", b.StopBlocks, req.MaxBlocks)
		tok = "agent:" + b.Agent + ":stop:blocked"
	}
	if tok == "" && req.AfterWait {
		tok = stopJudgedToken(b.Agent)
	}
	if !v.Deny {
		if tok == "" && pvio == nil && b.TurnMark == mark && b.StopBlocks == prevBlocks {
			return v, nil // nothing to record
		}
		b.TurnMark = mark
	}
	b.UpdatedAt = now
	err := e.Store.Update(ctx, func(w Writer) error {
		aw, ok := w.(AgentWriter)
		if !ok {
			return errors.New("this store does not keep agent bindings")
		}
		if tok != "" {
			if err := w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: tok, CreatedAt: now}); err != nil {
				return err
			}
		}
		for _, x := range []*Violation{pvio, v.Violation} {
			if x == nil {
				continue
			}
			if err := w.AddViolation(ctx, x); err != nil {
				return err
			}
		}
		return aw.PutAgentBinding(ctx, b)
	})
	if err != nil {
		return nil, fmt.Errorf("record stop: %w", err)
	}
	e.publishViolations(ctx, s.ID, pvio)
	return v, nil
}

// endProtocolStep names what a session with work still has to do.
func endProtocolStep(ctx context.Context, e *Engine, s *Session, spec *protocolspec.Spec) (gate, reason, next string) {
	const end = "`sessiongate session end --summary \"...\"` (MCP: session_end)"
	if s.State == StateInit {
		d := &HookDecision{Allowed: true}
		blockInit(d, s, spec, e.naOffer(ctx, s, spec), e.claimRefusedFn(ctx, s))
		return d.Gate, "the session changed files but never finished its start protocol: " + strings.Join(d.Reasons, "; "), d.NextStep + "; then run the end protocol and " + end
	}
	var steps []string
	first := ""
	started := s.State == StateWorking
	for i := range spec.Phases {
		p := &spec.Phases[i]
		if p.Section != protocolspec.SectionEnd {
			continue
		}
		if !started && p.ID != s.Phase {
			continue
		}
		started = true
		if !p.Mandatory() {
			continue
		}
		if first == "" {
			first = p.ID
		}
		for _, c := range p.Checks {
			steps = append(steps, checkStep(p, c, e.naOffer(ctx, s, spec), e.claimRefusedFn(ctx, s)))
		}
	}
	reason = "the session has work (changes or commits since it started) and its end protocol has not completed"
	if s.State == StateEnding {
		reason += fmt.Sprintf(": it is at %s", s.Phase)
	}
	steps = append(steps, "then "+end)
	return first, reason, strings.Join(steps, "; ")
}

// boundSpec loads the bound session's pinned protocol on first use: most
// hook runs never need it.
func (e *Engine) boundSpec(ctx context.Context, bd *AgentBound) (*protocolspec.Spec, error) {
	if bd.Spec == nil {
		spec, err := e.SpecFor(ctx, bd.Session.ProtocolSHA)
		if err != nil {
			return nil, err
		}
		bd.Spec = spec
	}
	return bd.Spec, nil
}

// AgentSummary is the short state text an agent gets at session start: the
// session, its phase, what blocks, and the next concrete step.
func (e *Engine) AgentSummary(ctx context.Context, bd *AgentBound) string {
	if bd == nil || bd.Session == nil {
		return "sessiongate: no session runs in this worktree. Start one: " + StartStep
	}
	s := bd.Session
	spec, err := e.boundSpec(ctx, bd)
	if err != nil {
		return "sessiongate: session " + s.ID + ": " + err.Error()
	}
	var b strings.Builder
	verb := "resumed"
	if bd.Started {
		verb = "started"
	}
	fmt.Fprintf(&b, "sessiongate: session %s %s (state %s) in this worktree; protocol %s.\n", s.ID, verb, s.State, shortSHA(s.ProtocolSHA))
	for _, n := range bd.Notes {
		fmt.Fprintf(&b, "Note: %s.\n", n)
	}
	if s.Objective == PendingObjective {
		b.WriteString("Objective: not set yet (your first prompt sets it).\n")
	} else {
		fmt.Fprintf(&b, "Objective: %s\n", truncate(s.Objective, 300))
	}
	switch s.State {
	case StateInit:
		d := &HookDecision{Allowed: true}
		blockInit(d, s, spec, e.naOffer(ctx, s, spec), e.claimRefusedFn(ctx, s))
		fmt.Fprintf(&b, "Phase: %s (start protocol). File edits, git commit and git push are denied until the start gates pass.\nBlocks: %s\nNext: %s\n", s.Phase, strings.Join(d.Reasons, "; "), d.NextStep)
	case StateWorking:
		_, _, next := endProtocolStep(ctx, e, s, spec)
		fmt.Fprintf(&b, "Phase: WORKING (start protocol done). Work, run the checks through the shell (sessiongate records them as observed evidence), commit.\nWhen done, before stopping: %s\n", next)
	case StateEnding:
		gate, reason, next := endProtocolStep(ctx, e, s, spec)
		fmt.Fprintf(&b, "Phase: %s (end protocol).\nBlocks: %s (gate %s)\nNext: %s\n", s.Phase, reason, gate, next)
	}
	return strings.TrimRight(b.String(), "\n")
}

// AgentToolStart records when a shell tool call started, for its duration.
func (e *Engine) AgentToolStart(ctx context.Context, agent, toolID string) error {
	if toolID == "" || len(toolID) > 200 {
		return nil
	}
	return e.Store.Update(ctx, func(w Writer) error {
		aw, ok := w.(AgentWriter)
		if !ok {
			return nil
		}
		return aw.PutToolStart(ctx, agent, toolID, e.now())
	})
}

// gitBypass names how one of the lines skips git's hooks, "" when none
// does. gc (git's aliases) is read only for a git command that is not
// git's own: an alias harmless alone (`git config alias.c commit`) makes
// `git c -n` a commit without the hooks.
func gitBypass(lines []string, gc shellline.Aliases) string {
	if how := firstOf(lines, shellline.GitBypass); how != "" {
		return how
	}
	return firstOf(lines, func(l string) string { return shellline.GitBypassWith(l, gc) })
}

// lazyAliases reads git's aliases on first use: `git status` and the
// other commands of git's own never need them.
type lazyAliases struct {
	load func() *gitalias.GitCommands
	gc   *gitalias.GitCommands
}

func (l *lazyAliases) get() *gitalias.GitCommands {
	if l.gc == nil {
		l.gc = l.load()
	}
	return l.gc
}

func (l *lazyAliases) Expand(name string) (string, bool) { return l.get().Expand(name) }
func (l *lazyAliases) Builtin(name string) bool          { return l.get().Builtin(name) }
