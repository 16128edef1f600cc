package verify_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
	"github.com/sessiongate/sessiongate/verify"
)

const protocol = `# P

## Session Start

### Phase 1: Context (BLOCKING)

<!-- gate: evidence tool_output -->

## Session End

### Phase 1: Git Operations (REQUIRED)

<!-- gate: commit_since_start -->
`

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// session runs one whole session that commits with trailers and commits its
// record; it returns the repository, the base commit and the session id.
func setup(t *testing.T) (*gitrepo.Repo, string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is required under CI=true")
		}
		t.Skip("git not found")
	}
	ctx := context.Background()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "base")
	base := git(t, dir, "rev-parse", "HEAD")
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := session.NewEngine(db, session.Config{SessionRecord: session.DefaultRecordPath}, func(ctx context.Context, wt string) (session.Repo, error) {
		return gitrepo.Open(ctx, wt)
	})
	spec, err := e.LoadSpec(ctx, "P.md", []byte(protocol))
	if err != nil {
		t.Fatal(err)
	}
	st, err := e.Start(ctx, session.StartRequest{Repo: repo, Spec: spec, Objective: "verify"})
	if err != nil {
		t.Fatal(err)
	}
	id := st.SessionID
	if _, err := e.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT", Kind: "tool_output", Evidence: "read"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Advance(ctx, session.AdvanceRequest{ID: id}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "work.txt"), []byte("work\n"), 0o644)
	snap, _ := e.LatestSnapshot(ctx, id)
	git(t, dir, "add", "work.txt")
	git(t, dir, "commit", "-q", "-m", "work", "--trailer", "Session-Id: "+id, "--trailer", "Session-Snapshot: "+snap)
	end, err := e.End(ctx, session.EndRequest{ID: id, Summary: "done"})
	if err != nil || !end.Ended || end.RecordFile == "" {
		t.Fatalf("end: %+v %v", end, err)
	}
	git(t, dir, "add", end.RecordFile)
	git(t, dir, "commit", "-q", "-m", "session record")
	return repo, base, id
}

func TestVerifyGood(t *testing.T) {
	repo, base, id := setup(t)
	rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{MissingTrailer: "fail"})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK || len(rep.Commits) != 2 || rep.Commits[0].SessionID != id || rep.Commits[0].Status != "ok" {
		t.Fatalf("report %+v", rep)
	}
}

func TestVerifyTamperedRecord(t *testing.T) {
	repo, base, id := setup(t)
	p := filepath.Join(repo.Root(), ".sessiongate", "records", id+".json")
	b, _ := os.ReadFile(p)
	// Claim a failed gate passed... by editing evidence: any change breaks the ids.
	tampered := strings.Replace(string(b), `"tool_output"`, `"manual"`, 1)
	if tampered == string(b) {
		t.Fatal("nothing to tamper with")
	}
	os.WriteFile(p, []byte(tampered), 0o644)
	git(t, repo.Root(), "commit", "-q", "-am", "session record")
	rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || rep.Commits[0].Status != "fail" || !strings.Contains(strings.Join(rep.Commits[0].Problems, ";"), "record edited") {
		t.Fatalf("tampered record passed: %+v", rep.Commits[0])
	}
}

func TestVerifyMissingTrailerAndRecord(t *testing.T) {
	repo, base, _ := setup(t)
	git(t, repo.Root(), "commit", "-q", "--allow-empty", "-m", "sneaky")
	rep, _ := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{MissingTrailer: "fail"})
	last := rep.Commits[len(rep.Commits)-1]
	if rep.OK || last.Status != "fail" || !strings.Contains(last.Problems[0], "no Session-Id trailer") {
		t.Fatalf("missing trailer: %+v", last)
	}
	rep, _ = verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{MissingTrailer: "warn"})
	if !rep.OK || rep.Commits[len(rep.Commits)-1].Status != "warn" {
		t.Fatalf("warn mode: %+v", rep)
	}
	// A trailer naming a session whose record was never committed fails.
	git(t, repo.Root(), "commit", "-q", "--allow-empty", "-m", "ghost", "--trailer", "Session-Id: 123e4567-e89b-42d3-a456-426614174000", "--trailer", "Session-Snapshot: sha256:"+strings.Repeat("0", 64))
	rep, _ = verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{MissingTrailer: "warn"})
	last = rep.Commits[len(rep.Commits)-1]
	if rep.OK || !strings.Contains(strings.Join(last.Problems, ";"), "is not in the tree") {
		t.Fatalf("ghost session: %+v", last)
	}
	if _, err := verify.Run(context.Background(), repo, "--output=/tmp/x", verify.Options{}); err == nil {
		t.Fatal("option-looking range accepted")
	}
}
