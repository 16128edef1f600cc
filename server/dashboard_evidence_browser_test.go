package server

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sessiongate/sessiongate/session"
)

// TestBrowserEvidenceBadges: in real Chromium, every evidence row of a
// session page is badged by how sessiongate knows it: a tool call found
// in the agent's own transcript reads "observed in transcript" (not
// "claimed"), a command sessiongate saw run reads "observed", and only
// what an agent or a person said reads "claimed".
func TestBrowserEvidenceBadges(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	ctx := context.Background()
	zero := 0
	if err := env.db.Update(ctx, func(w session.Writer) error {
		for _, e := range []*session.Evidence{
			{SessionID: dashSID(5), Phase: "CONTEXT_RETRIEVAL", Requirement: "CONTEXT_RETRIEVAL.read-the-guide", Kind: session.EvidenceFilePath,
				Origin: session.OriginTranscript, Source: "claude", SHA256: strings.Repeat("a1", 32), Ref: "docs/guide.md by Read", ExitCode: &zero, CreatedAt: env.now},
			{SessionID: dashSID(5), Phase: "QA_VALIDATION", Kind: session.EvidenceToolOutput, Origin: session.OriginObserved, Source: "run",
				Command: "go test ./...", SHA256: strings.Repeat("b2", 32), ExitCode: &zero, CreatedAt: env.now},
			{SessionID: dashSID(5), Phase: "PLAN", Kind: session.EvidenceManual, Origin: session.OriginClaimed,
				SHA256: strings.Repeat("c3", 32), Ref: "planned it in my head", CreatedAt: env.now},
		} {
			if err := w.AddEvidence(ctx, e); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, env)
	b.do("open the session", chromedp.Navigate(b.base+"/sessions/"+dashSID(5)), chromedp.WaitVisible(chromedp.CSS("#verdict")))
	// The badge of each row whose text holds the marker, as "text|class".
	badge := func(marker string) []string {
		t.Helper()
		got := b.eval(`(() => { const out = [];
			for (const d of document.querySelectorAll("details:not(.danger-zone)")) d.open = true; // as a person expands the phases
			for (const el of document.querySelectorAll("tr, li")) {
				if (!el.innerText.includes(` + jsString(marker) + `)) continue;
				const badge = el.querySelector(".badge[class*='or-']");
				if (badge) out.push(badge.innerText.trim() + "|" + badge.className);
			}
			return out.join("\n") })()`).(string)
		if got == "" {
			return nil
		}
		return strings.Split(got, "\n")
	}
	for _, c := range []struct{ marker, text, class string }{
		{"docs/guide.md by Read", "observed in transcript", "or-transcript"},
		{"go test ./...", "observed", "or-observed"},
		{"planned it in my head", "claimed", "or-claimed"},
	} {
		rows := badge(c.marker)
		if len(rows) == 0 {
			t.Errorf("no evidence row shows %q", c.marker)
		}
		for _, r := range rows {
			text, class, _ := strings.Cut(r, "|")
			if text != c.text || !strings.Contains(" "+class+" ", " "+c.class+" ") {
				t.Errorf("%q is badged %q (class %q), want %q (%s)", c.marker, text, class, c.text, c.class)
			}
		}
	}
	b.screenshot("evidence-badges")
	if p := b.problems(); len(p) > 0 {
		t.Errorf("console problems: %v", p)
	}
}

func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
