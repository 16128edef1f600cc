package session

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sessiongate/sessiongate/hookroute"
	"github.com/sessiongate/sessiongate/transcript"
)

// A tool call read from Claude Code's transcript meets a requirement only
// if it happened: the transcript is a file in the user's folder, and an
// agent with a shell can append a line to it by means its hook does not
// parse (a script that finds the file by itself). Claude Code sends each
// Bash, sub-agent (Agent, Task) and MCP call to sessiongate's PreToolUse
// hook before it runs, with the same tool_use_id the transcript records,
// and the hook keeps that id with the digest of the call's input
// (transcript.WitnessDigest: a Bash call's command line) as an event. So
// a call of a tool the project's hook config sends to the hook counts only
// when the hook kept its id with the same input: a forged line has a new
// id, or a real call's id with another command. Where the config does not
// send the tool (an install older than this rule), there is nothing to
// compare, and the call counts as before. Read, Grep, Glob (and LS,
// NotebookRead) are sent too since issue 25 item 4: a forged Read line met
// "MUST read docs/X" (docs/security.md); their hook only keeps the id and
// digest (agenthook: no policy work for a read). Codex's PreToolUse names a shell call by the
// rollout's call_id, so Codex's shell calls are witnessed the same way
// (.codex/hooks.json, TokenCodexCall).

// TokenAgentCall is the event the PreToolUse hook keeps for a witnessed
// call; its detail is "<tool_use_id> <tool> <input digest>" (the digest
// is missing from events of older hooks). TokenCodexCall is Codex's: its
// PreToolUse names a shell call by the rollout's call_id.
const (
	TokenAgentCall = "agent:claude:call"
	TokenCodexCall = "agent:codex:call"
	// TokenGeminiCall and TokenCopilotCall: their hooks name no call id,
	// so the detail's id is the hook's own pairing of the command line;
	// a witness is its digest, used up by one transcript line
	// (hookroute.CountedShell).
	TokenGeminiCall  = "agent:gemini:call"
	TokenCopilotCall = "agent:copilot:call"
)

// AgentToolCall keeps the id of a witnessed call Claude Code's PreToolUse
// hook saw, with the digest of its input (transcript.WitnessDigest; ""
// when unknown). timed also records the call's start (AgentToolStart) in
// the same transaction: a Bash call is both timed and witnessed, and the
// hook runs before every one of them.
func (e *Engine) AgentToolCall(ctx context.Context, sessionID, agent, toolID, tool, digest string, timed bool) error {
	if toolID == "" || len(toolID) > 200 || strings.ContainsAny(toolID, " \t\n") {
		return nil
	}
	witness := hookroute.WitnessedTool(tool) && agent == "claude" || tool == "Bash" && agent == "codex" || hookroute.CountedShell(agent, tool)
	if !witness && !timed {
		return nil
	}
	if len(digest) != 64 {
		digest = ""
	}
	now := e.now()
	return e.Store.Update(ctx, func(w Writer) error {
		if timed {
			if aw, ok := w.(AgentWriter); ok {
				if err := aw.PutToolStart(ctx, agent, toolID, now); err != nil {
					return err
				}
			}
		}
		if !witness {
			return nil
		}
		_, _, tok, _ := witnessSide(agent)
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: tok, Detail: truncate(strings.TrimSpace(toolID+" "+tool+" "+digest), 300), CreatedAt: now})
	})
}

// callWitness decides, for the calls of one agent's transcripts, whether
// each witnessed call was seen by the hook; it reads the hook config and
// the session's events once, and only when such a call comes.
type callWitness struct {
	e      *Engine
	ctx    context.Context
	s      *Session
	agent  string // claude, codex, gemini or copilot; no other agent's hook witnesses calls
	loaded bool
	config [][]byte                   // the project's hook config: the work tree's, the start commit's
	seen   map[string]map[string]bool // call ids the hook kept: the digests of their inputs
	// count is, for Gemini CLI and Copilot, how many calls the hook saw by
	// digest, and used how many of them the session's transcripts used up
	// (transcript.State.Witnessed, summed over them; passKey too).
	count, used map[string]int
	// observed is, for them, the exit statuses the post-tool hook observed
	// by command line, with how many runs gave each.
	observed map[string]map[int]int
	// evs is the session's evidence, read once per gate check by whoever
	// needs it first (evidence): observed above, the catch-up's finished
	// runs (transcript_catchup.go).
	evs    []Evidence
	evsErr error
	evsOK  bool
}

// evidence is the session's evidence, read once for the transcripts of
// one gate check.
func (cw *callWitness) evidence() ([]Evidence, error) {
	if !cw.evsOK {
		cw.evs, cw.evsErr = cw.e.Store.ListEvidence(cw.ctx, cw.s.ID)
		cw.evsOK = true
	}
	return cw.evs, cw.evsErr
}

// newCallWitness is the witness of agent's calls for s; list is the
// session's transcripts, whose witnesses used so far it sums.
func newCallWitness(ctx context.Context, e *Engine, s *Session, agent string, list []AgentTranscript) *callWitness {
	cw := &callWitness{e: e, ctx: ctx, s: s, agent: agent, used: map[string]int{}}
	for _, t := range list {
		if t.Agent == agent {
			for d, n := range t.State.Witnessed {
				cw.used[d] += n
			}
		}
	}
	return cw
}

// witnessSide is, for an agent, where its project hook config lives, the
// command prefix of sessiongate's hook in it, and the event that keeps a
// witnessed call; ok false for an agent whose hooks witness no calls.
func witnessSide(agent string) (config, prefix, token string, ok bool) {
	switch agent {
	case transcript.Claude:
		return ".claude/settings.json", "sessiongate agent-hook claude ", TokenAgentCall, true
	case transcript.Codex:
		return ".codex/hooks.json", "sessiongate agent-hook codex ", TokenCodexCall, true
	case transcript.Gemini:
		return ".gemini/settings.json", "sessiongate agent-hook gemini ", TokenGeminiCall, true
	case transcript.Copilot:
		return hookroute.CopilotHookFile, "sessiongate agent-hook copilot ", TokenCopilotCall, true
	}
	return "", "", "", false
}

// routed reports whether the project's hook config sends the agent's
// calls of tool to sessiongate's pre-tool hook.
func (cw *callWitness) routed(tool string) bool {
	_, prefix, _, _ := witnessSide(cw.agent)
	cw.load()
	return hookroute.Routed(cw.agent, cw.config, tool, prefix)
}

// unwitnessed says why c does not count ("" when it does). Gemini CLI's and
// Copilot's calls are decided by take.
func (cw *callWitness) unwitnessed(c transcript.Call) string {
	hookTool := c.Tool // the name the hook config's matcher sees
	switch {
	case cw.agent == transcript.Claude && hookroute.WitnessedTool(c.Tool):
	case cw.agent == transcript.Codex && hookroute.CodexShellTool(c.Tool):
		hookTool = "Bash"
	default:
		return ""
	}
	if !cw.routed(hookTool) {
		return ""
	}
	rel, _, _, _ := witnessSide(cw.agent)
	who := hookroute.AgentName(cw.agent)
	digests, seen := cw.seen[c.ID]
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

// take decides the shell lines of a Gemini CLI or Copilot transcript, in
// order: each uses up one witness of its command line the hook kept and no
// line used before, or does not count. Every shell line takes one, whether
// it meets a requirement or not, failed or not (a forged pass after a real
// failing run finds the witness used). It returns, by the index of calls,
// why a call does not count ("" when it does; the shell read
// transcript.Expand adds shares its run's), and records what it used in
// st.Witnessed.
func (cw *callWitness) take(calls []transcript.Call, st *transcript.State) []string {
	whys := make([]string, len(calls))
	if !hookroute.CountsShells(cw.agent) {
		return whys
	}
	var w map[string]int
	for i, c := range calls {
		if !hookroute.CountedShell(cw.agent, c.Tool) || c.Witness == "" {
			continue
		}
		if i > 0 && c.Kind == transcript.Read && calls[i-1].Kind == transcript.Run && calls[i-1].ID == c.ID && calls[i-1].Witness == c.Witness {
			whys[i] = whys[i-1] // the read of the run just decided
			continue
		}
		if !cw.routed(c.Tool) {
			continue
		}
		use := func(key string) {
			cw.used[key]++
			if w == nil {
				w = maps.Clone(st.Witnessed)
				if w == nil {
					w = map[string]int{}
				}
			}
			w[key]++
		}
		if why := cw.passObserved(c); why != "" {
			// Not the real run: its witness stays for the line that is.
			whys[i] = why
			continue
		}
		if cw.count[c.Witness] > cw.used[c.Witness] {
			use(c.Witness)
			if c.Kind == transcript.Run && c.Exit == 0 && cw.observed[strings.TrimSpace(c.Command)] != nil {
				use(passKey(c))
			}
			continue
		}
		rel, _, _, _ := witnessSide(cw.agent)
		what := c.Command
		if c.Kind == transcript.Read && len(c.Paths) > 0 && what == "" {
			what = c.Tool + " " + c.Paths[0]
		}
		whys[i] = fmt.Sprintf("%s's pre-tool hook, which the project's %s sends %s calls to, saw `%s` %d time(s), and the transcript's earlier lines used every one: its call %s is a transcript line no hook saw, not a call the agent made",
			hookroute.AgentName(cw.agent), rel, c.Tool, truncate(what, 80), cw.count[c.Witness], c.ID)
	}
	if w != nil {
		st.Witnessed = w
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
func (cw *callWitness) passObserved(c transcript.Call) string {
	if c.Kind != transcript.Run || c.Exit != 0 {
		return ""
	}
	exits := cw.observed[strings.TrimSpace(c.Command)] // as RecordObserved keeps it
	if exits == nil || exits[0] > cw.used[passKey(c)] {
		return ""
	}
	var saw []string
	for code, n := range exits {
		saw = append(saw, fmt.Sprintf("exit %d (%d time(s))", code, n))
	}
	sort.Strings(saw)
	return fmt.Sprintf("%s's post-tool hook observed `%s` %s, and the transcript's earlier lines used every pass: its call %s says exit 0, which no run the hook saw gave",
		hookroute.AgentName(cw.agent), truncate(c.Command, 80), strings.Join(saw, ", "), c.ID)
}

// loadObserved reads, for Gemini CLI and Copilot, the exit statuses the
// post-tool hook observed by command line.
func (cw *callWitness) loadObserved() {
	cw.observed = map[string]map[int]int{}
	evs, err := cw.evidence()
	if err != nil {
		return
	}
	for _, ev := range evs {
		if ev.Origin != OriginObserved || ev.Source != cw.agent || ev.ExitCode == nil || len(ev.Command) >= MaxCommandBytes {
			continue
		}
		if cw.observed[ev.Command] == nil {
			cw.observed[ev.Command] = map[int]int{}
		}
		cw.observed[ev.Command][*ev.ExitCode]++
	}
}

func (cw *callWitness) load() {
	if cw.loaded {
		return
	}
	cw.loaded = true
	rel, _, token, _ := witnessSide(cw.agent)
	if b, err := os.ReadFile(filepath.Join(cw.s.Worktree, filepath.FromSlash(rel))); err == nil {
		cw.config = append(cw.config, b)
	}
	if cw.agent == transcript.Copilot {
		// Copilot reads every .github/hooks/*.json.
		others, _ := filepath.Glob(filepath.Join(cw.s.Worktree, ".github", "hooks", "*.json"))
		for _, p := range others {
			if filepath.Base(p) == filepath.Base(rel) {
				continue
			}
			if b, err := os.ReadFile(p); err == nil {
				cw.config = append(cw.config, b)
			}
		}
	}
	if cw.e.OpenRepo != nil && cw.s.StartCommit != "" {
		if repo, err := cw.e.OpenRepo(cw.ctx, cw.s.Worktree); err == nil {
			if b, err := repo.ReadAt(cw.ctx, cw.s.StartCommit, rel); err == nil {
				cw.config = append(cw.config, b)
			}
		}
	}
	if hookroute.CountsShells(cw.agent) {
		cw.loadObserved()
	}
	cw.seen = map[string]map[string]bool{}
	cw.count = map[string]int{}
	evs, err := cw.e.Store.ListEvents(cw.ctx, cw.s.ID, 0, 0)
	if err != nil {
		// Nothing counts as seen: the calls are refused, and running them
		// again answers it; a store error must not pass a forged line.
		return
	}
	for _, ev := range evs {
		if ev.Token == token {
			f := strings.Fields(ev.Detail)
			if len(f) == 0 {
				continue
			}
			digest := ""
			if len(f) > 2 {
				digest = f[2]
			}
			if cw.seen[f[0]] == nil {
				cw.seen[f[0]] = map[string]bool{}
			}
			cw.seen[f[0]][digest] = true
			if digest != "" {
				cw.count[digest]++
			}
		}
	}
}

// reusedKey is what a Claude Code or Codex call that failed leaves in
// transcript.State.Witnessed: its id, which no later line may use again.
func reusedKey(id string) string { return "failed:" + id }

// reused decides, for Claude Code's and Codex's calls, whether a line
// reuses the id of an earlier call of the session's transcript that failed
// (round 22): the witness is the id with the input's digest, so a copy of
// a real failed call's tool_use, appended with a result that passed, was a
// second call the hook "saw", and a failed sub-agent run, MCP call or read
// met its requirement. The agent CLIs never write an id twice. A copy of a
// call that passed gains nothing and is left alone. It returns, by the
// index of calls, why a call does not count ("" when it does), and records
// the failed ids in st.Witnessed.
func (cw *callWitness) reused(calls []transcript.Call, st *transcript.State) []string {
	whys := make([]string, len(calls))
	if cw.agent != transcript.Claude && cw.agent != transcript.Codex {
		return whys
	}
	var w map[string]int
	failed := func(id string) bool { return st.Witnessed[reusedKey(id)] > 0 || w[reusedKey(id)] > 0 }
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
				hookroute.AgentName(cw.agent), c.ID, c.Tool)
			continue
		}
		if c.Failed || c.Kind == transcript.Run && c.Exit != 0 {
			if w == nil {
				w = maps.Clone(st.Witnessed)
				if w == nil {
					w = map[string]int{}
				}
			}
			w[reusedKey(c.ID)]++
		}
	}
	if w != nil {
		st.Witnessed = w
	}
	return whys
}
