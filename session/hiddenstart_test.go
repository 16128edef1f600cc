package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestFlagFromEarlierSession28 (round 28, c4; review c11 item 2): an
// update-index flag set in an earlier session (the fix kept in the work
// tree, a stub staged and flagged, the session terminated, abandoned or
// left to be superseded) was taken at the next start as the developer's
// own: that session's runs recorded git's tree (the stub) while the tests
// ran the fix. Now each end records the flagged files and a start honours
// only a flag set before any session, carried unchanged through the
// previous one, or set between sessions on a file runners do not load as
// code.
func TestFlagFromEarlierSession28(t *testing.T) {
	const fix, stub = "echo \"hello ${1:-world}\"\n", "echo hi\n"
	for _, c := range []struct {
		name string
		// before runs before session 1, in runs in session 1, between runs
		// after session 1 ended (nil when session 2 supersedes it).
		before, in, between func(t *testing.T, root string)
		end                 string // "terminate", "supersede"
		tree                bool
	}{
		{name: "lazy: greet.sh's stub staged and flagged in session 1, terminated", in: stubAndFlag(fix, stub), end: "terminate"},
		{name: "lazy: the same, session 1 superseded by session 2's start", in: stubAndFlag(fix, stub), end: "supersede"},
		{name: "lazy: flagged in session 1, the flag undone and set again after its end", in: stubAndFlag(fix, stub), end: "terminate",
			between: func(t *testing.T, root string) {
				gittest.Git(t, root, "update-index", "--no-assume-unchanged", "scripts/greet.sh")
				gittest.Git(t, root, "update-index", "--assume-unchanged", "scripts/greet.sh")
			}},
		{name: "lazy: flagged after session 1 ended, a code file", end: "terminate", between: stubAndFlag(fix, stub)},
		{name: "lazy: the developer's flagged config edited in session 1", before: flagConfig("config/local.py", "DB = 'laptop'\n"), end: "terminate",
			in: func(t *testing.T, root string) { gittest.Write(t, root, "config/local.py", "DB = 'stub'\n") }},
		// A local .py is loaded by the tests it configures: since round 29
		// (c1) no start honours its flag (TestFlagsBetweenSessions29).
		{name: "honest: the developer's config flagged before any session, carried through session 1", before: flagConfig("config/local.yaml", "db: laptop\n"), end: "terminate", tree: true},
		{name: "honest: the same, session 1 superseded", before: flagConfig("config/local.yaml", "db: laptop\n"), end: "supersede", tree: true},
		{name: "honest: a config file flagged by the developer between sessions", end: "terminate", between: flagConfig("config/settings.yaml", "db: laptop\n"), tree: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, earlyProtocol)
			e.engine.Now = time.Now
			gittest.Commit(t, e.root, "before the sessions", map[string]string{"config/local.py": "DB = 'prod'\n", "config/local.yaml": "db: prod\n", "config/settings.yaml": "db: prod\n",
				"scripts/greet.sh": "echo hello\n", "scripts/test.sh": "sh scripts/greet.sh\n"})
			if c.before != nil {
				c.before(t, e.root)
			}
			time.Sleep(20 * time.Millisecond)
			first := e.start("session 1")
			if c.in != nil {
				c.in(t, e.root)
			}
			if c.end == "terminate" {
				if _, err := e.engine.Terminate(ctx, first, "stopped"); err != nil {
					t.Fatal(err)
				}
			}
			if c.between != nil {
				c.between(t, e.root)
			}
			time.Sleep(20 * time.Millisecond)
			id := e.start("session 2")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: the tests")
			e.advance(id) // WORKING
			gittest.Write(t, e.root, "README.md", "# greet\n\nSays hello to a name.\n")
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Source: "codex", Command: "python3 -m pytest -q", Output: []byte("1 passed\n")})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(ev.Ref, ", saw tree "); got != c.tree {
				t.Fatalf("ref %q: records a tree %v, want %v", ev.Ref, got, c.tree)
			}
		})
	}
}

// stubAndFlag keeps fix in the work tree's greet.sh while the index holds
// stub under an assume-unchanged flag: git's tree has the stub, the tests
// run the fix.
func stubAndFlag(fix, stub string) func(t *testing.T, root string) {
	return func(t *testing.T, root string) {
		gittest.Write(t, root, "scripts/greet.sh", stub)
		gittest.Git(t, root, "add", "scripts/greet.sh")
		gittest.Git(t, root, "update-index", "--assume-unchanged", "scripts/greet.sh")
		gittest.Write(t, root, "scripts/greet.sh", fix)
	}
}

// flagConfig is a developer's local edit of rel, flagged assume-unchanged.
func flagConfig(rel, body string) func(t *testing.T, root string) {
	return func(t *testing.T, root string) {
		gittest.Write(t, root, rel, body)
		gittest.Git(t, root, "update-index", "--assume-unchanged", rel)
	}
}
