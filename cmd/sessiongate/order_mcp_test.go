package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOrderMCPAndCLI: one session driven through MCP and the CLI at once,
// with the real binary (`sessiongate mcp` over stdio, as an agent's
// client runs it). MCP's validate_gate, then the CLI's advance, moves the
// session on; the CLI's `session end` while MCP calls record evidence and
// validate gates in a loop ends it once: every MCP call either lands
// before the end or is refused as the session ended, and no evidence is
// committed after the end's event. Evidence arriving while the end's
// gates run is refused as the session ending, so none is dated after
// ended_at (the end stamps it as it commits).
func TestOrderMCPAndCLI(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: runs the real binary over MCP")
	}
	w := newHintWorld(t, "")
	out := w.mustSG("session", "start", "--objective", "orders: MCP and CLI")
	m := regexp.MustCompile(`SESSIONGATE_SESSION=([0-9a-f-]{36})`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no session id in start's output:\n%s", out)
	}
	id := m[1]
	w.mustSG("run", "--phase", "CONTEXT_RETRIEVAL", "--", "git", "log", "--oneline")
	w.mustSG("run", "--phase", "GIT_STATE", "--", "git", "status")

	cmd := exec.Command(w.bin, "mcp")
	cmd.Dir = w.dir
	cmd.Env = sgEnv(w.env)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "orders", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to sessiongate mcp: %v", err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) (string, bool) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			return err.Error(), false
		}
		var text []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text = append(text, tc.Text)
			}
		}
		return strings.Join(text, " "), !res.IsError
	}

	// MCP checks the gate, the CLI advances.
	if msg, ok := call("validate_gate", map[string]any{"session_id": id, "phase": "GIT_STATE"}); !ok {
		t.Fatalf("validate_gate GIT_STATE over MCP: %s", msg)
	}
	w.mustSG("session", "advance", "--to", "WORKING")
	if msg, ok := call("get_blocked_reason", map[string]any{"session_id": id}); !ok || strings.Contains(msg, "start protocol") {
		t.Errorf("MCP after the CLI's advance does not see WORKING: ok=%v %s", ok, msg)
	}

	// The work, then the end protocol to where `session end` passes.
	writeHintFile(t, w.dir, "a.txt", "hello\n")
	w.git("add", "a.txt")
	w.git("commit", "-q", "-m", "feat: the work")
	for range 8 {
		code, out := w.sg("", "session", "advance")
		if strings.Contains(out, "run --phase QA_VALIDATION") {
			// The project's check, run where sessiongate sees it.
			w.mustSG("run", "--phase", "QA_VALIDATION", "--", "sh", "checks/readme_check.sh")
			continue
		}
		if code != 0 || strings.Contains(out, "session end") {
			break
		}
	}

	// MCP calls in a loop while the CLI ends the session.
	var mu sync.Mutex
	var refused []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			name, args := "validate_gate", map[string]any{"session_id": id, "phase": "CONTEXT_RETRIEVAL"}
			if i%2 == 1 {
				name, args = "record_evidence", map[string]any{"session_id": id, "phase": "CONTEXT_RETRIEVAL", "evidence_type": "tool_output",
					"evidence": "commit " + strings.Repeat("0", 39) + string(rune('a'+i%26)) + " feat: the work (git log, call " + time.Now().Format(time.RFC3339Nano) + ")"}
			}
			if msg, ok := call(name, args); !ok {
				mu.Lock()
				refused = append(refused, name+": "+msg)
				mu.Unlock()
			}
		}
	}()
	time.Sleep(300 * time.Millisecond)
	code, endOut := w.sg("", "session", "end", "--summary", "the work is committed")
	time.Sleep(300 * time.Millisecond)
	close(stop)
	wg.Wait()
	if code != 0 {
		t.Fatalf("session end beside MCP calls: exit %d\n%s", code, endOut)
	}
	var d struct {
		Session struct {
			State   string
			EndedAt time.Time `json:"ended_at"`
		}
		Evidence []struct {
			CreatedAt time.Time `json:"created_at"`
		}
	}
	if err := json.Unmarshal([]byte(w.mustSG("session", "show", id, "--json")), &d); err != nil {
		t.Fatal(err)
	}
	if d.Session.EndedAt.IsZero() {
		t.Fatalf("the session did not end (state %s)", d.Session.State)
	}
	// In the order the database committed them (the event chain), no
	// evidence lands after the end, and none is dated after ended_at: a
	// call while the end's gates ran is refused as the session ending.
	var ev struct {
		Events []struct{ Token string }
	}
	if err := json.Unmarshal([]byte(w.mustSG("session", "show", id, "--json")), &ev); err != nil {
		t.Fatal(err)
	}
	ended := -1
	for i, e := range ev.Events {
		if e.Token == "tool:session_end" {
			ended = i
		}
		if ended >= 0 && e.Token == "tool:record_evidence" {
			t.Errorf("evidence recorded after the end, event %d of %d", i, len(ev.Events))
		}
	}
	if ended < 0 {
		t.Errorf("no tool:session_end event among %d", len(ev.Events))
	}
	late := 0
	for _, e := range d.Evidence {
		if e.CreatedAt.After(d.Session.EndedAt) {
			late++
		}
	}
	if late > 0 {
		t.Errorf("%d evidence rows dated after ended_at (committed while the end's gates ran)", late)
	}
	for _, r := range refused {
		if l := strings.ToLower(r); !strings.Contains(l, "ended") && !strings.Contains(l, "complete") && !strings.Contains(l, "is ending") {
			t.Errorf("an MCP call refused for another reason than the end: %s", r)
		}
	}
	t.Logf("%d MCP calls refused after the end; state %s", len(refused), d.Session.State)
}
