package sqlitetest

import (
	"context"
	"os"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestCopiesAreFreshAndSeparate: each copy is an empty, migrated store of
// its own (a write to one is not in another), mode 0600 as store.Open
// makes it, and store.Open accepts it without migrating.
func TestCopiesAreFreshAndSeparate(t *testing.T) {
	ctx := context.Background()
	const id = "6f1c2b9e-0d4a-4c8e-9a51-3b7d2e8f1a00"
	a, pa := Open(t)
	b, pb := Open(t)
	if pa == pb {
		t.Fatalf("two copies share %s", pa)
	}
	if st, err := os.Stat(pa); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("copy mode: %v %v", st, err)
	}
	if err := a.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		return w.CreateSession(ctx, &session.Session{ID: id, RepoID: repo.ID, State: session.StateInit})
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.GetSession(ctx, id); err != nil {
		t.Fatalf("written session not in its copy: %v", err)
	}
	if s, err := b.GetSession(ctx, id); err == nil {
		t.Fatalf("the other copy has the session: %+v", s)
	}
}
