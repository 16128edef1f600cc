package agenthook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// codexRolloutTail is how much of the end of a Codex rollout is searched
// for a call's exit status: the call just finished, so it is near the end.
const codexRolloutTail = 4 << 20

// codexExitFromRollout finds the exit status of the shell call callID in
// Codex's rollout (its transcript): Codex 0.171's PostToolUse carries the
// output but no exit status, while the rollout records the finished
// command ({"type":"item_completed","item":{"id":ID,"exit_code":N}}) and its
// function_call_output ("Process exited with code N"). The rollout may lag
// the hook by a few milliseconds, so it is read again for up to wait.
func codexExitFromRollout(path, callID string, wait time.Duration) (int, bool) {
	if callID == "" {
		return 0, false
	}
	deadline := time.Now().Add(wait)
	for {
		if n, ok := scanRollout(path, callID); ok {
			return n, true
		}
		if time.Now().After(deadline) {
			return 0, false
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func scanRollout(path, callID string) (int, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > codexRolloutTail {
		if _, err := f.Seek(st.Size()-codexRolloutTail, io.SeekStart); err != nil {
			return 0, false
		}
	}
	needle := []byte(strconv.Quote(callID))
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, needle) {
			continue
		}
		var rec struct {
			Payload struct {
				Type   string `json:"type"`
				CallID string `json:"call_id"`
				Output string `json:"output"`
				Item   struct {
					ID       string `json:"id"`
					ExitCode *int   `json:"exit_code"`
				} `json:"item"`
			} `json:"payload"`
		}
		if json.Unmarshal(line, &rec) != nil {
			continue
		}
		p := rec.Payload
		switch {
		case p.Type == "item_completed" && p.Item.ID == callID && p.Item.ExitCode != nil:
			return *p.Item.ExitCode, true
		case p.Type == "function_call_output" && p.CallID == callID && strings.Contains(p.Output, "Process exited with code "):
			return exitFromText(p.Output, "Process exited with code "), true
		}
	}
	return 0, false
}
