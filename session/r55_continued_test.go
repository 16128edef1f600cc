package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestR55ContinuedLintChanged (round 55, helper 328): verify passes an
// ABANDONED session's commits when a later session continued them, on the
// ground that its end gates judged that work; a {changed:GLOB} linter read
// only the later session's own files. A lint-failing file committed in a
// superseded session, a clean one in the next: the lint passed, COMPLETE,
// verify OK (failing first). Honest twin: the first session's file clean.
func TestR55ContinuedLintChanged(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		first string
		want  session.GateStatus
	}{
		{"lazy: a lint-failing file committed in the superseded session", "# A\n\nBAD line\n", session.StatusFail},
		{"honest: a clean file committed in the superseded session", "# A\n\nfine\n", session.StatusPass},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, gateProtocol(`<!-- gate: command "sh lint.sh {changed:*.md}" -->`))
			gittest.Write(t, e.root, "lint.sh", "rc=0\nfor f in \"$@\"; do if grep -q BAD \"$f\"; then echo \"$f: BAD\"; rc=1; fi; done\necho \"linted $# file(s)\"\nexit $rc\n")
			gittest.Git(t, e.root, "add", "lint.sh")
			gittest.Git(t, e.root, "commit", "-q", "-m", "chore: the linter")
			first := e.start("the docs")
			gittest.Write(t, e.root, "a.md", c.first)
			gittest.Git(t, e.root, "add", "a.md")
			gittest.Git(t, e.root, "commit", "-q", "-m", "docs: a\n\nSession-Id: "+first)
			e.now = e.now.Add(time.Minute)
			second := e.start("the docs, continued")
			gittest.Write(t, e.root, "b.md", "# B\n\nfine\n")
			g, err := e.engine.ValidateGate(context.Background(), second, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want {
				t.Fatalf("gate %s %q, want %s (the superseded session's a.md %s)", g.Status, g.Message, c.want, map[bool]string{true: "is linted", false: "was never linted"}[strings.Contains(g.Message, "a.md")])
			}
		})
	}
}

// TestR55ContinuedLintConfig (round 55, helper 328): markdownlint's rules
// turned off in a superseded session's commit (.markdownlint.json naming the
// rules its file breaks): the continuing session's lint passed, the
// changed-lint-config rule read only the continuing session's own diff, and
// verify passed the first session's commits as continued (failing first;
// one session doing both is refused). Honest twin: no config change.
func TestR55ContinuedLintConfig(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		first map[string]string
		want  session.GateStatus
	}{
		{"lazy: rules turned off in the superseded session", map[string]string{".markdownlint.json": `{"MD012": false, "MD009": false}` + "\n", "a.md": "# A\n\n\n\ntrailing   \n"}, session.StatusFail},
		{"honest: only a file in the superseded session", map[string]string{"a.md": "# A\n\nfine\n"}, session.StatusPass},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, gateProtocol(`<!-- gate: command "sh markdownlint-cli2.sh {changed:*.md}" -->`))
			gittest.Write(t, e.root, "markdownlint-cli2.sh", "echo \"Linting: $# file(s)\"\necho 'Summary: 0 error(s)'\n")
			gittest.Git(t, e.root, "add", "markdownlint-cli2.sh")
			gittest.Git(t, e.root, "commit", "-q", "-m", "chore: the linter")
			first := e.start("the docs")
			for f, body := range c.first {
				gittest.Write(t, e.root, f, body)
			}
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "docs: a\n\nSession-Id: "+first)
			e.now = e.now.Add(time.Minute)
			second := e.start("the docs, continued")
			gittest.Write(t, e.root, "b.md", "# B\n\nfine\n")
			g, err := e.engine.ValidateGate(context.Background(), second, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want {
				t.Fatalf("gate %s %q, want %s", g.Status, g.Message, c.want)
			}
		})
	}
}
