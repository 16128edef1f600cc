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

// untrackedQAProtocol's QA phase runs the real go test.
const untrackedQAProtocol = "# P\n\n## Session Start\n\n### Phase 1: Context Retrieval (BLOCKING)\n\n<!-- gate: evidence tool_output -->\n\n- The agent MUST read the README.\n\n## Session End\n\n### Phase 1: QA Validation (BLOCKING)\n\n<!-- gate: command \"go test ./...\" -->\n\n- The agent MUST run the tests.\n"

// TestQAGateOnTheCommittedTree (issue 25.7 route 3): an untracked test
// file that makes go test pass in the work tree (TestMain exiting 0) while
// the committed tree fails is no QA of the committed work: the gate fails
// and names it, also when the agent hides it in .git/info/exclude after
// the start. Untracked scratch files go test does not read (notes, logs,
// a Python scratch script), and an ignore the repository commits, do not
// block an honest QA gate.
func TestQAGateOnTheCommittedTree(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("go not on PATH under CI=true")
		}
		t.Skip("go not on PATH: the real go test is needed")
	}
	const failing = "package m\n\nimport \"testing\"\n\nfunc TestM(t *testing.T) { t.Fatal(\"broken\") }\n"
	const passing = "package m\n\nimport \"testing\"\n\nfunc TestM(t *testing.T) {}\n"
	const skipAll = "package m\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(0) }\n"
	cases := []struct {
		name      string
		committed string            // m_test.go as committed
		untracked map[string]string // files left untracked
		exclude   string            // written to .git/info/exclude after the start
		ignore    string            // appended to .gitignore and committed after the start
		want      session.GateStatus
		named     string
	}{
		{"untracked TestMain that exits 0", failing, map[string]string{"zz_test.go": skipAll}, "", "", session.StatusFail, "zz_test.go"},
		{"hidden in info/exclude after the start", failing, map[string]string{"zz_test.go": skipAll}, "zz_test.go\n", "", session.StatusFail, "zz_test.go"},
		// Adversarial pass 2026-11-28 (full_f): a .gitignore the session
		// itself commits is "the committed .gitignore" and hides the file.
		{"hidden by a .gitignore committed during the session", failing, map[string]string{"zz_test.go": skipAll}, "", "zz_*test.go\n", session.StatusFail, "zz_test.go"},
		{"the failing tree without tricks", failing, nil, "", "", session.StatusFail, "command exited 1"},
		{"honest: scratch files go test does not read", passing, map[string]string{"notes.txt": "todo\n", "out.log": "ok\n", "scratch.py": "print(1)\n", "NOTES.md": "# n\n"}, "", "", session.StatusPass, "command passed"},
		{"honest: an ignored build folder", passing, map[string]string{"build/gen.go": "package gen\n"}, "", "", session.StatusPass, "command passed"},
		// Issue 25 route 4: a session that adds its build folder to
		// .gitignore and builds into it is not hiding a source; a file
		// hidden beside the tracked sources (or above them) still is.
		{"honest: dist/ added to .gitignore in the session, then built", passing, map[string]string{"dist/gen.go": "package gen\n", "dist/sub/x_test.go": "package sub\n"}, "", "dist/\n", session.StatusPass, "command passed"},
		{"hidden by a .gitignore beside tracked sources in a subfolder", failing, map[string]string{"sub/zz_test.go": "package sub\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(0) }\n"}, "", "sub/zz_*test.go\n", session.StatusFail, "sub/zz_test.go"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, untrackedQAProtocol)
			gittest.Write(t, e.root, "go.mod", "module example.com/m\n\ngo 1.21\n")
			gittest.Write(t, e.root, "m.go", "package m\n")
			gittest.Write(t, e.root, "m_test.go", c.committed)
			gittest.Write(t, e.root, "sub/s.go", "package sub\n")
			gittest.Write(t, e.root, ".gitignore", "build/\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "feat: m")
			// The real clock: ignore files are judged by their change time
			// against the session's start.
			e.engine.Now = time.Now
			time.Sleep(20 * time.Millisecond)
			id := e.start(c.name)
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: go test ./...")
			e.advance(id) // WORKING
			time.Sleep(20 * time.Millisecond)
			if c.ignore != "" {
				gittest.Write(t, e.root, ".gitignore", "build/\n"+c.ignore)
				gittest.Git(t, e.root, "add", ".gitignore")
				gittest.Git(t, e.root, "commit", "-q", "-m", "chore: ignore")
			}
			for f, body := range c.untracked {
				gittest.Write(t, e.root, f, body)
			}
			if c.exclude != "" {
				if err := os.WriteFile(filepath.Join(e.root, ".git", "info", "exclude"), []byte(c.exclude), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			e.advance(id) // QA_VALIDATION
			g, err := e.engine.ValidateGate(ctx, id, "QA_VALIDATION")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want || !strings.Contains(g.Message, c.named) {
				t.Fatalf("gate %s %q, want %s naming %q", g.Status, g.Message, c.want, c.named)
			}
		})
	}
}

// TestObservedQAOnTheCommittedTree: an observed test run for a QA phase
// that saw an untracked file its runner reads (a conftest.py that skips
// everything) does not count, and says which; one beside untracked files
// the runner does not read counts.
func TestObservedQAOnTheCommittedTree(t *testing.T) {
	cases := []struct {
		name      string
		untracked map[string]string
		counted   bool
	}{
		{"untracked conftest.py", map[string]string{"tests/conftest.py": "import pytest\ncollect_ignore_glob = ['*']\n"}, false},
		{"honest: notes and a log", map[string]string{"notes.txt": "todo\n", "pytest-out.log": "1 passed\n"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, earlyProtocol)
			id := e.start(c.name)
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: pytest")
			e.advance(id) // WORKING
			e.advance(id) // QA_VALIDATION
			for f, body := range c.untracked {
				gittest.Write(t, e.root, f, body)
			}
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: "claude", Command: "python3 -m pytest -q", Output: []byte("1 passed in 0.01s\n")})
			if err != nil {
				t.Fatal(err)
			}
			if (*ev.ExitCode == 0) != c.counted {
				t.Fatalf("exit %d (%s), want counted=%v", *ev.ExitCode, ev.Ref, c.counted)
			}
			if !c.counted && !strings.Contains(ev.Ref, "tests/conftest.py") {
				t.Fatalf("ref %q does not name the file", ev.Ref)
			}
		})
	}
}

// TestWorkingRunTreeHoldsIgnoredReads: a passing test run outside the QA
// phase records the tree it saw (round 25 c10), which later answers an
// unwitnessed qa sub-agent when it equals HEAD. `git add -A` leaves out a
// file .git/info/exclude ignores; an untracked conftest.py the agent hid
// there after the start (it skips every test) was read by pytest yet
// absent from the recorded tree, so the tree matched a broken commit
// (round 26, c9). Such a run now records no tree and names the file; an
// untracked conftest.py git does not ignore is in the tree (the end then
// finds it uncommitted, or committed).
func TestWorkingRunTreeHoldsIgnoredReads(t *testing.T) {
	cases := []struct {
		name    string
		exclude string
		tree    bool
	}{
		{"conftest.py hidden in info/exclude after the start", "tests/conftest.py\n", false},
		{"honest: conftest.py untracked, not ignored", "", true},
		{"honest: an exclude of other files", "notes/\n", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, earlyProtocol)
			e.engine.Now = time.Now
			time.Sleep(20 * time.Millisecond)
			id := e.start(c.name)
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: pytest")
			e.advance(id) // WORKING
			time.Sleep(20 * time.Millisecond)
			gittest.Write(t, e.root, "tests/conftest.py", "import pytest\ncollect_ignore_glob = ['*']\n")
			if c.exclude != "" {
				if err := os.WriteFile(filepath.Join(e.root, ".git", "info", "exclude"), []byte(c.exclude), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "", Source: "codex", Command: "python3 -m pytest -q", Output: []byte("1 passed in 0.01s\n")})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(ev.Ref, ", saw tree "); got != c.tree {
				t.Fatalf("ref %q: records a tree %v, want %v", ev.Ref, got, c.tree)
			}
			if !c.tree && !strings.Contains(ev.Ref, "tests/conftest.py") {
				t.Fatalf("ref %q does not name the file", ev.Ref)
			}
		})
	}
}
