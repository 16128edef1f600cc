package session_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestQACommandGateSeesHiddenTestFile (r16 t9 review): a QA phase whose
// command gate sessiongate itself runs at `session end` (the phase is the
// current one, so staleQA, which re-checks phases passed before, does not
// look) ran `go test ./...` on a work tree with the failing test file
// flagged skip-worktree or assume-unchanged and removed. git status reads
// that tree clean, the gate passed, and the session ended COMPLETE clean
// with a commit whose tests fail in any clone (tried with the real binary).
// The gate now refuses to run on what hiddenWork lists. Honest twins: the
// flags on a file still present and unchanged.
func TestQACommandGateSeesHiddenTestFile(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("go not on PATH under CI=true")
		}
		t.Skip("go not on PATH: the real go test is needed")
	}
	const failing = "package m\n\nimport \"testing\"\n\nfunc TestM(t *testing.T) { t.Fatal(\"broken\") }\n"
	const passing = "package m\n\nimport \"testing\"\n\nfunc TestM(t *testing.T) {}\n"
	const other = "package m\n\nimport \"testing\"\n\nfunc TestN(t *testing.T) {}\n"
	cases := []struct {
		name string
		flag string // git update-index flag set on m_test.go in the session
		rm   bool   // m_test.go removed from the work tree
		want session.GateStatus
	}{
		{"skip-worktree, the failing test removed", "--skip-worktree", true, session.StatusFail},
		{"assume-unchanged, the failing test removed", "--assume-unchanged", true, session.StatusFail},
		{"honest: skip-worktree on a test still there", "--skip-worktree", false, session.StatusPass},
		{"honest: assume-unchanged on a test still there", "--assume-unchanged", false, session.StatusPass},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, untrackedQAProtocol)
			gittest.Write(t, e.root, "go.mod", "module example.com/m\n\ngo 1.21\n")
			gittest.Write(t, e.root, "m.go", "package m\n")
			body := passing
			if c.rm {
				body = failing // what the commit holds and every clone runs
			}
			gittest.Write(t, e.root, "m_test.go", body)
			gittest.Write(t, e.root, "n_test.go", other)
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "feat: m")
			e.engine.Now = time.Now
			time.Sleep(20 * time.Millisecond)
			id := e.start(c.name)
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: go test ./...")
			e.advance(id) // WORKING
			gittest.Git(t, e.root, "update-index", c.flag, "m_test.go")
			if c.rm {
				if err := os.Remove(filepath.Join(e.root, "m_test.go")); err != nil {
					t.Fatal(err)
				}
			}
			if st := gittest.Git(t, e.root, "status", "--porcelain"); st != "" {
				t.Fatalf("git status is not clean, the route needs it: %q", st)
			}
			e.advance(id) // QA_VALIDATION
			g, err := e.engine.ValidateGate(ctx, id, "QA_VALIDATION")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want {
				t.Fatalf("gate %s %q, want %s", g.Status, g.Message, c.want)
			}
			if c.want == session.StatusFail && !strings.Contains(g.Message, "m_test.go") {
				t.Fatalf("failed for another reason: %q", g.Message)
			}
		})
	}
}
