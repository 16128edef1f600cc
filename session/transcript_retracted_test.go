package session_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestClaudeRetractionAtTheGate (round 26, c3): Claude Code's tombstone
// cut (performRemoveByUuid after a server fallback: the abandoned
// attempt's message row cut in place, the file's tail written back) of
// rows the hook had sealed. Before: TRANSCRIPT_TAMPERED (HIGH). Now the
// gate reads on, with a transcript:claude:retracted event; an edit of a
// sealed row stays TRANSCRIPT_TAMPERED.
func TestClaudeRetractionAtTheGate(t *testing.T) {
	requireGit(t)
	row := func(typ, uuid, body string) string {
		return `{"parentUuid":"p","type":"` + typ + `","message":{"role":"` + typ + `","content":` + body + `},"uuid":"` + uuid + `"}` + "\n"
	}
	ran := row("assistant", "u1", `[{"type":"tool_use","id":"b1","name":"Bash","input":{"command":"sh test.sh"}}]`) +
		row("user", "u2", `[{"tool_use_id":"b1","type":"tool_result","content":"ok","is_error":false}]`)
	abandoned := row("assistant", "u3", `[{"type":"text","text":"an attempt the server fell back from"}]`)
	tests := []struct {
		name      string
		edit      func(p string)
		want      []string
		retracted bool
	}{
		{"honest: the abandoned attempt's row cut by the CLI", func(p string) {
			b, _ := os.ReadFile(p)
			i := bytes.Index(b, []byte(abandoned))
			f, _ := os.OpenFile(p, os.O_RDWR, 0)
			f.Truncate(int64(i)) // the CLI: truncate at the row, write the rest back
			f.WriteAt(b[i+len(abandoned):], int64(i))
			f.Close()
		}, nil, true},
		{"lazy: a sealed result edited", func(p string) {
			b, _ := os.ReadFile(p)
			os.WriteFile(p, bytes.Replace(b, []byte(`"content":"ok"`), []byte(`"content":"no"`), 1), 0o600)
		}, []string{session.CodeTranscriptTampered}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			id := e.start("claude")
			path := filepath.Join(t.TempDir(), "projects", "p", "s.jsonl")
			os.MkdirAll(filepath.Dir(path), 0o700)
			appendTo(t, path, row("user", "u0", `"go"`))
			if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
				t.Fatal(err)
			}
			appendTo(t, path, ran+abandoned+row("assistant", "u4", `[{"type":"text","text":"after"}]`))
			if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil { // seals them
				t.Fatal(err)
			}
			tt.edit(path)
			e.reqStatus(id, txReqRun) // a gate that reads the transcript
			vs, err := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: id})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range vs {
				got = append(got, v.Code)
			}
			evs, _ := e.db.ListEvents(ctx, id, 0, 0)
			retracted := false
			var tok []string
			for _, ev := range evs {
				tok = append(tok, ev.Token)
				retracted = retracted || ev.Token == "transcript:claude:retracted"
			}
			if !slices.Equal(got, tt.want) || retracted != tt.retracted {
				t.Errorf("violations %v (want %v), retracted %v (want %v)\nevents: %s", got, tt.want, retracted, tt.retracted, strings.Join(tok, " "))
			}
		})
	}
}
