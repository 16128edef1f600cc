package compliance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Lazy-agent pass 26 (c4): the rules' own inputs. Trust on first use takes
// the protocol as HEAD holds it, and a database is new whenever the agent's
// shell names one (`SESSIONGATE_DB=/tmp/x.db`, `--db`: the agent hooks deny
// neither) or deletes it. After an honest session whose record is on the
// records ref, the lazy agent commits a weakened protocol (between
// sessions a commit is a person's to git's hooks; an agent's goes through
// `commit-tree` and `update-ref`) and starts under a new database:
//
//	git commit -qm "docs: simplify the QA phase" SESSION-PROTOCOL.md
//	SESSIONGATE_DB=/tmp/fresh.db sessiongate session start ...
//
// Before, first use trusted HEAD's weakened protocol (or sessiongate.yaml)
// and the session ran under it (CI's verify still failed the commit). Now
// first use trusts a committed protocol or config only when a record on the
// ref ran under it (its snapshots' protocol, the files at its start commit)
// or an acceptance there names it. Honest twins: a new database with the
// protocol the records ran under; a person's protocol change, accepted
// (the acceptance travels on the ref), then a new database.
func TestAdv26FirstUseAfterNewDatabase(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		change  func(w *world) // after the first, honest session
		newDB   func(w *world)
		refused bool
	}{
		{"lazy: weakened protocol committed, a database named from the shell", weaken26, freshDB26, true},
		{"lazy: weakened protocol committed, the database deleted", weaken26, deleteDB26, true},
		{"lazy: weakened config committed (unmarked phases optional), a database named from the shell", func(w *world) {
			w.write("sessiongate.yaml", w.read("sessiongate.yaml")+"unmarked_phases: optional\n")
			w.git("add", "sessiongate.yaml")
			w.git("commit", "-q", "-m", "chore: quieter gates")
		}, freshDB26, true},
		{"lazy: an MCP config of the agent's committed, the database deleted", func(w *world) {
			w.write(".mcp.json", `{"mcpServers": {"notes": {"command": "sh", "args": ["-c", "cat"]}}}`+"\n")
			w.git("add", ".mcp.json")
			w.git("commit", "-q", "-m", "chore: notes server")
		}, deleteDB26, true},
		{"honest: a person's MCP config, accepted, then the database deleted", func(w *world) {
			w.write(".mcp.json", `{"mcpServers": {"docs": {"command": "docs-mcp"}}}`+"\n")
			w.git("add", ".mcp.json")
			w.git("commit", "-q", "-m", "chore: docs server")
			w.advOK("a person accepts the MCP config", "protocol", "accept", "--yes", "--reason", "the docs server, reviewed")
		}, deleteDB26, false},
		{"honest: the same protocol, a database named from the shell", func(*world) {}, freshDB26, false},
		{"honest: a person's protocol change, accepted, then a new database", func(w *world) {
			weaken26(w)
			w.advOK("a person accepts the new protocol", "protocol", "accept", "--yes", "--reason", "v2 of the QA phase, reviewed")
		}, freshDB26, false},
		{"honest: a second protocol file committed that no session loads, then a new database", func(w *world) {
			w.write(".agents/SESSION-PROTOCOL.md", "# Session Protocol\n\nThe protocol is SESSION-PROTOCOL.md at the root.\n")
			w.git("add", ".agents/SESSION-PROTOCOL.md")
			w.git("commit", "-q", "-m", "docs: point to the protocol")
		}, freshDB26, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := advProjectWorld(t, advProject{
				files: [][2]string{{"scripts/greet.sh", greetScript}, {"scripts/test.sh", strings.Replace(greetTest,
					"for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n", "", 1)}},
				afterInit: func(w *world) {
					// The person's own scripts accept without a terminal.
					w.write("sessiongate.yaml", w.read("sessiongate.yaml")+"accept_non_interactive: true\n")
				},
				afterInitKey: "accept_non_interactive",
			})
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.advWork()
			if clean, said := w.advEndPhases(advEnd{}); !clean {
				t.Fatalf("the first, honest session did not end clean:\n%s", said)
			}
			c.change(w)
			c.newDB(w)
			r := w.sg("session", "start", "--objective", "Document the name argument")
			switch {
			case c.refused && r.code == 0:
				t.Errorf("route gets through: a new database trusted the weakened protocol or config HEAD holds\n%s", r.text())
			case c.refused && !strings.Contains(r.text(), "no session on refs/sessiongate/records ran under it"):
				t.Errorf("refused, but not for the file no record ran under:\n%s", r.text())
			case !c.refused && r.code != 0:
				t.Errorf("honest start refused (exit %d):\n%s", r.code, r.text())
			}
		})
	}
}

// weaken26 commits a QA phase that asks for nothing.
func weaken26(w *world) {
	w.t.Helper()
	doc := w.read("SESSION-PROTOCOL.md")
	weak := strings.Replace(doc, "Run checks that cover the changed behavior.", "Checks are up to you.", 1)
	if weak == doc {
		w.t.Fatal("the v3.0-style protocol's QA sentence moved: update weaken26")
	}
	w.write("SESSION-PROTOCOL.md", weak)
	w.git("add", "SESSION-PROTOCOL.md")
	w.git("commit", "-q", "-m", "docs: simplify the QA phase")
}

func freshDB26(w *world) {
	w.env = append(w.env, "SESSIONGATE_DB="+filepath.Join(w.t.TempDir(), "fresh.db"))
}

func deleteDB26(w *world) {
	w.t.Helper()
	d := w.git("rev-parse", "--git-common-dir")
	if !filepath.IsAbs(d) {
		d = filepath.Join(w.root, d)
	}
	if err := os.RemoveAll(filepath.Join(d, "sessiongate")); err != nil {
		w.t.Fatal(err)
	}
}
