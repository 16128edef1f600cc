package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sessiongate/sessiongate/session"
)

// hostile is text an agent controls (objective, evidence reference,
// violation message, summary) written to run script if it were ever
// rendered as HTML.
const hostile = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><svg onload="window.__pwned=3"></svg>"'><a id="jsl" href="javascript:window.__pwned=4">x</a>`

// TestBrowserHostileTextRunsNoScript: a session whose every free-text field
// is hostile is shown on every page in real Chromium; no payload runs, and
// the text appears as text.
func TestBrowserHostileTextRunsNoScript(t *testing.T) {
	env := newDashEnv(t, "")
	ctx := context.Background()
	id := dashSID(42)
	err := env.db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/w/demo", "demo")
		if err != nil {
			return err
		}
		s := &session.Session{ID: id, RepoID: repo.ID, Worktree: "/w/demo", Branch: "feat/" + hostile, ProtocolSHA: env.spec.SHA256,
			Objective: hostile, State: session.StateComplete, CreatedAt: env.now.Add(-time.Hour), LastActivity: env.now.Add(-time.Minute),
			ExpiresAt: env.now.Add(time.Hour), EndedAt: env.now.Add(-time.Minute), Summary: hostile, NextNotes: hostile}
		if err := w.CreateSession(ctx, s); err != nil {
			return err
		}
		if err := w.AppendEvent(ctx, &session.Event{SessionID: id, Token: "tool:" + hostile, Detail: hostile, CreatedAt: env.now.Add(-time.Hour)}); err != nil {
			return err
		}
		if err := w.AddEvidence(ctx, &session.Evidence{SessionID: id, Phase: "CONTEXT_RETRIEVAL", Kind: session.EvidenceManual, SHA256: strings.Repeat("ab", 32),
			Ref: hostile, Requirement: hostile, Command: hostile, CreatedAt: env.now.Add(-50 * time.Minute)}); err != nil {
			return err
		}
		return w.AddViolation(ctx, &session.Violation{SessionID: id, Phase: "CONTEXT_RETRIEVAL", Requirement: hostile, Severity: session.SeverityCritical,
			Code: "BYPASS", Message: hostile, Window: session.WindowSession, CreatedAt: env.now.Add(-30 * time.Minute)})
	})
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, env)
	for _, path := range []string{"/", "/sessions", "/sessions/" + id, "/violations", "/sessions?q=" + "%3Cscript%3E"} {
		b.do("open "+path, chromedp.Navigate(b.base+path), chromedp.WaitReady(chromedp.CSS("body")))
		time.Sleep(200 * time.Millisecond) // let any onerror/onload fire
		if v := b.eval(`window.__pwned === undefined ? "" : String(window.__pwned)`); v != "" {
			t.Fatalf("%s: hostile text ran script (window.__pwned = %v)", path, v)
		}
		if path == "/sessions/"+id {
			if n := b.eval(`document.querySelectorAll("script:not([src]), img[src=x], svg[onload], a#jsl").length`); n != float64(0) {
				t.Fatalf("%s: %v hostile elements made it into the DOM", path, n)
			}
			if got := b.eval(`document.body.innerText.includes("window.__pwned=1")`); got != true {
				t.Fatalf("%s: the hostile objective is not shown as text", path)
			}
		}
	}
	if p := b.problems(); len(p) > 0 {
		t.Logf("console: %v", p)
	}
}
