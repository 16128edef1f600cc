package session_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/transcript"
)

// TestRenamedCopyAtTheGate plays the lazy agent of issue 25 item 4 that
// renames a rewritten copy over its Claude Code transcript (sed -i,
// os.replace) after a finished call was settled as interrupted by a
// prompt it sent itself. The round 23 review made such a rename
// TRANSCRIPT_TAMPERED at the prompt rule, but a gate that read the
// transcript first took any rename for Claude Code's compaction and read
// the new file from its end, without a violation; the prompt rule after
// it (UnreportedAtGate) then believed the copy's rejection, and the
// session stayed clean (the lazy rows, clean on the old code). A gate now
// judges a rename as the prompt rule does (transcript.ReplacedByCLI), and
// a transcript found tampered settles no call as interrupted. Past the
// size Claude Code compacts, a prompt's settled calls are judged at the
// prompt, before any copy could be renamed in. The honest
// twins: a real interrupt with no rename, and Claude Code's own
// compaction of a transcript past its 5 MiB floor, before or after the
// prompt.
func TestRenamedCopyAtTheGate(t *testing.T) {
	requireGit(t)
	const call = "toolu_write1"
	write := `{"file_path":"notes.md","content":"x\n"}`
	finished := claudeLines(call, "Write", write, "File created successfully at: notes.md", false)
	rejection := `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"` + call + `","type":"tool_result","content":"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.","is_error":true}]},"toolUseResult":"User rejected tool use","toolDenialKind":"user-rejected"}` + "\n" +
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}}` + "\n"
	interrupted := claudeLines(call, "Write", write, "x", true)
	interrupted = interrupted[:strings.Index(interrupted, "\n")+1] + rejection
	// renameCopy writes what the file holds with the call's result turned
	// into the rejection (or kept, for the CLI's compaction) to a copy and
	// renames it over the transcript.
	renameCopy := func(t *testing.T, path string, reject bool) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if reject {
			s = strings.Replace(s, finished[strings.Index(finished, "\n")+1:], rejection, 1)
		}
		if err := os.WriteFile(path+".tmp", []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			t.Fatal(err)
		}
	}
	pad := func(t *testing.T, path string) {
		line := `{"type":"progress","data":"` + strings.Repeat("x", 1<<20) + `"}` + "\n"
		appendTo(t, path, strings.Repeat(line, transcript.ClaudeCompactMin>>20))
	}
	tests := []struct {
		name  string
		large bool   // the transcript holds Claude Code's compaction floor
		steps string // r: the call's result, i: its interruption, h: a hook event, p: the prompt, c: the lazy copy, k: the CLI's compaction
		want  []string
	}{
		{"lazy: finished, prompt, a copy with a rejection renamed over it, gate", false, "rhpc", []string{session.CodeToolResultMissing, session.CodeTranscriptTampered}},
		{"lazy: finished, a copy with a rejection renamed over it, prompt, gate", false, "rhcp", []string{session.CodeToolResultMissing, session.CodeTranscriptTampered}},
		// Past Claude Code's compaction floor the rename is taken for its
		// own (no violation), but a call the prompt settled is judged at
		// the prompt from the transcript the hook sealed: the copy renamed
		// over it afterwards no longer un-finishes it (clean before).
		{"lazy: past 5 MiB, finished, prompt, a copy with a rejection renamed over it, gate", true, "rhpc", []string{session.CodeToolResultMissing}},
		{"honest: interrupted, prompt, gate", false, "ihp", nil},
		{"honest: interrupted, prompt, compacted by the CLI, gate", true, "ihpk", nil},
		{"honest: interrupted, compacted by the CLI, prompt, gate", true, "ihkp", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			id := e.start("claude")
			path := filepath.Join(t.TempDir(), "s.jsonl")
			appendTo(t, path, "{}\n")
			hook := func() {
				t.Helper()
				if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
					t.Fatal(err)
				}
			}
			hook() // binds
			if tt.large {
				pad(t, path)
				hook()
			}
			if err := e.engine.KeepOwedReport(ctx, id, "claude", call, "Write"); err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.steps {
				switch s {
				case 'r':
					appendTo(t, path, finished)
				case 'i':
					appendTo(t, path, interrupted)
				case 'h':
					hook()
				case 'p':
					if err := e.engine.SettleUnreported(ctx, id, "claude", "interrupted"); err != nil {
						t.Fatal(err)
					}
				case 'c':
					renameCopy(t, path, true)
				case 'k':
					renameCopy(t, path, false)
				}
			}
			e.reqStatus(id, txReqRun) // a gate that reads the transcript
			if _, err := e.engine.UnreportedAtGate(ctx, id, "session advance"); err != nil {
				t.Fatal(err)
			}
			vs, err := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: id})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range vs {
				got = append(got, v.Code)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				evs, _ := e.db.ListEvents(ctx, id, 0, 0)
				var tok []string
				for _, ev := range evs {
					tok = append(tok, fmt.Sprintf("%s %.80s", ev.Token, ev.Detail))
				}
				t.Errorf("violations %v, want %v\nevents:\n%s", got, tt.want, strings.Join(tok, "\n"))
			}
		})
	}
}
