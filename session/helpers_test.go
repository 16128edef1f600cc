package session_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/internal/sqlitetest"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// requireGit skips without git locally and fails under CI, where it must exist.
func requireGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is required under CI=true but was not found")
		}
		t.Skip("git not found: install git to run the engine tests")
	}
}

// newRepo makes a real repository with one commit.
func newRepo(t testing.TB) string {
	t.Helper()
	return gittest.New(t, nil)
}

type env struct {
	t      testing.TB
	root   string
	repo   *gitrepo.Repo
	db     *store.DB
	engine *session.Engine
	spec   *protocolspec.Spec
	now    time.Time
}

// newEnv builds a repository, a database in t.TempDir() and an engine for protocol.
func newEnv(t testing.TB, protocol string) *env {
	t.Helper()
	root := newRepo(t)
	ctx := context.Background()
	// A copy of a store migrated once per process (the migrations are
	// package store's tests; here they would cost ~0.25 CPU s per env).
	db, _ := sqlitetest.Open(t)
	repo, err := gitrepo.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, root: repo.Root(), repo: repo, db: db, now: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	// A gate command's limit here only guards against a hang (the
	// timeout tests set their own, timeout=300ms): the real go test and
	// markdownlint-cli2 gates took over 10s on the 2-core CI at load 16,
	// and a verdict must not depend on the machine's load.
	e.engine = session.NewEngine(db, session.Config{CommandTimeout: 10 * time.Minute}, func(ctx context.Context, wt string) (session.Repo, error) {
		return gitrepo.Open(ctx, wt)
	})
	e.engine.Now = func() time.Time { return e.now }
	e.spec, err = e.engine.LoadSpec(ctx, "SESSION-PROTOCOL.md", []byte(protocol))
	if err != nil {
		t.Fatalf("load spec: %v", err)
	}
	return e
}

func (e *env) start(objective string) string {
	e.t.Helper()
	res, err := e.engine.Start(context.Background(), session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: objective})
	if err != nil {
		e.t.Fatalf("start: %v", err)
	}
	return res.SessionID
}

func (e *env) evidence(id, phase, kind, body string) {
	e.t.Helper()
	if _, err := e.engine.RecordEvidence(context.Background(), session.EvidenceRequest{ID: id, Phase: phase, Kind: kind, Evidence: body}); err != nil {
		e.t.Fatalf("record evidence %s/%s: %v", phase, kind, err)
	}
}

func (e *env) advance(id string) *session.AdvanceResult {
	e.t.Helper()
	res, err := e.engine.Advance(context.Background(), session.AdvanceRequest{ID: id})
	if err != nil {
		e.t.Fatalf("advance: %v", err)
	}
	return res
}

func (e *env) tokens(id string) []string {
	e.t.Helper()
	evs, err := e.db.ListEvents(context.Background(), id, 0, 0)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for _, ev := range evs {
		out = append(out, ev.Token)
	}
	return out
}

func removeFile(t testing.TB, root, rel string) {
	t.Helper()
	if err := os.Remove(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
}

// toWorking satisfies flowProtocol's start gates and advances to WORKING.
func (e *env) toWorking(id string) {
	e.t.Helper()
	ctx := context.Background()
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read")
	if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "ISSUE_CONTEXT", Kind: session.EvidenceManual, Evidence: "no issue", Step: session.StepCondition}); err != nil {
		e.t.Fatal(err)
	}
	res, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING"})
	if err != nil || res.State != session.StateWorking {
		e.t.Fatalf("to WORKING: %+v %v", res, err)
	}
}

// hookCommit commits the staged change as installed hooks would: the
// pre-commit hook (recording the tree it allows), git commit, post-commit.
func (e *env) hookCommit(msg string) string {
	e.t.Helper()
	ctx := context.Background()
	req := session.HookRequest{Repo: e.repo, Tree: func(context.Context) (string, error) { return gittest.Git(e.t, e.root, "write-tree"), nil }}
	d, err := e.engine.PreCommit(ctx, req)
	if err != nil || !d.Allowed {
		e.t.Fatalf("pre-commit: %+v %v", d, err)
	}
	gittest.Git(e.t, e.root, "commit", "-q", "--no-verify", "-m", msg)
	req.Commit, req.CommitTree = gittest.Git(e.t, e.root, "rev-parse", "HEAD"), gittest.Git(e.t, e.root, "rev-parse", "HEAD^{tree}")
	if _, err := e.engine.PostCommit(ctx, req); err != nil {
		e.t.Fatalf("post-commit: %v", err)
	}
	return req.Commit
}
