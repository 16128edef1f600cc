package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestSlowSuiteGate: a QA command longer than command_timeout (round 20
// left it open: no honest agent could pass the gate). When the gate's own
// run times out it takes a passing `sessiongate run` of exactly its
// command that saw the tree it would test; nothing else stands in.
func TestSlowSuiteGate(t *testing.T) {
	requireGit(t)
	const suite = "sleep 2\ngrep -q hello greet.txt\n"
	tests := []struct {
		name string
		// before runs in QA before the gate is validated.
		before func(t *testing.T, e *env, id string)
		pass   bool
		msg    string
	}{
		{name: "honest: own run of the gate's command", pass: true, msg: "passed on this same tree",
			before: func(t *testing.T, e *env, id string) { e.run(t, id, "sh", "suite.sh") }},
		{name: "honest: own run as sh -c", pass: true, msg: "passed on this same tree",
			before: func(t *testing.T, e *env, id string) { e.run(t, id, "sh", "-c", "sh suite.sh") }},
		{name: "no run of its own", msg: "--timeout 30m",
			before: func(*testing.T, *env, string) {}},
		{name: "the work changed after the run", msg: "timed out",
			before: func(t *testing.T, e *env, id string) {
				e.run(t, id, "sh", "suite.sh")
				gittest.Write(t, e.root, "greet.txt", "hello, changed after the run\n")
				gittest.Git(t, e.root, "add", "greet.txt")
			}},
		{name: "honest: the handoff written after the run", pass: true, msg: "passed on this same tree",
			before: func(t *testing.T, e *env, id string) {
				e.run(t, id, "sh", "suite.sh")
				gittest.Write(t, e.root, "docs/handoff.md", "# Handoff\n\nThe greeting says hello world.\n")
				gittest.Git(t, e.root, "add", "docs/handoff.md")
			}},
		{name: "a run of another command", msg: "timed out",
			before: func(t *testing.T, e *env, id string) { e.run(t, id, "sh", "-c", "grep -q hello greet.txt") }},
		{name: "a run seen by the agent's hook, in its own environment", msg: "timed out",
			before: func(t *testing.T, e *env, id string) {
				if _, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: "claude",
					Command: "sh suite.sh", ExitCode: 0, Duration: 3 * time.Second, Output: []byte("ok\n")}); err != nil {
					t.Fatal(err)
				}
			}},
		{name: "a run that timed out itself", msg: "timed out",
			before: func(t *testing.T, e *env, id string) {
				_, err := e.engine.Run(context.Background(), session.RunRequest{ID: id, Phase: "QA_VALIDATION", Argv: []string{"sh", "suite.sh"}, Timeout: 300 * time.Millisecond})
				if err == nil {
					t.Fatal("a 2 s suite under a 300ms limit did not time out")
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, qaProtocol)
			e.engine.Config.Commands = map[string]string{"QA_VALIDATION": "sh suite.sh"}
			e.engine.Config.DocGlobs = []string{"**/*.md"}
			gittest.Commit(t, e.root, "project", map[string]string{"greet.txt": "hello\n", "suite.sh": suite})
			id := e.start("a slow suite")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: run the tests")
			e.advance(id) // WORKING
			gittest.Write(t, e.root, "greet.txt", "hello world\n")
			gittest.Git(t, e.root, "add", "greet.txt")
			e.advance(id) // into QA_VALIDATION
			tc.before(t, e, id)
			// The gate's limit is shorter than the suite.
			e.engine.Config.CommandTimeout = 500 * time.Millisecond
			g, err := e.engine.ValidateGate(context.Background(), id, "QA_VALIDATION")
			if err != nil {
				t.Fatal(err)
			}
			if (g.Status == session.StatusPass) != tc.pass || !strings.Contains(g.Message, tc.msg) {
				t.Fatalf("gate %s %q, want pass=%v containing %q", g.Status, g.Message, tc.pass, tc.msg)
			}
			if testing.Verbose() {
				t.Logf("gate %s %q", g.Status, g.Message)
			}
		})
	}
}

// run runs argv as `sessiongate run --phase QA_VALIDATION --timeout 1m`.
func (e *env) run(t *testing.T, id string, argv ...string) {
	t.Helper()
	res, err := e.engine.Run(context.Background(), session.RunRequest{ID: id, Phase: "QA_VALIDATION", Argv: argv, Timeout: time.Minute})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("run %v: %+v %v", argv, res, err)
	}
}
