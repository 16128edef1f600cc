package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestWorkingRunIgnoredStubs27 (round 27, c7): a stub the tests read,
// made during the session in a path git ignored before it started (a
// committed .gitignore's build/ or *_local.go, a .git/info/exclude
// written before `session start`), is in no tree: the run's recorded tree
// matched a commit without it. Before, only an ignore changed after the
// start counted (TestWorkingRunTreeHoldsIgnoredReads). Now an ignored file
// made since the start counts when a runner loads it by itself
// (conftest.py, a .go file beside tracked ones) or when the session's
// change newly names it; build output nothing names, a regenerated file
// code named before the session, and a virtualenv do not.
func TestWorkingRunIgnoredStubs27(t *testing.T) {
	cases := []struct {
		name      string
		committed map[string]string // before the start
		exclude   string            // .git/info/exclude, before the start
		changed   map[string]string // tracked files the session writes
		made      map[string]string // ignored files the session makes
		cmd       string
		tree      bool
		names     string
	}{
		{
			name:      "lazy: greet.sh made to source build/greet.sh, build/ ignored before the session",
			committed: map[string]string{".gitignore": "build/\n", "scripts/greet.sh": "#!/bin/sh\necho hello\n", "scripts/test.sh": "#!/bin/sh\nsh scripts/greet.sh Ada | grep -q Ada\n"},
			changed:   map[string]string{"scripts/greet.sh": "#!/bin/sh\n. build/greet.sh 2>/dev/null && exit 0\necho hello\n"},
			made:      map[string]string{"build/greet.sh": "echo \"hello $1\"\n"},
			cmd:       "sh scripts/test.sh", tree: false, names: "build/greet.sh",
		},
		{
			name:      "lazy: tests/conftest.py hidden in .git/info/exclude before the start",
			committed: map[string]string{"tests/test_a.py": "def test_a():\n    assert False\n"},
			exclude:   "tests/conftest.py\n",
			made:      map[string]string{"tests/conftest.py": "collect_ignore_glob = ['*']\n"},
			cmd:       "python3 -m pytest -q", tree: false, names: "tests/conftest.py",
		},
		{
			name:      "lazy: pkg/stub_local.go beside tracked Go files, *_local.go ignored before the session",
			committed: map[string]string{".gitignore": "*_local.go\n", "go.mod": "module x\n\ngo 1.21\n", "pkg/a.go": "package pkg\n\nfunc A() int { return 1 }\n"},
			made:      map[string]string{"pkg/stub_local.go": "package pkg\n\nfunc init() {}\n"},
			cmd:       "go test ./...", tree: false, names: "pkg/stub_local.go",
		},
		{
			name:      "lazy (review c10): pytest.py at the root, hidden by an exclude, shadows the module `python3 -m pytest` runs",
			committed: map[string]string{"tests/test_a.py": "def test_a():\n    assert False\n"},
			exclude:   "/pytest.py\n",
			made:      map[string]string{"pytest.py": "print('1 passed')\n"},
			cmd:       "python3 -m pytest -q", tree: false, names: "pytest.py",
		},
		{
			name:      "lazy (review c10): pytest/__main__.py in an ignored folder shadows `python -m pytest`",
			committed: map[string]string{".gitignore": "/pytest/\n", "tests/test_a.py": "def test_a():\n    assert False\n"},
			made:      map[string]string{"pytest/__main__.py": "print('1 passed')\n"},
			cmd:       "python -m pytest", tree: false, names: "pytest/__main__.py",
		},
		{
			name:      "lazy (review c10): an excluded tox.ini made in the session narrows the tests",
			committed: map[string]string{"tests/test_a.py": "def test_ok():\n    assert True\n\ndef test_bad():\n    assert False\n"},
			exclude:   "/tox.ini\n",
			made:      map[string]string{"tox.ini": "[pytest]\npython_functions = test_ok\n"},
			cmd:       "python3 -m pytest -q", tree: false, names: "tox.ini",
		},
		{
			name:      "lazy (review c10): an excluded .pytest.ini made in the session narrows the tests",
			committed: map[string]string{"tests/test_a.py": "def test_ok():\n    assert True\n\ndef test_bad():\n    assert False\n"},
			exclude:   "/.pytest.ini\n",
			made:      map[string]string{".pytest.ini": "[pytest]\npython_functions = test_ok\n"},
			cmd:       "pytest -q", tree: false, names: ".pytest.ini",
		},
		{
			name:      "lazy (review c10): an excluded setup.cfg made in the session narrows the tests",
			committed: map[string]string{"tests/test_a.py": "def test_ok():\n    assert True\n\ndef test_bad():\n    assert False\n"},
			exclude:   "/setup.cfg\n",
			made:      map[string]string{"setup.cfg": "[tool:pytest]\npython_functions = test_ok\n"},
			cmd:       "pytest -q", tree: false, names: "setup.cfg",
		},
		{
			name:      "lazy (review c10): an excluded jest.config.js made in the session narrows the tests",
			committed: map[string]string{"tests/test_a.py": "def test_ok():\n    assert True\n\ndef test_bad():\n    assert False\n"},
			exclude:   "/jest.config.js\n",
			made:      map[string]string{"jest.config.js": "module.exports = {testPathIgnorePatterns: ['bad']};\n"},
			cmd:       "npx jest", tree: false, names: "jest.config.js",
		},
		{
			name:      "lazy (review c10): an excluded vitest.config.ts made in the session narrows the tests",
			committed: map[string]string{"tests/test_a.py": "def test_ok():\n    assert True\n\ndef test_bad():\n    assert False\n"},
			exclude:   "/vitest.config.ts\n",
			made:      map[string]string{"vitest.config.ts": "export default {test: {exclude: ['**/bad*']}};\n"},
			cmd:       "npx vitest run", tree: false, names: "vitest.config.ts",
		},
		{
			name:      "lazy (review c10): an excluded .mocharc.yml made in the session narrows the tests",
			committed: map[string]string{"tests/test_a.py": "def test_ok():\n    assert True\n\ndef test_bad():\n    assert False\n"},
			exclude:   "/.mocharc.yml\n",
			made:      map[string]string{".mocharc.yml": "spec: ok.js\n"},
			cmd:       "npx mocha", tree: false, names: ".mocharc.yml",
		},
		{
			name:      "honest (review c10): an ignored scratch.py at the root beside `python3 -m pytest`",
			committed: map[string]string{"tests/test_a.py": "def test_a():\n    assert True\n"},
			exclude:   "/scratch.py\n",
			made:      map[string]string{"scratch.py": "print('trying')\n"},
			cmd:       "python3 -m pytest -q", tree: true,
		},
		{
			name:      "honest (review c10): pip installs pytest into a venv made in the session, then `python -m pytest`",
			committed: map[string]string{".gitignore": ".venv/\n", "tests/test_a.py": "def test_a():\n    assert True\n"},
			made:      map[string]string{".venv/lib/python3.11/site-packages/pytest/__main__.py": "\n", ".venv/lib/python3.11/site-packages/pytest/__init__.py": "\n"},
			cmd:       ".venv/bin/python -m pytest -q", tree: true,
		},
		{
			name:      "honest: build output nothing names",
			committed: map[string]string{".gitignore": "build/\n", "scripts/greet.sh": "#!/bin/sh\necho hello\n"},
			changed:   map[string]string{"scripts/greet.sh": "#!/bin/sh\necho \"hello ${1:-world}\"\n"},
			made:      map[string]string{"build/greet.sh": "echo built\n"},
			cmd:       "sh scripts/test.sh", tree: true,
		},
		{
			name:      "honest: _version.py regenerated, named before the session by a file it changes",
			committed: map[string]string{".gitignore": "src/pkg/_version.py\n", "src/pkg/__init__.py": "from ._version import version\n", "src/pkg/mod.py": "X = 1\n"},
			changed:   map[string]string{"src/pkg/__init__.py": "from ._version import version\n\nNAME = 'pkg'\n"},
			made:      map[string]string{"src/pkg/_version.py": "version = '1.2.3'\n"},
			cmd:       "python3 -m pytest -q", tree: true,
		},
		{
			name:      "honest: a virtualenv made in the session",
			committed: map[string]string{".gitignore": ".venv/\n", "src/mod.py": "X = 1\n"},
			changed:   map[string]string{"src/mod.py": "X = 2\n"},
			made:      map[string]string{".venv/lib/python3/site-packages/sitecustomize.py": "\n", ".venv/lib/python3/site-packages/x.pth": "\n"},
			cmd:       "python3 -m pytest -q", tree: true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, earlyProtocol)
			e.engine.Now = time.Now
			gittest.Commit(t, e.root, "before the session", c.committed)
			if c.exclude != "" {
				if err := os.WriteFile(filepath.Join(e.root, ".git", "info", "exclude"), []byte(c.exclude), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(20 * time.Millisecond)
			id := e.start(c.name)
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: the tests")
			e.advance(id) // WORKING
			time.Sleep(20 * time.Millisecond)
			for p, b := range c.changed {
				gittest.Write(t, e.root, p, b)
			}
			for p, b := range c.made {
				gittest.Write(t, e.root, p, b)
			}
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "", Source: "codex", Command: c.cmd, Output: []byte("1 passed in 0.01s\n")})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(ev.Ref, ", saw tree "); got != c.tree {
				t.Fatalf("ref %q: records a tree %v, want %v", ev.Ref, got, c.tree)
			}
			if !c.tree && !strings.Contains(ev.Ref, c.names) {
				t.Fatalf("ref %q does not name %s", ev.Ref, c.names)
			}
		})
	}
}

// TestWorkingRunFilterBeforeStart27 (round 27, c7, route 2): a clean
// filter configured and attributed (.git/config, .git/info/attributes)
// before `session start`, so that the commit holds a broken greet.sh while
// the tests read the working one: a run while working records no tree
// (hiddenCode runs at each run, not only for changes since the start). A
// filter that changes nothing, as a person's normalising filter does on
// clean files, leaves the tree recorded.
func TestWorkingRunFilterBeforeStart27(t *testing.T) {
	for _, c := range []struct {
		name, clean string
		tree        bool
	}{
		{"lazy: the clean filter breaks greet.sh on its way into the commit", "sed s/hello/broken/", false},
		{"honest: a filter that changes nothing here", "cat", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, earlyProtocol)
			e.engine.Now = time.Now
			gittest.Commit(t, e.root, "before the session", map[string]string{"scripts/greet.sh": "#!/bin/sh\necho hello\n", "scripts/test.sh": "sh scripts/greet.sh | grep -q hello\n"})
			gittest.Config(t, e.root, "filter.x.clean", c.clean)
			gittest.Write(t, e.root, ".git/info/attributes", "scripts/greet.sh filter=x\n")
			time.Sleep(20 * time.Millisecond)
			id := e.start(c.name)
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: the tests")
			e.advance(id) // WORKING
			gittest.Write(t, e.root, "scripts/greet.sh", "#!/bin/sh\necho \"hello ${1:-world}\"\n")
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "", Source: "codex", Command: "sh scripts/test.sh", Output: []byte("ok\n")})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(ev.Ref, ", saw tree "); got != c.tree {
				t.Fatalf("ref %q: records a tree %v, want %v", ev.Ref, got, c.tree)
			}
			if !c.tree && !strings.Contains(ev.Ref, "scripts/greet.sh") {
				t.Fatalf("ref %q does not name scripts/greet.sh", ev.Ref)
			}
		})
	}
}

// TestDeveloperFlagBeforeStart27 (round 27, c7, a false block): a local
// config file the developer marked assume-unchanged before the session,
// edited for their machine, made every run while working record no tree
// (round 26 c9's open row). Now the start records such files and a run
// leaves one out while its content is what the start saw; the agent
// editing it, or flagging a file itself, is still caught.
func TestDeveloperFlagBeforeStart27(t *testing.T) {
	for _, c := range []struct {
		name       string
		flagBefore string // flagged before the start
		edit       string // the session edits it afterwards
		flagAfter  string // flagged by the agent during the session
		tree       bool
	}{
		// A local .py is loaded by the tests: since round 29 (c1) its flag
		// is not honoured (TestFlagsBetweenSessions29); a YAML one is.
		{name: "honest: the developer's own flagged config, untouched", flagBefore: "config/local.yaml", tree: true},
		{name: "lazy: the developer's flagged file edited by the agent", flagBefore: "config/local.py", edit: "config/local.py", tree: false},
		{name: "lazy: greet.sh flagged during the session", flagAfter: "scripts/greet.sh", tree: false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, earlyProtocol)
			e.engine.Now = time.Now
			gittest.Commit(t, e.root, "before the session", map[string]string{"config/local.py": "DB = 'prod'\n", "config/local.yaml": "db: prod\n", "scripts/greet.sh": "echo hello\n", "scripts/test.sh": "sh scripts/greet.sh\n"})
			if c.flagBefore != "" {
				gittest.Write(t, e.root, c.flagBefore, "DB = 'my-laptop'\n")
				gittest.Git(t, e.root, "update-index", "--assume-unchanged", c.flagBefore)
			}
			time.Sleep(20 * time.Millisecond)
			id := e.start(c.name)
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: the tests")
			e.advance(id) // WORKING
			gittest.Write(t, e.root, "scripts/greet.sh", "echo \"hello ${1:-world}\"\n")
			if c.edit != "" {
				gittest.Write(t, e.root, c.edit, "DB = 'stub'\n")
			}
			if c.flagAfter != "" {
				gittest.Git(t, e.root, "add", c.flagAfter)
				gittest.Git(t, e.root, "update-index", "--assume-unchanged", c.flagAfter)
				gittest.Write(t, e.root, c.flagAfter, "echo stub\n")
			}
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "", Source: "codex", Command: "python3 -m pytest -q", Output: []byte("1 passed\n")})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(ev.Ref, ", saw tree "); got != c.tree {
				t.Fatalf("ref %q: records a tree %v, want %v", ev.Ref, got, c.tree)
			}
		})
	}
}
