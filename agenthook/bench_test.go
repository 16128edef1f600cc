package agenthook_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sessiongate/sessiongate/agenthook"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// seed adds n ended sessions (8 events each) to the repository's database,
// most of them in other worktrees, like bench/seed.go.
func seed(b *testing.B, r *repo, n int) {
	b.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(r.root, ".git", "sessiongate", "sessiongate.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	start := time.Now().UTC().Add(-time.Duration(n) * time.Hour)
	err = db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, r.root, filepath.Base(r.root))
		if err != nil {
			return err
		}
		for i := range n {
			created := start.Add(time.Duration(i) * time.Hour)
			s := &session.Session{ID: uuid.NewString(), RepoID: repo.ID, Worktree: fmt.Sprintf("%s-wt%d", r.root, i%10),
				Branch: "feature", StartCommit: fmt.Sprintf("%040x", i), ProtocolSHA: fmt.Sprintf("%064x", 1),
				Objective: "seeded", State: session.StateComplete, CreatedAt: created, LastActivity: created,
				ExpiresAt: created.Add(24 * time.Hour), EndedAt: created.Add(time.Hour)}
			if i%10 == 0 {
				s.Worktree = r.root
			}
			if err := w.CreateSession(ctx, s); err != nil {
				return err
			}
			for j := range 8 {
				if err := w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "tool:record_evidence", CreatedAt: created.Add(time.Duration(j) * time.Minute)}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAgentHook times one agent-hook run per Claude Code event inside
// the process (no spawn: bench/agenthooks.sh times whole processes) on a
// database of 10,000 sessions: repository lookup, config, database open,
// binding, the decision and the answer.
func BenchmarkAgentHook(b *testing.B) {
	r := newRepo(b, "")
	seed(b, r, 10000)
	const sid = "bench-session"
	ev := func(name, extra string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":%q%s}`, sid, r.root, name, extra))
	}
	events := []struct {
		name, event string
		in          []byte
	}{
		{"SessionStart", "SessionStart", ev("SessionStart", `,"source":"resume"`)},
		{"UserPromptSubmit", "UserPromptSubmit", ev("UserPromptSubmit", `,"prompt":"benchmark"`)},
		{"PreToolUse-Write", "PreToolUse", ev("PreToolUse", fmt.Sprintf(`,"tool_name":"Write","tool_input":{"file_path":%q},"tool_use_id":"w"`, filepath.Join(r.root, "x.go")))},
		{"PreToolUse-Bash", "PreToolUse", ev("PreToolUse", `,"tool_name":"Bash","tool_input":{"command":"sh test.sh"},"tool_use_id":"b"`)},
		// A Read goes to the hook since issue 25 item 4 (its witness).
		{"PreToolUse-Read", "PreToolUse", ev("PreToolUse", fmt.Sprintf(`,"tool_name":"Read","tool_input":{"file_path":%q},"tool_use_id":"r"`, filepath.Join(r.root, "x.go")))},
		{"PostToolUse-Bash", "PostToolUse", ev("PostToolUse", `,"tool_name":"Bash","tool_input":{"command":"sh test.sh"},"tool_use_id":"b","duration_ms":5,"tool_response":{"stdout":"tests ok","stderr":""}}`)},
		// A failed MCP call (round 25: PostToolUseFailure is installed for
		// MCP and sub-agent calls; it spawns a hook only on a failure).
		{"PostToolUseFailure-MCP", "PostToolUseFailure", ev("PostToolUseFailure", `,"tool_name":"mcp__qa__check","tool_input":{"command":"false"},"tool_use_id":"m","error":"failing"`)},
		{"Stop", "Stop", ev("Stop", `,"stop_hook_active":false`)},
	}
	env := map[string]string{}
	for _, kv := range r.env {
		k, v, _ := bytes.Cut([]byte(kv), []byte("="))
		env[string(k)] = string(v)
	}
	// Like the hook process, leave the database open (a process exit closes
	// it without a WAL checkpoint); the runner closes it past 1 MiB of WAL.
	const leaveOpen = true
	run := func(b *testing.B, event string, in []byte) {
		var out bytes.Buffer
		rn := &agenthook.Runner{Dir: r.root, Getenv: func(k string) string { return env[k] }, Stdin: bytes.NewReader(in), Stdout: &out, Stderr: io.Discard, LeaveOpen: leaveOpen}
		if code := rn.Run(context.Background(), "claude", event); code != 0 || out.Len() == 0 || bytes.Contains(out.Bytes(), []byte("could not check")) {
			b.Fatalf("exit %d, answer %q", code, out.String())
		}
	}
	run(b, "SessionStart", events[0].in) // bind once
	// Every real event names the agent's transcript (transcript_path): the
	// same events with it, checked and bound (once) but never read here.
	env["CLAUDE_CONFIG_DIR"] = filepath.Join(b.TempDir(), ".claude")
	tp := filepath.Join(env["CLAUDE_CONFIG_DIR"], "projects", "-repo", sid+".jsonl")
	for _, e := range events[:len(events):len(events)] {
		in := append([]byte(fmt.Sprintf(`{"transcript_path":%q,`, tp)), e.in[1:]...)
		events = append(events, struct {
			name, event string
			in          []byte
		}{e.name + "+transcript", e.event, in})
	}
	// A long session's transcript (40 MiB when first named) that gains a
	// 4 KiB line before each event: the hook seals what it gained (round 23,
	// transcript/seal.go), never the whole file.
	big := filepath.Join(env["CLAUDE_CONFIG_DIR"], "projects", "-repo", "big.jsonl")
	if err := os.MkdirAll(filepath.Dir(big), 0o755); err != nil {
		b.Fatal(err)
	}
	line := append(bytes.Repeat([]byte("x"), 4095), '\n')
	if err := os.WriteFile(big, bytes.Repeat(line, 40<<20/len(line)), 0o600); err != nil {
		b.Fatal(err)
	}
	for _, e := range events[3:5] { // PreToolUse-Bash, PreToolUse-Read
		in := append([]byte(fmt.Sprintf(`{"transcript_path":%q,`, big)), e.in[1:]...)
		events = append(events, struct {
			name, event string
			in          []byte
		}{e.name + "+transcript-40MiB-growing", e.event, in})
	}
	for _, e := range events {
		b.Run(e.name, func(b *testing.B) {
			grow := bytes.Contains([]byte(e.name), []byte("growing"))
			for b.Loop() {
				if grow {
					f, err := os.OpenFile(big, os.O_APPEND|os.O_WRONLY, 0)
					if err != nil {
						b.Fatal(err)
					}
					f.Write(line)
					f.Close()
				}
				run(b, e.event, e.in)
			}
		})
	}
}
