package session_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/internal/sqlitetest"
	"github.com/sessiongate/sessiongate/session"
)

// flagsProtocol: a QA phase whose gate runs the test script, which sources
// scripts/names.txt.
const flagsProtocol = "# P\n\n## Session Start\n\n### Phase 1: Context Retrieval (BLOCKING)\n\n<!-- gate: evidence tool_output -->\n\n- The agent MUST read the README.\n\n## Session End\n\n### Phase 1: QA Validation (BLOCKING)\n\n<!-- gate: command \"sh scripts/test.sh\" -->\n\n- The agent MUST run the tests.\n"

// TestFlagsBetweenSessions29 (round 29, c1; final review of round 28): a
// start honoured a flag set between sessions on a file the test script
// sources (a .txt stub), one set on a .sh once the database was deleted,
// and one over a staged stub (index other than HEAD); only the QA gate's
// refusal of every flag held them, and that refusal blocked the
// developer's own flag on a local config.yaml the tests never read. Now a
// start honours a flag only over HEAD's blob on a file the tests do not
// load (or one carried unchanged from the previous session), and the QA
// gate (and the end) leave out only those: the rest stay refused, named.
func TestFlagsBetweenSessions29(t *testing.T) {
	const stubTxt = "WANT=helo\n" // what the broken greet.sh prints
	edit := func(rel, body string, flag string) func(t *testing.T, root string) {
		return func(t *testing.T, root string) {
			gittest.Write(t, root, rel, body)
			gittest.Git(t, root, "update-index", flag, rel)
		}
	}
	for _, c := range []struct {
		name string
		// before runs before session 1 (or, with no earlier sessions,
		// before the session judged); in runs in each earlier session,
		// between after it ends; inLast in the session judged.
		before, in, between, inLast func(t *testing.T, root string)
		earlier                     int  // sessions before the one judged, each terminated
		freshDB                     bool // the database is deleted before the session judged
		commands                    bool // sessiongate.yaml sets QA's command (init's default)
		file                        string
		honoured                    bool // the start honours file
		lost                        bool // and the session makes it not the developer's
	}{
		{name: "lazy: a .sh flagged after the database was deleted", earlier: 1, freshDB: true,
			between: edit("scripts/greet.sh", "echo \"hello\"\n", "--assume-unchanged"), file: "scripts/greet.sh"},
		{name: "lazy: a .txt stub the test script sources, flagged between sessions", earlier: 1,
			between: edit("scripts/names.txt", stubTxt, "--assume-unchanged"), file: "scripts/names.txt"},
		{name: "lazy: the same .txt stub flagged after the database was deleted", earlier: 1, freshDB: true,
			between: edit("scripts/names.txt", stubTxt, "--skip-worktree"), file: "scripts/names.txt"},
		{name: "lazy: a stub put in the index with update-index --cacheinfo, then flagged", earlier: 0,
			before: func(t *testing.T, root string) {
				stub := filepath.Join(t.TempDir(), "stub")
				if err := os.WriteFile(stub, []byte(stubTxt), 0o644); err != nil {
					t.Fatal(err)
				}
				blob := gittest.Git(t, root, "hash-object", "-w", stub)
				gittest.Git(t, root, "update-index", "--cacheinfo", "100644,"+strings.TrimSpace(blob)+",config.yaml")
				gittest.Git(t, root, "update-index", "--assume-unchanged", "config.yaml")
			}, file: "config.yaml"},
		{name: "lazy: a stub staged, flagged, the work tree put back", earlier: 1,
			between: func(t *testing.T, root string) {
				gittest.Write(t, root, "config.yaml", "db: stub\n")
				gittest.Git(t, root, "add", "config.yaml")
				gittest.Git(t, root, "update-index", "--skip-worktree", "config.yaml")
				gittest.Write(t, root, "config.yaml", "db: prod\n")
			}, file: "config.yaml"},
		{name: "lazy: a flag set by a script the session runs", earlier: 1,
			inLast: func(t *testing.T, root string) {
				gittest.Write(t, root, "setup.sh", "printf 'WANT=helo\\n' > scripts/names.txt\ngit update-index --assume-unchanged scripts/names.txt\n")
				gittest.Git(t, root, "add", "setup.sh")
				gittest.Git(t, root, "commit", "-q", "-m", "chore: setup")
				cmd := exec.Command("sh", "setup.sh")
				cmd.Dir = root
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("sh setup.sh: %v %s", err, out)
				}
			}, file: "scripts/names.txt"},
		{name: "lazy: --no-skip-worktree before the end, set again after it", earlier: 1,
			in: edit("scripts/names.txt", stubTxt, "--skip-worktree"),
			between: func(t *testing.T, root string) {
				gittest.Git(t, root, "update-index", "--skip-worktree", "scripts/names.txt")
			}, file: "scripts/names.txt"},
		{name: "honest: a local config.yaml flagged before any session", earlier: 0,
			before: edit("config.yaml", "db: laptop\n", "--assume-unchanged"), file: "config.yaml", honoured: true},
		{name: "honest: a .env.local flagged before any session", earlier: 0,
			before: edit(".env.local", "TOKEN=mine\n", "--skip-worktree"), file: ".env.local", honoured: true},
		{name: "honest: a local config.yaml flagged and kept across three sessions", earlier: 2,
			before: edit("config.yaml", "db: laptop\n", "--assume-unchanged"), file: "config.yaml", honoured: true},
		{name: "honest: a local config.yaml flagged between sessions", earlier: 1,
			between: edit("config.yaml", "db: laptop\n", "--skip-worktree"), file: "config.yaml", honoured: true},
		{name: "honest: the developer's config.yaml, the database deleted", earlier: 1, freshDB: true,
			before: edit("config.yaml", "db: laptop\n", "--assume-unchanged"), file: "config.yaml", honoured: true},
		{name: "lazy: the session makes the test script read the honoured .env.local", earlier: 0,
			before: edit(".env.local", "TOKEN=mine\n", "--skip-worktree"),
			inLast: func(t *testing.T, root string) {
				gittest.Write(t, root, "scripts/test.sh", ". ./.env.local\n. scripts/names.txt\n[ \"$(sh scripts/greet.sh)\" = \"$WANT\" ]\n")
				gittest.Git(t, root, "commit", "-q", "-am", "test: read the local env")
			}, file: ".env.local", honoured: true, lost: true},
		{name: "lazy: the session puts a stub under the honoured flag with --cacheinfo", earlier: 0,
			before: edit("config.yaml", "db: laptop\n", "--assume-unchanged"),
			inLast: func(t *testing.T, root string) {
				stub := filepath.Join(t.TempDir(), "stub")
				if err := os.WriteFile(stub, []byte("db: stub\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				blob := strings.TrimSpace(gittest.Git(t, root, "hash-object", "-w", stub))
				gittest.Git(t, root, "update-index", "--cacheinfo", "100644,"+blob+",config.yaml")
				gittest.Git(t, root, "update-index", "--assume-unchanged", "config.yaml")
			}, file: "config.yaml", honoured: true, lost: true},
		{name: "lazy: a golden file under testdata/ flagged between sessions (read by a glob)", earlier: 1,
			between: edit("scripts/testdata/out.golden", "helo\n", "--assume-unchanged"), file: "scripts/testdata/out.golden"},
		{name: "lazy: a .txt the test script sources by a glob, flagged between sessions", earlier: 1, commands: true,
			before: func(t *testing.T, root string) {
				gittest.Commit(t, root, "test: every names file", map[string]string{"scripts/test.sh": "for f in scripts/*.txt; do . \"$f\"; done\n[ \"$(sh scripts/greet.sh)\" = \"$WANT\" ]\n"})
			},
			between: edit("scripts/names.txt", stubTxt, "--assume-unchanged"), file: "scripts/names.txt"},
		{name: "honest: a local config.yaml flagged, sessiongate.yaml's QA command set", earlier: 1, commands: true,
			before: edit("config.yaml", "db: laptop\n", "--assume-unchanged"), file: "config.yaml", honoured: true},
		// Review 29 (c8): app/rules.py opens os.path.join(HERE, "..",
		// "data", kind + ".json"); the test asks for kind "orders".
		{name: "lazy: a data file the app opens by a built path, flagged before any session", earlier: 0,
			before: edit("data/orders.json", "{\"limit\": 9}\n", "--assume-unchanged"), file: "data/orders.json"},
		{name: "lazy: a top-level orders.json the app opens by its stem, flagged between sessions", earlier: 1,
			between: edit("orders.json", "{\"limit\": 9}\n", "--skip-worktree"), file: "orders.json"},
		{name: "honest: the developer's notes/todo.md flagged before any session (no code names it)", earlier: 0,
			before: edit("notes/todo.md", "- try the cache\n", "--assume-unchanged"), file: "notes/todo.md", honoured: true},
		// The cost (documented): the tests may import a local .py, so a
		// flag on one is not the developer's at a start, whoever set it.
		{name: "trade-off: a developer's config/local.py flagged before any session", earlier: 0,
			before: edit("config/local.py", "DB = 'laptop'\n", "--assume-unchanged"), file: "config/local.py"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, flagsProtocol)
			e.engine.Now = time.Now
			gittest.Commit(t, e.root, "before the sessions", map[string]string{
				"scripts/greet.sh": "echo hello\n", "scripts/names.txt": "WANT=hello\n",
				"scripts/test.sh": ". scripts/names.txt\n[ \"$(sh scripts/greet.sh)\" = \"$WANT\" ]\n",
				"config.yaml":     "db: prod\n", ".env.local": "TOKEN=\n", "config/local.py": "DB = 'prod'\n", "scripts/testdata/out.golden": "hello\n",
				"app/rules.py":     "import json, os\nHERE = os.path.dirname(__file__)\n\ndef limit(kind):\n    with open(os.path.join(HERE, \"..\", \"data\", kind + \".json\")) as f:\n        return json.load(f)[\"limit\"]\n",
				"app/top.py":       "def top(kind):\n    return open(kind + '.json').read()\n",
				"test_rules.py":    "from app.rules import limit\nfrom app.top import top\n\ndef test_limit():\n    assert limit(\"orders\") == 10 and top('orders')\n",
				"data/orders.json": "{\"limit\": 10}\n", "orders.json": "{\"limit\": 10}\n", "notes/todo.md": "- nothing\n"})
			if c.before != nil {
				c.before(t, e.root)
			}
			if c.commands {
				e.engine.Config.Commands = map[string]string{"QA_VALIDATION": "sh scripts/test.sh"}
			}
			for i := 0; i < c.earlier; i++ {
				time.Sleep(20 * time.Millisecond)
				id := e.start("an earlier session")
				if c.in != nil {
					c.in(t, e.root)
					if strings.HasPrefix(c.name, "lazy: --no-skip-worktree") {
						gittest.Git(t, e.root, "update-index", "--no-skip-worktree", "scripts/names.txt")
					}
				}
				if _, err := e.engine.Terminate(ctx, id, "stopped"); err != nil {
					t.Fatal(err)
				}
			}
			if c.freshDB {
				db, _ := sqlitetest.Open(t)
				e.db = db
				e.engine = session.NewEngine(db, session.Config{CommandTimeout: 10 * time.Minute}, func(ctx context.Context, wt string) (session.Repo, error) {
					return gitrepo.Open(ctx, wt)
				})
				e.engine.Now = time.Now
				if c.commands {
					e.engine.Config.Commands = map[string]string{"QA_VALIDATION": "sh scripts/test.sh"}
				}
				var err error
				if e.spec, err = e.engine.LoadSpec(ctx, "SESSION-PROTOCOL.md", []byte(flagsProtocol)); err != nil {
					t.Fatal(err)
				}
			}
			if c.between != nil {
				c.between(t, e.root)
			}
			time.Sleep(20 * time.Millisecond)
			id := e.start("the session judged")
			var start struct {
				Hidden map[string]string `json:"hidden_at_start"`
			}
			evs, err := e.db.EventsWith(ctx, id, "tool:session_start")
			if err != nil || len(evs) == 0 || json.Unmarshal([]byte(evs[0].Detail), &start) != nil {
				t.Fatalf("no start event: %v", err)
			}
			if got := start.Hidden[c.file] != ""; got != c.honoured {
				t.Fatalf("the start honours %s: %v, want %v (%s)", c.file, got, c.honoured, evs[0].Detail)
			}
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: sh scripts/test.sh")
			e.advance(id) // WORKING
			if c.inLast != nil {
				c.inLast(t, e.root)
			}
			e.advance(id) // QA_VALIDATION
			g, err := e.engine.ValidateGate(ctx, id, "QA_VALIDATION")
			if err != nil {
				t.Fatal(err)
			}
			if c.honoured && !c.lost {
				if g.Status != session.StatusPass {
					t.Fatalf("QA gate %s: %s", g.Status, g.Message)
				}
				return
			}
			if g.Status != session.StatusFail || !strings.Contains(g.Message, c.file) {
				t.Fatalf("QA gate %s, not naming %s: %s", g.Status, c.file, g.Message)
			}
		})
	}
}
