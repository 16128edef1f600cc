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
)

// TestGeminiRewriteAtTheGate (round 25, c2): Gemini CLI 0.61's own rewrite
// of its chat recording (rewriteConversationFile: the file renamed aside
// to `<file>.unreadable-<ms>`, `<file>.tmp-<pid>` renamed over the path)
// met by a gate that reads the transcript. It was a HIGH
// TRANSCRIPT_TAMPERED (verify fails) on honest work; now the gate records
// `transcript:gemini:replaced` and reads on from the new file's end. The
// lazy twin, a copy renamed over with nothing set aside, stays tampering.
func TestGeminiRewriteAtTheGate(t *testing.T) {
	requireGit(t)
	const head = `{"sessionId":"s1","projectHash":"p","startTime":"2026-12-01T12:00:00Z"}` + "\n"
	const msg = `{"id":"m1","timestamp":"2026-12-01T12:00:01Z","type":"user","content":[{"text":"go"}]}` + "\n"
	tests := []struct {
		name    string
		aside   bool // the sealed file renamed aside first, as the CLI does
		want    []string
		replace bool // a transcript:gemini:replaced event
	}{
		{"honest: Gemini CLI's rewriteConversationFile", true, nil, true},
		{"lazy: a copy renamed over, nothing set aside", false, []string{session.CodeTranscriptTampered}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			id := e.start("gemini")
			path := filepath.Join(t.TempDir(), "session-2026-12-01T12-00-s1.jsonl")
			appendTo(t, path, head)
			if err := e.engine.BindTranscript(ctx, id, "gemini", "agent-1", path); err != nil {
				t.Fatal(err)
			}
			appendTo(t, path, msg)
			if err := e.engine.BindTranscript(ctx, id, "gemini", "agent-1", path); err != nil { // seals msg
				t.Fatal(err)
			}
			if tt.aside {
				if err := os.Rename(path, fmt.Sprintf("%s.unreadable-%d", path, 1764590400123)); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(path+".tmp-4242", []byte(head+msg), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(path+".tmp-4242", path); err != nil {
				t.Fatal(err)
			}
			e.reqStatus(id, txReqRun) // a gate that reads the transcript
			vs, err := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: id})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range vs {
				got = append(got, v.Code)
			}
			slices.Sort(got)
			evs, _ := e.db.ListEvents(ctx, id, 0, 0)
			var tok []string
			replaced := false
			for _, ev := range evs {
				tok = append(tok, fmt.Sprintf("%s %.80s", ev.Token, ev.Detail))
				replaced = replaced || ev.Token == "transcript:gemini:replaced"
			}
			if !slices.Equal(got, tt.want) || replaced != tt.replace {
				t.Errorf("violations %v (want %v), replaced %v (want %v)\nevents:\n%s", got, tt.want, replaced, tt.replace, strings.Join(tok, "\n"))
			}
		})
	}
}
