package verify_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
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
	gittest.Git(t, dir, "init", "-q", "-b", "main")
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "base")
	base := gittest.Git(t, dir, "rev-parse", "HEAD")
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
	gittest.Git(t, dir, "add", "work.txt")
	hookCommit(t, e, repo, "work", id)
	end, err := e.End(ctx, session.EndRequest{ID: id, Summary: "done"})
	if err != nil || !end.Ended || end.RecordFile == "" {
		t.Fatalf("end: %+v %v", end, err)
	}
	gittest.Git(t, dir, "add", end.RecordFile)
	gittest.Git(t, dir, "commit", "-q", "-m", "session record")
	return repo, base, id
}

// hookCommit commits the staged change as the installed hooks would:
// pre-commit records the tree, the commit carries the trailers commit-msg
// adds, post-commit records the commit.
func hookCommit(t *testing.T, e *session.Engine, repo *gitrepo.Repo, msg, id string) string {
	t.Helper()
	ctx := context.Background()
	dir := repo.Root()
	req := session.HookRequest{Repo: repo, Tree: func(context.Context) (string, error) { return gittest.Git(t, dir, "write-tree"), nil }}
	if d, err := e.PreCommit(ctx, req); err != nil || !d.Allowed {
		t.Fatalf("pre-commit: %+v %v", d, err)
	}
	snap, _ := e.LatestSnapshot(ctx, id)
	gittest.Git(t, dir, "commit", "-q", "-m", msg, "--trailer", "Session-Id: "+id, "--trailer", "Session-Snapshot: "+snap)
	req.Commit, req.CommitTree = gittest.Git(t, dir, "rev-parse", "HEAD"), gittest.Git(t, dir, "rev-parse", "HEAD^{tree}")
	if _, err := e.PostCommit(ctx, req); err != nil {
		t.Fatal(err)
	}
	return req.Commit
}

// trailersOf returns the Session-Id and Session-Snapshot trailer lines of a commit.
func trailersOf(t *testing.T, dir, rev string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(gittest.Git(t, dir, "log", "-1", "--format=%(trailers:only,unfold)", rev), "\n") {
		if strings.HasPrefix(l, "Session-") {
			out = append(out, "--trailer", l)
		}
	}
	if len(out) != 4 {
		t.Fatalf("trailers of %s: %q", rev, out)
	}
	return out
}

// TestVerifyCopiedTrailers: a commit made with the hooks switched off that
// copies an earlier commit's trailers fails, after the session and
// during it (where reconciliation records it as a BYPASS).
func TestVerifyCopiedTrailers(t *testing.T) {
	repo, base, _ := setup(t)
	dir := repo.Root()
	work := gittest.Git(t, dir, "rev-parse", "HEAD^")
	os.WriteFile(filepath.Join(dir, "sneaky.txt"), []byte("x\n"), 0o644)
	gittest.Git(t, dir, "add", "sneaky.txt")
	gittest.Git(t, dir, append([]string{"-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "sneaky"}, trailersOf(t, dir, work)...)...)
	rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	last := rep.Commits[len(rep.Commits)-1]
	if rep.OK || last.Status != "fail" || !strings.Contains(strings.Join(last.Problems, ";"), "trailers copied") {
		t.Fatalf("copied trailers passed: %+v", last)
	}
	if rep.Commits[0].Status != "ok" {
		t.Fatalf("the session's own commit: %+v", rep.Commits[0])
	}
	rep, _ = verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{Unrecorded: "warn"})
	if !rep.OK || rep.Commits[len(rep.Commits)-1].Status != "warn" {
		t.Fatalf("unrecorded: warn: %+v", rep)
	}
}

func TestVerifyBypassDuringSession(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	ctx := context.Background()
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q", "-b", "main")
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "base")
	base := gittest.Git(t, dir, "rev-parse", "HEAD")
	repo, _ := gitrepo.Open(ctx, dir)
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	e := session.NewEngine(db, session.Config{SessionRecord: session.DefaultRecordPath}, func(ctx context.Context, wt string) (session.Repo, error) {
		return gitrepo.Open(ctx, wt)
	})
	spec, _ := e.LoadSpec(ctx, "P.md", []byte(protocol))
	st, err := e.Start(ctx, session.StartRequest{Repo: repo, Spec: spec, Objective: "verify"})
	if err != nil {
		t.Fatal(err)
	}
	id := st.SessionID
	e.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT", Kind: "tool_output", Evidence: "read"})
	e.Advance(ctx, session.AdvanceRequest{ID: id})
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	gittest.Git(t, dir, "add", "a.txt")
	good := hookCommit(t, e, repo, "good", id)
	// Hooks off, trailers copied, inside the session.
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("b\n"), 0o644)
	gittest.Git(t, dir, "add", "b.txt")
	gittest.Git(t, dir, append([]string{"-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "hooks off"}, trailersOf(t, dir, good)...)...)
	end, err := e.End(ctx, session.EndRequest{ID: id, Summary: "done"}) // reconciles first
	if err != nil || !end.Ended {
		t.Fatalf("end: %+v %v", end, err)
	}
	gittest.Git(t, dir, "add", end.RecordFile)
	gittest.Git(t, dir, "commit", "-q", "-m", "session record")
	// By default the session's BYPASS fails every commit of it: the
	// record says the protocol was bypassed, so CI does not pass the work.
	rep, err := verify.Run(ctx, repo, base+"..HEAD", verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || rep.Commits[0].Status != "fail" || !strings.Contains(strings.Join(rep.Commits[0].Problems, ";"), "recorded 1 violation(s) that bypassed the protocol: BYPASS") ||
		rep.Commits[1].Status != "fail" || !strings.Contains(strings.Join(rep.Commits[1].Problems, ";"), "landing without a passing pre-commit hook (BYPASS)") {
		t.Fatalf("report %+v", rep.Commits)
	}
	// verify.violations: warn lets the session's other commit through with
	// a warning; the bypassed commit itself still fails.
	rep, err = verify.Run(ctx, repo, base+"..HEAD", verify.Options{Violations: "warn"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || rep.Commits[0].Status != "warn" || rep.Commits[1].Status != "fail" || !strings.Contains(strings.Join(rep.Commits[1].Problems, ";"), "BYPASS") {
		t.Fatalf("report with violations: warn %+v", rep.Commits)
	}
}

// TestVerifyRequireSigned signs commits with an ssh key and checks them
// with git's own verification and allowed-signers file.
func TestVerifyRequireSigned(t *testing.T) {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("ssh-keygen is required under CI=true (signed commits)")
		}
		t.Skip("ssh-keygen not found: install openssh-client to test signed commits")
	}
	repo, base, _ := setup(t)
	dir := repo.Root()
	key := filepath.Join(t.TempDir(), "key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "t@e", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	pub, _ := os.ReadFile(key + ".pub")
	allowed := filepath.Join(t.TempDir(), "allowed_signers")
	os.WriteFile(allowed, []byte("t@e "+string(pub)), 0o644)
	gittest.Git(t, dir, "config", "gpg.format", "ssh")
	gittest.Git(t, dir, "config", "user.signingkey", key)
	gittest.Git(t, dir, "config", "gpg.ssh.allowedSignersFile", allowed)
	// The setup's commits are unsigned.
	rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RequireSigned: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || !strings.Contains(strings.Join(rep.Commits[0].Problems, ";"), "signature") {
		t.Fatalf("unsigned commits passed --require-signed: %+v", rep.Commits)
	}
	// Re-sign the same history: every commit verifies.
	gittest.Git(t, dir, "-c", "core.hooksPath=/dev/null", "rebase", "-q", "--exec", "git commit -q --amend --no-edit -S", base)
	rep, err = verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RequireSigned: true, Unrecorded: "warn"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Commits {
		if strings.Contains(strings.Join(c.Problems, ";"), "signature") {
			t.Fatalf("signed commit refused: %+v", c)
		}
	}
	// A key outside the allowed signers file is refused.
	other := filepath.Join(t.TempDir(), "other")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "o@e", "-f", other).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	otherPub, _ := os.ReadFile(other + ".pub")
	os.WriteFile(allowed, []byte("t@e "+string(otherPub)), 0o644)
	rep, _ = verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RequireSigned: true, Unrecorded: "warn"})
	if rep.OK {
		t.Fatalf("a signature by a key outside allowed_signers passed: %+v", rep.Commits)
	}
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
	gittest.Git(t, repo.Root(), "commit", "-q", "-am", "session record")
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
	gittest.Git(t, repo.Root(), "commit", "-q", "--allow-empty", "-m", "sneaky")
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
	gittest.Git(t, repo.Root(), "commit", "-q", "--allow-empty", "-m", "ghost", "--trailer", "Session-Id: 123e4567-e89b-42d3-a456-426614174000", "--trailer", "Session-Snapshot: sha256:"+strings.Repeat("0", 64))
	rep, _ = verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{MissingTrailer: "warn"})
	last = rep.Commits[len(rep.Commits)-1]
	if rep.OK || !strings.Contains(strings.Join(last.Problems, ";"), "is not in the tree") {
		t.Fatalf("ghost session: %+v", last)
	}
	if _, err := verify.Run(context.Background(), repo, "--output=/tmp/x", verify.Options{}); err == nil {
		t.Fatal("option-looking range accepted")
	}
}
