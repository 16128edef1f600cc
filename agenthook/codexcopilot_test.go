package agenthook_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// payloadDir is where the real Codex CLI and Copilot CLI payloads live
// (captured from real runs; ../shared/tools/AGENT-CLIS.md).
var payloadDir = filepath.Join("..", "..", "shared", "fixtures", "agent-payloads")

// payloads lists one folder of real payloads; it skips locally and fails
// under CI=true when the shared fixtures are missing.
func payloads(t *testing.T, folder string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(payloadDir, folder, "*.json"))
	if err == nil && len(files) == 0 {
		err = os.ErrNotExist
	}
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("real %s payloads not available (%v); they live in ../shared/fixtures/agent-payloads/%s", folder, err, folder)
		}
		t.Fatalf("real %s payloads: %v", folder, err)
	}
	return files
}

// TestRealCodexCopilotPayloads runs every captured Codex CLI and Copilot
// CLI payload (both of Copilot's file forms) through the real binary in a
// fresh repository whose session was started by the same agent's
// SessionStart payload: tool calls that write are denied before the start
// gates, in the agent's own answer format; a stop with work done is
// blocked; shell results become observed evidence; transcripts are bound;
// errors are recorded; the rest answers nothing.
func TestRealCodexCopilotPayloads(t *testing.T) {
	type form struct {
		folder, agent, start string
		deny                 func(map[string]any) string // the deny reason, "" when not denied
		context              func(map[string]any) string
	}
	hso := func(k string) func(map[string]any) string {
		return func(m map[string]any) string { return pathStr(m, "hookSpecificOutput", k) }
	}
	top := func(k string) func(map[string]any) string {
		return func(m map[string]any) string { return pathStr(m, k) }
	}
	denyHSO := func(m map[string]any) string {
		if pathStr(m, "hookSpecificOutput", "permissionDecision") != "deny" {
			return ""
		}
		return pathStr(m, "hookSpecificOutput", "permissionDecisionReason")
	}
	denyTop := func(m map[string]any) string {
		if pathStr(m, "permissionDecision") != "deny" {
			return ""
		}
		return pathStr(m, "permissionDecisionReason")
	}
	forms := []form{
		{"codex", "codex", "SessionStart.json", denyHSO, hso("additionalContext")},
		{"copilot", "copilot", "sessionStart.json", denyTop, top("additionalContext")},
		// PascalCase file: both deny forms are written; context top-level.
		{"copilot-pascalcase", "copilot", "SessionStart.json", denyHSO, top("additionalContext")},
	}
	n := 0
	for _, f := range forms {
		for _, file := range payloads(t, f.folder) {
			base := filepath.Base(file)
			event, _, _ := strings.Cut(base, ".")
			t.Run(f.folder+"/"+base, func(t *testing.T) {
				n++
				r := newRepo(t, "")
				home := filepath.Join(filepath.Dir(r.root), "home")
				codexHome := filepath.Join(filepath.Dir(r.root), "codex-home")
				env := []string{"CODEX_HOME=" + codexHome, "COPILOT_HOME=" + filepath.Join(home, ".copilot")}
				load := func(p string) []byte {
					b, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					s := strings.NewReplacer("/home/dev/repo", r.root, "/home/dev/codex-home", codexHome, "/home/dev/home", home).Replace(string(b))
					return []byte(s)
				}
				startEvent, _, _ := strings.Cut(f.start, ".")
				start, _ := r.hook(f.agent, startEvent, load(filepath.Join(payloadDir, f.folder, f.start)), env...)
				if c := f.context(start); !strings.Contains(c, "CONTEXT_RETRIEVAL") {
					t.Fatalf("%s: no session context in %v", f.start, start)
				}
				s := r.active()
				// Work in the worktree, so that a stop has something to block.
				writeFile(t, filepath.Join(r.root, "work.txt"), "work\n")
				out, res := r.hook(f.agent, event, load(file), env...)
				ctx := context.Background()
				lower := strings.ToLower(base)
				switch {
				case strings.HasPrefix(lower, "pretooluse."):
					if why := f.deny(out); !strings.Contains(why, "CONTEXT_RETRIEVAL") {
						t.Fatalf("a tool call that writes, before the start gates: %v, want denied with the gate\nstderr: %s", out, res.err)
					}
				case strings.HasPrefix(lower, "stop.") || strings.HasPrefix(lower, "agentstop."):
					if out["decision"] != "block" || !strings.Contains(pathStr(out, "reason"), "stop blocked 1 of") {
						t.Fatalf("a stop with work and the end protocol undone: %v, want blocked\nstderr: %s", out, res.err)
					}
				case lower == "sessionstart.json":
					if f.context(out) == "" {
						t.Fatalf("session start: %v, want context", out)
					}
				default:
					if f.deny(out) != "" || out["decision"] != nil {
						t.Fatalf("%s: %v, want neither deny nor block", base, out)
					}
				}
				if strings.HasPrefix(lower, "posttooluse.bash") {
					evs, err := r.db().ListEvidence(ctx, s.ID)
					if err != nil || len(evs) != 1 || !evs[0].Observed() || !evs[0].Succeeded() || !strings.HasPrefix(evs[0].Command, "echo hello-from-shell") || evs[0].Source != f.agent {
						t.Fatalf("observed evidence of the shell command: %+v %v", evs, err)
					}
				}
				// Events that reach the session (no-op events, SessionEnd and
				// a post-tool of a non-shell tool return before the database).
				binds := map[string]bool{"SessionStart": true, "UserPromptSubmit": true, "PreToolUse": true, "Stop": true, "agentStop": true}[event] ||
					strings.HasPrefix(lower, "posttooluse.bash")
				if binds && strings.Contains(string(load(file)), "ranscript") {
					ts, err := r.db().SessionTranscripts(ctx, s.ID)
					// The payload's own transcript (a fixture may come from
					// another run than the SessionStart one).
					found := false
					for _, tr := range ts {
						found = found || tr.Agent == f.agent && strings.HasSuffix(tr.Path, ".jsonl") && strings.Contains(string(load(file)), tr.Path)
					}
					if err != nil || !found {
						t.Fatalf("transcript of the payload not bound: %+v %v\nstderr: %s", ts, err, res.err)
					}
				}
				if event == "errorOccurred" {
					evs, err := r.db().ListEvents(ctx, s.ID, 0, 0)
					found := false
					for _, e := range evs {
						found = found || e.Token == "agent:copilot:error" && strings.Contains(e.Detail, "model_call") && strings.Contains(e.Detail, "STUB_HTTP_ERROR_MARKER")
					}
					if err != nil || !found {
						t.Fatalf("errorOccurred not recorded: %+v %v", evs, err)
					}
				}
			})
		}
	}
}
