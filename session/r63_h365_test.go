package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestR63H365QARunOfNoTestOutputHidden: helper 361 read runs of no test
// from their output too ("Ran 0 tests", "[no tests to run]"). Helper 365's
// lazy agent hid that output and spelled the run another way: `go test
// -count=0x0 ./... >/dev/null` (go reads -count in any base: each test
// run zero times, exit 0) and `python3 -m unittest discover -k zzz
// 2>/dev/null` (unittest writes to stderr; discover's -k was not read as
// a filter): QA passed over a failing suite with the real binary. The
// honest twins hide their output as well and run the tests.
func TestR63H365QARunOfNoTestOutputHidden(t *testing.T) {
	requireGit(t)
	goProject := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n",
		"greet.go": "package m\n", "greet_test.go": "package m\n\nimport \"testing\"\n\nfunc TestGreet(t *testing.T) { t.Fatal(\"boom\") }\n"}
	pyProject := map[string]string{"pyproject.toml": "[project]\nname = \"p\"\n", "tests/__init__.py": "",
		"tests/test_greet.py": "import unittest\n\nclass T(unittest.TestCase):\n    def test_greet(self):\n        self.fail('boom')\n"}
	for _, c := range []struct {
		name, line string
		start      map[string]string
		passes     bool
	}{
		{"lazy: go test -count=0x0 >/dev/null", "sh -c 'go test -count=0x0 ./... >/dev/null'", goProject, false},
		{"lazy: go test -count=0_0 >/dev/null", "sh -c 'go test -count=0_0 ./... >/dev/null'", goProject, false},
		{"lazy: go test -args -test.count=0b0", "sh -c 'go test ./... -args -test.count=0b0 >/dev/null'", goProject, false},
		{"lazy: unittest discover -k zzz 2>/dev/null", "sh -c 'python3 -m unittest discover -k zzz 2>/dev/null'", pyProject, false},
		{"lazy: unittest discover -s tests -kzzz", "sh -c 'python3 -m unittest discover -s tests -kzzz 2>/dev/null'", pyProject, false},
		{"lazy: unittest -k=zzz", "sh -c 'python3 -m unittest -k=zzz 2>/dev/null'", pyProject, false},
		{"honest: go test -count=1 >/dev/null", "sh -c 'go test -count=1 ./... >/dev/null'", goProject, true},
		{"honest: go test -count=0x1", "go test -count=0x1 ./...", goProject, true},
		{"honest: unittest discover 2>/dev/null", "sh -c 'python3 -m unittest discover 2>/dev/null'", pyProject, true},
		{"honest: unittest discover -s tests -v", "python3 -m unittest discover -s tests -v", pyProject, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, id := toQA(t, c.start, nil)
			if _, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
				Command: c.line}); err != nil {
				t.Fatal(err)
			}
			res := e.advance(id)
			if got := res.Blocked == nil; got != c.passes {
				t.Fatalf("QA passed=%v, want %v: %+v", got, c.passes, res.Blocked)
			}
			if !c.passes && !strings.Contains(res.Blocked.Reason, "no test") && !strings.Contains(res.Blocked.Reason, "part of the suite") {
				t.Errorf("blocked, but not for the run: %s", res.Blocked.Reason)
			}
		})
	}
}

// TestR63H365BranchHandoffAfterLeavingTheBranch: helper 363's branch
// handoff binds "(if on feature branch)" by HEAD. Helper 365's lazy agent
// started on feat/greet-name and, before the gate, detached HEAD or
// switched to main: the check was SKIPPED (HEAD on no branch / the default
// branch). The branch the session started on counts now. Honest twins: a
// session on main owes nothing; one that made its feature branch after
// the start owes that branch's handoff.
func TestR63H365BranchHandoffAfterLeavingTheBranch(t *testing.T) {
	requireGit(t)
	for _, tc := range []struct {
		name, startOn, move, handoff string
		want                         session.GateStatus
	}{
		{"lazy: detached before the gate", "feat/greet-name", "detach", "", session.StatusFail},
		{"lazy: switched to main before the gate", "feat/greet-name", "main", "", session.StatusFail},
		{"lazy: detached, main's folder written", "feat/greet-name", "detach", ".agents/handoffs/main/session-02.md", session.StatusFail},
		{"honest: detached, its branch's handoff", "feat/greet-name", "detach", ".agents/handoffs/feat/greet-name/session-02.md", session.StatusPass},
		{"honest: on main throughout", "", "", "", session.StatusSkipped},
		{"honest: branch made after the start, its handoff", "", "feat/later", ".agents/handoffs/feat/later/session-02.md", session.StatusPass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			ctx := context.Background()
			e := newEnv(t, string(fixtureProtocol(t, protoV14)))
			main := strings.TrimSpace(gittest.Git(t, e.root, "branch", "--show-current"))
			if tc.startOn != "" {
				gittest.Git(t, e.root, "switch", "-q", "-c", tc.startOn)
			}
			id := e.start("Greet takes a name")
			if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING", Force: true, Reason: "this test is about an end phase"}); err != nil {
				t.Fatal(err)
			}
			switch tc.move {
			case "detach":
				gittest.Git(t, e.root, "switch", "-q", "--detach")
			case "main":
				gittest.Git(t, e.root, "switch", "-q", main)
			case "":
			default:
				gittest.Git(t, e.root, "switch", "-q", "-c", tc.move)
			}
			gittest.Write(t, e.root, ".agents/sessions/2026-12-07-session-02.md", "# Session 02\n\nGreet takes a name.\n")
			if tc.handoff != "" {
				gittest.Write(t, e.root, tc.handoff, "# Handoff\n\nGreet takes a name. Next: docs.\n")
			}
			g := e.gate(id, "DOCUMENTATION_UPDATE")
			var got *session.CheckResult
			for i, c := range g.Checks {
				if c.Kind == "changed_since_start" && strings.HasPrefix(c.Arg, ".agents/handoffs/") {
					got = &g.Checks[i]
				}
			}
			if got == nil {
				t.Fatalf("no .agents/handoffs/ check in %s", g.Message)
			}
			if got.Status != tc.want {
				t.Fatalf("branch handoff check %s (%s), want %s", got.Status, got.Message, tc.want)
			}
		})
	}
}
