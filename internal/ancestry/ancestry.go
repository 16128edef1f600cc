// Package ancestry names the processes a process runs under, to tell a
// person's terminal from a coding agent's shell. It is evidence, not proof:
// a process that detaches (setsid, a double fork) leaves its ancestors.
package ancestry

import (
	"path"
	"strconv"
	"strings"
)

// Process is one ancestor.
type Process struct {
	PID  int
	Name string // the executable's name (Linux: comm)
	Args string // the command line, arguments joined by spaces
	// Argv is the command line word by word where the system keeps it so
	// (Linux), nil elsewhere: a commit message "-m 'do not --amend'" is
	// one word of it, three of Args.
	Argv []string
	// Exe is the executable's path (Linux: /proc/PID/exe), "" when not
	// read: a link named like a CLI (Volta's shim, ~/.volta/bin/claude)
	// names its process and argv[0] so, not its executable.
	Exe string
	// Start is when the process started (Linux: /proc stat's starttime,
	// clock ticks since boot), 0 when unknown: with PID it names one
	// process, not a later one given the same PID.
	Start uint64
	// Session is the process's session id (Linux: /proc stat's session),
	// 0 when unknown, SessionOutside when its leader is outside this PID
	// namespace. A process cannot join a session it was not started in:
	// setsid only makes a new one.
	Session int
	// Forged: its /proc entry is not the kernel's (a file mounted over
	// it, or procfs's entry of another process): nothing else is known
	// of it, and the chain ends there (helper 344).
	Forged bool
	// Hidden: it exists (its child still names it as parent) but /proc
	// shows no entry for it, as a mount of /proc with hidepid=2 hides
	// another user's processes (the root sshd a login hangs from): the
	// chain ends there, and what is above it is unknown, not absent.
	Hidden bool
}

// Forged returns the chain's process whose /proc entry is not the
// kernel's, if any (Process.Forged).
func Forged(chain []Process) (Process, bool) {
	for _, p := range chain {
		if p.Forged {
			return p, true
		}
	}
	return Process{}, false
}

// SessionOutside is the Session of a process whose session leader is in
// an ancestor PID namespace: /proc stat says 0 for it (a container whose
// session was made outside it, as CI's was: round 58). Known, and not the
// process itself (a leader's session is its own PID, visible).
const SessionOutside = -1

// Key names the process for a record: "<pid>:<start>".
func (p Process) Key() string {
	return strconv.Itoa(p.PID) + ":" + strconv.FormatUint(p.Start, 10)
}

// Gone reports whether the process a Key names has certainly ended: no
// process has its PID, or the one that has started at another time. A key
// that cannot be read, or a system where start times are not read, is
// never gone.
func Gone(key string) bool {
	pid, start, ok := strings.Cut(key, ":")
	n, err1 := strconv.Atoi(pid)
	st, err2 := strconv.ParseUint(start, 10, 64)
	if !ok || err1 != nil || err2 != nil || n <= 1 || st == 0 {
		return false
	}
	return gone(n, st)
}

// agents are the executable names of coding agents' CLIs: Claude Code
// (which names its process claude), Gemini CLI, Cursor's cursor-agent,
// Codex, GitHub's Copilot CLI (a native binary named copilot).
var agents = map[string]bool{"claude": true, "gemini": true, "cursor-agent": true, "codex": true, "copilot": true}

// scriptMarks are in the script a JavaScript runtime runs for an agent
// installed from npm (node .../@anthropic-ai/claude-code/cli.js). The
// Claude Agent SDK's 0.1 releases run the same CLI from their own package
// (.../@anthropic-ai/claude-agent-sdk/cli.js): Claude Code, hooks and all
// (0.3 ships a native binary named claude, read by its name).
var scriptMarks = []string{"@anthropic-ai/claude-code", "@anthropic-ai/claude-agent-sdk", "@google/gemini-cli", "@openai/codex", "@github/copilot"}

// Agent returns the nearest ancestor that is a coding agent's CLI: its
// process name or executable is one, or it is a JavaScript runtime running
// one. Arguments beyond the script are not looked at (a person's editor
// may well have a file named claude.md open).
func Agent(chain []Process) (Process, bool) {
	for _, p := range chain {
		if AgentName(p) != "" {
			return p, true
		}
	}
	return Process{}, false
}

// AgentName names the coding agent's CLI p is (claude, gemini,
// cursor-agent, codex, copilot), "" when it is none.
func AgentName(p Process) string {
	if n := strings.ToLower(p.Name); agents[n] {
		return n
	}
	args := strings.Fields(p.Args)
	if len(args) > 0 && agents[strings.ToLower(path.Base(args[0]))] {
		return strings.ToLower(path.Base(args[0]))
	}
	if len(args) > 1 && runtimes[strings.ToLower(path.Base(args[0]))] {
		// The script follows the runtime's options: Gemini CLI relaunches
		// itself as `node --max-old-space-size=N .../bin/gemini` (measured,
		// round 57). An option that runs other code first or instead
		// (-e, -r, --import) makes it no agent's process.
		i := 1
		for i < len(args) && strings.HasPrefix(args[i], "-") {
			if codeFlag(args[i]) {
				return ""
			}
			i++
		}
		if i == len(args) {
			return ""
		}
		script := strings.ToLower(args[i])
		if agents[path.Base(script)] {
			return path.Base(script)
		}
		for i, m := range scriptMarks {
			if strings.Contains(script, m) {
				return scriptAgents[i]
			}
		}
	}
	return ""
}

// scriptAgents name the agent of each of scriptMarks.
var scriptAgents = []string{"claude", "claude", "gemini", "codex", "copilot"}

var runtimes = map[string]bool{"node": true, "bun": true, "deno": true}

// codeFlag: a JavaScript runtime's option that evaluates or preloads code
// other than the script (node -e/-p/-r/--import/--loader, bun --preload,
// deno eval is a subcommand, not an option).
func codeFlag(a string) bool {
	name, _, _ := strings.Cut(a, "=")
	switch name {
	case "-e", "--eval", "-p", "--print", "-r", "--require", "--import", "--loader", "--experimental-loader", "-i", "--interactive", "--preload":
		return true
	}
	return false
}

// Names renders the chain for a record: "bash < sshd < systemd".
func Names(chain []Process) string {
	if len(chain) == 0 {
		return "none seen" // the top of its PID namespace (a sandbox's), or /proc unread
	}
	names := make([]string, 0, len(chain))
	for _, p := range chain {
		names = append(names, p.Name)
	}
	return strings.Join(names, " < ")
}

// adopters are the executable names of processes that adopt orphans
// (init systems, container inits, subreapers): a process re-parented to
// one hangs from nothing older of its own. systemd --user is a subreaper
// on Linux desktops; containerd-shim is comm's 15-byte cut of
// containerd-shim-runc-v2.
var adopters = map[string]bool{
	"systemd": true, "init": true, "launchd": true, "tini": true, "dumb-init": true, "catatonit": true,
	"docker-init": true, "s6-svscan": true, "runsvdir": true, "supervisord": true, "containerd-shim": true,
}

// Oldest returns the earliest start among p, the chain's process with p's
// key, and its ancestors up to the first one that adopts orphans (not
// counted), 0 when p is not in the chain, no start is known, or a hidden
// process (Process.Hidden) comes before an adopter. A process
// detached from what started it (setsid and a double fork) is adopted,
// so its Oldest is its own start or a later-made ancestor's.
func Oldest(chain []Process, p Process) uint64 { return oldest(chain, p, true) }

// OldestVisible is Oldest with a hidden process taken as the chain's end
// (its start read as unknown, nothing above it): what Oldest was before a
// hidden ancestor made it unknown, asked for when the reader cannot be
// trusted to see what the session's CLI saw (helper 348: a procfs with
// hidepid=2 of one's own, mounted by root in a mount namespace).
func OldestVisible(chain []Process, p Process) uint64 { return oldest(chain, p, false) }

func oldest(chain []Process, p Process, hiddenUnknown bool) uint64 {
	var oldest uint64
	in := false
	for _, q := range chain {
		self := !in && q.PID == p.PID && q.Start == p.Start
		if self {
			in = true
		}
		if !in {
			continue
		}
		if q.Hidden {
			// Something older may be above it (helper 345: hidepid=2
			// ended an honest login's chain at its own sshd).
			if hiddenUnknown {
				return 0
			}
			break
		}
		if Adopts(q) && !self {
			// (p itself adopts nothing it is asked about: a CLI whose
			// process is named init, an interpreter run through a link so
			// named, read as the adopter and its Oldest as unknown:
			// helper 344.)
			break
		}
		if q.Start != 0 && (oldest == 0 || q.Start < oldest) {
			oldest = q.Start
		}
	}
	return oldest
}

// Adopts reports whether p is named like a process that adopts orphans
// (Oldest).
func Adopts(p Process) bool { return adopters[strings.ToLower(p.Name)] }
