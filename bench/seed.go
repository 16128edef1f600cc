//go:build ignore

// seed fills a sessiongate database with ended sessions for the hook
// benchmark (bench/hooks.sh): go run bench/seed.go -db PATH -repo ROOT -n 10000.
// It writes through the store package in one transaction, so 10,000
// sessions take seconds; the build tag keeps it out of `go install ./...`.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"path/filepath"
	"time"

	"github.com/google/uuid"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

func main() {
	dbPath := flag.String("db", "", "database file")
	root := flag.String("repo", "", "main worktree of the repository the sessions belong to")
	n := flag.Int("n", 10000, "sessions to create")
	events := flag.Int("events", 8, "events per session")
	flag.Parse()
	if *dbPath == "" || *root == "" {
		log.Fatal("seed: -db and -repo are required")
	}
	ctx := context.Background()
	db, err := store.Open(ctx, *dbPath)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	start := time.Now().UTC().Add(-time.Duration(*n) * time.Hour)
	tokens := []string{"tool:session_start", "tool:record_evidence", "tool:advance_phase", "gate:CONTEXT_RETRIEVAL:pass",
		"hook:pre-commit:pass", "hook:commit-msg:trailer", "hook:post-commit:pass", "tool:session_end"}
	err = db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, *root, filepath.Base(*root))
		if err != nil {
			return err
		}
		for i := range *n {
			created := start.Add(time.Duration(i) * time.Hour)
			s := &session.Session{
				ID: uuid.NewString(), RepoID: repo.ID,
				// Most sessions ran in other worktrees; every tenth in this one.
				Worktree:    fmt.Sprintf("%s-wt%d", *root, i%10),
				Branch:      fmt.Sprintf("feature/%d", i),
				StartCommit: fmt.Sprintf("%040x", i), EndCommit: fmt.Sprintf("%040x", i+1),
				ProtocolSHA: fmt.Sprintf("%064x", 1), Objective: fmt.Sprintf("seeded session %d", i),
				State: session.StateComplete, CreatedAt: created, LastActivity: created.Add(30 * time.Minute),
				ExpiresAt: created.Add(24 * time.Hour), EndedAt: created.Add(45 * time.Minute), Summary: "seeded",
			}
			if i%10 == 0 {
				s.Worktree = *root
			}
			if err := w.CreateSession(ctx, s); err != nil {
				return err
			}
			for j := range *events {
				ev := &session.Event{SessionID: s.ID, Token: tokens[j%len(tokens)], CreatedAt: created.Add(time.Duration(j) * time.Minute)}
				if err := w.AppendEvent(ctx, ev); err != nil {
					return err
				}
			}
			if i%50 == 0 {
				v := &session.Violation{SessionID: s.ID, RepoID: repo.ID, Severity: session.SeverityHigh, Code: "FORCED_ADVANCE",
					Window: session.WindowSession, Message: "seeded", CreatedAt: created.Add(time.Minute)}
				if err := w.AddViolation(ctx, v); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	count, _ := db.CountSessions(ctx, session.SessionFilter{})
	fmt.Printf("seeded %d sessions (%d in the database)\n", *n, count)
}
