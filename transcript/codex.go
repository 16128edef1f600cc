package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
)

// codexParser reads Codex CLI's rollout
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl, the
// transcript_path of its hooks): one {timestamp, type, payload} a line. A
// "response_item" payload {type: "function_call", name, arguments (a JSON
// string), call_id} is a tool call; a later {type: "function_call_output",
// call_id, output} its result. Codex 0.171 runs the shell with
// exec_command {cmd, workdir} and reports "Process exited with code N";
// older ones with shell {command: [argv]} and a JSON output whose
// metadata.exit_code says it. Codex has no file-reading tool: reads are
// shell commands (cat, sed -n, head).
type codexParser struct {
	pending pendingSet
}

// codexShells are Codex's shell tools, across versions.
var codexShells = map[string]bool{"exec_command": true, "shell": true, "shell_command": true, "local_shell": true, "container.exec": true}

func (p *codexParser) Pending() []Call   { return p.pending.list() }
func (p *codexParser) Restore(cs []Call) { p.pending.restore(cs) }

func (p *codexParser) Line(line []byte) []Call {
	if !bytes.Contains(line, []byte(`"function_call`)) {
		return nil
	}
	var rec struct {
		Type    string `json:"type"`
		Payload struct {
			Type      string          `json:"type"`
			Name      string          `json:"name"`
			Arguments string          `json:"arguments"`
			CallID    string          `json:"call_id"`
			Output    json.RawMessage `json:"output"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &rec) != nil || rec.Type != "response_item" {
		return nil
	}
	pl := rec.Payload
	switch pl.Type {
	case "function_call":
		if !codexShells[pl.Name] || pl.CallID == "" {
			return nil
		}
		in := object([]byte(pl.Arguments))
		cmd := str(in, "cmd")
		if cmd == "" {
			cmd = str(in, "command")
		}
		if cmd == "" {
			var argv []string
			if json.Unmarshal(in["command"], &argv) == nil {
				cmd = argvLine(argv)
			}
		}
		if cmd == "" {
			return nil
		}
		c := shellCall(clip(pl.CallID), pl.Name, cmd, str(in, "workdir"), []byte(pl.Arguments))
		c.Witness = CommandDigest(cmd) // Codex's PreToolUse names it as tool_input.command
		p.pending.add(c)
	case "function_call_output":
		c, ok := p.pending.take(pl.CallID)
		if !ok {
			return nil
		}
		out := ""
		if json.Unmarshal(pl.Output, &out) != nil {
			out = string(pl.Output)
		}
		exit := codexExit(out)
		return Expand(finish(c, exit, exit != 0))
	}
	return nil
}

// argvLine is the command line of an argv; `bash -lc SCRIPT` is its script.
func argvLine(argv []string) string {
	if len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c") {
		return argv[2]
	}
	return strings.Join(argv, " ")
}

// codexExit reads a shell call's exit status from its output: 0.171's
// "Process exited with code N", older JSON {"metadata": {"exit_code": N}}
// or "Exit code: N"; -1 when it says none ("unsupported call", a timeout).
func codexExit(out string) int {
	if n := exitAfter(out, "Process exited with code "); n >= 0 {
		return n
	}
	var js struct {
		Metadata struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	}
	if json.Unmarshal([]byte(out), &js) == nil && js.Metadata.ExitCode != nil {
		return *js.Metadata.ExitCode
	}
	return exitAfter(out, "Exit code: ")
}
