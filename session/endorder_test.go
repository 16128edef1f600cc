package session_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// endProtocol's end phase runs a command gate: the script, when given,
// holds the end's gates open while the test records evidence.
func endProtocol(script string) string {
	end := "<!-- gate: evidence manual -->"
	if script != "" {
		end = fmt.Sprintf("<!-- gate: command \"sh %s\" -->", script)
	}
	return "# P\n\n## Session Start\n\n### Phase 1: Context (BLOCKING)\n\n<!-- gate: evidence manual -->\n\n" +
		"## Session End\n\n### Phase 1: Notes (BLOCKING)\n\n" + end + "\n"
}

// TestEvidenceWhileEnding: evidence committed while `session end`'s gates
// ran was dated after ended_at (the end stamped its time first) and the
// end was judged without it (issue 25 leftovers: 11 rows in one run). The
// end now marks the session ending before its gates: evidence arriving
// then is refused ("session is ending"), and the end is stamped as it
// commits, so no evidence row is dated after ended_at and none follows
// the end's event (failed on the old code: the late note was recorded,
// dated after ended_at). Honest twins: evidence recorded before the end is
// judged and the end passes; after an end the gate blocked, evidence is
// taken again and the next end passes.
func TestEvidenceWhileEnding(t *testing.T) {
	requireGit(t)
	ctx := context.Background()
	evidenceCheck := func(t *testing.T, e *env, id string, ended time.Time, want int) {
		t.Helper()
		evs, err := e.db.ListEvidence(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != want {
			t.Errorf("%d evidence rows, want %d", len(evs), want)
		}
		for _, ev := range evs {
			if ev.CreatedAt.After(ended) {
				t.Errorf("evidence %d (%s) dated %s, after ended_at %s", ev.ID, ev.Ref, ev.CreatedAt.Format(time.RFC3339Nano), ended.Format(time.RFC3339Nano))
			}
		}
		toks := e.tokens(id)
		end := -1
		for i, tok := range toks {
			if tok == "tool:session_end" {
				end = i // the last end, the one that ended it
			}
		}
		for _, tok := range toks[end+1:] {
			if end < 0 || tok == "tool:record_evidence" {
				t.Errorf("no end, or evidence after the end's event: %q", toks)
			}
		}
	}

	t.Run("evidence while the end's gates run", func(t *testing.T) {
		dir := t.TempDir()
		started, goOn := filepath.Join(dir, "started"), filepath.Join(dir, "go")
		script := filepath.Join(dir, "hold.sh")
		body := fmt.Sprintf("touch %q\ni=0\nwhile [ ! -f %q ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done\n", started, goOn)
		if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		e := newEnv(t, endProtocol(script))
		e.engine.Now = time.Now
		id := e.start("evidence while ending")
		e.evidence(id, "CONTEXT", session.EvidenceManual, "read the notes")
		if res := e.advance(id); res.State != session.StateWorking {
			t.Fatalf("to WORKING: %+v", res)
		}
		late := make(chan error, 1)
		go func() {
			defer os.WriteFile(goOn, nil, 0o644)
			for i := 0; i < 400; i++ {
				if _, err := os.Stat(started); err == nil {
					_, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT", Kind: session.EvidenceManual, Evidence: "a late note", Ref: "late"})
					late <- err
					return
				}
				time.Sleep(50 * time.Millisecond)
			}
			late <- fmt.Errorf("the end's gate never started")
		}()
		res, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "done"})
		if err != nil || !res.Ended {
			t.Fatalf("end: %+v %v", res, err)
		}
		lateErr := <-late
		if lateErr == nil {
			t.Errorf("evidence recorded while the end's gates ran was accepted")
		} else if !strings.Contains(lateErr.Error(), "is ending") {
			t.Errorf("late evidence refused for another reason: %v", lateErr)
		}
		s, err := e.db.GetSession(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !s.EndingAt.IsZero() {
			t.Errorf("the end's mark stayed: %s", s.EndingAt)
		}
		evidenceCheck(t, e, id, s.EndedAt, 1)
		// After the end: refused as ended.
		if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT", Kind: session.EvidenceManual, Evidence: "later still"}); err == nil {
			t.Errorf("evidence after the end accepted")
		}
	})

	t.Run("honest: blocked end, evidence, end again", func(t *testing.T) {
		e := newEnv(t, endProtocol(""))
		e.engine.Now = time.Now
		id := e.start("honest end")
		e.evidence(id, "CONTEXT", session.EvidenceManual, "read the notes")
		if res := e.advance(id); res.State != session.StateWorking {
			t.Fatalf("to WORKING: %+v", res)
		}
		res, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "done"})
		if err != nil || res.Ended || res.Blocked == nil {
			t.Fatalf("end without the notes: %+v %v, want blocked", res, err)
		}
		// The blocked end cleared its mark: the evidence is taken.
		e.evidence(id, "NOTES", session.EvidenceManual, "handoff written")
		res, err = e.engine.End(ctx, session.EndRequest{ID: id, Summary: "done"})
		if err != nil || !res.Ended {
			t.Fatalf("end with the notes: %+v %v", res, err)
		}
		s, err := e.db.GetSession(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		evidenceCheck(t, e, id, s.EndedAt, 2)
	})
}
