package session_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/hooks"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/transcript"
)

// TestGeminiReadFileWitness: Gemini CLI's read_file is witnessed by the
// path it read (issue 25): a read_file line the agent appends to its chat
// recording met "read docs/guide.md" before (with the real CLI too:
// internal/agenttest.TestGeminiForgedTranscriptLines); now it counts only
// while the BeforeTool hook's witness of the same path is unused. Without
// the hook config lines count as before.
func TestGeminiReadFileWitness(t *testing.T) {
	requireGit(t)
	const guide = "docs/guide.md"
	readLine := func(id string) string {
		return fmt.Sprintf(`{"id":"m-%s","type":"gemini","content":"","toolCalls":[{"id":%q,"name":"read_file","args":{"file_path":%q},"status":"success","result":[{"functionResponse":{"id":%q,"name":"read_file","response":{"output":"# Guide"}}}]}]}`+"\n", id, id, guide, id)
	}
	tests := []struct {
		name    string
		install bool
		hookSaw []string // paths the BeforeTool hook saw read
		lines   []string // read_file call ids in the recording
		met     bool
		unseen  int
	}{
		{"honest read_file", true, []string{guide}, []string{"r1"}, true, 0},
		{"forged read_file", true, nil, []string{"forged"}, false, 1},
		{"another file read", true, []string{"README.md"}, []string{"forged"}, false, 1},
		{"one read, a second line forged", true, []string{guide}, []string{"r1", "forged"}, true, 1},
		{"no hook config, counts as before", false, nil, []string{"forged"}, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			gittest.Write(t, e.root, guide, "# Guide\n")
			if tt.install {
				cfgs, err := hooks.ParseAgents([]string{transcript.Gemini})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := hooks.InstallAgents(e.root, cfgs); err != nil {
					t.Fatal(err)
				}
			}
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "guide and hooks")
			id := e.start("witness")
			path := filepath.Join(t.TempDir(), "data", "s", "chat.jsonl")
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := e.engine.BindTranscript(ctx, id, transcript.Gemini, "agent-1", path); err != nil {
				t.Fatal(err)
			}
			for _, p := range tt.hookSaw {
				if err := e.engine.AgentToolCall(ctx, id, transcript.Gemini, "pair-1", "read_file", transcript.ReadDigest(p), false); err != nil {
					t.Fatal(err)
				}
			}
			for _, l := range tt.lines {
				appendTo(t, path, readLine(l))
			}
			st := e.reqStatus(id, txReqRead)
			if got := st.Status == session.ReqMet; got != tt.met {
				t.Fatalf("met %v (%s %q), want %v", got, st.Status, st.Reason, tt.met)
			}
			evs, err := e.engine.Store.ListEvents(ctx, id, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			unseen := 0
			for _, ev := range evs {
				if ev.Token == "transcript:gemini:unwitnessed" {
					unseen++
				}
			}
			if unseen != tt.unseen {
				t.Errorf("%d unwitnessed events, want %d", unseen, tt.unseen)
			}
		})
	}
}

// TestCopilotViewWitness: Copilot CLI's view tool is witnessed by the path
// it read, as Gemini CLI's read_file is: a view line the agent appends to
// its events.jsonl met "read docs/guide.md" before; now it counts only
// while the preToolUse hook's witness of the same path is unused. A hook
// file written before view was routed to the hook (its matcher lacks view)
// leaves lines counting as before: nothing to compare.
func TestCopilotViewWitness(t *testing.T) {
	requireGit(t)
	const guide = "docs/guide.md"
	viewLine := func(id, path string) string {
		return fmt.Sprintf(`{"type":"tool.execution_start","data":{"toolCallId":%q,"toolName":"view","arguments":{"path":%q}}}`+"\n"+
			`{"type":"tool.execution_complete","data":{"toolCallId":%q,"success":true,"result":{"content":"# Guide"}}}`+"\n", id, path, id)
	}
	tests := []struct {
		name    string
		hooks   string // "new", "old" (matcher without view), "" (none)
		hookSaw []string
		lines   []string
		met     bool
		unseen  int
	}{
		{"honest view", "new", []string{guide}, []string{"v1"}, true, 0},
		{"forged view", "new", nil, []string{"forged"}, false, 1},
		{"another file viewed", "new", []string{"README.md"}, []string{"forged"}, false, 1},
		{"one view, a second line forged", "new", []string{guide}, []string{"v1", "forged"}, true, 1},
		{"two views witness two lines", "new", []string{guide, guide}, []string{"v1", "v2"}, true, 0},
		{"hook file without view, counts as before", "old", nil, []string{"forged"}, true, 0},
		{"no hook config, counts as before", "", nil, []string{"forged"}, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			gittest.Write(t, e.root, guide, "# Guide\n")
			if tt.hooks != "" {
				cfgs, err := hooks.ParseAgents([]string{transcript.Copilot})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := hooks.InstallAgents(e.root, cfgs); err != nil {
					t.Fatal(err)
				}
				if tt.hooks == "old" {
					p := filepath.Join(e.root, ".github", "hooks", "sessiongate.json")
					b, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					old := strings.Replace(string(b), "apply_patch|view|", "apply_patch|", 1)
					if old == string(b) {
						t.Fatalf("the installed matcher routes no view: %s", b)
					}
					gittest.Write(t, e.root, ".github/hooks/sessiongate.json", old)
				}
			}
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "guide and hooks")
			id := e.start("witness")
			path := filepath.Join(t.TempDir(), "data", "s", "events.jsonl")
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := e.engine.BindTranscript(ctx, id, transcript.Copilot, "agent-1", path); err != nil {
				t.Fatal(err)
			}
			// Copilot names the path absolute, in the hook and in events.jsonl.
			abs := func(rel string) string { return filepath.Join(e.root, filepath.FromSlash(rel)) }
			for _, p := range tt.hookSaw {
				if err := e.engine.AgentToolCall(ctx, id, transcript.Copilot, "pair-1", "view", transcript.ReadDigest(abs(p)), false); err != nil {
					t.Fatal(err)
				}
			}
			for _, l := range tt.lines {
				appendTo(t, path, viewLine(l, abs(guide)))
			}
			st := e.reqStatus(id, txReqRead)
			if got := st.Status == session.ReqMet; got != tt.met {
				t.Fatalf("met %v (%s %q), want %v", got, st.Status, st.Reason, tt.met)
			}
			evs, err := e.engine.Store.ListEvents(ctx, id, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			unseen := 0
			for _, ev := range evs {
				if ev.Token == "transcript:copilot:unwitnessed" {
					unseen++
				}
			}
			if unseen != tt.unseen {
				t.Errorf("%d unwitnessed events, want %d", unseen, tt.unseen)
			}
		})
	}
}
