// Package judgedinput is the digest of a tool call's whole input as an
// agent's pre-tool hook judged it, compared with the input its post-tool
// hook says ran (TOOL_INPUT_REWRITTEN). The transcript witness digest of a
// Bash call covers only its command line (transcript lines name no more);
// a rewrite of run_in_background, timeout, dangerouslyDisableSandbox or a
// write tool's file_path changes what ran just as surely.
package judgedinput

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Digest is the SHA-256 (hex) of the canonical JSON of input, a JSON
// object: keys sorted at every level, numbers as written, no spaces. ""
// when input is not an object. Claude Code 2.1 sends PostToolUse the same
// tool_input object PreToolUse judged for Bash, Write, Edit, MultiEdit and
// NotebookEdit (TestClaudePostToolUseInputAsJudged), so no field is left
// out: one it added would make every honest call a rewrite, and that test
// says so first.
func Digest(input []byte) string {
	v, ok := object(input)
	if !ok {
		return ""
	}
	b, err := json.Marshal(v) // map keys come out sorted
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(append([]byte("judged\x00"), b...))
	return hex.EncodeToString(sum[:])
}

// Background reports whether a Bash input asks Claude Code to run the
// command in the background (run_in_background true): its PostToolUse
// comes when the command started, with no exit status or output of the
// command, so the call proves nothing about what it ran.
func Background(input []byte) bool {
	v, ok := object(input)
	if !ok {
		return false
	}
	b, _ := v["run_in_background"].(bool)
	return b
}

func object(input []byte) (map[string]any, bool) {
	d := json.NewDecoder(bytes.NewReader(input))
	d.UseNumber()
	var v map[string]any
	if len(input) == 0 || d.Decode(&v) != nil || v == nil {
		return nil, false
	}
	return v, true
}
