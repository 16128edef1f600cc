package transcript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// copilotShell is one finished shell call of Copilot CLI's events.jsonl
// (testdata/copilot-1.0.102.jsonl's shape), split where Copilot splits it:
// the start, written when the call begins, and the end, written a moment
// after the call returned.
func copilotShell(id, command string) (start, end string) {
	return fmt.Sprintf(`{"type":"tool.execution_start","data":{"toolCallId":%q,"toolName":"bash","arguments":{"command":%q,"description":"run"}}}`+"\n", id, command),
		fmt.Sprintf(`{"type":"tool.execution_complete","data":{"toolCallId":%q,"success":true,"shellExecution":{"exitCode":0}}}`+"\n", id)
}

func appendLine(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCountRunsAndBehind: finished shell lines are counted by RunKey
// (trimmed), a call still running is not, and the state read before keeps
// its own map; Behind names what want has more of, sorted.
func TestCountRunsAndBehind(t *testing.T) {
	before := State{Runs: map[string]int{RunKey("ls"): 1}}
	st := before
	CountRuns(&st, []Call{{Kind: Run, Command: " git status "}, {Kind: Run, Command: "ls"}, {Kind: Read, Paths: []string{"a"}}, {Kind: Run, Command: "  "}})
	if want := map[string]int{RunKey("ls"): 2, RunKey("git status"): 1}; !reflect.DeepEqual(st.Runs, want) {
		t.Errorf("Runs = %v, want %v", st.Runs, want)
	}
	if before.Runs[RunKey("ls")] != 1 {
		t.Errorf("the earlier state's map changed: %v", before.Runs)
	}
	want := map[string]int{RunKey("ls"): 2, RunKey("git status"): 2, RunKey("make"): 1}
	got := Behind(want, st)
	exp := []string{RunKey("git status"), RunKey("make")}
	if exp[0] > exp[1] {
		exp[0], exp[1] = exp[1], exp[0]
	}
	if !reflect.DeepEqual(got, exp) {
		t.Errorf("Behind = %v, want %v", got, exp)
	}
	if got := Behind(map[string]int{RunKey("ls"): 2}, st); got != nil {
		t.Errorf("Behind with nothing missing = %v, want none", got)
	}
	if !Lagging(Copilot) || !Lagging(Gemini) || Lagging(Claude) || Lagging(Codex) {
		t.Error("Lagging: want Copilot and Gemini CLI only")
	}
}

// TestCatchUp: a line written after the first read is read and the wait
// ends as soon as it is there; a line never written ends the wait at the
// deadline with the run still behind; nothing behind reads nothing.
func TestCatchUp(t *testing.T) {
	const cat = "cat docs/guide.md"
	tests := []struct {
		name   string
		late   bool // the end is written while CatchUp waits
		want   map[string]int
		calls  int
		behind int
	}{
		// The late call comes out twice: the run, and the read Expand adds.
		{name: "written late", late: true, want: map[string]int{RunKey(cat): 1}, calls: 2},
		{name: "never written", want: map[string]int{RunKey(cat): 1}, behind: 1},
		{name: "nothing behind", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "events.jsonl")
			start, end := copilotShell("c1", cat)
			appendLine(t, path, start)
			_, st, err := Tail(context.Background(), path, Copilot, State{PrefixSHA256: EmptySHA256}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if tt.late {
				go func() {
					time.Sleep(3 * CatchUpPoll)
					f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
					if err == nil {
						_, _ = f.WriteString(end)
						_ = f.Close()
					}
				}()
			}
			wait := 400 * time.Millisecond
			t0 := time.Now()
			calls, st2, behind := CatchUp(context.Background(), path, Copilot, st, tt.want, t0.Add(wait))
			took := time.Since(t0)
			if len(calls) != tt.calls || len(behind) != tt.behind {
				t.Fatalf("calls %d, behind %d; want %d and %d (%+v)", len(calls), len(behind), tt.calls, tt.behind, calls)
			}
			switch {
			case tt.late && st2.Runs[RunKey(cat)] != 1:
				t.Errorf("state runs = %v, want the late run counted", st2.Runs)
			case tt.behind > 0 && took < wait:
				t.Errorf("gave up after %s, before the deadline (%s)", took, wait)
			case tt.want == nil && took > wait/2:
				t.Errorf("nothing behind, yet waited %s", took)
			}
		})
	}
	// A cancelled context ends the wait at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path := filepath.Join(t.TempDir(), "events.jsonl")
	start, _ := copilotShell("c1", cat)
	appendLine(t, path, start)
	t0 := time.Now()
	if _, _, behind := CatchUp(ctx, path, Copilot, State{PrefixSHA256: EmptySHA256}, map[string]int{RunKey(cat): 1}, t0.Add(5*time.Second)); len(behind) != 1 {
		t.Errorf("cancelled: behind %v, want the run", behind)
	}
	if took := time.Since(t0); took > 2*time.Second {
		t.Errorf("cancelled context waited %s", took)
	}
}
