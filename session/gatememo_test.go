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

// gitCalls counts the git processes GIT_TRACE wrote to file.
func gitCalls(t *testing.T, file string) (int, string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, l := range strings.Split(string(b), "\n") {
		if _, c, ok := strings.Cut(l, "trace: built-in: git "); ok {
			calls = append(calls, c)
		}
	}
	return len(calls), strings.Join(calls, "\n")
}

// TestQACommandGateGitCalls: one QA command gate asked git which files the
// session changed before and after its command, from each check that
// wanted to know (git status and a tree diff each time), and read the
// start commit's copy of a test file three times: 31 git processes for a
// repository of four files (round 17, the real binary), twice what the
// gate took before round 16's hidden-file checks. Within one evaluation
// they are asked once until the command runs (internal/gitmemo), and the
// index is read in process (no rev-parse --git-path index, no ls-files -s).
func TestQACommandGateGitCalls(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("go not on PATH under CI=true")
		}
		t.Skip("go not on PATH: the real go test is needed")
	}
	ctx := context.Background()
	e := newEnv(t, untrackedQAProtocol)
	gittest.Write(t, e.root, "go.mod", "module example.com/m\n\ngo 1.21\n")
	gittest.Write(t, e.root, "m.go", "package m\n\nfunc M() int { return 1 }\n")
	gittest.Write(t, e.root, "m_test.go", "package m\n\nimport \"testing\"\n\nfunc TestM(t *testing.T) {\n\tif M() != 1 {\n\t\tt.Fatal(M())\n\t}\n}\n")
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "feat: m")
	e.engine.Now = time.Now
	time.Sleep(20 * time.Millisecond)
	id := e.start("m returns 2")
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: go test ./...")
	e.advance(id) // WORKING
	gittest.Write(t, e.root, "m.go", "package m\n\nfunc M() int { return 2 }\n")
	gittest.Write(t, e.root, "m_test.go", "package m\n\nimport \"testing\"\n\nfunc TestM(t *testing.T) {\n\tif M() != 2 {\n\t\tt.Fatal(M())\n\t}\n}\n")
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "feat: m returns 2")
	e.advance(id) // QA_VALIDATION
	trace := filepath.Join(t.TempDir(), "trace")
	t.Setenv("GIT_TRACE", trace)
	g, err := e.engine.ValidateGate(ctx, id, "QA_VALIDATION")
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != session.StatusPass {
		t.Fatalf("honest QA gate %s: %s", g.Status, g.Message)
	}
	// 20 when measured here (one git status and tree diff before the
	// command, one after; this env opens the repository three times), 32
	// before the memo and the in-process index reads. 25 since the command
	// check records the tree it reads (rev-parse --git-path index, add -u
	// and write-tree into a copy of the index: round 23 second review),
	// beside a command that runs the tests. 22 since a word of the
	// command that names no file is looked up in the session's changes,
	// not read at the start commit one cat-file each (round 24: `go test
	// ./...` read go, test and ...); the bound keeps 25, since a
	// hash-object of a file inside git's racy window comes and goes with
	// timing (26 under -race in CI with the three reads).
	const most = 25
	if n, calls := gitCalls(t, trace); n > most {
		t.Fatalf("the QA command gate ran %d git processes, want at most %d:\n%s", n, most, calls)
	}
}

// lintRewriteProtocol: a QA gate whose command runs a repository script,
// then "lints" (any line naming markdownlint-cli2 is judged as a
// markdownlint run: a configuration the session wrote makes it no pass).
const lintRewriteProtocol = "# P\n\n## Session Start\n\n### Phase 1: Context Retrieval (BLOCKING)\n\n<!-- gate: evidence tool_output -->\n\n- The agent MUST read the README.\n\n## Session End\n\n### Phase 1: QA Validation (BLOCKING)\n\n<!-- gate: command \"sh scripts/check.sh && true markdownlint-cli2\" -->\n\n- The agent MUST run the checks.\n"

// TestGateCommandWritesAreSeen: the memo of git's answers must not hide
// what the gate's own command wrote. A check script that writes a
// markdownlint configuration while it runs (rules off) is a lint run
// under rules the session wrote; the checks after the command read the
// work tree anew and fail it. Honest twin: a check script that writes
// nothing passes.
func TestGateCommandWritesAreSeen(t *testing.T) {
	cases := []struct {
		name   string
		script string
		want   session.GateStatus
	}{
		{"the command writes a lint configuration", "printf '{\"default\": false}\\n' > .markdownlint.json\n", session.StatusFail},
		{"honest: the command writes nothing", "test -f README.md\n", session.StatusPass},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, lintRewriteProtocol)
			gittest.Write(t, e.root, "README.md", "# r\n")
			gittest.Write(t, e.root, "scripts/check.sh", c.script)
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "chore: checks")
			e.engine.Now = time.Now
			time.Sleep(20 * time.Millisecond)
			id := e.start(c.name)
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README read")
			e.advance(id) // WORKING
			gittest.Write(t, e.root, "README.md", "# r\n\nMore.\n")
			gittest.Git(t, e.root, "commit", "-q", "-am", "docs: more")
			e.advance(id) // QA_VALIDATION
			g, err := e.engine.ValidateGate(ctx, id, "QA_VALIDATION")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want {
				t.Fatalf("gate %s %q, want %s", g.Status, g.Message, c.want)
			}
			if c.want == session.StatusFail && !strings.Contains(g.Message, ".markdownlint.json") {
				t.Fatalf("failed for another reason: %q", g.Message)
			}
		})
	}
}
