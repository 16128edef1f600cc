package transcript

import (
	"bytes"
	"encoding/json"
)

// WitnessDigest is what a hook that sees a tool call before it runs keeps
// of the call's input, to be matched later against the transcript's line
// with the same call id: a line appended by the agent's own script can
// borrow the id of a real call, but not what that call ran. For a shell
// call it is the command line (the payload and the transcript may differ
// in other fields, a description, a timeout); for any other tool the input
// encoded canonically (keys sorted, numbers as written), since the hook
// payload and the transcript each encode the same input their own way.
// "" when the input is not a JSON object (nothing to compare).
func WitnessDigest(tool string, input []byte) string {
	d := json.NewDecoder(bytes.NewReader(input))
	d.UseNumber()
	var v map[string]any
	if len(input) == 0 || d.Decode(&v) != nil || v == nil {
		return ""
	}
	if claudeTools[tool] == Run {
		c, _ := v["command"].(string)
		return CommandDigest(c)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return inputHash(b)
}

// ReadDigest is the witness of a file read by path (Gemini CLI's
// read_file): the chat recording and the pre-tool hook name the path the
// same way, their argument objects need not be byte for byte the same.
func ReadDigest(path string) string {
	return inputHash([]byte("read\x00" + path))
}

// CommandDigest is WitnessDigest of a shell call that ran command: the
// same for Claude Code's Bash input and Codex's rollout line, whose
// arguments name the command line another way ({"cmd": ...}).
func CommandDigest(command string) string {
	return inputHash([]byte("command\x00" + command))
}
