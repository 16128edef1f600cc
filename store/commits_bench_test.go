package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// BenchmarkCommitLookup is what reconciliation asks of the store on every
// commit, in a long agent session: 5,000 observed commands and 200 commits
// recorded as evidence. "targeted" is the lookup of HEAD and its parent
// (the common case), "all" every recorded commit (after a bypass), and
// "before" the query this replaced, which read the session's evidence
// through evidence_session (the kinds bound as parameters, so SQLite could
// not use the partial index evidence_commits).
//
//	go test ./store -run '^$' -bench CommitLookup -benchtime 2000x -count 3
func BenchmarkCommitLookup(b *testing.B) {
	db := openTest(b)
	ctx := context.Background()
	s := newSession(b, db, "/r")
	t0 := time.Unix(1_700_000_000, 0)
	update(b, db, func(w session.Writer) error {
		for i := range 5200 {
			e := &session.Evidence{SessionID: s.ID, Kind: session.EvidenceToolOutput, Origin: session.OriginObserved,
				Ref: fmt.Sprintf("go test ./pkg%d", i), Command: "go test", CreatedAt: t0}
			if i%26 == 0 {
				e.Kind, e.Ref, e.Command = session.EvidenceCommitSHA, fmt.Sprintf("%040d", i), ""
			}
			if err := w.AddEvidence(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	head, parent := fmt.Sprintf("%040d", 5200), fmt.Sprintf("%040d", 26*199)
	before := `SELECT ref FROM evidence WHERE session_id = ? AND kind IN (?, ?) AND origin = ?`
	for _, c := range []struct {
		name string
		run  func() (map[string]bool, error)
		want int
	}{
		{"targeted", func() (map[string]bool, error) { return db.RecordedCommits(ctx, s.ID, head, parent) }, 1},
		{"all", func() (map[string]bool, error) { return db.RecordedCommits(ctx, s.ID) }, 200},
		{"before", func() (map[string]bool, error) {
			rows, err := db.reader.query(ctx, before, s.ID, session.EvidenceCommitSHA, session.EvidenceBypassCommit, session.OriginObserved)
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			out := map[string]bool{}
			for rows.Next() {
				var ref string
				if err := rows.Scan(&ref); err != nil {
					return nil, err
				}
				out[ref] = true
			}
			return out, rows.Err()
		}, 200},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				got, err := c.run()
				if err != nil || len(got) != c.want {
					b.Fatalf("%d commits, %v; want %d", len(got), err, c.want)
				}
			}
		})
	}
}

// BenchmarkPreCommitPasses is the other lookup of every commit: the
// pre-commit passes among the session's last 200 events (to match the
// commit's tree), filtered in SQLite ("passes") against reading all 200
// events into Go ("all 200", what it did before).
//
//	go test ./store -run '^$' -bench PreCommitPasses -benchtime 2000x -count 3
func BenchmarkPreCommitPasses(b *testing.B) {
	db := openTest(b)
	ctx := context.Background()
	s := newSession(b, db, "/r")
	update(b, db, func(w session.Writer) error {
		for i := range 1000 {
			e := &session.Event{SessionID: s.ID, Token: "agent:claude:tool", Detail: `{"tool":"Bash","command":"go test ./..."}`}
			if i%20 == 0 {
				e.Token, e.Detail = session.TokPreCommitPass, fmt.Sprintf(`{"tree":"%040d"}`, i)
			}
			if err := w.AppendEvent(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	for _, c := range []struct {
		name   string
		tokens []string
		want   int
	}{
		{"passes", []string{session.TokPreCommitPass, session.TokPreCommitEscape}, 10},
		{"all 200", nil, 200},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				evs, err := db.LastEvents(ctx, s.ID, 200, c.tokens...)
				if err != nil || len(evs) != c.want {
					b.Fatalf("%d events, %v; want %d", len(evs), err, c.want)
				}
			}
		})
	}
}

// BenchmarkLatestSnapshot is the snapshot id every allowed commit's
// trailers carry, in a session that has advanced through 8 phases while
// recording 5,000 observed commands: a snapshot's payload lists every
// piece of evidence so far. "id" is LatestSnapshotID, "all payloads" the
// ListSnapshots it replaced.
//
//	go test ./store -run '^$' -bench LatestSnapshot -benchtime 200x -count 3
func BenchmarkLatestSnapshot(b *testing.B) {
	db := openTest(b)
	ctx := context.Background()
	s := newSession(b, db, "/r")
	const ref = `{"phase":"IMPLEMENTATION","kind":"tool_output","sha256":"sha256:0000000000000000000000000000000000000000000000000000000000000000","origin":"observed","exit_code":0},`
	update(b, db, func(w session.Writer) error {
		for i := range 8 {
			payload := []byte("[" + strings.Repeat(ref, 5000*(i+1)/8) + "{}]")
			if err := w.AddSnapshot(ctx, &session.Snapshot{SessionID: s.ID, SnapshotID: fmt.Sprintf("sha256:%d", i), Payload: payload}); err != nil {
				return err
			}
		}
		return nil
	})
	for _, c := range []struct {
		name string
		run  func() (string, error)
	}{
		{"id", func() (string, error) { return db.LatestSnapshotID(ctx, s.ID) }},
		{"all payloads", func() (string, error) {
			snaps, err := db.ListSnapshots(ctx, s.ID)
			if err != nil || len(snaps) == 0 {
				return "", err
			}
			return snaps[len(snaps)-1].SnapshotID, nil
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if got, err := c.run(); err != nil || got != "sha256:7" {
					b.Fatalf("%q, %v; want sha256:7", got, err)
				}
			}
		})
	}
}
