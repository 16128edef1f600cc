package agenthook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"io"
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
//
// The rollout is a file the agent's own shell can write, and the call id
// is in it (the function_call line) before the command runs: a watcher
// the agent started appends "Process exited with code 0" for the call
// while the command is still running (TestCodexForgedExitInRollout, with
// the real Codex). Codex writes its item_completed before it runs
// PostToolUse, so the hook waits for one, and every status the rollout
// gives the call must agree: two that differ are a forgery, and the
// status is unknown (never a pass). What this does not catch: bytes Codex
// wrote, rewritten in place before the hook reads them (docs/security.md).
func codexExitFromRollout(path, callID string, wait time.Duration) rolloutStatus {
	if callID == "" {
		return rolloutStatus{}
	}
	deadline := time.Now().Add(wait)
	for {
		st := scanRollout(path, callID)
		if st.conflict || st.completed || time.Now().After(deadline) {
			return st
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// rolloutStatus is what a rollout says of one call's exit.
type rolloutStatus struct {
	exit, first int  // the last and the first status found
	found       bool // some line gives a status
	completed   bool // an item_completed line does (Codex writes it before PostToolUse)
	conflict    bool // two lines give different statuses
}

// ok reports whether the status is known: found, and no line contradicts it.
func (st rolloutStatus) ok() bool { return st.found && !st.conflict }

func scanRollout(path, callID string) rolloutStatus {
	var st rolloutStatus
	f, err := boundedread.Open(path) // the agent can put a FIFO at its rollout's path
	if err != nil {
		return st
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > codexRolloutTail {
		if _, err := f.Seek(fi.Size()-codexRolloutTail, io.SeekStart); err != nil {
			return st
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
		n, ok := 0, false
		switch {
		case p.Type == "item_completed" && p.Item.ID == callID && p.Item.ExitCode != nil:
			n, ok = *p.Item.ExitCode, true
			st.completed = true
		case p.Type == "function_call_output" && p.CallID == callID && strings.Contains(p.Output, "Process exited with code "):
			n, ok = exitFromText(p.Output, "Process exited with code "), true
		}
		if !ok {
			continue
		}
		if !st.found {
			st.first = n
		} else if n != st.exit {
			st.conflict = true
		}
		st.exit, st.found = n, true
	}
	return st
}
