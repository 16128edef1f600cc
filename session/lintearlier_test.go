package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestLintConfigFromEarlierSession (round 23, issue 25 item 4): a lint
// config that cannot fail, committed on the branch by an earlier agent
// session (its Session-Id trailer) and not on the default branch, passed a
// later session's lint run as "the team's, set before this session". It
// is the agent's now. Honest twins: the same commit made by a person (no
// trailer), and the agent's commit merged to the default branch, are the
// team's: the run counts with a note.
func TestLintConfigFromEarlierSession(t *testing.T) {
	const proto = "# P\n\n## Session Start\n\n### Phase 1: Lint (REQUIRED)\n\n<!-- gate: must_evidence -->\n\n" +
		"1. The agent MUST lint the changed files.\n\n" +
		"## Session End\n\n### Phase 1: Wrap Up (REQUIRED)\n\n<!-- gate: commit_since_start -->\n\n- The agent MUST commit.\n"
	ctx := context.Background()
	for _, c := range []struct {
		name     string
		cmd      string
		files    map[string]string
		trailer  string // the weakening commit's message trailer
		merged   bool   // the weakening commit is on the default branch
		later    bool   // a person's commit after it on the branch touches another file
		pass     bool
		contains string
	}{
		{"pylintrc exit-zero committed by an earlier session", "pylint src", map[string]string{".pylintrc": "[MAIN]\nexit-zero=yes\n"}, "Session-Id: 11111111-2222-3333-4444-555555555555", false, false, false, "agent session's"},
		{"Makefile lint --exit-zero committed by an earlier session", "make lint", map[string]string{"Makefile": "lint:\n\tflake8 --exit-zero src\n"}, "Session-Id: 11111111-2222-3333-4444-555555555555", false, true, false, "agent session's"},
		{"honest: a person's commit on the branch", "pylint src", map[string]string{".pylintrc": "[MAIN]\nexit-zero=yes\n"}, "", false, false, true, "could not fail"},
		{"honest: the agent's commit merged to the default branch", "pylint src", map[string]string{".pylintrc": "[MAIN]\nexit-zero=yes\n"}, "Session-Id: 11111111-2222-3333-4444-555555555555", true, false, true, "could not fail"},
		{"honest: a person's Makefile on the branch", "make lint", map[string]string{"Makefile": "lint:\n\tflake8 --exit-zero src\n"}, "", false, true, true, "could not fail"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HOME", t.TempDir())
			t.Setenv("PYLINTRC", "")
			e := newEnv(t, proto)
			e.now = time.Now().Add(-time.Minute)
			gittest.Write(t, e.root, "src/a.py", "import os\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "code")
			if !c.merged {
				gittest.Git(t, e.root, "switch", "-q", "-c", "feat/x")
			}
			for f, b := range c.files {
				gittest.Write(t, e.root, f, b)
			}
			gittest.Git(t, e.root, "add", "-A")
			msg := "chore: lint config"
			if c.trailer != "" {
				msg += "\n\n" + c.trailer
			}
			gittest.Git(t, e.root, "commit", "-q", "-m", msg)
			if c.merged {
				gittest.Git(t, e.root, "switch", "-q", "-c", "feat/x")
			}
			if c.later {
				gittest.Write(t, e.root, "README.md", "# x\n")
				gittest.Git(t, e.root, "add", "-A")
				gittest.Git(t, e.root, "commit", "-q", "-m", "docs: readme")
			}
			id := e.start("lint")
			if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "LINT", Requirement: "LINT.lint-changed-files", Source: session.SourceRun,
				Command: c.cmd, ExitCode: 0, Duration: time.Millisecond, Dir: e.root}); err != nil {
				t.Fatal(err)
			}
			g, err := e.engine.ValidateGate(ctx, id, "LINT")
			if err != nil {
				t.Fatal(err)
			}
			if (g.Status == session.StatusPass) != c.pass {
				t.Fatalf("gate %s, want pass %v: %s", g.Status, c.pass, g.Message)
			}
			evs, err := e.db.ListEvidence(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			found := strings.Contains(g.Message, c.contains)
			for _, ev := range evs {
				found = found || strings.Contains(ev.Ref, c.contains)
			}
			if !found {
				t.Fatalf("neither the gate nor the evidence says %q: %s %+v", c.contains, g.Message, evs)
			}
		})
	}
}
