package hooks

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/tailscale/hujson"
)

// AgentHookCommand starts every command sessiongate writes into an agent's
// hook config. The command runs `sessiongate` from PATH: a committed config
// must not carry a machine-local path (doctor says when it is not on PATH).
const AgentHookCommand = "sessiongate agent-hook "

// AgentConfig is one agent's project-level hook configuration file.
type AgentConfig struct {
	Name string // claude, codex, copilot, cursor, gemini
	Path string // relative to the work tree root, slash-separated
	// Events are the events sessiongate hooks, in the order written.
	Events []AgentEvent
	// Grouped: Claude Code and Gemini CLI nest command hooks in matcher
	// groups ({matcher, hooks: [...]}); Cursor lists them directly.
	Grouped bool
	// Version is the top-level "version" the file must have (Cursor: 1).
	Version int
	// TimeoutKey and Timeout bound each hook run in the agent's unit
	// (Claude Code: seconds; Gemini CLI: milliseconds). "" writes none.
	TimeoutKey string
	Timeout    int
	// Shells: the hook carries a command per shell ("bash" and
	// "powershell", Copilot) instead of one "command", with its matcher
	// beside them (Copilot's flat hooks take a matcher too).
	Shells bool
	// LocalPath is the agent's machine-local, git-ignored project config
	// (Claude Code: .claude/settings.local.json), "" when the agent has
	// none. install writes the same hooks there calling the binary by its
	// absolute path, so a `sessiongate` the agent puts on PATH does not
	// answer them; the committed file stays path-free (LocalDefers).
	LocalPath string
	// bin is the absolute binary the hook commands run ("": by name).
	bin string
}

// AgentEvent is one event sessiongate hooks, with the agent's tool matcher.
type AgentEvent struct {
	Name    string
	Matcher string
}

// GeminiHookTimeoutMS is the limit install gives each Gemini CLI hook:
// 10 minutes. Its hooks judge hooks-off commits as a live pre-commit
// would, command gates included (command_timeout, 2 min by default,
// each); with 10 s Gemini CLI ended the judge of an honest second commit
// on a loaded machine (SIGTERM), and reconciliation charged it a BYPASS.
// A hook's decision keeps its own short limit (agent_hooks.timeout).
const GeminiHookTimeoutMS = 600_000

// AgentConfigs are the agents `install --agent` knows.
var AgentConfigs = []AgentConfig{
	{Name: "claude", Path: ".claude/settings.json", LocalPath: ".claude/settings.local.json", Grouped: true, TimeoutKey: "timeout", Timeout: 10, Events: []AgentEvent{
		{Name: "SessionStart"},
		{Name: "UserPromptSubmit"},
		// Agent and Task (sub-agent runs) and MCP calls are sent too: a
		// transcript call of them counts only if this hook saw it, so a
		// line the agent appends to its transcript proves nothing. Anchored:
		// Claude Code reads the matcher as an unanchored regex, and TaskCreate
		// and the like need no hook process. Reads (Read, Grep, Glob, LS,
		// NotebookRead) too: a forged Read line met a read requirement
		// (issue 25 item 4); their hook only keeps the id and digest.
		{Name: "PreToolUse", Matcher: "Write|Edit|MultiEdit|NotebookEdit|Bash|^Agent$|^Task$|mcp__.*|^Read$|^Grep$|^Glob$|^LS$|^NotebookRead$"},
		// The write tools too (round 18): PostToolUse carries the input as
		// run, so a rewritten file_path (judged for notes.md, run on the
		// protocol) is caught; anchored, so TodoWrite spawns nothing.
		{Name: "PostToolUse", Matcher: "Bash|^Write$|^Edit$|^MultiEdit$|^NotebookEdit$"},
		// PostToolUseFailure for the same tools (round 19): a failed Edit
		// reports there, not in PostToolUse, and a judged call that reports
		// in neither is a TOOL_RESULT_MISSING at Stop. And for sub-agent and
		// MCP calls (round 25): their failure is kept (agent:result:failed)
		// and outranks a transcript line rewritten to a pass; Claude Code
		// 2.1.330 sends it for an MCP isError result (measured,
		// TestClaudeMCPFailureMeasured). It fires only on a failure, so a
		// passing call spawns nothing more.
		{Name: "PostToolUseFailure", Matcher: "Bash|^Write$|^Edit$|^MultiEdit$|^NotebookEdit$|^Agent$|^Task$|mcp__.*"},
		{Name: "Stop"},
		{Name: "SessionEnd"},
	}},
	// Codex CLI: Claude Code's shape. Shell calls are "Bash", file writes
	// "apply_patch"; reads have no tool of their own (they are shell calls),
	// so nothing is spawned for a tool that only reads but Bash.
	{Name: "codex", Path: ".codex/hooks.json", Grouped: true, TimeoutKey: "timeout", Timeout: 10, Events: []AgentEvent{
		{Name: "SessionStart"},
		{Name: "UserPromptSubmit"},
		{Name: "PreToolUse", Matcher: "Bash|apply_patch|mcp__.*"},
		{Name: "PostToolUse", Matcher: "Bash"},
		{Name: "Stop"},
		{Name: "SessionEnd"},
	}},
	// Copilot CLI and GitHub's cloud agent: version 1, camelCase events,
	// a bash and a powershell command per hook. The matcher is a regex
	// that must match the whole tool name; searches (grep, glob) spawn
	// nothing, view does (its witness: a forged view line of events.jsonl
	// met "read docs/X", issue 25). Copilot's own tools use underscores; MCP tools carry their
	// server's name before a hyphen ("github-mcp-server-create_file"), so
	// they are sent to the hook like Claude Code's mcp__ tools.
	// Copilot reads every .github/hooks/*.json: a git-ignored one is its
	// machine-local config (a shim on PATH answered every hook before,
	// TestCopilotShimOnPathDoesNotAnswerHooks).
	{Name: "copilot", Path: ".github/hooks/sessiongate.json", LocalPath: ".github/hooks/sessiongate.local.json", Version: 1, Shells: true, TimeoutKey: "timeoutSec", Timeout: 10, Events: []AgentEvent{
		{Name: "sessionStart"},
		{Name: "userPromptSubmitted"},
		{Name: "preToolUse", Matcher: "bash|powershell|write_bash|write_powershell|create|edit|str_replace_editor|apply_patch|view|.+-.+|.*__.*"},
		// The write tools too (round 19): a post pairs with its preToolUse
		// by tool and arguments (no call id), so a rewritten path shows.
		{Name: "postToolUse", Matcher: "bash|powershell|create|edit|str_replace_editor|apply_patch"},
		{Name: "postToolUseFailure", Matcher: "bash|powershell|create|edit|str_replace_editor|apply_patch"},
		{Name: "agentStop"},
		{Name: "sessionEnd"},
		{Name: "errorOccurred"},
	}},
	{Name: "cursor", Path: ".cursor/hooks.json", Version: 1, Events: []AgentEvent{
		{Name: "sessionStart"},
		{Name: "beforeSubmitPrompt"},
		{Name: "preToolUse"},
		{Name: "beforeShellExecution"},
		{Name: "afterShellExecution"},
		{Name: "stop"},
		{Name: "sessionEnd"},
	}},
	// Gemini CLI runs its shell with git's hooks off, so its hooks judge
	// the commits a call made, command gates and all (agenthook
	// hooksoff.go): GeminiHookTimeoutMS, not the 10 s the others get.
	{Name: "gemini", Path: ".gemini/settings.json", Grouped: true, TimeoutKey: "timeout", Timeout: GeminiHookTimeoutMS, Events: []AgentEvent{
		{Name: "SessionStart"},
		{Name: "BeforeAgent"},
		// read_file too: a forged read_file line of the chat recording met
		// a read requirement (issue 25); its hook only keeps the witness.
		{Name: "BeforeTool", Matcher: "write_file|replace|run_shell_command|mcp_.*|read_file"},
		{Name: "AfterTool", Matcher: "run_shell_command"},
		{Name: "AfterAgent"},
		{Name: "SessionEnd"},
	}},
}

// ParseAgents reads a comma-separated list of agent names.
func ParseAgents(names []string) ([]AgentConfig, error) {
	var out []AgentConfig
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" {
			continue
		}
		found := false
		for _, c := range AgentConfigs {
			if c.Name == n {
				out = append(out, c)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown agent %q (want claude, codex, copilot, cursor or gemini)", n)
		}
	}
	return out, nil
}

// command is the hook command of one event: by name, or by the absolute
// path in a machine-local config.
func (c AgentConfig) command(event string) string {
	if c.bin != "" {
		return shellWord(c.bin) + " agent-hook " + c.Name + " " + event
	}
	return AgentHookCommand + c.Name + " " + event
}

// local is c's machine-local config calling bin by its absolute path.
func (c AgentConfig) local(bin string) AgentConfig {
	l := c
	l.Path, l.LocalPath, l.bin = c.LocalPath, "", bin
	return l
}

// shellWord quotes an absolute path for sh when it holds more than
// letters, digits and /._+-. install refuses a path with a quote in it
// (localBinaryOK), so single quotes always suffice.
func shellWord(p string) string {
	if strings.Trim(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._+-") == "" {
		return p
	}
	return "'" + p + "'"
}

// LocalCommandBinary returns the absolute binary of a hook command that
// install writes into a machine-local config ("'/abs/sessiongate'
// agent-hook claude Stop"), and whether cmd is one.
func LocalCommandBinary(cmd string) (string, bool) {
	cmd = strings.TrimSpace(cmd)
	var bin, rest string
	if strings.HasPrefix(cmd, "'") {
		end := strings.IndexByte(cmd[1:], '\'')
		if end < 0 {
			return "", false
		}
		bin, rest = cmd[1:1+end], cmd[2+end:]
	} else {
		var ok bool
		if bin, rest, ok = strings.Cut(cmd, " "); !ok {
			return "", false
		}
		rest = " " + rest
	}
	if !filepath.IsAbs(bin) || !strings.HasPrefix(rest, " agent-hook ") {
		return "", false
	}
	return bin, true
}

// isOurCommand: a hook command install writes, by name or by path.
func isOurCommand(cmd string) bool {
	if strings.HasPrefix(strings.TrimSpace(cmd), AgentHookCommand) {
		return true
	}
	_, ok := LocalCommandBinary(cmd)
	return ok
}

// hookJSON is one command hook as written, fields in the agents' order.
type hookJSON struct {
	Type    string `json:"type,omitempty"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

// shellsHookJSON is one Copilot hook: a command per shell.
type shellsHookJSON struct {
	Type       string `json:"type"`
	Matcher    string `json:"matcher,omitempty"`
	Bash       string `json:"bash"`
	PowerShell string `json:"powershell"`
	TimeoutSec int    `json:"timeoutSec,omitempty"`
}

// groupJSON is a matcher group (Claude Code, Gemini CLI).
type groupJSON struct {
	Matcher string     `json:"matcher,omitempty"`
	Hooks   []hookJSON `json:"hooks"`
}

// entry is what sessiongate adds to the event's array: a matcher group
// holding the command hook, or the hook itself.
func (c AgentConfig) entry(ev AgentEvent) any {
	if c.Shells {
		// The same command line runs in both shells: `sessiongate` is
		// found on PATH by bash and by PowerShell alike.
		return shellsHookJSON{Type: "command", Matcher: ev.Matcher, Bash: c.command(ev.Name), PowerShell: c.command(ev.Name), TimeoutSec: c.Timeout}
	}
	h := hookJSON{Command: c.command(ev.Name)}
	if c.TimeoutKey != "" {
		h.Timeout = c.Timeout
	}
	if !c.Grouped {
		return h
	}
	h.Type = "command"
	return groupJSON{Matcher: ev.Matcher, Hooks: []hookJSON{h}}
}

// agentPlan is the new content of one agent config, decided before any
// file is written.
type agentPlan struct {
	cfg     AgentConfig
	path    string
	exists  bool
	mode    fs.FileMode
	out     []byte // nil: unchanged
	remove  bool   // uninstall emptied a file
	changes int
}

// InstallAgents merges sessiongate's hooks into each agent's config under
// root. Every file is read and merged first: one that cannot be parsed
// (or has an unexpected shape) refuses the whole install with the reason,
// and nothing is written.
func InstallAgents(root string, agents []AgentConfig) ([]Change, error) {
	plans, err := planAgents(root, agents, true, "")
	if err != nil {
		return nil, err
	}
	t := &fileTxn{}
	chs, err := applyAgentPlans(t, plans, "install")
	if err != nil {
		if rerr := t.rollback(); rerr != nil {
			err = errors.Join(err, fmt.Errorf("put back: %w", rerr))
		}
		return nil, err
	}
	return chs, nil
}

// planAgents plans each agent's committed config and, when bin is set (or
// on uninstall), its machine-local one (LocalPath) calling bin by path.
func planAgents(root string, agents []AgentConfig, install bool, bin string) ([]agentPlan, error) {
	var plans []agentPlan
	for _, c := range agents {
		cfgs := []AgentConfig{c}
		if c.LocalPath != "" && (bin != "" || !install) {
			if install && strings.ContainsAny(bin, "'\n") {
				return nil, fmt.Errorf("install --agent %s: the binary path %q holds a quote or a line break; %s cannot call it: move the binary", c.Name, bin, c.LocalPath)
			}
			cfgs = append(cfgs, c.local(cmp.Or(bin, "/")))
		}
		for _, c := range cfgs {
			p, err := planAgent(root, c, install)
			if err != nil {
				return nil, err
			}
			plans = append(plans, p)
		}
	}
	return plans, nil
}

// UninstallAgents removes exactly sessiongate's hooks from each agent's
// config (every hook whose command starts with AgentHookCommand, and the
// matcher groups and event keys that held only those). A file left with
// nothing but an empty object is removed. All or nothing, like install.
func UninstallAgents(ctx context.Context, dir string, agents []AgentConfig) (*Report, error) {
	loc, err := locateHooks(ctx, dir)
	if err != nil {
		return nil, err
	}
	rep := &Report{HooksDir: loc.Dir}
	plans, err := planAgents(loc.Root, agents, false, "")
	if err != nil {
		return nil, err
	}
	t := &fileTxn{}
	chs, err := applyAgentPlans(t, plans, "uninstall")
	if err != nil {
		if rerr := t.rollback(); rerr != nil {
			err = errors.Join(err, fmt.Errorf("put back: %w", rerr))
		}
		return rep, err
	}
	rep.Changes = append(rep.Changes, chs...)
	return rep, nil
}

func applyAgentPlans(t *fileTxn, plans []agentPlan, verb string) ([]Change, error) {
	var fps []filePlan
	for _, p := range plans {
		fp := filePlan{path: p.path, exists: p.exists, mode: p.mode, out: p.out, remove: p.remove, action: "unchanged"}
		switch {
		case p.remove:
			fp.action, fp.note = "removed", "held only sessiongate's "+p.cfg.Name+" hooks"
		case p.out != nil:
			fp.action, fp.note = "updated", fmt.Sprintf("%d %s hooks", p.changes, p.cfg.Name)
			if !p.exists {
				fp.action = "wrote"
			}
			if verb == "uninstall" {
				fp.note = fmt.Sprintf("removed %d sessiongate %s hooks", p.changes, p.cfg.Name)
			}
		}
		fps = append(fps, fp)
	}
	chs, err := applyFilePlans(t, fps)
	if err != nil {
		return chs, fmt.Errorf("%s --agent: %w", verb, err)
	}
	return chs, nil
}

// planAgent reads one config and computes its merged (install) or cleaned
// (uninstall) content.
func planAgent(root string, c AgentConfig, install bool) (agentPlan, error) {
	verb := "install"
	if !install {
		verb = "uninstall"
	}
	p := agentPlan{cfg: c, path: filepath.Join(root, filepath.FromSlash(c.Path)), mode: 0o644}
	b, err := os.ReadFile(p.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if !install {
			return p, nil
		}
		b = []byte("{}\n")
	case err != nil:
		return p, fmt.Errorf("%s --agent %s: read %s: %w", verb, c.Name, p.path, err)
	default:
		p.exists = true
		if st, err := os.Stat(p.path); err == nil {
			p.mode = st.Mode().Perm()
		}
	}
	refuse := func(why string) error {
		return fmt.Errorf("%s --agent %s: %s %s; nothing was changed (fix or move the file, then run it again)", verb, c.Name, p.path, why)
	}
	v, err := hujson.Parse(b)
	if err != nil {
		return p, refuse("cannot be parsed: " + err.Error())
	}
	top, ok := v.Value.(*hujson.Object)
	if !ok {
		return p, refuse("is not a JSON object at the top level")
	}
	unit := indentUnit(b)
	if c.Version != 0 {
		if ver := jsonMember(top, "version"); ver != nil {
			lit, ok := ver.Value.(hujson.Literal)
			if !ok || lit.Kind() != '0' || lit.Int() != int64(c.Version) {
				return p, refuse(fmt.Sprintf("has \"version\": %s; sessiongate writes version %d hooks", strings.TrimSpace(ver.String()), c.Version))
			}
		} else if install {
			addMember(top, "version", mustValue(c.Version, "", unit), unit, "")
		}
	}
	hooksV := jsonMember(top, "hooks")
	if hooksV == nil && !install {
		return p, nil
	}
	if hooksV == nil {
		addMember(top, "hooks", mustValue(map[string]any{}, "", unit), unit, "")
		hooksV = jsonMember(top, "hooks")
	}
	hooksObj, ok := hooksV.Value.(*hujson.Object)
	if !ok {
		return p, refuse("has \"hooks\" that is not an object")
	}
	hooksIndent := unit
	if n := len(top.Members); n > 0 {
		hooksIndent = lineIndent(top.Members[0].Name.BeforeExtra, unit)
	}
	evIndent := hooksIndent + unit
	if len(hooksObj.Members) > 0 {
		evIndent = lineIndent(hooksObj.Members[0].Name.BeforeExtra, evIndent)
	}
	// Check the shape of every event array sessiongate touches first.
	for _, ev := range c.Events {
		if arrV := jsonMember(hooksObj, ev.Name); arrV != nil {
			if _, ok := arrV.Value.(*hujson.Array); !ok {
				return p, refuse(fmt.Sprintf("has hooks.%s that is not an array", ev.Name))
			}
		}
	}
	if install {
		for _, ev := range c.Events {
			want := c.entry(ev)
			arrV := jsonMember(hooksObj, ev.Name)
			if arrV == nil {
				addMember(hooksObj, ev.Name, mustValue([]any{}, evIndent, unit), unit, hooksIndent)
				arrV = jsonMember(hooksObj, ev.Name)
			}
			arr := arrV.Value.(*hujson.Array)
			i, exact := findOurs(arr, c, ev.Name)
			switch {
			case exact:
				continue
			case i >= 0:
				// Ours, but older (another matcher or timeout): replace it
				// where it is.
				old := arr.Elements[i]
				nv := mustValue(want, lineIndent(old.BeforeExtra, evIndent+unit), unit)
				nv.BeforeExtra, nv.AfterExtra = old.BeforeExtra, old.AfterExtra
				arr.Elements[i] = nv
			default:
				appendElement(arr, want, unit, evIndent)
			}
			p.changes++
		}
	} else {
		for _, ev := range c.Events {
			arrV := jsonMember(hooksObj, ev.Name)
			if arrV == nil {
				continue
			}
			arr := arrV.Value.(*hujson.Array)
			n := removeOurs(arr, c)
			if n == 0 {
				continue
			}
			p.changes += n
			if len(arr.Elements) == 0 {
				removeMember(hooksObj, ev.Name)
			}
		}
		if len(hooksObj.Members) == 0 && !hasComment(hooksObj.AfterExtra) {
			removeMember(top, "hooks")
		}
	}
	if p.changes == 0 {
		return p, nil
	}
	v.UpdateOffsets()
	out := v.Pack()
	if !install && onlyLeftovers(top, c) && !bytes.Contains(out, []byte("//")) && !bytes.Contains(out, []byte("/*")) {
		p.remove = true
		return p, nil
	}
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	if _, err := hujson.Parse(out); err != nil {
		return p, fmt.Errorf("%s --agent %s: the merged %s does not parse (%v); nothing was changed: please report this", verb, c.Name, p.path, err)
	}
	p.out = out
	return p, nil
}

// onlyLeftovers reports whether an uninstalled config holds nothing but
// what install adds to an empty file (Cursor's version).
func onlyLeftovers(top *hujson.Object, c AgentConfig) bool {
	for _, m := range top.Members {
		if m.Name.Value.(hujson.Literal).String() == "version" && c.Version != 0 {
			continue
		}
		return false
	}
	return true
}

// isOurs reports whether a hook object runs sessiongate's agent hook.
func isOurs(h *hujson.Value) bool {
	obj, ok := h.Value.(*hujson.Object)
	if !ok {
		return false
	}
	// Copilot's hooks carry "bash" and "powershell" instead of "command".
	for _, k := range []string{"command", "bash", "powershell"} {
		cmd := jsonMember(obj, k)
		if cmd == nil {
			continue
		}
		lit, ok := cmd.Value.(hujson.Literal)
		if ok && lit.Kind() == '"' && isOurCommand(lit.String()) {
			return true
		}
	}
	return false
}

// ourHooks returns the hook objects inside one element of an event array:
// the element itself (Cursor) or its group's "hooks" (Claude, Gemini).
func ourHooks(el *hujson.Value, c AgentConfig) (inner *hujson.Array, all, ours int) {
	if !c.Grouped {
		if isOurs(el) {
			return nil, 1, 1
		}
		return nil, 1, 0
	}
	obj, ok := el.Value.(*hujson.Object)
	if !ok {
		return nil, 0, 0
	}
	hv := jsonMember(obj, "hooks")
	if hv == nil {
		return nil, 0, 0
	}
	arr, ok := hv.Value.(*hujson.Array)
	if !ok {
		return nil, 0, 0
	}
	for i := range arr.Elements {
		all++
		if isOurs(&arr.Elements[i]) {
			ours++
		}
	}
	return arr, all, ours
}

// findOurs returns the index of the element that holds sessiongate's hook
// for event, and whether it is exactly what install would write.
func findOurs(arr *hujson.Array, c AgentConfig, event string) (int, bool) {
	var want any
	for _, ev := range c.Events {
		if ev.Name == event {
			want = c.entry(ev)
		}
	}
	wb, _ := json.Marshal(want)
	for i := range arr.Elements {
		el := &arr.Elements[i]
		_, all, ours := ourHooks(el, c)
		if ours == 0 {
			continue
		}
		if all != ours {
			// The user put our hook in a group of theirs: leave it there.
			return i, true
		}
		std := el.Clone()
		std.Standardize()
		return i, sameJSON(std.Pack(), wb)
	}
	return -1, false
}

// removeOurs removes sessiongate's hooks from an event array and returns
// how many it removed; a group left empty goes too.
func removeOurs(arr *hujson.Array, c AgentConfig) int {
	n := 0
	for i := len(arr.Elements) - 1; i >= 0; i-- {
		el := &arr.Elements[i]
		inner, all, ours := ourHooks(el, c)
		if ours == 0 {
			continue
		}
		n += ours
		if ours == all {
			removeElement(arr, i)
			continue
		}
		for j := len(inner.Elements) - 1; j >= 0; j-- {
			if isOurs(&inner.Elements[j]) {
				removeElement(inner, j)
			}
		}
	}
	return n
}

// member returns the value of key in obj, or nil.
func jsonMember(obj *hujson.Object, key string) *hujson.Value {
	for i := range obj.Members {
		if lit, ok := obj.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == key {
			return &obj.Members[i].Value
		}
	}
	return nil
}

// addMember appends key: v to obj, indented like its siblings (or at
// indent + unit when it has none), keeping a trailing comma style.
func addMember(obj *hujson.Object, key string, v hujson.Value, unit, indent string) {
	name := hujson.Value{Value: hujson.String(key)}
	v.BeforeExtra = []byte(" ")
	n := len(obj.Members)
	if n == 0 {
		name.BeforeExtra = []byte("\n" + indent + unit)
		if !hasComment(obj.AfterExtra) {
			obj.AfterExtra = []byte("\n" + indent)
		} else {
			name.BeforeExtra = append(bytes.TrimRight(obj.AfterExtra, " \t\r\n"), name.BeforeExtra...)
			obj.AfterExtra = []byte("\n" + indent)
		}
	} else {
		last := &obj.Members[n-1]
		name.BeforeExtra = []byte(lineBreak(last.Name.BeforeExtra, indent+unit))
		if last.Value.AfterExtra != nil {
			v.AfterExtra = []byte{}
		}
	}
	obj.Members = append(obj.Members, hujson.ObjectMember{Name: name, Value: v})
}

func removeMember(obj *hujson.Object, key string) {
	for i := range obj.Members {
		if lit, ok := obj.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == key {
			trailing := obj.Members[i].Value.AfterExtra != nil
			obj.Members = append(obj.Members[:i], obj.Members[i+1:]...)
			if n := len(obj.Members); n > 0 && i == n {
				keepTrailing(&obj.Members[n-1].Value, &obj.AfterExtra, trailing)
			}
			if len(obj.Members) == 0 && !hasComment(obj.AfterExtra) {
				obj.AfterExtra = nil
			}
			return
		}
	}
}

// appendElement appends x to arr, on its own line like the elements
// before it (or one level deeper than indent when it has none).
func appendElement(arr *hujson.Array, x any, unit, indent string) {
	var before []byte
	var after hujson.Extra
	n := len(arr.Elements)
	if n == 0 {
		before = []byte("\n" + indent + unit)
		if hasComment(arr.AfterExtra) {
			before = append(bytes.TrimRight(arr.AfterExtra, " \t\r\n"), before...)
		}
		arr.AfterExtra = []byte("\n" + indent)
	} else {
		last := &arr.Elements[n-1]
		before = []byte(lineBreak(last.BeforeExtra, indent+unit))
		if last.AfterExtra != nil {
			after = []byte{}
		}
	}
	v := mustValue(x, lineIndent(before, indent+unit), unit)
	v.BeforeExtra, v.AfterExtra = before, after
	arr.Elements = append(arr.Elements, v)
}

func removeElement(arr *hujson.Array, i int) {
	trailing := arr.Elements[i].AfterExtra != nil
	arr.Elements = append(arr.Elements[:i], arr.Elements[i+1:]...)
	if n := len(arr.Elements); n > 0 && i == n {
		keepTrailing(&arr.Elements[n-1], &arr.AfterExtra, trailing)
	}
	if len(arr.Elements) == 0 && !hasComment(arr.AfterExtra) {
		arr.AfterExtra = nil
	}
}

// mustValue encodes x as a hujson value whose nested lines start at
// prefix. x is built here from maps, slices, strings and ints, so it
// always encodes.
func mustValue(x any, prefix, unit string) hujson.Value {
	b, err := json.MarshalIndent(x, prefix, unit)
	if err != nil {
		panic(err)
	}
	v, err := hujson.Parse(b)
	if err != nil {
		panic(err)
	}
	return v
}

// indentUnit guesses a file's indentation: the leading whitespace of its
// first indented line; two spaces when it has none.
func indentUnit(b []byte) string {
	for _, line := range bytes.Split(b, []byte("\n"))[1:] {
		ws := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if len(ws) > 0 && len(ws) < len(line) {
			return string(ws)
		}
	}
	return "  "
}

// lineIndent is the whitespace after the last line break of extra, or def
// when extra has no line break.
func lineIndent(extra []byte, def string) string {
	i := bytes.LastIndexByte(extra, '\n')
	if i < 0 {
		return def
	}
	ws := extra[i+1:]
	if len(bytes.Trim(ws, " \t")) != 0 {
		return def
	}
	return string(ws)
}

// lineBreak is the separator before a new sibling: a line break and the
// indentation the previous sibling had, or a space when the siblings sit
// on one line.
func lineBreak(prev []byte, def string) string {
	if bytes.IndexByte(prev, '\n') < 0 {
		return " "
	}
	return "\n" + lineIndent(prev, def)
}

// keepTrailing gives a composite's new last value the trailing-comma
// style of the one removed after it (hujson: a non-nil AfterExtra on the
// last value prints a trailing comma); text between it and its comma moves
// after the comma.
func keepTrailing(last *hujson.Value, after *hujson.Extra, trailing bool) {
	switch {
	case trailing && last.AfterExtra == nil:
		last.AfterExtra = []byte{}
	case !trailing && last.AfterExtra != nil:
		*after = append(append(hujson.Extra{}, last.AfterExtra...), *after...)
		last.AfterExtra = nil
	}
}

func hasComment(b []byte) bool {
	return bytes.Contains(b, []byte("//")) || bytes.Contains(b, []byte("/*"))
}

// AgentHookStatus is what doctor reports for one agent config.
type AgentHookStatus struct {
	Agent   string
	Path    string
	Exists  bool
	Missing []string // events without sessiongate's hook
	// Outdated: events whose sessiongate hook differs from what this
	// version installs (an older matcher or timeout).
	Outdated []string
	Err      error // the file does not parse
}

// CheckAgentConfig reads one agent config and lists the events that lack
// sessiongate's hook.
func CheckAgentConfig(root string, c AgentConfig) AgentHookStatus {
	st := AgentHookStatus{Agent: c.Name, Path: filepath.Join(root, filepath.FromSlash(c.Path))}
	b, err := os.ReadFile(st.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return st
	}
	st.Exists = true
	if err != nil {
		st.Err = err
		return st
	}
	v, err := hujson.Parse(b)
	if err != nil {
		st.Err = err
		return st
	}
	top, ok := v.Value.(*hujson.Object)
	if !ok {
		st.Err = errors.New("not a JSON object")
		return st
	}
	var hooksObj *hujson.Object
	if hv := jsonMember(top, "hooks"); hv != nil {
		hooksObj, _ = hv.Value.(*hujson.Object)
	}
	for _, ev := range c.Events {
		found := false
		if hooksObj != nil {
			if av := jsonMember(hooksObj, ev.Name); av != nil {
				if arr, ok := av.Value.(*hujson.Array); ok {
					i, exact := findOurs(arr, c, ev.Name)
					found = i >= 0
					if found && !exact {
						st.Outdated = append(st.Outdated, ev.Name)
					}
				}
			}
		}
		if !found {
			st.Missing = append(st.Missing, ev.Name)
		}
	}
	return st
}

// OnPath reports where `sessiongate` resolves on PATH ("" when it does not).
func OnPath() string {
	p, err := exec.LookPath("sessiongate")
	if err != nil {
		return ""
	}
	return p
}

// LocalHookBinary returns the absolute binary that the machine-local
// config of agent under root (LocalPath) calls for event, when the hook
// there is exactly what install writes; "" when there is none, it differs
// (an older matcher: the committed one still covers more), or the file
// does not parse. The by-name call of the committed config defers to it.
func LocalHookBinary(root, agent, event string) string {
	var c AgentConfig
	for _, a := range AgentConfigs {
		if a.Name == agent && a.LocalPath != "" {
			c = a
		}
	}
	if c.Name == "" {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.LocalPath)))
	if err != nil {
		return ""
	}
	v, err := hujson.Parse(b)
	if err != nil {
		return ""
	}
	top, ok := v.Value.(*hujson.Object)
	if !ok {
		return ""
	}
	hv := jsonMember(top, "hooks")
	if hv == nil {
		return ""
	}
	hooksObj, ok := hv.Value.(*hujson.Object)
	if !ok {
		return ""
	}
	av := jsonMember(hooksObj, event)
	if av == nil {
		return ""
	}
	arr, ok := av.Value.(*hujson.Array)
	if !ok {
		return ""
	}
	for i := range arr.Elements {
		for _, cmd := range hookCommands(&arr.Elements[i], c) {
			bin, ok := LocalCommandBinary(cmd)
			if !ok {
				continue
			}
			if _, exact := findOurs(arr, c.local(bin), event); exact {
				return bin
			}
			return ""
		}
	}
	return ""
}

// hookCommands are the "command" strings of the hooks in one element of
// an event array.
func hookCommands(el *hujson.Value, c AgentConfig) []string {
	var hs []*hujson.Value
	if inner, _, _ := ourHooks(el, c); inner != nil {
		for i := range inner.Elements {
			hs = append(hs, &inner.Elements[i])
		}
	} else {
		hs = append(hs, el)
	}
	var out []string
	for _, h := range hs {
		obj, ok := h.Value.(*hujson.Object)
		if !ok {
			continue
		}
		// Copilot's hooks carry the command per shell; bash is the one run here.
		for _, k := range []string{"command", "bash"} {
			if cv := jsonMember(obj, k); cv != nil {
				if lit, ok := cv.Value.(hujson.Literal); ok && lit.Kind() == '"' {
					out = append(out, lit.String())
				}
			}
		}
	}
	return out
}
