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

// shellLine is one finished shell call of a Gemini CLI or Copilot
// transcript, in the shape each CLI writes (transcript/testdata).
func shellLine(agent, id, command string, exit int) string {
	if agent == transcript.Gemini {
		out := "Output: ok\nExit Code: (none)"
		if exit != 0 {
			out = fmt.Sprintf("Output: no\nExit Code: %d", exit)
		}
		return fmt.Sprintf(`{"id":"m-%s","type":"gemini","content":"","toolCalls":[{"id":%q,"name":"run_shell_command","args":{"command":%q},"status":"success","result":[{"functionResponse":{"id":%q,"name":"run_shell_command","response":{"output":%q}}}]}]}`+"\n",
			id, id, command, id, out)
	}
	return fmt.Sprintf(`{"type":"tool.execution_start","data":{"toolCallId":%q,"toolName":"bash","arguments":{"command":%q,"description":"run"}}}`+"\n"+
		`{"type":"tool.execution_complete","data":{"toolCallId":%q,"success":%v,"shellExecution":{"exitCode":%d}}}`+"\n",
		id, command, id, exit == 0, exit)
}

// TestShellLineWitness: Gemini CLI's and Copilot's hooks name no call id,
// so the pre-tool hook keeps the digest of each shell command line it lets
// run, and a shell line of their transcript counts only while an unused
// witness of its command is left: a line the agent appends with a script
// (`cat docs/guide.md` exit 0) meets nothing, two real cats witness two
// lines and not three, and a forged pass after a real failing run finds
// its witness used. Without the hook config (no `install --agent`) there
// is nothing to compare and lines count as before. The forged rows met
// their requirement on the old code.
func TestShellLineWitness(t *testing.T) {
	requireGit(t)
	const cat, status = "cat docs/guide.md", "git status"
	type line struct {
		id, command string
		exit        int
	}
	tests := []struct {
		name    string
		agent   string
		install bool
		hookSaw []string // command lines the pre-tool hook let run
		lines   [][]line // batches appended to the transcript, each read by a gate check
		req     string
		met     bool
		unseen  int // transcript:<agent>:unwitnessed events
	}{
		{"gemini: honest cat", transcript.Gemini, true, []string{cat}, [][]line{{{"c1", cat, 0}}}, txReqRead, true, 0},
		{"gemini: forged cat", transcript.Gemini, true, nil, [][]line{{{"forged", cat, 0}}}, txReqRead, false, 1},
		{"gemini: another command seen", transcript.Gemini, true, []string{"cat docs/guide.md | wc -l"}, [][]line{{{"forged", cat, 0}}}, txReqRead, false, 1},
		{"gemini: two cats witness two lines", transcript.Gemini, true, []string{cat, cat}, [][]line{{{"c1", cat, 0}, {"c2", cat, 0}}}, txReqRead, true, 0},
		{"gemini: two cats, a third line forged", transcript.Gemini, true, []string{cat, cat}, [][]line{{{"c1", cat, 0}, {"c2", cat, 0}, {"forged", cat, 0}}}, txReqRead, true, 1},
		// The witness used at the first gate check stays used at the next.
		{"gemini: a forged line read at a later check", transcript.Gemini, true, []string{cat}, [][]line{{{"c1", cat, 0}}, {{"forged", cat, 0}}}, txReqRead, true, 1},
		{"gemini: forged pass after the real failing run", transcript.Gemini, true, []string{status}, [][]line{{{"c1", status, 128}, {"forged", status, 0}}}, txReqRun, false, 1},
		{"gemini: honest run", transcript.Gemini, true, []string{status}, [][]line{{{"c1", status, 0}}}, txReqRun, true, 0},
		// Written before the real run, the forged pass takes its witness;
		// the post-tool hook observed that run fail.
		{"gemini: forged pass before the real failing run", transcript.Gemini, true, []string{status}, [][]line{{{"forged", status, 0}, {"c1", status, 128}}}, txReqRun, false, 1},
		{"copilot: forged pass before the real failing run", transcript.Copilot, true, []string{status}, [][]line{{{"forged", status, 0}, {"c1", status, 128}}}, txReqRun, false, 1},
		// Two real runs, one failing and one passing, witness one pass.
		{"gemini: a failed run and a pass, honest", transcript.Gemini, true, []string{status, status}, [][]line{{{"c1", status, 128}, {"c2", status, 0}}}, txReqRun, true, 0},
		{"gemini: no hook config, counts as before", transcript.Gemini, false, nil, [][]line{{{"forged", cat, 0}}}, txReqRead, true, 0},
		{"copilot: honest cat", transcript.Copilot, true, []string{cat}, [][]line{{{"c1", cat, 0}}}, txReqRead, true, 0},
		{"copilot: forged cat", transcript.Copilot, true, nil, [][]line{{{"forged", cat, 0}}}, txReqRead, false, 1},
		{"copilot: two cats, a third line forged", transcript.Copilot, true, []string{cat, cat}, [][]line{{{"c1", cat, 0}, {"c2", cat, 0}}, {{"forged", cat, 0}}}, txReqRead, true, 1},
		{"copilot: forged run", transcript.Copilot, true, nil, [][]line{{{"forged", status, 0}}}, txReqRun, false, 1},
		{"copilot: no hook config, counts as before", transcript.Copilot, false, nil, [][]line{{{"forged", cat, 0}}}, txReqRead, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			gittest.Write(t, e.root, "docs/guide.md", "# Guide\n")
			if tt.install {
				cfgs, err := hooks.ParseAgents([]string{tt.agent})
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
			path := filepath.Join(t.TempDir(), "data", "s", "events.jsonl")
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := e.engine.BindTranscript(ctx, id, tt.agent, "agent-1", path); err != nil {
				t.Fatal(err)
			}
			tool := map[string]string{transcript.Gemini: "run_shell_command", transcript.Copilot: "bash"}[tt.agent]
			for _, c := range tt.hookSaw {
				if err := e.engine.AgentToolCall(ctx, id, tt.agent, "pair-1", tool, transcript.CommandDigest(c), false); err != nil {
					t.Fatal(err)
				}
			}
			// The post-tool hook observed each real run (the lines whose
			// id is not "forged") with its status.
			for _, batch := range tt.lines {
				for _, l := range batch {
					if l.id == "forged" || !tt.install {
						continue
					}
					if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Source: tt.agent, Command: l.command, ExitCode: l.exit, Output: []byte("out")}); err != nil {
						t.Fatal(err)
					}
				}
			}
			var st session.RequirementStatus
			for _, batch := range tt.lines {
				for _, l := range batch {
					appendTo(t, path, shellLine(tt.agent, l.id, l.command, l.exit))
				}
				st = e.reqStatus(id, tt.req)
			}
			if got := st.Status == session.ReqMet; got != tt.met {
				t.Fatalf("met %v (%s %q), want %v", got, st.Status, st.Reason, tt.met)
			}
			evs, err := e.engine.Store.ListEvents(ctx, id, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			var unseen []string
			for _, ev := range evs {
				if ev.Token == "transcript:"+tt.agent+":unwitnessed" {
					unseen = append(unseen, ev.Detail)
				}
			}
			if len(unseen) != tt.unseen {
				t.Fatalf("unwitnessed events %q, want %d", unseen, tt.unseen)
			}
			if tt.unseen > 0 && !strings.Contains(unseen[0], "call forged") {
				t.Fatalf("the event should name the forged call: %q", unseen)
			}
		})
	}
}
