package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeSource reads axe-core (npm package axe-core, installed by .ci/run with
// npm ci in .ci/node; $SESSIONGATE_AXE names another axe.min.js). Without
// it the test skips locally and fails under CI=true.
func axeSource(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("SESSIONGATE_AXE"), filepath.Join("..", ".ci", "node", "node_modules", "axe-core", "axe.min.js")} {
		if p == "" {
			continue
		}
		if b, err := os.ReadFile(p); err == nil {
			return string(b)
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("axe-core is required under CI=true: run `npm ci` in .ci/node (package axe-core)")
	}
	t.Skip("axe-core not installed: run `npm ci` in .ci/node, or set SESSIONGATE_AXE to an axe.min.js; skipping the accessibility test")
	return ""
}

// axeFinding is one serious or critical axe-core violation.
type axeFinding struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// axeRun injects axe-core into the page (through the DevTools protocol, so
// the page's Content-Security-Policy does not apply) and returns the
// serious and critical violations. Every <details> is opened first, so the
// content behind them is checked too.
func (b *browser) axeRun(src string) []axeFinding {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { if (!window.axe) { `+src+`
	}; document.querySelectorAll("details").forEach(d => d.open = true); return true })()`)); err != nil {
		b.t.Fatalf("inject axe-core: %v", err)
	}
	js := `axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(r.violations
		.filter(v => v.impact === "serious" || v.impact === "critical")
		.map(v => ({id: v.id, impact: v.impact, help: v.help,
			nodes: v.nodes.slice(0, 4).map(n => n.target.join(" ") + " :: " + (n.failureSummary || "").replace(/\s+/g, " ").slice(0, 240))}))))`
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("run axe-core: %v", err)
	}
	var fs []axeFinding
	if err := json.Unmarshal([]byte(out), &fs); err != nil {
		b.t.Fatalf("axe-core result %q: %v", out, err)
	}
	return fs
}

// colorScheme emulates prefers-color-scheme.
func colorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return chromedp.Void{}, err
	}
}

// TestBrowserAccessibility: axe-core finds no serious or critical
// violation on any dashboard page, in the light and the dark theme, at
// 1440 and 390 px.
func TestBrowserAccessibility(t *testing.T) {
	axe := axeSource(t)
	env := newDashEnv(t, "")
	env.seed()
	env.seedViolated()
	liveID := env.startLive("Accessibility check of a live session")
	b := newBrowser(t, env)
	pages := []struct{ name, path string }{
		{"overview", "/"},
		{"sessions", "/sessions"},
		{"sessions-filtered", "/sessions?violations=yes"},
		{"session-violated", "/sessions/" + violatedID},
		{"session-complete", "/sessions/" + dashSID(1)},
		{"session-blocked", "/sessions/" + dashSID(6)},
		{"session-live", "/sessions/" + liveID},
		{"violations", "/violations"},
		{"protocol", "/protocol"},
		{"team", "/team"},
		{"bad-filter", "/sessions?from=2026-13-01"},
		{"not-found", "/sessions/" + dashSID(999)},
	}
	var failures []string
	for _, scheme := range []string{"light", "dark"} {
		for _, w := range []struct {
			width, height int64
			mobile        bool
		}{{1440, 900, false}, {390, 844, true}} {
			opts := []chromedp.EmulateViewportOption{}
			if w.mobile {
				opts = append(opts, chromedp.EmulateMobile)
			}
			b.do("viewport", chromedp.EmulateViewport(w.width, w.height, opts...), colorScheme(scheme))
			for _, p := range pages {
				b.do(p.name, chromedp.Navigate(b.base+p.path), chromedp.WaitVisible(chromedp.CSS("main")))
				if got := b.eval(`matchMedia("(prefers-color-scheme: dark)").matches`); got != (scheme == "dark") {
					t.Fatalf("colour scheme %s not emulated", scheme)
				}
				for _, f := range b.axeRun(axe) {
					failures = append(failures, fmt.Sprintf("%s %dpx %s: %s (%s) %s\n\t%s", scheme, w.width, p.path, f.ID, f.Impact, f.Help, strings.Join(f.Nodes, "\n\t")))
				}
				if p.name == "overview" || p.name == "session-violated" || p.name == "sessions" {
					b.screenshot(fmt.Sprintf("30-%s-%s-%d", p.name, scheme, w.width))
				}
			}
		}
	}
	b.do("reset", chromedp.EmulateViewport(1280, 900), colorScheme(""))
	if len(failures) > 0 {
		t.Errorf("axe-core: %d serious or critical violations:\n%s", len(failures), strings.Join(failures, "\n"))
	}
}
