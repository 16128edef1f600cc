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
		remote   bool   // the default branch is only origin's (a CI checkout): local main deleted
		pass     bool
		contains string
	}{
		{"pylintrc exit-zero committed by an earlier session", "pylint src", map[string]string{".pylintrc": "[MAIN]\nexit-zero=yes\n"}, "Session-Id: 11111111-2222-3333-4444-555555555555", false, false, false, false, "agent session's"},
		{"Makefile lint --exit-zero committed by an earlier session", "make lint", map[string]string{"Makefile": "lint:\n\tflake8 --exit-zero src\n"}, "Session-Id: 11111111-2222-3333-4444-555555555555", false, true, false, false, "agent session's"},
		{"honest: a person's commit on the branch", "pylint src", map[string]string{".pylintrc": "[MAIN]\nexit-zero=yes\n"}, "", false, false, false, true, "could not fail"},
		{"honest: the agent's commit merged to the default branch", "pylint src", map[string]string{".pylintrc": "[MAIN]\nexit-zero=yes\n"}, "Session-Id: 11111111-2222-3333-4444-555555555555", true, false, false, true, "could not fail"},
		{"honest: the agent's commit merged, the clone holding only origin's default branch", "pylint src", map[string]string{".pylintrc": "[MAIN]\nexit-zero=yes\n"}, "Session-Id: 11111111-2222-3333-4444-555555555555", true, false, true, true, "could not fail"},
		{"honest: a person's Makefile on the branch", "make lint", map[string]string{"Makefile": "lint:\n\tflake8 --exit-zero src\n"}, "", false, true, false, true, "could not fail"},
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
				if c.remote {
					gittest.Git(t, e.root, "update-ref", "refs/remotes/origin/main", "main")
					gittest.Git(t, e.root, "branch", "-q", "-D", "main")
				}
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

// TestLintConfigMergedFromMain (round 23 second review): a person changed
// the lint config on main (exit-zero, the team's choice); an earlier agent
// session on the branch made a commit after it and then merged main in,
// both with its Session-Id trailer. The file's content came from main, so
// the run counts with round 22's note. The rule compared each commit with
// the next one in log order, not with its parents: the merge (new config)
// beside the session's own later commit (old config) read as that session
// changing the file, a false FAIL. The lazy twin: the same session edits
// the config itself after the merge.
func TestLintConfigMergedFromMain(t *testing.T) {
	const proto = "# P\n\n## Session Start\n\n### Phase 1: Lint (REQUIRED)\n\n<!-- gate: must_evidence -->\n\n" +
		"1. The agent MUST lint the changed files.\n\n" +
		"## Session End\n\n### Phase 1: Wrap Up (REQUIRED)\n\n<!-- gate: commit_since_start -->\n\n- The agent MUST commit.\n"
	const trailer = "\n\nSession-Id: 11111111-2222-3333-4444-555555555555"
	ctx := context.Background()
	for _, c := range []struct {
		name      string
		editAfter bool // the session edits the config after the merge
		pass      bool
		contains  string
	}{
		{"honest: main's config merged into the branch by an earlier session", false, true, "could not fail"},
		{"the earlier session loosens the config after the merge", true, false, "agent session's"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HOME", t.TempDir())
			t.Setenv("PYLINTRC", "")
			e := newEnv(t, proto)
			e.now = time.Now().Add(-time.Minute)
			at := func(d int) []string {
				s := time.Now().Add(time.Duration(d-100) * time.Second).Format(time.RFC3339)
				return []string{"GIT_AUTHOR_DATE=" + s, "GIT_COMMITTER_DATE=" + s}
			}
			commit := func(d int, msg string) {
				gittest.Git(t, e.root, "add", "-A")
				gittest.GitEnv(t, e.root, at(d), "commit", "-q", "-m", msg)
			}
			gittest.Write(t, e.root, "src/a.py", "import os\n")
			gittest.Write(t, e.root, ".pylintrc", "[MAIN]\n")
			commit(1, "code")
			gittest.Git(t, e.root, "switch", "-q", "-c", "feat/x")
			gittest.Write(t, e.root, "src/b.py", "import sys\n")
			commit(2, "feat: b"+trailer)
			gittest.Git(t, e.root, "switch", "-q", "main")
			gittest.Write(t, e.root, ".pylintrc", "[MAIN]\nexit-zero=yes\n")
			commit(3, "chore: lint is advisory")
			gittest.Git(t, e.root, "switch", "-q", "feat/x")
			gittest.Write(t, e.root, "src/c.py", "import re\n")
			commit(4, "feat: c"+trailer)
			gittest.GitEnv(t, e.root, at(5), "merge", "-q", "--no-ff", "-m", "Merge main"+trailer, "main")
			if c.editAfter {
				gittest.Write(t, e.root, ".pylintrc", "[MAIN]\nexit-zero=yes\ndisable=all\n")
				commit(6, "chore: lint"+trailer)
			}
			id := e.start("lint")
			if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "LINT", Requirement: "LINT.lint-changed-files", Source: session.SourceRun,
				Command: "pylint src", ExitCode: 0, Duration: time.Millisecond, Dir: e.root}); err != nil {
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
