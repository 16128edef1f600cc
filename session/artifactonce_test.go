package session_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// onceProtocol: unnamed requirements in two phases, a requirement naming
// the handoff, and commit requirements (one about committing, one a step
// "before commit").
const onceProtocol = "# P\n\n## Session Start\n\n### Phase 1: Context (BLOCKING)\n\n" +
	"1. The agent MUST read `.agents/HANDOFF.md`.\n2. The agent MUST check the open issues.\n3. The agent MUST NOT update `.agents/HANDOFF.md`.\n\n" +
	"### Phase 2: Plan (BLOCKING)\n\n1. The agent MUST write down the plan.\n\n" +
	"## Session End\n\n### Phase 1: Git Operations (BLOCKING)\n\n<!-- gate: must_evidence -->\n\n" +
	"1. Re-verify the branch before commit.\n2. Use conventional commits.\n3. Do not bypass hooks.\n4. Commit all changes.\n"

// TestOneArtifactAnswersOneRequirement: a commit, a file or its hash
// offered for a second requirement, of the same phase or another, is
// refused unless that requirement names it; the refusal says so.
func TestOneArtifactAnswersOneRequirement(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, onceProtocol)
	gittest.Write(t, e.root, ".agents/HANDOFF.md", "# Handoff\n")
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "handoff")
	id := e.start("once")
	rec := func(req, kind, body string) error {
		_, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: req, Kind: kind, Evidence: body})
		return err
	}
	steps := []struct {
		name, req, kind, body string
		refused               string // "" accepted
	}{
		{"hash for the read", "CONTEXT.read-agents-handoff-md", session.EvidenceContentHash, ".agents/HANDOFF.md", ""},
		{"same hash for an unnamed requirement", "CONTEXT.check-open-issues", session.EvidenceContentHash, ".agents/HANDOFF.md", "already answers requirement CONTEXT.read-agents-handoff-md"},
		{"same file for a requirement naming it", "CONTEXT.not-update-agents-handoff", session.EvidenceFilePath, ".agents/HANDOFF.md", ""},
		{"same file in another phase", "PLAN.write-down-plan", session.EvidenceFilePath, ".agents/HANDOFF.md", "one commit sha, content hash or file answers one requirement"},
		{"own evidence for the plan", "PLAN.write-down-plan", session.EvidenceManual, "plan: add a name argument, test six names", ""},
		{"own evidence for the issues", "CONTEXT.check-open-issues", session.EvidenceToolOutput, "$ gh issue list\n12 open: none about greeting\n", ""},
	}
	for _, s := range steps {
		err := rec(s.req, s.kind, s.body)
		switch {
		case s.refused == "" && err != nil:
			t.Fatalf("%s: honest evidence refused: %v", s.name, err)
		case s.refused != "" && (err == nil || !strings.Contains(err.Error(), s.refused) || !errors.Is(err, session.ErrRefused)):
			t.Fatalf("%s: got %v, want a refusal containing %q", s.name, err, s.refused)
		}
	}
	if res := e.advance(id); res.Blocked != nil {
		t.Fatalf("context blocked: %+v", res.Blocked)
	}
	if res := e.advance(id); res.Blocked != nil {
		t.Fatalf("plan blocked: %+v", res.Blocked)
	}
	gittest.Write(t, e.root, "greet.sh", "echo hello\n")
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "feat: greet")
	sha := gittest.Git(t, e.root, "rev-parse", "HEAD")
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "GIT_OPERATIONS"}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		req, body, refused string
	}{
		{"GIT_OPERATIONS.use-conventional-commits", sha, ""},
		{"GIT_OPERATIONS.commit-changes", sha[:7], ""}, // about committing: may share it
		{"GIT_OPERATIONS.do-not-bypass-hooks", sha, "already answers requirement GIT_OPERATIONS.use-conventional-commits"},
		{"GIT_OPERATIONS.re-verify-branch-before", sha[:10], "already answers requirement"},
	} {
		err := rec(s.req, session.EvidenceCommitSHA, s.body)
		switch {
		case s.refused == "" && err != nil:
			t.Fatalf("%s: honest commit refused: %v", s.req, err)
		case s.refused != "" && (err == nil || !strings.Contains(err.Error(), s.refused)):
			t.Fatalf("%s: got %v, want a refusal containing %q", s.req, err, s.refused)
		}
	}
}
