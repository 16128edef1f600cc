package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
)

// geminiParser reads Gemini CLI's chat recording (0.61:
// ~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl, the
// transcript_path of its hooks): one JSON record a line. A "gemini" record
// is written once when the model answers and again, same id, with its
// toolCalls [{id, name, args, result: [{functionResponse: {response:
// {output | error}}}], status}] once they finished, so a call comes out
// with its result in one line; "$set" lines update metadata. A shell
// result carries "Exit Code: N" when it failed.
type geminiParser struct {
	pending pendingSet // unused: Gemini CLI writes a call with its result
	seen    map[string]bool
}

var geminiTools = map[string]Kind{"read_file": Read, "read_many_files": Read, "run_shell_command": Run,
	"glob": Search, "search_file_content": Search, "grep": Search, "list_directory": Search}

func (p *geminiParser) Pending() []Call { return nil }

// Restore keeps nothing: Gemini CLI writes a call and its result together.
func (p *geminiParser) Restore([]Call) {}

func (p *geminiParser) Line(line []byte) []Call {
	if !bytes.Contains(line, []byte(`"toolCalls"`)) {
		return nil
	}
	var rec struct {
		Type      string `json:"type"`
		ToolCalls []struct {
			ID     string          `json:"id"`
			Name   string          `json:"name"`
			Args   json.RawMessage `json:"args"`
			Status string          `json:"status"`
			Result []struct {
				FunctionResponse struct {
					Response struct {
						Output json.RawMessage `json:"output"`
						Error  json.RawMessage `json:"error"`
					} `json:"response"`
				} `json:"functionResponse"`
			} `json:"result"`
		} `json:"toolCalls"`
	}
	if json.Unmarshal(line, &rec) != nil || rec.Type != "gemini" {
		return nil
	}
	var out []Call
	for _, tc := range rec.ToolCalls {
		kind, ok := geminiTools[tc.Name]
		if !ok || tc.ID == "" || tc.Status == "" || p.seen[tc.ID] {
			continue
		}
		if tc.Status != "success" && tc.Status != "error" && tc.Status != "cancelled" {
			continue // still running: the record is written again when it ends
		}
		if len(p.seen) < 1<<16 {
			p.seen[tc.ID] = true
		}
		in := object(tc.Args)
		c := Call{ID: clip(tc.ID), Tool: tc.Name, Kind: kind, Exit: -1, InputSHA256: inputHash(tc.Args)}
		switch kind {
		case Read:
			if v := str(in, "file_path"); v != "" {
				c.Paths = append(c.Paths, clip(v))
				if tc.Name == "read_file" {
					c.Witness = ReadDigest(v) // BeforeTool's tool_input.file_path
				}
			}
			var many []string
			if json.Unmarshal(in["paths"], &many) == nil {
				for _, v := range many {
					if len(c.Paths) < 32 {
						c.Paths = append(c.Paths, clip(v))
					}
				}
			}
		case Run:
			c = shellCall(clip(tc.ID), tc.Name, str(in, "command"), str(in, "dir_path"), tc.Args)
			c.Witness = CommandDigest(str(in, "command")) // BeforeTool's tool_input.command
		case Search:
			c.Pattern = clip(str(in, "pattern"))
			for _, k := range []string{"dir_path", "path"} {
				if v := str(in, k); v != "" {
					c.Paths = append(c.Paths, clip(v))
				}
			}
		}
		failed := tc.Status != "success"
		output := ""
		for _, r := range tc.Result {
			resp := r.FunctionResponse.Response
			if len(resp.Error) > 0 && string(resp.Error) != "null" {
				failed = true
			}
			var s string
			if json.Unmarshal(resp.Output, &s) == nil {
				output += s
			}
		}
		exit := 0
		if kind == Run {
			// Success says "Exit Code: (none)" or nothing; a failure "Exit Code: N".
			if strings.Contains(output, "Exit Code: ") && !strings.Contains(output, "Exit Code: (none)") {
				exit = exitAfter(output, "Exit Code: ")
				failed = failed || exit != 0
			}
			if strings.Contains(output, "Signal: ") && !strings.Contains(output, "Signal: (none)") {
				exit, failed = -1, true
			}
		}
		out = append(out, Expand(finish(c, exit, failed))...)
	}
	return out
}
