//go:build unix

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

// TestChangedFilesSeeStatHiddenEdit: the checks that ask which files the
// session changed (the lint gate's weakened-config check here, and the
// QA run's caches, written files, artifacts) read plain `git status`. The
// linter's config rewritten in place at the same size, with its mtime set
// back within the second of a refresh, read clean, so a lint run under
// `default: false` passed the gate (failed on the old code). The session's
// files now include the tracked files touched since its start whose
// content differs from their index entry. Honest twin: touched and
// refreshed in one second, content kept, the gate passes.
func TestChangedFilesSeeStatHiddenEdit(t *testing.T) {
	const before = "config:\n  default: true \n"
	for _, c := range []struct {
		name string
		body string
		want session.GateStatus
	}{
		{"config weakened, hidden from git status", "config:\n  default: false\n", session.StatusFail},
		{"honest: touched, content kept", before, session.StatusPass},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, gateProtocol(`<!-- gate: command "sh markdownlint-cli2.sh" -->`))
			e.engine.Now = time.Now // the session's start is a real time here
			gittest.Write(t, e.root, "markdownlint-cli2.sh", "echo 'Summary: 0 error(s)'\n")
			gittest.Write(t, e.root, ".markdownlint-cli2.yaml", before)
			cfg := filepath.Join(e.root, ".markdownlint-cli2.yaml")
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(cfg, old, old); err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "linter")
			id := e.start(c.name)
			time.Sleep(1100 * time.Millisecond) // the start's second is over
			hideSessionEdit(t, e.root, ".markdownlint-cli2.yaml", c.body, before)
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want {
				t.Fatalf("gate %s (%q), want %s", g.Status, g.Checks[0].Message, c.want)
			}
			if c.want == session.StatusFail && !strings.Contains(g.Checks[0].Message, "configuration .markdownlint-cli2.yaml changed") {
				t.Fatalf("failed for another reason: %q", g.Checks[0].Message)
			}
		})
	}
}

// hideSessionEdit rewrites rel in place with its mtime set back, within
// the second of a `git update-index --refresh`, until a plain git status
// reads it clean, as a lazy agent would (gitrepo's hideEdit).
func hideSessionEdit(t *testing.T, dir, rel, body, undo string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	for range 20 {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		m := fi.ModTime()
		if err := os.Chtimes(p, m, m); err != nil {
			t.Fatal(err)
		}
		gittest.Git(t, dir, "update-index", "-q", "--refresh")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, m, m); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(gittest.Git(t, dir, "-c", "core.trustctime=true", "status", "--porcelain"), rel) {
			return
		}
		if err := os.WriteFile(p, []byte(undo), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, m, m); err != nil {
			t.Fatal(err)
		}
	}
	t.Skip("git saw the in-place edit on every try: nothing is hidden")
}
