package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"io"
	"strings"
)

// MaxOutcomeScan bounds ClaudeFinished: only the file's last 32 MiB are
// read (a call a prompt settled is among the newest of the conversation).
const MaxOutcomeScan = 32 << 20

// ClaudeFinished reads Claude Code's transcript at path for the results of
// the tool calls ids and returns the ones whose result says the call ran to
// its end: a tool_result that is not an error, or a failed Bash result
// ("Exit code N"). Claude Code writes a result for an interrupted call too
// (measured with 2.1.330: is_error, "The user doesn't want to proceed with
// this tool use...", toolDenialKind "user-rejected", then "[Request
// interrupted by user for tool use]"), and a call a hook or the user
// refused gets an error result with no exit code: none of these finished.
// A call with no result yet (still running) is not returned either.
//
// Why: a new prompt settles the calls still pending as interrupted, since
// Claude Code sends no post-tool event for an interrupted call; a call the
// transcript shows finished was not interrupted, so a prompt that settled
// it came from the agent's own shell, not from the user.
func ClaudeFinished(path string, ids []string) (map[string]bool, error) {
	return scanOutcomes(path, ids, `"tool_result"`, claudeResults)
}

// claudeResults notes each tool_result of a call of want on a transcript
// line: finished unless it is an error without an exit code.
func claudeResults(line []byte, want map[string]bool, note func(id string, finished bool)) {
	var rec struct {
		Type    string `json:"type"`
		Message struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &rec) != nil || rec.Type != "user" {
		return
	}
	var blocks []struct {
		Type      string          `json:"type"`
		ToolUseID string          `json:"tool_use_id"`
		IsError   bool            `json:"is_error"`
		Content   json.RawMessage `json:"content"`
	}
	if json.Unmarshal(rec.Message.Content, &blocks) != nil {
		return
	}
	for _, b := range blocks {
		if b.Type == "tool_result" && want[b.ToolUseID] {
			note(b.ToolUseID, !b.IsError || strings.HasPrefix(strings.TrimSpace(resultText(b.Content)), "Exit code "))
		}
	}
}

// ClaudeResults is ClaudeFinished that also returns every call of ids the
// transcript at path holds a result for, finished or not. The Messages API
// takes no user message after a tool_use without its tool_result, so
// Claude Code writes one for each call the user interrupted (is_error,
// "The user doesn't want to proceed...", then "[Request interrupted by
// user for tool use]") before it takes the next prompt: a call a prompt
// settled that has no result when a stop or a gate reads the transcript
// after that prompt was still running when the prompt came (sent from
// inside it), and its CLI then never finished it (round 30, c4).
func ClaudeResults(path string, ids []string) (finished, results map[string]bool, err error) {
	results = map[string]bool{}
	finished, err = scanOutcomes(path, ids, `"tool_result"`, func(line []byte, want map[string]bool, note func(id string, finished bool)) {
		claudeResults(line, want, func(id string, fin bool) {
			results[id] = true
			note(id, fin)
		})
	})
	return finished, results, err
}

// scanOutcomes is the reading ClaudeFinished and CodexFinished share: the
// file's last MaxOutcomeScan bytes, line by line; a line that holds marker
// and one of ids is handed to judge, which calls note for each result of
// a call of ids it finds. The first result of a call decides (the CLIs'
// own parsers take the first; a later line for the same id changes
// nothing); the calls noted finished are returned.
func scanOutcomes(path string, ids []string, marker string, judge func(line []byte, want map[string]bool, note func(id string, finished bool))) (map[string]bool, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	f, err := boundedread.Open(path) // the agent can put a FIFO at its transcript's path
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > MaxOutcomeScan {
		if _, err := f.Seek(fi.Size()-MaxOutcomeScan, io.SeekStart); err != nil {
			return nil, err
		}
	}
	out := map[string]bool{}
	seen := map[string]bool{}
	note := func(id string, finished bool) {
		if seen[id] {
			return
		}
		seen[id] = true
		if finished {
			out[id] = true
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	mark := []byte(marker)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, mark) || !containsAny(line, ids) {
			continue // decoded only when it may hold a result of ids
		}
		judge(line, want, note)
	}
	if err := sc.Err(); err != nil && err != bufio.ErrTooLong {
		return out, err
	}
	return out, nil
}

// containsAny reports whether line holds one of ids as a JSON string.
func containsAny(line []byte, ids []string) bool {
	for _, id := range ids {
		if bytes.Contains(line, []byte(`"`+id+`"`)) {
			return true
		}
	}
	return false
}

// CodexFinished is ClaudeFinished for Codex's rollout: the calls of ids
// whose output line (function_call_output, custom_tool_call_output) says
// the call ran to its end. Measured with Codex 0.171 interrupted by SIGINT
// during `sleep 30` (testdata/codex-0.171-interrupt.jsonl): the aborted
// call's output is "Wall time: N seconds\naborted by user", followed by a
// <turn_aborted> message and a turn_aborted event, and Codex runs its
// Interrupt hook, not PostToolUse; such a call did not finish. A call with
// no output line yet did not either.
func CodexFinished(path string, ids []string) (map[string]bool, error) {
	return codexOutputs(path, ids, func(text string) bool {
		return !strings.HasSuffix(strings.TrimSpace(text), "aborted by user")
	})
}

// CodexRunning lists the calls of ids whose first output line in the rollout
// says Codex left the process running ("Process running with session ID
// N", in the header Codex writes before "Output:"): a command still going
// when the model's yield time ran out (a test suite, a server). Codex sends
// no PostToolUse for it, then or later (measured with Codex 0.171, round
// 24), so it owes none: an honest long test run was a TOOL_RESULT_MISSING.
// The command's own output, after "Output:", cannot say so.
func CodexRunning(path string, ids []string) (map[string]bool, error) {
	return codexOutputs(path, ids, func(text string) bool {
		head, _, _ := strings.Cut(text, "\nOutput:")
		return strings.Contains(head, "\nProcess running with session ID ") || strings.HasPrefix(head, "Process running with session ID ")
	})
}

// codexOutputs reads the first output line of each call of ids in Codex's
// rollout (function_call_output, custom_tool_call_output) and keeps the ids
// whose output text meets keep.
func codexOutputs(path string, ids []string, keep func(string) bool) (map[string]bool, error) {
	return scanOutcomes(path, ids, `_call_output"`, func(line []byte, want map[string]bool, note func(id string, finished bool)) {
		var rec struct {
			Payload struct {
				Type   string          `json:"type"`
				CallID string          `json:"call_id"`
				Output json.RawMessage `json:"output"`
			} `json:"payload"`
		}
		if json.Unmarshal(line, &rec) != nil {
			return
		}
		p := rec.Payload
		if p.Type != "function_call_output" && p.Type != "custom_tool_call_output" || !want[p.CallID] {
			return
		}
		var text string
		if json.Unmarshal(p.Output, &text) != nil {
			text = string(p.Output)
		}
		note(p.CallID, keep(text))
	})
}
