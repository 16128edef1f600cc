package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestSecretsNeverStored: what callers write is redacted on the way in,
// and migration scrub_secrets redacts what an older version stored, leaving
// no bytes of it in the database file or its WAL.
func TestSecretsNeverStored(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sg.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	sid := "123e4567-e89b-42d3-a456-426614174000"
	err = db.Update(ctx, func(w session.Writer) error {
		r, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		now := time.Now()
		if err := w.CreateSession(ctx, &session.Session{ID: sid, RepoID: r.ID, Worktree: "/r", State: session.StateWorking, Objective: "rotate token=hunter2a", CreatedAt: now}); err != nil {
			return err
		}
		if err := w.AddEvidence(ctx, &session.Evidence{SessionID: sid, Phase: "P", Kind: "manual", SHA256: "x", Ref: "password=hunter2b", CreatedAt: now}); err != nil {
			return err
		}
		if err := w.AppendEvent(ctx, &session.Event{SessionID: sid, Token: "t", Detail: `{"reason":"api_key=hunter2c"}`, CreatedAt: now}); err != nil {
			return err
		}
		return w.AddViolation(ctx, &session.Violation{SessionID: sid, Code: "X", Severity: "LOW", Window: "session", Message: "SESSIONGATE_BYPASS=Bearer hunter2d-abcdef", CreatedAt: now})
	})
	if err != nil {
		t.Fatal(err)
	}
	// What an older version stored: raw, behind the redaction.
	for _, q := range []string{
		// Undo 0020 (the open calls' counts) and 0019 (the open calls' index).
		`DROP TRIGGER open_calls_judged`, `DROP TRIGGER open_calls_closed`, `DROP TABLE open_calls`,
		`DROP INDEX events_calls`,
		// Undo 0017 (change fingerprints) first: dropping a column rewrites
		// the table, which would leave a copy of the rows set below in
		// free pages that the scrub of 7 never saw.
		`ALTER TABLE evidence DROP COLUMN change`,
		// Undo 0018 (the not-applicable marks' index).
		`DROP INDEX evidence_na_marks`,
		`UPDATE evidence SET ref = 'first line password=hunter2e'`,
		`INSERT INTO evidence (session_id, phase, step, kind, sha256, ref, size, created_at) VALUES ('` + sid + `', 'P', '', 'manual', 'y', 'my note: call Bob', 9, 1)`,
		`INSERT INTO evidence (session_id, phase, step, kind, sha256, ref, size, created_at) VALUES ('` + sid + `', 'P', 'condition', 'manual', 'z', 'docs only change', 9, 1)`,
		`UPDATE events SET detail = '{"reason":"api_key=hunter2f"}'`,
		`UPDATE violations SET message = 'AKIAIOSFODNN7HUNTER2 leaked'`,
		`UPDATE sessions SET summary = 'used secret: hunter2g'`,
		// Undo 0016 (session ending), 0015 (gate repeats), 0014 (overview counts), 0013 (commit actors), 0012 (agent
		// transcripts), 0011 (gate evidence indexes), 0010 (commit evidence
		// index), 0009 (dashboard counts) and 0008 (identity), which the
		// reopen applies again after 7.
		`ALTER TABLE sessions DROP COLUMN ending_at`,
		`DROP TABLE gate_repeats`,
		`DROP TRIGGER sessions_violated_insert`, `DROP TRIGGER sessions_violated_delete`, `DROP TRIGGER sessions_violated_update`,
		`DROP TRIGGER violations_count_insert`, `DROP TRIGGER violations_count_delete`, `DROP TABLE overview_counts`,
		`DROP TABLE commit_actors`,
		`DROP TABLE agent_transcripts`,
		`DROP INDEX evidence_commits`, `DROP INDEX evidence_phase`, `DROP INDEX evidence_content_hash`,
		`DROP TRIGGER sessions_day_insert`, `DROP TRIGGER sessions_day_delete`, `DROP TRIGGER sessions_day_update`,
		`DROP TRIGGER sessions_protocol_insert`, `DROP TRIGGER sessions_protocol_delete`, `DROP TRIGGER sessions_protocol_update`,
		`DROP TABLE session_day_counts`, `DROP TABLE protocol_session_counts`,
		`DROP INDEX repositories_origin`, `DROP INDEX sessions_user_email_created`,
		`DROP INDEX sessions_user_name_created`, `DROP INDEX sessions_host_created`,
		`ALTER TABLE repositories DROP COLUMN origin`, `ALTER TABLE sessions DROP COLUMN user_name`,
		`ALTER TABLE sessions DROP COLUMN user_email`, `ALTER TABLE sessions DROP COLUMN host`,
		`PRAGMA user_version = 6`,
	} {
		if _, err := db.writer.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	db, err = Open(ctx, path) // migrates 6 -> 7: scrub_secrets
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := db.ListEvidence(ctx, sid)
	refs := map[string]bool{}
	for _, e := range evs {
		refs[e.Ref] = true
	}
	if !refs[""] || refs["my note: call Bob"] || !refs["docs only change"] {
		t.Errorf("manual refs after the migration: %v (first lines dropped, condition reasons kept)", refs)
	}
	vs, _ := db.ListViolations(ctx, session.ViolationFilter{SessionID: sid})
	if len(vs) != 1 || vs[0].Message != "[redacted] leaked" {
		t.Errorf("violation %+v", vs)
	}
	db.Close()
	for _, f := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if i := bytes.Index(b, []byte("hunter2")); i >= 0 {
			t.Errorf("%s still holds a secret: %q", filepath.Base(f), b[max(0, i-20):min(len(b), i+20)])
		}
	}
}
