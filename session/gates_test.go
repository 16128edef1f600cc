package session_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// gateProtocol builds a protocol whose one start phase carries the annotation.
func gateProtocol(annotation string) string {
	return fmt.Sprintf("# P\n\n## Session Start\n\n### Phase 1: Check (BLOCKING)\n\n%s\n\n1. The agent MUST pass.\n\n## Session End\n\n### Phase 1: Done (OPTIONAL)\n\n<!-- gate: evidence manual -->\n", annotation)
}

// TestGateKinds runs every check kind against a real repository.
func TestGateKinds(t *testing.T) {
	type step func(t *testing.T, e *env, id string)
	none := func(*testing.T, *env, string) {}
	cases := []struct {
		name       string
		annotation string
		setup      step
		want       session.GateStatus
		msg        string // substring of the gate message
	}{
		{"file exists missing", `<!-- gate: file_exists "logs/*.md" -->`, none, "FAIL", "no file matches"},
		{"file exists glob", `<!-- gate: file_exists "logs/*.md" -->`, func(t *testing.T, e *env, _ string) { gittest.Write(t, e.root, "logs/s1.md", "x") }, "PASS", "logs/s1.md"},
		{"file exists doublestar", `<!-- gate: file_exists "docs/**/*.md" -->`, func(t *testing.T, e *env, _ string) { gittest.Write(t, e.root, "docs/a/b/c.md", "x") }, "PASS", "docs/a/b/c.md"},
		{"file exists dotdot", `<!-- gate: file_exists "../x" -->`, none, "FAIL", "outside the repository"},
		{"file exists symlink out", `<!-- gate: file_exists "link.md" -->`, func(t *testing.T, e *env, _ string) {
			outside := filepath.Join(t.TempDir(), "secret.md")
			os.WriteFile(outside, []byte("x"), 0o644)
			if err := os.Symlink(outside, filepath.Join(e.root, "link.md")); err != nil {
				t.Fatal(err)
			}
		}, "FAIL", "outside the repository"},
		{"changed none", `<!-- gate: changed_since_start "*.md" -->`, none, "FAIL", "not changed"},
		{"changed in work tree", `<!-- gate: changed_since_start "*.md" -->`, func(t *testing.T, e *env, _ string) { gittest.Write(t, e.root, "README.md", "# changed\n") }, "PASS", "README.md"},
		{"changed untracked", `<!-- gate: changed_since_start "notes/*" -->`, func(t *testing.T, e *env, _ string) { gittest.Write(t, e.root, "notes/n.txt", "x") }, "PASS", "notes/n.txt"},
		{"changed committed", `<!-- gate: changed_since_start "src/*.go" -->`, func(t *testing.T, e *env, _ string) {
			gittest.Write(t, e.root, "src/a.go", "package a\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "a")
		}, "PASS", "src/a.go"},
		{"content hash missing evidence", `<!-- gate: content_hash "README.md" -->`, none, "FAIL", "no content_hash evidence"},
		{"content hash recorded", `<!-- gate: content_hash "README.md" -->`, func(t *testing.T, e *env, id string) {
			e.evidence(id, "CHECK", session.EvidenceContentHash, "README.md")
		}, "PASS", "passed"},
		{"content hash stale", `<!-- gate: content_hash "README.md" -->`, func(t *testing.T, e *env, id string) {
			e.evidence(id, "CHECK", session.EvidenceContentHash, "README.md")
			gittest.Write(t, e.root, "README.md", "# edited after reading\n")
		}, "FAIL", "changed after its hash was recorded"},
		{"command passes", `<!-- gate: command "test -f README.md" -->`, none, "PASS", "passed"},
		{"command fails", `<!-- gate: command "exit 3" -->`, none, "FAIL", "exited 3"},
		{"command timeout", `<!-- gate: command "sleep 30" timeout=300ms -->`, none, "FAIL", "timed out"},
		{"command zero files is skipped", `<!-- gate: command "false {changed:*.md}" -->`, none, "SKIPPED", "nothing to check"},
		{"command runs on changed files only", `<!-- gate: command "test \"$(echo {changed:*.md})\" = 'docs/new file.md'" -->`, func(t *testing.T, e *env, _ string) {
			gittest.Write(t, e.root, "docs/new file.md", "x")
			gittest.Write(t, e.root, "other.txt", "x")
		}, "PASS", "passed"},
		{"dash file names are not options", `<!-- gate: command "test \"$(echo {changed:*.md})\" = ./--version.md" -->`, func(t *testing.T, e *env, _ string) {
			gittest.Write(t, e.root, "--version.md", "x")
		}, "PASS", "passed"},
		{"commit none", `<!-- gate: commit_since_start -->`, none, "FAIL", "no commit"},
		{"commit made", `<!-- gate: commit_since_start -->`, func(t *testing.T, e *env, _ string) {
			gittest.Git(t, e.root, "commit", "-q", "--allow-empty", "-m", "x")
		}, "PASS", "1 commit"},
		{"clean", `<!-- gate: clean_worktree -->`, none, "PASS", "passed"},
		{"dirty", `<!-- gate: clean_worktree -->`, func(t *testing.T, e *env, _ string) { gittest.Write(t, e.root, "x.txt", "x") }, "FAIL", "not clean"},
		{"evidence missing", `<!-- gate: evidence tool_output -->`, none, "FAIL", "no tool_output evidence"},
		{"evidence of other kind", `<!-- gate: evidence tool_output -->`, func(t *testing.T, e *env, id string) { e.evidence(id, "CHECK", session.EvidenceManual, "x") }, "FAIL", "no tool_output"},
		{"evidence recorded", `<!-- gate: evidence tool_output -->`, func(t *testing.T, e *env, id string) { e.evidence(id, "CHECK", session.EvidenceToolOutput, "out") }, "PASS", "passed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, gateProtocol(c.annotation))
			id := e.start(c.name)
			c.setup(t, e, id)
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want || !strings.Contains(g.Message, c.msg) {
				t.Fatalf("gate %s %q, want %s containing %q (checks %+v)", g.Status, g.Message, c.want, c.msg, g.Checks)
			}
			if !slices.Contains(e.tokens(id), "gate:CHECK:"+strings.ToLower(string(c.want))) {
				t.Fatalf("events %v", e.tokens(id))
			}
		})
	}
}

// TestCommandsNeverFromCaller: the only way to name a command is the
// protocol or the config; a caller's evidence is hashed, never executed.
func TestCommandsNeverFromCaller(t *testing.T) {
	e := newEnv(t, gateProtocol(`<!-- gate: evidence manual -->`))
	id := e.start("inject")
	marker := filepath.Join(t.TempDir(), "pwned")
	e.evidence(id, "CHECK", session.EvidenceManual, "$(touch "+marker+")")
	if _, err := e.engine.ValidateGate(context.Background(), id, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("evidence body was executed")
	}
}

// TestConfigCommandOverride: a config command replaces the phase's evidence fallback.
func TestConfigCommandOverride(t *testing.T) {
	e := newEnv(t, gateProtocol(`<!-- gate: evidence manual -->`))
	e.engine.Config.Commands = map[string]string{"CHECK": "test -f ok.txt"}
	id := e.start("config command")
	g, _ := e.engine.ValidateGate(context.Background(), id, "")
	if g.Status != session.StatusFail {
		t.Fatalf("before: %s %s", g.Status, g.Message)
	}
	gittest.Write(t, e.root, "ok.txt", "")
	e.evidence(id, "CHECK", session.EvidenceManual, "reviewed the change with the maintainer")
	g, _ = e.engine.ValidateGate(context.Background(), id, "")
	if g.Status != session.StatusPass {
		t.Fatalf("after: %s %s", g.Status, g.Message)
	}
}
