// Package callwitness decides whether a tool call read from an agent's
// transcript is one the agent's pre-tool hook saw. The transcript is a file
// in the user's folder, and an agent with a shell can append a line to it
// by means its hook does not parse; the hook keeps each witnessed call's
// id (Claude Code, Codex) or command line's digest (Gemini CLI, Copilot),
// so a line no hook saw, a line that borrows a real call's id for another
// input, a second line under a failed call's id, or a pass the post-tool
// hook never observed is not a call the agent made.
//
// It needs no session: the engine (session/witness.go) reads the project's
// hook config, the hook's events and the observed runs, and hands them to
// a Witness through its Load function, called once, on first need.
package callwitness

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/sessiongate/sessiongate/hookroute"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/transcript"
)

// Side is, for an agent, where its project hook config lives and the
// command prefix of sessiongate's hook in it; ok false for an agent whose
// hooks witness no calls.
func Side(agent string) (config, prefix string, ok bool) {
	switch agent {
	case transcript.Claude:
		return ".claude/settings.json", "sessiongate agent-hook claude ", true
	case transcript.Codex:
		return ".codex/hooks.json", "sessiongate agent-hook codex ", true
	case transcript.Gemini:
		return ".gemini/settings.json", "sessiongate agent-hook gemini ", true
	case transcript.Copilot:
		return hookroute.CopilotHookFile, "sessiongate agent-hook copilot ", true
	}
	return "", "", false
}

// Witness decides, for the calls of one agent's transcripts, whether each
// witnessed call was seen by the hook.
type Witness struct {
	Agent string // claude, codex, gemini or copilot; no other agent's hook witnesses calls
	// Load fills Config, and through Saw and Observe what the hooks kept;
	// called once, when the first call that needs it comes.
	Load   func(w *Witness)
	loaded bool
	// Config is the project's hook config (the work tree's, the start
	// commit's: either routing a tool counts).
	Config [][]byte
	seen   map[string]map[string]bool // call ids the hook kept: the digests of their inputs
	// count is, for Gemini CLI and Copilot, how many calls the hook saw by
	// digest, and used how many of them the session's transcripts used up
	// (transcript.State.Witnessed, summed over them; passKey too).
	count, used map[string]int
	// observed is, for them, the exit statuses the post-tool hook observed
	// by command line, with how many runs gave each.
	observed map[string]map[int]int
}

// New is agent's witness; used is the Witnessed state of each of the
// session's transcripts of that agent, whose witnesses used so far it sums.
func New(agent string, used []map[string]int, load func(w *Witness)) *Witness {
	w := &Witness{Agent: agent, Load: load, used: map[string]int{}, seen: map[string]map[string]bool{}, count: map[string]int{}, observed: map[string]map[int]int{}}
	for _, m := range used {
		for d, n := range m {
			w.used[d] += n
		}
	}
	return w
}

// Saw records one event the pre-tool hook kept: its detail is
// "<call id> <tool> <input digest>" (no digest from older hooks).
func (w *Witness) Saw(detail string) {
	f := strings.Fields(detail)
	if len(f) == 0 {
		return
	}
	digest := ""
	if len(f) > 2 {
		digest = f[2]
	}
	if w.seen[f[0]] == nil {
		w.seen[f[0]] = map[string]bool{}
	}
	w.seen[f[0]][digest] = true
	if digest != "" {
		w.count[digest]++
	}
}

// Observe records one run of command the post-tool hook observed, with
// its exit status (Gemini CLI, Copilot).
func (w *Witness) Observe(command string, exit int) {
	if w.observed[command] == nil {
		w.observed[command] = map[int]int{}
	}
	w.observed[command][exit]++
}

func (w *Witness) load() {
	if w.loaded {
		return
	}
	w.loaded = true
	if w.Load != nil {
		w.Load(w)
	}
}

// Routed reports whether the project's hook config sends the agent's
// calls of tool to sessiongate's pre-tool hook.
func (w *Witness) Routed(tool string) bool {
	_, prefix, _ := Side(w.Agent)
	w.load()
	return hookroute.Routed(w.Agent, w.Config, tool, prefix)
}

// Unwitnessed says why c does not count ("" when it does). Gemini CLI's
// and Copilot's calls are decided by Take.
func (w *Witness) Unwitnessed(c transcript.Call) string {
	hookTool := c.Tool // the name the hook config's matcher sees
	switch {
	case w.Agent == transcript.Claude && hookroute.WitnessedTool(c.Tool):
	case w.Agent == transcript.Codex && hookroute.CodexShellTool(c.Tool):
		hookTool = "Bash"
	default:
		return ""
	}
	if !w.Routed(hookTool) {
		return ""
	}
	rel, _, _ := Side(w.Agent)
	who := hookroute.AgentName(w.Agent)
	digests, seen := w.seen[c.ID]
	if !seen {
		return who + "'s PreToolUse hook, which the project's " + rel + " sends " + hookTool +
			" calls to, never saw call " + c.ID + ": a transcript line no hook saw is not a call the agent made"
	}
	// An event of an older hook keeps no digest: the id is all there is.
	if c.Witness == "" || digests[""] || digests[c.Witness] {
		return ""
	}
	what := "its input"
	if c.Command != "" {
		what = "its command `" + truncate(c.Command, 80) + "`"
	}
	return who + "'s PreToolUse hook saw call " + c.ID + " (" + c.Tool + ") with other input than the transcript's line gives it (" +
		what + "): a line that borrows a real call's id for another call is not a call the agent made"
}

// Take decides the shell lines of a Gemini CLI or Copilot transcript, in
// order: each uses up one witness of its command line the hook kept and no
// line used before, or does not count. Every shell line takes one, whether
// it meets a requirement or not, failed or not (a forged pass after a real
// failing run finds the witness used). It returns, by the index of calls,
// why a call does not count ("" when it does; the shell read
// transcript.Expand adds shares its run's), and records what it used in
// st.Witnessed.
func (w *Witness) Take(calls []transcript.Call, st *transcript.State) []string {
	whys := make([]string, len(calls))
	if !hookroute.CountsShells(w.Agent) {
		return whys
	}
	var took map[string]int
	for i, c := range calls {
		if !hookroute.CountedShell(w.Agent, c.Tool) || c.Witness == "" {
			continue
		}
		if i > 0 && c.Kind == transcript.Read && calls[i-1].Kind == transcript.Run && calls[i-1].ID == c.ID && calls[i-1].Witness == c.Witness {
			whys[i] = whys[i-1] // the read of the run just decided
			continue
		}
		if !w.Routed(c.Tool) {
			continue
		}
		use := func(key string) {
			w.used[key]++
			if took == nil {
				took = maps.Clone(st.Witnessed)
				if took == nil {
					took = map[string]int{}
				}
			}
			took[key]++
		}
		if why := w.passObserved(c); why != "" {
			// Not the real run: its witness stays for the line that is.
			whys[i] = why
			continue
		}
		if w.count[c.Witness] > w.used[c.Witness] {
			use(c.Witness)
			if c.Kind == transcript.Run && c.Exit == 0 && w.observed[strings.TrimSpace(c.Command)] != nil {
				use(passKey(c))
			}
			continue
		}
		rel, _, _ := Side(w.Agent)
		what := c.Command
		if c.Kind == transcript.Read && len(c.Paths) > 0 && what == "" {
			what = c.Tool + " " + c.Paths[0]
		}
		whys[i] = fmt.Sprintf("%s's pre-tool hook, which the project's %s sends %s calls to, saw `%s` %d time(s), and the transcript's earlier lines used every one: its call %s is a transcript line no hook saw, not a call the agent made",
			hookroute.AgentName(w.Agent), rel, c.Tool, truncate(what, 80), w.count[c.Witness], c.ID)
	}
	if took != nil {
		st.Witnessed = took
	}
	return whys
}

// passKey is what an exit 0 line of a command uses up of the post-tool
// hook's observed passes of it, in transcript.State.Witnessed.
func passKey(c transcript.Call) string { return "pass:" + c.Witness }

// passObserved says why a shell line that says it exited 0 does not count
// ("" when it does): the post-tool hook observed runs of the same command
// line, and none of their passes is left unused. A line the agent wrote
// before the real run took that run's witness; the status the hook saw,
// which the agent cannot write, is the real one. Without observed runs of
// the command (observe off, a line longer than the observed command keeps)
// there is nothing to compare.
func (w *Witness) passObserved(c transcript.Call) string {
	if c.Kind != transcript.Run || c.Exit != 0 {
		return ""
	}
	exits := w.observed[strings.TrimSpace(c.Command)] // as the engine keeps an observed run's line
	if exits == nil || exits[0] > w.used[passKey(c)] {
		return ""
	}
	var saw []string
	for code, n := range exits {
		saw = append(saw, fmt.Sprintf("exit %d (%d time(s))", code, n))
	}
	sort.Strings(saw)
	return fmt.Sprintf("%s's post-tool hook observed `%s` %s, and the transcript's earlier lines used every pass: its call %s says exit 0, which no run the hook saw gave",
		hookroute.AgentName(w.Agent), truncate(c.Command, 80), strings.Join(saw, ", "), c.ID)
}

// reusedKey is what a Claude Code or Codex call that failed leaves in
// transcript.State.Witnessed: its id, which no later line may use again.
func reusedKey(id string) string { return "failed:" + id }

// Reused decides, for Claude Code's and Codex's calls, whether a line
// reuses the id of an earlier call of the session's transcript that failed
// (round 22): the witness is the id with the input's digest, so a copy of
// a real failed call's tool_use, appended with a result that passed, was a
// second call the hook "saw", and a failed sub-agent run, MCP call or read
// met its requirement. The agent CLIs never write an id twice. A copy of a
// call that passed gains nothing and is left alone. It returns, by the
// index of calls, why a call does not count ("" when it does), and records
// the failed ids in st.Witnessed.
func (w *Witness) Reused(calls []transcript.Call, st *transcript.State) []string {
	whys := make([]string, len(calls))
	if w.Agent != transcript.Claude && w.Agent != transcript.Codex {
		return whys
	}
	var failedNow map[string]int
	failed := func(id string) bool { return st.Witnessed[reusedKey(id)] > 0 || failedNow[reusedKey(id)] > 0 }
	for i, c := range calls {
		if c.ID == "" {
			continue
		}
		if i > 0 && c.Kind == transcript.Read && calls[i-1].Kind == transcript.Run && calls[i-1].ID == c.ID {
			whys[i] = whys[i-1] // the shell read transcript.Expand adds to its run
			continue
		}
		if failed(c.ID) {
			whys[i] = fmt.Sprintf("%s's PreToolUse hook saw call %s (%s) once, and the transcript's earlier line of it failed: a second line under a real call's id (a copy with a result that passed) is not a call the agent made",
				hookroute.AgentName(w.Agent), c.ID, c.Tool)
			continue
		}
		if c.Failed || c.Kind == transcript.Run && c.Exit != 0 {
			if failedNow == nil {
				failedNow = maps.Clone(st.Witnessed)
				if failedNow == nil {
					failedNow = map[string]int{}
				}
			}
			failedNow[reusedKey(c.ID)]++
		}
	}
	if failedNow != nil {
		st.Witnessed = failedNow
	}
	return whys
}

func truncate(s string, n int) string { return shorten.Bytes(s, n, "...") }
