package agenthook_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestBadInput: every malformed or unexpected input gets one clear answer
// in the agent's format (or the documented fail-mode answer), exit 0, fast,
// and nothing stored is lost.
func TestBadInput(t *testing.T) {
	r := newRepo(t, "")
	const sid = "claude-bad"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
	s := r.active()
	write := golden(t, r, "claude", "PreToolUse-Write", sid)
	huge := append([]byte(`{"session_id":"x","pad":"`), bytes.Repeat([]byte("a"), 17<<20)...)
	huge = append(huge, `"}`...)
	cases := []struct {
		name, agent, event string
		in                 any
		// want checks the decoded answer.
		want     func(m map[string]any) bool
		stderr   string
		wantDesc string
	}{
		{"malformed JSON before a Write", "claude", "PreToolUse", `{"session_id": "x", "tool_name": "Write",`,
			func(m map[string]any) bool { return m["systemMessage"] != nil }, "malformed", "a systemMessage naming the error"},
		{"not an object", "claude", "Stop", `["Stop"]`,
			func(m map[string]any) bool { return m["decision"] == nil && m["systemMessage"] != nil }, "not a JSON object", "no block, a message"},
		{"empty stdin", "gemini", "BeforeTool", ``,
			func(m map[string]any) bool { return m["systemMessage"] != nil }, "empty", "a message"},
		{"oversized event", "claude", "PostToolUse", huge,
			func(m map[string]any) bool { return strings.Contains(pathStr(m, "systemMessage"), "larger than") }, "", "a message naming the size limit"},
		{"unknown event", "claude", "TeleportStart", with(write, "hook_event_name", "TeleportStart"),
			func(m map[string]any) bool { return strings.Contains(pathStr(m, "systemMessage"), "does not handle") }, "does not handle", "a message"},
		{"event name mismatch", "claude", "Stop", write,
			func(m map[string]any) bool { return m["decision"] == nil && m["systemMessage"] != nil }, "hook_event_name", "no block"},
		{"missing session id", "claude", "PreToolUse", with(write, "session_id", ""),
			func(m map[string]any) bool {
				return pathStr(m, "hookSpecificOutput", "permissionDecision") == "deny" && strings.Contains(pathStr(m, "hookSpecificOutput", "permissionDecisionReason"), "session id")
			}, "", "deny (fail_mode closed) naming the session id"},
		{"cursor malformed before a shell command", "cursor", "beforeShellExecution", `{"conversation_id":`,
			func(m map[string]any) bool { return m["permission"] == "allow" || m["permission"] == "deny" }, "malformed", "a permission answer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, res := r.hook(c.agent, c.event, c.in)
			if !c.want(m) {
				t.Fatalf("answer %v, want %s\nstderr: %s", m, c.wantDesc, res.err)
			}
			if c.stderr != "" && !strings.Contains(res.err, c.stderr) {
				t.Fatalf("stderr %q lacks %q", res.err, c.stderr)
			}
			if res.took > 5*time.Second {
				t.Fatalf("took %s", res.took)
			}
		})
	}
	if got := r.active(); got.ID != s.ID {
		t.Fatalf("bad input changed the active session: %s, want %s", got.ID, s.ID)
	}

	t.Run("unknown agent", func(t *testing.T) {
		res := r.run(r.root, []byte(`{}`), nil, binary, "agent-hook", "windsurf", "Stop")
		if res.code != 2 || res.out != "" || !strings.Contains(res.err, "unknown agent") {
			t.Fatalf("exit %d stdout %q stderr %q, want 2, nothing, the reason", res.code, res.out, res.err)
		}
	})
}

// TestStdinNeverCloses: an agent that never closes stdin gets the
// fail-mode answer within agent_hooks.timeout, not a hang.
func TestStdinNeverCloses(t *testing.T) {
	r := newRepo(t, "agent_hooks:\n  timeout: 300ms\n")
	cmd := exec.Command(binary, "agent-hook", "claude", "PreToolUse")
	cmd.Dir, cmd.Env = r.root, r.env
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	cmd.Stdin = pr
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	// The timeout is read from the config only once the event is read, so
	// the default limit (2 s) applies to a stalled stdin.
	if took := time.Since(start); took > 4*time.Second {
		t.Fatalf("took %s", took)
	}
	m := decodeOne(t, result{out: out.String(), err: errb.String()})
	if m["systemMessage"] == nil || !strings.Contains(errb.String(), "time limit") {
		t.Fatalf("answer %v stderr %q", m, errb.String())
	}
}

// TestDatabaseTrouble: a deleted database is recreated with a clear note;
// an unusable one follows fail_mode (closed denies edits, open allows).
func TestDatabaseTrouble(t *testing.T) {
	t.Run("deleted", func(t *testing.T) {
		r := newRepo(t, "")
		const sid = "claude-deleted"
		r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
		dbDir := filepath.Join(r.root, ".git", "sessiongate")
		if err := os.RemoveAll(dbDir); err != nil {
			t.Fatal(err)
		}
		out, _ := r.hook("claude", "PreToolUse", golden(t, r, "claude", "PreToolUse-Write", sid))
		reason := pathStr(out, "hookSpecificOutput", "permissionDecisionReason")
		if pathStr(out, "hookSpecificOutput", "permissionDecision") != "deny" || !strings.Contains(reason, "missing") || !strings.Contains(out["systemMessage"].(string), "deleted") {
			t.Fatalf("after the database was deleted: %v", out)
		}
		if r.active().State != session.StateInit {
			t.Fatal("no new session in the new database")
		}
	})
	for _, mode := range []string{"closed", "open"} {
		t.Run("unusable "+mode, func(t *testing.T) {
			r := newRepo(t, "agent_hooks:\n  fail_mode: "+mode+"\n")
			notADB := filepath.Join(r.root, "not-a-db")
			writeFile(t, notADB, strings.Repeat("this is not sqlite\n", 200))
			out, _ := r.hook("claude", "PreToolUse", golden(t, r, "claude", "PreToolUse-Write", "claude-unusable"), "SESSIONGATE_DB="+notADB)
			denied := pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny"
			if denied != (mode == "closed") || out["systemMessage"] == nil {
				t.Fatalf("fail_mode %s: %v", mode, out)
			}
			if b, _ := os.ReadFile(notADB); !strings.HasPrefix(string(b), "this is not sqlite") {
				t.Fatal("the unusable file was changed")
			}
		})
	}
}

// TestOtherWorktree: an agent session bound in one worktree that shows up
// in another acts for that worktree's session, and says so.
func TestOtherWorktree(t *testing.T) {
	r := newRepo(t, "")
	const sid = "claude-wt"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
	first := r.active()
	wt := filepath.Join(filepath.Dir(r.root), "wt2")
	r.git("worktree", "add", "-q", "-b", "side", wt)
	in := golden(t, r, "claude", "SessionStart", sid)
	in["cwd"] = wt
	res := r.run(wt, mustJSON(t, in), nil, binary, "agent-hook", "claude", "SessionStart")
	m := decodeOne(t, res)
	ctxText := pathStr(m, "hookSpecificOutput", "additionalContext")
	if !strings.Contains(ctxText, "worktree "+r.root) || strings.Contains(ctxText, first.ID+" resumed") {
		t.Fatalf("context in the second worktree: %q", ctxText)
	}
	// The first worktree's session is untouched.
	if got, err := r.db().GetSession(context.Background(), first.ID); err != nil || got.State != session.StateInit {
		t.Fatalf("first session %+v %v", got, err)
	}
}

// TestProtocolEditedMidSession: the session keeps the protocol it pinned;
// editing the document (by a person) changes nothing for it.
func TestProtocolEditedMidSession(t *testing.T) {
	r := newRepo(t, "")
	const sid = "claude-edit"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), "# Protocol\n\n## Session Start\n\n### Phase 1: Something Else (BLOCKING)\n\n<!-- gate: evidence manual -->\n")
	out, _ := r.hook("claude", "PreToolUse", golden(t, r, "claude", "PreToolUse-Write", sid))
	reason := pathStr(out, "hookSpecificOutput", "permissionDecisionReason")
	if !strings.Contains(reason, "CONTEXT_RETRIEVAL") || strings.Contains(reason, "SOMETHING_ELSE") {
		t.Fatalf("after the protocol changed: %q, want the pinned CONTEXT_RETRIEVAL", reason)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := jsonMarshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
