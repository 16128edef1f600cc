package compliance_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ev is one record_evidence call.
type ev struct {
	phase, kind, value string
	req                string // the requirement it satisfies ("" when the engine has no ids yet)
	na                 bool   // value is the reason the conditional requirement req does not apply
}

// step is the answer to one call: ok, or why not.
type step struct {
	ok  bool
	msg string
}

// agent drives a session the way an AI agent does: over the CLI or MCP.
type agent interface {
	Start(objective string) step // msg holds the session id when ok
	Evidence(e ev) step
	Advance(to string) step
	End(summary, notes string, skipQA bool) step
	Close()
}

// advanceJSON is the part of advance_phase / session_end results the benchmark reads.
type advanceJSON struct {
	Advanced bool   `json:"advanced"`
	Ended    bool   `json:"ended"`
	To       string `json:"to"`
	State    string `json:"state"`
	Blocked  *struct {
		Phase  string `json:"phase"`
		Reason string `json:"reason"`
	} `json:"blocked"`
	Violations []struct {
		Code string `json:"code"`
	} `json:"violations"`
}

func (a advanceJSON) step(ok bool) step {
	if ok {
		return step{ok: true}
	}
	if a.Blocked != nil {
		return step{msg: a.Blocked.Phase + ": " + a.Blocked.Reason}
	}
	return step{msg: "not advanced (" + a.State + ")"}
}

// cliAgent runs `sessiongate session ...`.
type cliAgent struct {
	w  *world
	id string
}

func (a *cliAgent) Start(objective string) step {
	res := a.w.sg("session", "start", "--objective", objective, "--json")
	var r struct {
		SessionID string `json:"session_id"`
	}
	if res.code != 0 || json.Unmarshal([]byte(res.out), &r) != nil || r.SessionID == "" {
		return step{msg: fmt.Sprintf("exit %d: %s", res.code, res.text())}
	}
	a.id = r.SessionID
	return step{ok: true, msg: a.id}
}

func (a *cliAgent) Evidence(e ev) step {
	args := []string{"session", "evidence", "--session", a.id, "--phase", e.phase, "--type", e.kind}
	if e.req != "" {
		args = append(args, "--requirement", e.req)
	}
	stdin := e.value
	if e.na {
		args, stdin = append(args, "--not-applicable", e.value), ""
	} else {
		args = append(args, "--value", "-")
	}
	res := a.w.exec(a.w.root, stdin, binary, args...)
	if res.code != 0 {
		return step{msg: res.text()}
	}
	return step{ok: true}
}

func (a *cliAgent) advanceOrEnd(args []string, ended bool) step {
	res := a.w.sg(args...)
	var r advanceJSON
	if err := json.Unmarshal([]byte(res.out), &r); err != nil {
		return step{msg: fmt.Sprintf("exit %d: %s", res.code, res.text())}
	}
	ok := r.Advanced
	if ended {
		ok = r.Ended
	}
	return r.step(ok && res.code == 0)
}

func (a *cliAgent) Advance(to string) step {
	args := []string{"session", "advance", "--session", a.id, "--json"}
	if to != "" {
		args = append(args, "--to", to)
	}
	return a.advanceOrEnd(args, false)
}

func (a *cliAgent) End(summary, notes string, skipQA bool) step {
	args := []string{"session", "end", "--session", a.id, "--summary", summary, "--notes", notes, "--json"}
	if skipQA {
		args = append(args, "--skip-qa")
	}
	return a.advanceOrEnd(args, true)
}

func (a *cliAgent) Close() {}

// mcpAgent speaks MCP to `sessiongate mcp` over stdio with the Go SDK client,
// as Claude Code or Cursor would.
type mcpAgent struct {
	w  *world
	cs *mcp.ClientSession
	id string
}

func newMCPAgent(w *world) *mcpAgent {
	w.t.Helper()
	cmd := exec.Command(binary, "mcp")
	cmd.Dir, cmd.Env = w.root, w.env
	c := mcp.NewClient(&mcp.Implementation{Name: "compliance-bench", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		w.t.Fatalf("connect to sessiongate mcp: %v", err)
	}
	return &mcpAgent{w: w, cs: cs}
}

// call returns the structured result, or the error text of a refused call.
func (a *mcpAgent) call(name string, args map[string]any, into any) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := a.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		a.w.t.Fatalf("%s: %v", name, err)
	}
	var text []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	if into != nil && res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, into); err != nil {
			a.w.t.Fatalf("%s: decode %s: %v", name, b, err)
		}
	}
	return strings.Join(text, " "), !res.IsError
}

func (a *mcpAgent) Start(objective string) step {
	var r struct {
		SessionID string `json:"session_id"`
	}
	if msg, ok := a.call("session_start", map[string]any{"objective": objective}, &r); !ok || r.SessionID == "" {
		return step{msg: msg}
	}
	a.id = r.SessionID
	return step{ok: true, msg: a.id}
}

func (a *mcpAgent) Evidence(e ev) step {
	args := map[string]any{"session_id": a.id, "phase": e.phase, "evidence_type": e.kind, "evidence": e.value}
	if e.req != "" {
		args["requirement"] = e.req
	}
	if e.na {
		args["not_applicable"] = true
	}
	if msg, ok := a.call("record_evidence", args, nil); !ok {
		return step{msg: msg}
	}
	return step{ok: true}
}

func (a *mcpAgent) Advance(to string) step {
	args := map[string]any{"session_id": a.id}
	if to != "" {
		args["target_phase"] = to
	}
	var r advanceJSON
	msg, ok := a.call("advance_phase", args, &r)
	if !ok && r.Blocked == nil {
		return step{msg: msg}
	}
	return r.step(ok && r.Advanced)
}

func (a *mcpAgent) End(summary, notes string, skipQA bool) step {
	args := map[string]any{"session_id": a.id, "summary": summary, "next_session_notes": notes}
	if skipQA {
		args["skip_qa"] = true
	}
	var r advanceJSON
	msg, ok := a.call("session_end", args, &r)
	if !ok && r.Blocked == nil {
		return step{msg: msg}
	}
	return r.step(ok && r.Ended)
}

func (a *mcpAgent) Close() { _ = a.cs.Close() }
