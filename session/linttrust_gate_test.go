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

// TestLintTrustEveryGate: the linter check applies to every command gate
// that runs an npm program from the project (npx, npm exec,
// node_modules/.bin), not only the built-in lint gate (issue 26 item
// 2.2): a stub the agent writes into the gitignored node_modules/.bin
// fails the gate, for markdownlint-cli2 and for any program
// package-lock.json gives a package; the same programs installed before
// the session pass.
func TestLintTrustEveryGate(t *testing.T) {
	const lock = `{"lockfileVersion":3,"packages":{"":{},"node_modules/mylint":{"version":"1.2.0","bin":{"mylint":"bin/mylint.js"}}}}`
	// install puts a real-looking package of its own under node_modules,
	// with node_modules/.bin/PROG linking into it, as npm ci does.
	install := func(t *testing.T, root, pkg, prog, body string) {
		gittest.Write(t, root, "node_modules/"+pkg+"/package.json", `{"name":"`+pkg+`","version":"1.2.0","bin":{"`+prog+`":"bin/`+prog+`.js"}}`)
		gittest.Write(t, root, "node_modules/"+pkg+"/bin/"+prog+".js", body)
		if err := os.Chmod(filepath.Join(root, "node_modules", pkg, "bin", prog+".js"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, "node_modules", ".bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../"+pkg+"/bin/"+prog+".js", filepath.Join(root, "node_modules", ".bin", prog)); err != nil {
			t.Fatal(err)
		}
	}
	stub := func(t *testing.T, root, prog string) {
		gittest.Write(t, root, "node_modules/.bin/"+prog, "#!/bin/sh\necho 'Summary: 0 error(s)'\n")
		if err := os.Chmod(filepath.Join(root, "node_modules", ".bin", prog), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const lint = "#!/bin/sh\n! grep -n TODO \"$@\"\n"
	cases := []struct {
		name    string
		gate    string
		before  func(t *testing.T, root string) // before the session starts
		during  func(t *testing.T, root string)
		want    session.GateStatus
		message string
	}{
		{"markdownlint-cli2 stub, npx gate", "npx markdownlint-cli2 {changed:*.md}", nil,
			func(t *testing.T, root string) { stub(t, root, "markdownlint-cli2") }, session.StatusFail, "the gate does not run this markdownlint-cli2"},
		{"eslint stub, node_modules/.bin gate", "./node_modules/.bin/eslint {changed:*.md}", nil,
			func(t *testing.T, root string) { stub(t, root, "eslint") }, session.StatusFail, "the gate does not run this eslint"},
		{"locked program stub, npm exec gate", "npm exec -- mylint {changed:*.md}", func(t *testing.T, root string) { gittest.Write(t, root, "package-lock.json", lock) },
			func(t *testing.T, root string) { stub(t, root, "mylint") }, session.StatusFail, "the gate does not run this mylint"},
		{"locked program's code edited", "./node_modules/.bin/mylint {changed:*.md}", func(t *testing.T, root string) {
			gittest.Write(t, root, "package-lock.json", lock)
			install(t, root, "mylint", "mylint", lint)
		}, func(t *testing.T, root string) {
			gittest.Write(t, root, "node_modules/mylint/bin/mylint.js", "#!/bin/sh\nexit 0\n")
		}, session.StatusFail, "changed after the session started"},
		{"honest: locked program installed before", "./node_modules/.bin/mylint {changed:*.md}", func(t *testing.T, root string) {
			gittest.Write(t, root, "package-lock.json", lock)
			install(t, root, "mylint", "mylint", lint)
		}, nil, session.StatusPass, "command passed"},
		{"honest: eslint installed before", "./node_modules/.bin/eslint {changed:*.md}", func(t *testing.T, root string) {
			install(t, root, "eslint", "eslint", lint)
		}, nil, session.StatusPass, "command passed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, "# P\n\n## Session Start\n\n### Phase 1: Lint (BLOCKING)\n\n<!-- gate: command \""+c.gate+"\" -->\n\n## Session End\n\n### Phase 1: Done (OPTIONAL)\n\n<!-- gate: evidence manual -->\n")
			e.engine.Config.CommandTimeout = 2 * time.Minute
			gittest.Write(t, e.root, ".gitignore", "node_modules\n")
			gittest.Git(t, e.root, "add", ".gitignore")
			gittest.Git(t, e.root, "commit", "-q", "-m", "ignore node_modules")
			if c.before != nil {
				c.before(t, e.root)
			}
			// The linter's files are judged by change time against the start.
			time.Sleep(20 * time.Millisecond)
			e.engine.Now = time.Now
			id := e.start(c.name)
			time.Sleep(20 * time.Millisecond)
			if c.during != nil {
				c.during(t, e.root)
			}
			gittest.Write(t, e.root, "doc.md", "# Doc\n\nText.\n")
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want || !strings.Contains(g.Checks[0].Message, c.message) {
				t.Fatalf("gate %s %q, want %s containing %q\n%s", g.Status, g.Checks[0].Message, c.want, c.message, g.Output)
			}
		})
	}
}
