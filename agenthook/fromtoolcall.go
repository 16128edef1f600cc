package agenthook

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/session"
)

// fromToolCall returns the process that stands between this hook and the
// agent CLI above it and that the CLI did not start to run this hook: the
// hook was run from inside one of the agent's tool calls (a script piping
// a made-up postToolUse into `sessiongate agent-hook copilot`, round 56's
// 333 F3). A CLI runs its hooks itself, directly or through a shell whose
// whole script is the installed command (`sh -c 'sessiongate agent-hook
// claude PreToolUse'`); an agent's tool call runs a shell that runs its
// line, and whatever that line starts sits between (bash, python3, node
// -e). Measured with the real CLIs (TestRealHooksComeFromTheCLI). No agent
// above (a person's terminal, CI, a system without /proc): no verdict. A
// nested CLI (`claude -p` from the agent's shell) is nearest and runs its
// own hooks: not this (nestedAgent).
//
// Evidence, not proof: a line that replaces its tool's own shell by exec
// (`exec python3 forge.py`, which then execs the hook) leaves no process
// between; the shell-line check (shellline.RunsAgentHook) reads what the
// line spells.
func fromToolCall(chain []ancestry.Process) (ancestry.Process, bool) {
	for i, p := range chain {
		if ancestry.AgentName(p) != "" {
			return ancestry.Process{}, false
		}
		if hookWrapper(p) {
			continue
		}
		if _, ok := ancestry.Agent(chain[i+1:]); ok {
			return p, true
		}
		return ancestry.Process{}, false
	}
	return ancestry.Process{}, false
}

// execedToolCall reports whether the hook process itself may be the
// process the agent's CLI started for a tool call, which replaced itself
// by the hook (`exec python3 forge.py`, python3 then execs `sessiongate
// agent-hook`): nothing stands between it and the CLI, so fromToolCall
// sees nothing. Measured with the real CLIs (round 57, helper 340): they
// start a tool call's process in a new session (setsid), and a process
// cannot leave a session it leads; Copilot CLI and Gemini CLI start their
// hooks in their own session, Claude Code's `sh -c` (dash) forks the hook
// inside the session sh leads. So a hook that leads its session directly
// under its CLI, or whose hook wrapper (`sh -c 'SG agent-hook ...'`, the
// one a tool call's process exec'd) does, was a tool call's process, for
// a CLI whose hooks were seen not to (shapeNotLeader, learned at its
// first prompt from the same outermost process, hookTop: Codex starts
// hooks as it starts tool calls, Claude Code's sh leads its session).
// Unknown sessions (not Linux, tests without Self): no verdict.
func execedToolCall(self ancestry.Process, chain []ancestry.Process) (ancestry.Process, bool) {
	top, i := hookTop(self, chain)
	if i >= len(chain) || top.PID <= 1 || top.Session != top.PID || ancestry.AgentName(chain[i]) == "" {
		return ancestry.Process{}, false
	}
	return chain[i], true
}

// hookTop returns the outermost of the hook and the hook wrappers right
// above it (`sh -c 'sessiongate agent-hook ...'`), and the index in chain
// of the process above that one. A tool call's process that exec'd such a
// wrapper (python3 execs `sh -c 'SG agent-hook copilot postToolUse'`,
// dash forks the hook) leads its session as the wrapper, not as the hook
// (helper 341): the session is the outermost's.
func hookTop(self ancestry.Process, chain []ancestry.Process) (ancestry.Process, int) {
	i := 0
	for i < len(chain) && ancestry.AgentName(chain[i]) == "" && hookWrapper(chain[i]) {
		self, i = chain[i], i+1
	}
	return self, i
}

// stdinElsewhere reports whether a hook reads an input its CLI may not
// have sent: Claude Code and Gemini CLI hand each hook its input on a
// Unix socket they made (measured, round 57, helper 340: stdin is a
// socket whose SO_PEERCRED names the CLI process), so for a CLI seen to do
// so (shapeStdinSocket) a hook whose stdin is a file, a pipe or a socket
// another process made was handed its input by someone else: a tool
// call's process that exec'd the hook (`exec python3 forge.py`, python3
// execs `sh -c 'sessiongate agent-hook claude PostToolUse'` with a
// made-up payload), which leaves the same processes above the hook as the
// CLI's own. peer is the process that made the stdin socket, 0 when stdin
// is no socket, -1 when not read (not Linux, tests).
func stdinElsewhere(chain []ancestry.Process, peer int) (ancestry.Process, bool) {
	cli, ok := ancestry.Agent(chain)
	if !ok || peer < 0 || peer == cli.PID {
		return ancestry.Process{}, false
	}
	return cli, true
}

// confinedToolCall reports whether the hook runs confined (no_new_privs
// or a seccomp filter, r.confined) where the CLI cli above it does not:
// measured (round 58, helper 342, Codex 0.171.0), Codex's sandbox
// (read-only, `codex exec`'s default; workspace-write, the TUI's in a
// trusted project) runs each tool call with no_new_privs and a seccomp
// filter, which no process can clear, nor its children; Codex's hooks run
// outside it. So a hook that is confined was started inside a tool call
// (`exec python3 forge.py`, python3 execs the hook), for a CLI whose first
// prompt's hook was not (shapeUnconfined). cli zero: no CLI is seen above
// the hook (Codex's sandbox runs the tool call in its own PID namespace,
// where codex is not seen), only the hook is read. Not read (not Linux,
// tests without Confined): no verdict.
func (r *Runner) confinedToolCall(cli ancestry.Process) bool {
	if c, ok := r.confined(0); !ok || !c {
		return false
	}
	if cli.PID > 0 {
		// A CLI that runs confined itself hands it to its hooks.
		if c, ok := r.confined(cli.PID); !ok || c {
			return false
		}
	}
	return true
}

// The shapes of a CLI's hooks kept at its first prompt (cliShape).
const (
	shapeNotLeader   = "hook-not-leader" // the hook (with its wrappers, hookTop) does not lead its process session
	shapeStdinSocket = "stdin-socket"    // the hook's stdin is a socket the CLI made
	shapeUnconfined  = "hook-unconfined" // the hook runs with neither no_new_privs nor a seccomp filter
)

// cliShape is how the CLI cli started this hook, kept with the CLI at its
// first prompt: a later hook of the same CLI process in another shape was
// not started by it (execedToolCall, stdinElsewhere).
func (r *Runner) cliShape(cli ancestry.Process, chain []ancestry.Process) string {
	var w []string
	if top, _ := hookTop(r.self(), chain); top.PID > 1 && top.Session != 0 && top.Session != top.PID {
		w = append(w, shapeNotLeader)
	}
	if peer := r.stdinPeer(); peer > 0 && peer == cli.PID {
		w = append(w, shapeStdinSocket)
	}
	if c, ok := r.confined(0); ok && !c {
		w = append(w, shapeUnconfined)
	}
	return strings.Join(w, " ")
}

// hookWrapper reports whether p only runs an agent hook: sessiongate's own
// `agent-hook` (a copy on PATH that runs the repository's), or a shell
// whose -c script is one `sessiongate agent-hook AGENT EVENT` command and
// nothing else. Args are the command line joined by spaces, so a program
// path may hold spaces: the words before agent-hook are the program.
func hookWrapper(p ancestry.Process) bool {
	args := strings.Fields(p.Args)
	if hookCommand(args) || prefixWrapper(p) {
		return true
	}
	if len(args) < 3 || !hookShells[strings.ToLower(path.Base(args[0]))] {
		return false
	}
	// sh -c SCRIPT, bash -lc SCRIPT, bash -c -l SCRIPT: the script is
	// what follows the options, and -c is among them.
	i, c := 1, false
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		c = c || !strings.HasPrefix(args[i], "--") && strings.Contains(args[i], "c")
	}
	return c && hookCommand(args[i:])
}

// prefixWrapper reports whether p is Claude Code's shell prefix
// (CLAUDE_CODE_SHELL_PREFIX, a logging or auditing command every command
// it runs goes through, its hooks too) running one hook command: measured
// (round 57, helper 341), `/bin/sh -c PREFIX 'HOOK'` under claude runs
// `/bin/bash PREFIX HOOK` (the prefix script by its interpreter), which
// runs the hook. The prefix is read from the hook's own environment: a
// tool call's process that sets it gains nothing a `sh -c 'HOOK'` it
// exec'd would not (the exec'd-hook rules read both).
func prefixWrapper(p ancestry.Process) bool {
	pfx := shellPrefix()
	if pfx == "" {
		return false
	}
	rest, ok := strings.CutPrefix(p.Args, pfx+" ")
	if f := strings.Fields(p.Args); !ok && len(f) > 1 {
		after := strings.TrimSpace(strings.TrimPrefix(p.Args, f[0]))
		if hookShells[strings.ToLower(path.Base(f[0]))] {
			if a, c := strings.CutPrefix(after, "-c "); c {
				after = strings.TrimSpace(a)
			}
		}
		rest, ok = strings.CutPrefix(after, pfx+" ")
	}
	if !ok {
		return false
	}
	rest = strings.TrimSpace(rest)
	if len(rest) >= 2 && rest[0] == '\'' && rest[len(rest)-1] == '\'' {
		rest = rest[1 : len(rest)-1]
	}
	return hookCommand(strings.Fields(rest))
}

// shellPrefix is Claude Code's CLAUDE_CODE_SHELL_PREFIX as the hook got
// it ("" none); a variable for tests.
var shellPrefix = func() string { return strings.TrimSpace(os.Getenv("CLAUDE_CODE_SHELL_PREFIX")) }

// hookCommand: words that are `PROGRAM agent-hook AGENT [EVENT]`, PROGRAM
// (perhaps quoted, perhaps holding spaces) a path to sessiongate.
func hookCommand(words []string) bool {
	k := slices.Index(words, "agent-hook")
	if k < 1 || len(words)-k-1 < 1 || len(words)-k-1 > 2 {
		return false
	}
	if prog := strings.Trim(strings.Join(words[:k], " "), `"'`); !isSessiongate(prog) && !isOwnBinary(prog) {
		return false
	}
	for _, w := range words[k+1:] {
		if strings.ContainsAny(w, ";&|<>`$()\\\"'*?") {
			return false
		}
	}
	return true
}

// isSessiongate: the program word of a hook command (a bare name, or a
// path ending in it).
func isSessiongate(w string) bool {
	b := path.Base(w)
	return b == "sessiongate" || b == "sessiongate.exe"
}

// isOwnBinary: the program word is this very binary by its path, however
// it is named (install's machine-local config calls the binary it ran
// from by absolute path: a copy built as `sg` or `sessiongate-dev` is
// called so, helper 341). It runs nothing but the hook that reads it.
func isOwnBinary(w string) bool {
	if !path.IsAbs(w) {
		return false
	}
	own := ownBinary()
	if own == "" {
		return false
	}
	if r, err := filepath.EvalSymlinks(w); err == nil {
		w = r
	}
	return w == own
}

// ownBinary is this process's executable, symlinks resolved ("" unknown);
// a variable so tests can name one.
var ownBinary = sync.OnceValue(func() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return p
})

// hookShells are the shells CLIs run a hook command with.
var hookShells = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true}

// chain is the process's ancestry (Runner.Ancestors in tests).
func (r *Runner) chain() []ancestry.Process {
	if r.Ancestors != nil {
		return r.Ancestors()
	}
	return ancestry.Chain()
}

// self is the hook process (Runner.Self in tests; none when Ancestors is
// set without it).
func (r *Runner) self() ancestry.Process {
	if r.Self != nil {
		return r.Self()
	}
	if r.Ancestors != nil {
		return ancestry.Process{}
	}
	return ancestry.Self()
}

// stdinPeer is the process that made the Unix socket on the hook's stdin:
// 0 when stdin is no socket, -1 when not read (Runner.StdinPeer in tests;
// not read when Ancestors is set without it).
func (r *Runner) stdinPeer() int {
	if r.StdinPeer != nil {
		return r.StdinPeer()
	}
	if r.Ancestors != nil || !ancestry.Readable() {
		return -1
	}
	pid, ok := ancestry.StdinPeer()
	if !ok {
		return 0
	}
	return pid
}

// confined is whether process pid (0: the hook) runs under no_new_privs
// or a seccomp filter, ok false when not read (Runner.Confined in tests;
// not read when Ancestors is set without it).
func (r *Runner) confined(pid int) (confined, ok bool) {
	if r.Confined != nil {
		return r.Confined(pid)
	}
	if r.Ancestors != nil {
		return false, false
	}
	return ancestry.Confined(pid)
}

// readable: whether an ancestry without an agent CLI means one (tests set
// Ancestors, and say so).
func (r *Runner) readable() bool {
	return r.Ancestors != nil || ancestry.Readable()
}

// refuseNotFromCLI answers an event its agent's CLI did not send: from
// inside one of the agent's tool calls (fromToolCall; the tool call's own
// process exec'd into the hook: execedToolCall, stdinElsewhere), or, with
// no agent CLI above it at all, while the CLI the conversation's session
// kept still runs (a detached `setsid sh -c 'sessiongate agent-hook
// ...'`) or, for a tool call's event, after it ended. The event
// is not recorded; the session gets a HOOK_NOT_FROM_CLI violation. Cursor's
// hooks come from its editor, whose processes were never measured: no
// verdict for them. It returns nil when the event is the CLI's.
func (r *Runner) refuseNotFromCLI(ctx context.Context, eng *session.Engine, repo *gitrepo.Repo, ev *Event, work *workJob, ancestors func() []ancestry.Process) (*Answer, error) {
	if ev.Agent == "cursor" {
		return nil, nil
	}
	chain := ancestors()
	// why: the hook is not the CLI's whatever the CLI; learned: it is not
	// if its CLI showed the shape named (cliShape) at its first prompt.
	// Both exec'd-hook rules are asked: Claude Code's sh -c leads its
	// session (a candidate of the first, not held to it) and is held to
	// the second.
	why := ""
	type candidate struct {
		shape, why string
		cli        ancestry.Process
	}
	var learned []candidate
	if p, ok := fromToolCall(chain); ok {
		cli, _ := ancestry.Agent(chain)
		why = fmt.Sprintf("it ran inside a tool call: %s (pid %d) stands between the hook and %s (pid %d)", p.Name, p.PID, cli.Name, cli.PID)
	} else if _, ok := ancestry.Agent(chain); ok || !r.readable() {
		if cli, ok := execedToolCall(r.self(), chain); ok {
			a := ancestry.AgentName(cli)
			learned = append(learned, candidate{shapeNotLeader, fmt.Sprintf("it ran inside a tool call: the hook leads its own process session under %s (pid %d), as the process %s starts for a tool call does, not its hooks (the tool call's process replaced itself by the hook)", a, cli.PID, a), cli})
		}
		if cli, ok := stdinElsewhere(chain, r.stdinPeer()); ok {
			a := ancestry.AgentName(cli)
			learned = append(learned, candidate{shapeStdinSocket, fmt.Sprintf("it ran inside a tool call: its input did not come from %s (pid %d), which hands its hooks their input on a socket it made (the tool call's process replaced itself by the hook)", a, cli.PID), cli})
		}
		if cli, ok := ancestry.Agent(chain); ok && r.confinedToolCall(cli) {
			a := ancestry.AgentName(cli)
			learned = append(learned, candidate{shapeUnconfined, fmt.Sprintf("it ran inside a sandboxed tool call: the hook runs under no_new_privs or a seccomp filter that %s (pid %d) and its hooks run without (a sandbox that %s puts its tool calls in, which no process can leave)", a, cli.PID, a), cli})
		}
		if len(learned) == 0 {
			// Under its CLI, or a system whose processes are not read.
			return nil, nil
		}
	}
	bd, err := eng.AgentBind(ctx, session.AgentBindRequest{Agent: ev.Agent, AgentSession: ev.AgentSession, Repo: repo, Work: work.wait})
	if err != nil {
		return nil, err
	}
	if bd.Session == nil {
		if why != "" {
			// Nothing to record it in, nothing recorded; said, so that a
			// hook command the user wrapped (`timeout 30 sessiongate ...`)
			// does not leave sessiongate silently off (helper 341).
			return &Answer{Notice: fmt.Sprintf("sessiongate: the %s hook event %s was not taken, and no session was started: %s (a CLI's hook command is `sessiongate agent-hook %s EVENT`, alone or under sh -c)", ev.Agent, ev.Name, why, ev.Agent)}, nil
		}
		return nil, nil
	}
	shapes := map[string][]string{} // by CLI key: one query for both rules (Codex's honest hooks are candidates of both)
	for _, c := range learned {
		// Only a CLI seen to hand its hooks their input that way, or to
		// start them in a session it leads, is held to it: another
		// version (a native build, another runtime) may do otherwise.
		shape, ok := shapes[c.cli.Key()]
		if !ok {
			s, err := eng.CLIShape(ctx, bd.Session.ID, ev.Agent, c.cli.Key())
			if err != nil {
				return nil, err
			}
			shape = strings.Fields(s)
			shapes[c.cli.Key()] = shape
		}
		if slices.Contains(shape, c.shape) {
			why = c.why
			break
		}
	}
	if len(learned) > 0 && why == "" {
		return nil, nil
	}
	if why == "" {
		key, err := eng.NewestCLI(ctx, bd.Session.ID, ev.Agent)
		if err != nil || key == "" {
			return nil, err
		}
		pid := strings.SplitN(key, ":", 2)[0]
		confined := false
		if r.confinedToolCall(ancestry.Process{}) {
			s, err := eng.CLIShape(ctx, bd.Session.ID, ev.Agent, key)
			if err != nil {
				return nil, err
			}
			confined = slices.Contains(strings.Fields(s), shapeUnconfined)
		}
		switch {
		case confined:
			// Any event: a person's prompt is not typed from inside the
			// agent's sandbox (Codex's runs each tool call in a PID
			// namespace of its own, where the CLI is not seen).
			why = fmt.Sprintf("it ran inside a sandboxed tool call: no %s CLI is seen above it (its processes: %s), and it runs under no_new_privs or a seccomp filter that the conversation's CLI (pid %s) ran its hooks without", ev.Agent, ancestry.Names(chain), pid)
		case !ancestry.Gone(key):
			why = fmt.Sprintf("no %s CLI runs it (its processes: %s) while the conversation's CLI (pid %s) runs", ev.Agent, ancestry.Names(chain), pid)
		case ev.Kind == KindPreTool || ev.Kind == KindPostTool:
			// A tool call is a CLI's: once the conversation's CLI has
			// ended, one no CLI sends is not the conversation's (a
			// detached process that waited for the CLI to exit; helper
			// 340's F3). A prompt, stop or end may be a person's.
			why = fmt.Sprintf("no %s CLI runs it (its processes: %s), and the conversation's CLI (pid %s) has ended: a tool call is its CLI's", ev.Agent, ancestry.Names(chain), pid)
		default:
			return nil, nil
		}
	}
	v, err := eng.RecordHookNotFromCLI(ctx, bd.Session.ID, ev.Agent, ev.Name, why)
	if err != nil {
		return nil, err
	}
	return &Answer{Notice: fmt.Sprintf("sessiongate: %s %s violation recorded: %s", v.Severity, v.Code, v.Message)}, nil
}
