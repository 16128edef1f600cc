package session_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestAcceptanceBackedByGit: a database row trusts a protected file's
// content only when git backs it (HEAD holds that content, or an
// acceptance on the records ref names it). An agent that INSERTs a row for
// its weakened protocol gets PROTECTED_CHANGE; a person's accept, and a
// committed accepted change, keep passing.
func TestAcceptanceBackedByGit(t *testing.T) {
	t.Parallel()
	const weak = "# P\n\n## Session Start\n\n### Phase 1: Nothing (OPTIONAL)\n\nThe agent MAY look.\n"
	cases := []struct {
		name    string
		change  func(t *testing.T, e *env)
		refused string // "" when nothing is left to accept
	}{
		{"a person accepts: the acceptance is on the records ref", func(t *testing.T, e *env) {
			gittest.Write(t, e.root, "SESSION-PROTOCOL.md", weak)
			accept(t, e)
		}, ""},
		{"accepted, then committed, then the records ref is gone: HEAD backs it", func(t *testing.T, e *env) {
			gittest.Write(t, e.root, "SESSION-PROTOCOL.md", weak)
			accept(t, e)
			gittest.Git(t, e.root, "add", "SESSION-PROTOCOL.md")
			gittest.Git(t, e.root, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "protocol v2")
			gittest.Git(t, e.root, "update-ref", "-d", session.DefaultRecordsRef)
		}, ""},
		{"a row inserted into the database for a weakened protocol", func(t *testing.T, e *env) {
			gittest.Write(t, e.root, "SESSION-PROTOCOL.md", weak)
			insertRow(t, e, "SESSION-PROTOCOL.md", weak, session.TrustAccept)
		}, "accepted only in the local database"},
		{"a first-use row inserted for it", func(t *testing.T, e *env) {
			gittest.Write(t, e.root, "SESSION-PROTOCOL.md", weak)
			insertRow(t, e, "SESSION-PROTOCOL.md", weak, session.TrustFirstUse)
		}, "accepted only in the local database"},
		{"accepted, then the acceptance deleted from git (uncommitted change)", func(t *testing.T, e *env) {
			gittest.Write(t, e.root, "SESSION-PROTOCOL.md", weak)
			accept(t, e)
			gittest.Git(t, e.root, "update-ref", "-d", session.DefaultRecordsRef)
		}, "accepted only in the local database"},
		{"an uncommitted hook config trusted by first use (install before the first commit)", func(t *testing.T, e *env) {
			// first use ran before the file existed; a new first use (the
			// database deleted) trusts it as found, and git has nothing to add.
			insertRow(t, e, ".mcp.json", "{}\n", session.TrustFirstUse)
			gittest.Write(t, e.root, ".mcp.json", "{}\n")
		}, ""},
		{"an uncommitted hook config with an accept row git does not back", func(t *testing.T, e *env) {
			insertRow(t, e, ".mcp.json", "{}\n", session.TrustAccept)
			gittest.Write(t, e.root, ".mcp.json", "{}\n")
		}, "accepted only in the local database"},
		{"staged weakened protocol with an inserted row, work tree restored", func(t *testing.T, e *env) {
			gittest.Write(t, e.root, "SESSION-PROTOCOL.md", weak)
			gittest.Git(t, e.root, "add", "SESSION-PROTOCOL.md")
			gittest.Write(t, e.root, "SESSION-PROTOCOL.md", flowProtocol)
			insertRow(t, e, "SESSION-PROTOCOL.md", weak, session.TrustAccept)
		}, "(staged) (sha256"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, flowProtocol)
			e.engine.Config.Protect = true
			ctx := context.Background()
			gittest.Commit(t, e.root, "protocol", map[string]string{"SESSION-PROTOCOL.md": flowProtocol})
			if left, err := e.engine.ProtectedChanges(ctx, e.repo); err != nil || len(left) != 0 { // first use
				t.Fatalf("first use: %v %v", left, err)
			}
			c.change(t, e)
			left, err := e.engine.ProtectedChanges(ctx, e.repo)
			if err != nil {
				t.Fatal(err)
			}
			if c.refused == "" {
				if len(left) != 0 {
					t.Fatalf("honest acceptance reported as a change: %v", left)
				}
				return
			}
			if len(left) == 0 || !left[0].Unbacked || !strings.Contains(left[0].String(), c.refused) {
				t.Fatalf("changes %v: want an unbacked change naming %q", left, c.refused)
			}
			_, err = e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "x"})
			if !errors.Is(err, session.ErrProtectedChanged) || !strings.Contains(err.Error(), c.refused) {
				t.Fatalf("start: got %v, want a refusal naming %q", err, c.refused)
			}
			// The way out is a person's acceptance, which goes to git.
			accept(t, e)
			if left, err := e.engine.ProtectedChanges(ctx, e.repo); err != nil || len(left) != 0 {
				t.Fatalf("after a person's accept: %v %v", left, err)
			}
		})
	}
}

func accept(t *testing.T, e *env) {
	t.Helper()
	ctx := context.Background()
	acc, err := e.engine.AcceptProtected(ctx, session.AcceptRequest{Repo: e.repo, Who: "A Person", Reason: "reviewed", Via: "terminal"})
	if err != nil || len(acc) == 0 {
		t.Fatalf("accept: %v %v", acc, err)
	}
	bodies, err := e.repo.Acceptances(ctx, session.DefaultRecordsRef)
	if err != nil || len(bodies) == 0 {
		t.Fatalf("no acceptance on %s after accept: %v", session.DefaultRecordsRef, err)
	}
	a, err := session.ParseAcceptance(bodies[len(bodies)-1])
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range a.Files {
		found = found || f.Path == acc[0].Path && f.SHA256 == acc[0].SHA256
	}
	if !found || a.Who != "A Person" || a.Reason != "reviewed" {
		t.Fatalf("acceptances on the ref do not name %v: %+v", acc[0], a)
	}
}

// insertRow does what an agent with a shell can: write a trust row into
// the SQLite file directly.
func insertRow(t *testing.T, e *env, path, content, source string) {
	t.Helper()
	ctx := context.Background()
	r, err := e.db.RepositoryByRoot(ctx, e.repo.MainRoot())
	if err != nil {
		t.Fatal(err)
	}
	err = e.db.Update(ctx, func(w session.Writer) error {
		return w.AddTrustedFile(ctx, &session.TrustedFile{RepoID: r.ID, Path: path, SHA256: sha256hex(content), Source: source, Who: "agent", Reason: "x", Via: "terminal"})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func sha256hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
