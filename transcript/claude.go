package transcript

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// claudeParser reads Claude Code's transcript
// ($CLAUDE_CONFIG_DIR/projects/<project>/<session>.jsonl): one JSON object
// a line; an "assistant" line's message.content holds tool_use blocks {id,
// name, input}, a later "user" line's message.content the tool_result
// {tool_use_id, is_error, content}. A failed Bash result reads "Exit code
// N". Lines of other types (attachments, api requests, queue operations)
// are skipped unread past their type.
type claudeParser struct {
	pending pendingSet
}

// claudeTools classifies Claude Code's built-in tools; others are not
// evidence of a read, run or search.
var claudeTools = map[string]Kind{"Read": Read, "NotebookRead": Read, "Bash": Run, "Grep": Search, "Glob": Search, "LS": Search,
	// The sub-agent tool: "Agent" since 2.1 (sdk-tools.d.ts AgentInput),
	// "Task" before; its subagent_type names the agent that ran.
	"Agent": Delegate, "Task": Delegate}

func (p *claudeParser) Pending() []Call   { return p.pending.list() }
func (p *claudeParser) Restore(cs []Call) { p.pending.restore(cs) }
func (p *claudeParser) Line(line []byte) []Call {
	// Cheap filter first: most lines of a Claude transcript are neither
	// (attachments, request shapes, large blobs).
	if !bytes.Contains(line, []byte(`"tool_use`)) && !bytes.Contains(line, []byte(`"tool_result"`)) && !bytes.Contains(line, []byte(`<task-notification>`)) {
		return nil
	}
	var rec struct {
		Type    string `json:"type"`
		Cwd     string `json:"cwd"`
		Message struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
		ToolUseResult json.RawMessage `json:"toolUseResult"`
	}
	if json.Unmarshal(line, &rec) != nil || (rec.Type != "assistant" && rec.Type != "user") {
		return nil
	}
	if rec.Type == "user" {
		var text string
		if json.Unmarshal(rec.Message.Content, &text) == nil {
			return p.notified(text)
		}
	}
	var blocks []struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		ToolUseID string          `json:"tool_use_id"`
		IsError   bool            `json:"is_error"`
		Content   json.RawMessage `json:"content"`
	}
	if json.Unmarshal(rec.Message.Content, &blocks) != nil {
		return nil
	}
	var out []Call
	for _, b := range blocks {
		switch {
		case rec.Type == "assistant" && b.Type == "tool_use":
			kind, ok := claudeTools[b.Name]
			if !ok && strings.HasPrefix(b.Name, "mcp__") {
				kind, ok = MCP, true
			}
			if !ok || b.ID == "" {
				continue
			}
			in := object(b.Input)
			c := Call{ID: clip(b.ID), Tool: b.Name, Kind: kind, Dir: clip(rec.Cwd), Exit: -1, InputSHA256: inputHash(b.Input)}
			switch kind {
			case Read:
				for _, k := range []string{"file_path", "notebook_path"} {
					if v := str(in, k); v != "" {
						c.Paths = append(c.Paths, clip(v))
					}
				}
			case Run:
				c = shellCall(clip(b.ID), b.Name, str(in, "command"), rec.Cwd, b.Input)
			case Delegate:
				// Without a type Claude Code runs its general-purpose agent.
				c.Agent = clip(str(in, "subagent_type"))
				if c.Agent == "" {
					c.Agent = "general-purpose"
				}
			case Search:
				c.Pattern = clip(str(in, "pattern"))
				if v := str(in, "path"); v != "" {
					c.Paths = append(c.Paths, clip(v))
				}
			}
			c.Witness = WitnessDigest(b.Name, b.Input)
			p.pending.add(c)
		case rec.Type == "user" && b.Type == "tool_result":
			c, ok := p.pending.take(b.ToolUseID)
			if !ok {
				continue
			}
			if c.Kind == Delegate && !b.IsError && asyncLaunched(rec.ToolUseResult) {
				// Run in the background (run_in_background true or, in
				// 2.1.330, unset): launched, not done. The sub-agent's
				// outcome comes with its <task-notification>; until then
				// the call stays pending, so a task never waited for
				// proves nothing (TestClaudeBackgroundAgent).
				c.Notified = true
				p.pending.add(c)
				continue
			}
			exit := 0
			if b.IsError {
				exit = claudeExit(resultText(b.Content))
			}
			out = append(out, Expand(finish(c, exit, b.IsError))...)
		}
	}
	return out
}

// asyncLaunched reports whether a sub-agent call's toolUseResult says
// Claude Code launched it in the background ({"isAsync": true, "status":
// "async_launched", ...}, 2.1.330).
func asyncLaunched(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	var r struct {
		IsAsync bool   `json:"isAsync"`
		Status  string `json:"status"`
	}
	return json.Unmarshal(raw, &r) == nil && r.IsAsync && r.Status == "async_launched"
}

// notified finishes the background sub-agent call a <task-notification>
// prompt names (<tool-use-id>), as the CLI writes it when the sub-agent
// stops: "completed" passes, any other status ("failed", "killed") fails.
// A notification for a call not launched in the background finishes
// nothing.
func (p *claudeParser) notified(text string) []Call {
	n, ok := ParseTaskNotification(text)
	if !ok {
		return nil
	}
	c, ok := p.pending.take(n.ToolUseID)
	if !ok {
		return nil
	}
	if !c.Notified {
		p.pending.add(c) // its own tool_result is still to come
		return nil
	}
	failed := n.Status != "completed"
	return Expand(finish(c, 0, failed))
}

// TaskNotification is what Claude Code's <task-notification> prompt says
// of a background task that stopped.
type TaskNotification struct {
	TaskID, ToolUseID, Status string
}

// ParseTaskNotification reads a prompt that is one of Claude Code's
// <task-notification> blocks: the text must start with the tag (after
// space) and name a tool-use id and a status.
func ParseTaskNotification(text string) (TaskNotification, bool) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "<task-notification>") {
		return TaskNotification{}, false
	}
	tag := func(name string) string {
		open, end := "<"+name+">", "</"+name+">"
		i := strings.Index(t, open)
		if i < 0 {
			return ""
		}
		rest := t[i+len(open):]
		j := strings.Index(rest, end)
		if j < 0 || j > 200 {
			return ""
		}
		return strings.TrimSpace(rest[:j])
	}
	n := TaskNotification{TaskID: tag("task-id"), ToolUseID: tag("tool-use-id"), Status: tag("status")}
	if n.ToolUseID == "" || n.Status == "" || strings.ContainsAny(n.ToolUseID+n.Status, " \t\n") {
		return TaskNotification{}, false
	}
	return n, true
}

// claudeExit reads "Exit code N" from a failed Bash result; -1 when it
// has none (an interrupted or denied call).
func claudeExit(s string) int {
	return exitAfter(s, "Exit code ")
}

// exitAfter reads the integer after prefix in s; -1 when there is none.
func exitAfter(s, prefix string) int {
	i := strings.Index(s, prefix)
	if i < 0 {
		return -1
	}
	rest := s[i+len(prefix):]
	j := 0
	for j < len(rest) && j < 12 && (rest[j] >= '0' && rest[j] <= '9' || j == 0 && rest[j] == '-') {
		j++
	}
	n, err := strconv.Atoi(rest[:j])
	if err != nil {
		return -1
	}
	return n
}

// resultText is a tool_result's content: a string, or text blocks.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var b strings.Builder
	for _, x := range blocks {
		b.WriteString(x.Text)
		b.WriteByte('\n')
	}
	return b.String()
}
