package transcript

import (
	"bytes"
	"encoding/json"
)

// copilotParser reads Copilot CLI's session events
// ($COPILOT_HOME/session-state/<id>/events.jsonl, the transcriptPath of its
// hooks): one {type, data, id, timestamp} a line. "tool.execution_start"
// {toolCallId, toolName, arguments} starts a call and
// "tool.execution_complete" {toolCallId, success, shellExecution:
// {exitCode}, result | error} ends it. The cwd is session.start's
// data.context.cwd.
type copilotParser struct {
	pending pendingSet
	cwd     string
}

var copilotTools = map[string]Kind{"view": Read, "bash": Run, "grep": Search, "glob": Search,
	// PascalCase hook files use Claude's tool names.
	"Read": Read, "Bash": Run, "Grep": Search, "Glob": Search}

func (p *copilotParser) Pending() []Call   { return p.pending.list() }
func (p *copilotParser) Restore(cs []Call) { p.pending.restore(cs) }

func (p *copilotParser) Line(line []byte) []Call {
	if !bytes.Contains(line, []byte(`"tool.execution_`)) && !bytes.Contains(line, []byte(`"session.start"`)) {
		return nil
	}
	var rec struct {
		Type string `json:"type"`
		Data struct {
			ToolCallID     string          `json:"toolCallId"`
			ToolName       string          `json:"toolName"`
			Arguments      json.RawMessage `json:"arguments"`
			Success        *bool           `json:"success"`
			ShellExecution *struct {
				ExitCode *int `json:"exitCode"`
			} `json:"shellExecution"`
			Context struct {
				Cwd string `json:"cwd"`
			} `json:"context"`
		} `json:"data"`
	}
	if json.Unmarshal(line, &rec) != nil {
		return nil
	}
	d := rec.Data
	switch rec.Type {
	case "session.start":
		p.cwd = clip(d.Context.Cwd)
	case "tool.execution_start":
		kind, ok := copilotTools[d.ToolName]
		if !ok || d.ToolCallID == "" {
			return nil
		}
		in := object(d.Arguments)
		c := Call{ID: clip(d.ToolCallID), Tool: d.ToolName, Kind: kind, Dir: p.cwd, Exit: -1, InputSHA256: inputHash(d.Arguments)}
		switch kind {
		case Read:
			for _, k := range []string{"path", "file_path"} {
				if v := str(in, k); v != "" {
					c.Paths = append(c.Paths, clip(v))
				}
			}
			if d.ToolName == "view" && len(c.Paths) > 0 {
				c.Witness = ReadDigest(str(in, "path")) // preToolUse's toolArgs.path
			}
		case Run:
			c = shellCall(c.ID, d.ToolName, str(in, "command"), p.cwd, d.Arguments)
			c.Witness = CommandDigest(str(in, "command")) // preToolUse's toolArgs.command
		case Search:
			c.Pattern = clip(str(in, "pattern"))
			if v := str(in, "path"); v != "" {
				c.Paths = append(c.Paths, clip(v))
			}
		}
		p.pending.add(c)
	case "tool.execution_complete":
		c, ok := p.pending.take(d.ToolCallID)
		if !ok {
			return nil
		}
		failed := d.Success == nil || !*d.Success
		exit := 0
		if c.Kind == Run {
			exit = -1
			if d.ShellExecution != nil && d.ShellExecution.ExitCode != nil {
				exit = *d.ShellExecution.ExitCode
			}
			failed = failed || exit != 0
		}
		return Expand(finish(c, exit, failed))
	}
	return nil
}
