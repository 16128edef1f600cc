package server

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sessiongate/sessiongate/session"
)

// Browser tests drive the dashboard in real headless Chromium over a real
// listener. They save a PNG of each page in $SESSIONGATE_SCREENSHOTS for
// a human to look at (without it, in the test's temp folder, removed).

// chromiumPath finds the browser; without one the test skips locally and
// fails under CI=true.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("SESSIONGATE_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is required under CI=true (Debian package chromium) but was not found")
	}
	t.Skip("chromium not found (install the Debian package chromium, or set SESSIONGATE_CHROMIUM): skipping the browser tests")
	return ""
}

func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SESSIONGATE_SCREENSHOTS")
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	} else {
		// Removed with the test: a folder per run was left in /tmp by
		// every CI run (set the variable to keep them).
		dir = t.TempDir()
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

type browser struct {
	t     *testing.T
	ctx   context.Context
	base  string
	shots string

	mu      sync.Mutex
	console []chromedp.ConsoleMessage
}

func newBrowser(t *testing.T, env *dashEnv) *browser {
	t.Helper()
	exe := chromiumPath(t)
	ln, err := Listen("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	srvCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = env.srv.Serve(srvCtx, ln) }()
	t.Cleanup(func() { stop(); <-done })

	// Chromium's own temporary folders (org.chromium.Chromium.*, one per
	// start) stayed in TMPDIR: a folder of the test's, removed after the
	// browser stops (cleanups run in reverse). Not t.TempDir(): the
	// SingletonSocket below it must fit a Unix socket path (108 bytes).
	tmp, err := os.MkdirTemp("", "cr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.Env("TMPDIR="+tmp),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	b := &browser{t: t, ctx: ctx, base: "http://" + ln.Addr().String(), shots: screenshotDir(t)}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, m)
			b.mu.Unlock()
		}
	}()
	return b
}

// do runs actions with a timeout, failing the test on error.
func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

func (b *browser) eval(js string) any {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[any](js))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// waitJS waits until a JavaScript expression is truthy. It evaluates from
// Go in a loop rather than with a page-side poll, so it survives the page
// navigating (a form POST and its redirect) while it waits.
func (b *browser) waitJS(what, js string, timeout time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	var lastErr error
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+js+")"))
		cancel()
		if err == nil && ok {
			return
		}
		lastErr = err
		time.Sleep(100 * time.Millisecond)
	}
	body, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText.slice(0, 1500) : ""`))
	b.t.Fatalf("%s: waited %s for %s (last error %v)\npage text:\n%s", what, timeout, js, lastErr, body)
}

func (b *browser) screenshot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(b.shots, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s", p)
}

// markPage sets a variable that only survives as long as the document does:
// if it is still there later, the page was updated in place, not reloaded.
func (b *browser) markPage() { b.eval(`window.__sgMarker = "kept"; true`) }

func (b *browser) pageKept() bool { return b.eval(`window.__sgMarker === "kept"`) == true }

// problems are console errors and CSP violations the pages caused.
func (b *browser) problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.console {
		if m.Type == chromedp.ConsoleError || m.IsException() || strings.Contains(m.Text, "Content Security Policy") {
			out = append(out, m.String())
		}
	}
	return out
}

// connectMCP connects the MCP Go SDK's client to url over Streamable HTTP.
func connectMCP(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "sessiongate-browser-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect MCP client to %s: %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callTool runs one tools/call and fails on a protocol error or an isError result.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	if res.IsError {
		var text []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text = append(text, tc.Text)
			}
		}
		t.Fatalf("tools/call %s: isError: %s", name, strings.Join(text, "\n"))
	}
	return res
}

func TestBrowserDashboard(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	env.seedViolated()
	liveID := env.startLive("Watch the phase change live")
	b := newBrowser(t, env)

	t.Run("verdict in the header", func(t *testing.T) {
		b.t = t
		b.do("open violated session", chromedp.Navigate(b.base+"/sessions/"+violatedID), chromedp.WaitVisible(chromedp.CSS("#verdict")))
		got := b.eval(`(() => { const v = document.querySelector("#verdict"); const r = v.getBoundingClientRect();
			return v.innerText + "|" + (r.bottom <= window.innerHeight) + "|" + getComputedStyle(v).backgroundColor })()`).(string)
		parts := strings.Split(got, "|")
		if !strings.Contains(parts[0], "Completed with 2 CRITICAL violations") || parts[1] != "true" {
			t.Errorf("verdict %q: want the words, visible without scrolling", got)
		}
		clean := b.eval(`(() => { const x = new XMLHttpRequest(); x.open("GET", "/sessions/` + dashSID(1) + `", false); x.send();
			return new DOMParser().parseFromString(x.responseText, "text/html").querySelector("#verdict").className })()`)
		// session 1 has no violation but a failed (not blocking) gate: a warning, not clean
		if clean == parts[2] || !strings.Contains(clean.(string), "v-warn") {
			t.Errorf("a session without violations (one failed optional gate) has verdict class %v: want v-warn, not the violated one's", clean)
		}
		if n := b.eval(`document.querySelectorAll(".commit-bypass").length`); n != float64(1) {
			t.Errorf("bypass commits flagged: %v, want 1", n)
		}
		b.screenshot("03a-session-violated")
		b.do("sessions list", chromedp.Navigate(b.base+"/sessions?branch=feat/hurry"), chromedp.WaitVisible(chromedp.CSS("#results")))
		if txt := b.eval(`document.querySelector("#results tbody").innerText`).(string); !strings.Contains(txt, "2 CRITICAL") {
			t.Errorf("the sessions list does not show the severity: %q", txt)
		}
		if b.eval(`document.querySelector("#results tbody .st-complete") === null`) != true {
			t.Error("a violated session is shown with the clean COMPLETE badge")
		}
	})

	t.Run("overview", func(t *testing.T) {
		b.t = t
		b.do("open overview", chromedp.Navigate(b.base+"/"), chromedp.WaitVisible(chromedp.CSS("#overview")))
		b.waitJS("overview", `document.body.innerText.includes("Running now") && document.querySelector("svg rect.bar-good") !== null`, 5*time.Second)
		if !strings.Contains(b.eval(`document.querySelector("#overview").innerText`).(string), "Watch the phase change live") {
			t.Error("the live session is not listed as running")
		}
		b.screenshot("01-overview")
		// The chart is keyboard reachable: Tab from the count cards reaches
		// a day's bar, and Enter opens that day's sessions.
		b.eval(`document.querySelector(".cards li:last-child a").focus(); true`)
		for i := 0; i < 40 && b.eval(`document.activeElement.classList.contains("bar-link")`) != true; i++ {
			b.do("tab", chromedp.KeyEvent("\t"))
		}
		if b.eval(`document.activeElement.classList.contains("bar-link")`) != true {
			t.Fatal("no chart bar can be reached with Tab")
		}
		label := b.eval(`document.activeElement.getAttribute("aria-label")`).(string)
		href := b.eval(`document.activeElement.getAttribute("href")`).(string)
		if !strings.Contains(label, "ended session") || !strings.HasPrefix(href, "/sessions?from=") {
			t.Errorf("bar link %q %q does not name the day and open its sessions", label, href)
		}
		b.do("enter", chromedp.KeyEvent("\r"))
		b.waitJS("the day's sessions", `location.pathname === "/sessions" && location.search.startsWith("?from=")`, 5*time.Second)
		// location changes when the new page commits, before its table is
		// parsed: wait for the page to finish, then for its rows.
		b.waitJS("the day "+href+" to list its sessions", `document.readyState === "complete" && document.querySelectorAll("#results tbody tr").length > 0`, 10*time.Second)
	})

	t.Run("filter without reload", func(t *testing.T) {
		b.t = t
		b.do("open sessions", chromedp.Navigate(b.base+"/sessions"), chromedp.WaitVisible(chromedp.CSS("#results")))
		b.waitJS("htmx loaded", `typeof htmx !== "undefined"`, 5*time.Second)
		b.markPage()
		rows := `document.querySelectorAll("#results tbody tr").length`
		if n := b.eval(rows); n != float64(50) {
			t.Fatalf("first page has %v rows, want 50", n)
		}
		b.do("tick WORKING", chromedp.Click(chromedp.CSS(`input[name="state"][value="WORKING"]`)))
		b.waitJS("filtered table", rows+` === 1 && location.search === "?state=WORKING"`, 5*time.Second)
		if !b.pageKept() {
			t.Fatal("the filter reloaded the whole page; htmx should swap only the table")
		}
		if !strings.Contains(b.eval(`document.querySelector("#results").innerText`).(string), "Live work on the dashboard") {
			t.Error("the WORKING session is not in the filtered table")
		}
		b.screenshot("02-sessions-filtered")

		// Search as you type, then back: the URL and the table follow.
		b.do("untick WORKING", chromedp.Click(chromedp.CSS(`input[name="state"][value="WORKING"]`)))
		b.waitJS("unfiltered", rows+` === 50 && location.search === ""`, 5*time.Second)
		b.do("type a search", chromedp.SendKeys(chromedp.CSS(`input[name="q"]`), "login"))
		b.waitJS("search", rows+` === 1 && location.search === "?q=login"`, 5*time.Second)
		b.eval(`history.back(); true`)
		b.waitJS("back to the unfiltered list", rows+` === 50 && location.search === ""`, 5*time.Second)
		b.eval(`history.back(); true`)
		b.waitJS("back to WORKING", rows+` === 1 && location.search === "?state=WORKING" && document.querySelector('input[value="WORKING"]').checked`, 5*time.Second)
		if !b.pageKept() {
			t.Error("the back button reloaded the page")
		}
	})

	t.Run("open a session", func(t *testing.T) {
		b.t = t
		b.do("open sessions", chromedp.Navigate(b.base+"/sessions?branch=main&state=COMPLETE"), chromedp.WaitVisible(chromedp.CSS("#results")))
		b.do("click the session", chromedp.Click(chromedp.CSS(`#results tbody tr a[href^="/sessions/"]`)))
		b.waitJS("session page", `location.pathname === "/sessions/`+dashSID(1)+`" && document.querySelector("h1") && document.querySelector("h1").innerText.includes("COMPLETE")`, 5*time.Second)
		text := b.eval(`document.body.innerText`).(string)
		for _, w := range []string{"Fix login bug", "PASSED", "SKIPPED", "Evidence", "Event log", "tool:session_start"} {
			if !strings.Contains(text, w) {
				t.Errorf("session page lacks %q", w)
			}
		}
		b.screenshot("03-session-complete")
		b.do("open forced session", chromedp.Navigate(b.base+"/sessions/"+dashSID(2)), chromedp.WaitVisible(chromedp.CSS("#live")))
		b.screenshot("04-session-forced")
	})

	t.Run("active session follows MCP calls", func(t *testing.T) {
		b.t = t
		b.do("open live session", chromedp.Navigate(b.base+"/sessions/"+liveID), chromedp.WaitVisible(chromedp.CSS(`#live[hx-trigger]`)))
		b.waitJS("htmx loaded", `typeof htmx !== "undefined"`, 5*time.Second)
		now := `document.querySelector("#live .now").innerText`
		if !strings.Contains(b.eval(now).(string), "CONTEXT_RETRIEVAL") {
			t.Fatalf("live session not at CONTEXT_RETRIEVAL: %v", b.eval(now))
		}
		b.screenshot("05-session-live-before")
		b.markPage()
		// The change comes from an agent: real tools/call requests from the
		// SDK's own client to /mcp on the server the browser is looking at.
		cs := connectMCP(t, b.base+MCPPath)
		callTool(t, cs, "record_evidence", map[string]any{"session_id": liveID, "phase": "CONTEXT_RETRIEVAL",
			"evidence_type": session.EvidenceToolOutput, "evidence": "read HANDOFF.md and the last session's notes"})
		adv := callTool(t, cs, "advance_phase", map[string]any{"session_id": liveID})
		var res session.AdvanceResult
		if raw, err := json.Marshal(adv.StructuredContent); err != nil || json.Unmarshal(raw, &res) != nil || !res.Advanced || res.To != "PLAN" {
			t.Fatalf("advance_phase over MCP: %+v (structured %v)", res, adv.StructuredContent)
		}
		b.waitJS("the page shows PLAN", now+`.includes("PLAN") && document.body.innerText.includes("tool:advance_phase")`, 8*time.Second)
		if !b.pageKept() {
			t.Error("the page reloaded instead of updating in place")
		}
		if got := b.eval(`document.querySelector(".tl-PASSED") !== null`); got != true {
			t.Error("the passed phase is not marked PASSED in the timeline")
		}
		b.screenshot("06-session-live-after")
		// The event filter narrows the log, and keeps its text across a live update.
		b.do("filter events", chromedp.SendKeys(chromedp.CSS(`[data-event-filter] input`), "ADVANCE"))
		visible := `[...document.querySelectorAll("#events tbody tr")].filter(r => !r.hidden).length`
		b.waitJS("filtered events", visible+` >= 1 && `+visible+` < document.querySelectorAll("#events tbody tr").length`, 3*time.Second)
		before := b.eval(`document.querySelector("#live").dataset.version`).(string)
		callTool(t, cs, "record_evidence", map[string]any{"session_id": liveID, "phase": "PLAN",
			"evidence_type": session.EvidenceManual, "evidence": "plan: add the filter"})
		b.waitJS("update after filtering", `document.querySelector("#live").dataset.version !== "`+before+`"`, 8*time.Second)
		time.Sleep(200 * time.Millisecond) // settle
		if v := b.eval(`document.querySelector("[data-event-filter] input").value`); v != "ADVANCE" {
			t.Errorf("the event filter lost its text in a live update: %q", v)
		}
		if n := b.eval(`[...document.querySelectorAll("#events tbody tr")].filter(r => !r.hidden && !r.innerText.toLowerCase().includes("advance")).length`); n != float64(0) {
			t.Errorf("%v events not matching the filter are shown after a live update", n)
		}
	})

	t.Run("terminate through the form", func(t *testing.T) {
		b.t = t
		b.do("open the form",
			chromedp.Click(chromedp.CSS(`#terminate-box summary`)),
			chromedp.WaitVisible(chromedp.CSS(`#terminate-box input[name="reason"]`)),
			chromedp.SendKeys(chromedp.CSS(`#terminate-box input[name="reason"]`), "stopped from the browser test"),
		)
		b.screenshot("07-terminate-form")
		b.do("submit", chromedp.Click(chromedp.CSS(`#terminate-box button[type="submit"]`)))
		b.waitJS("terminated page", `document.body.innerText.includes("Terminated: stopped from the browser test") && document.querySelector("#terminate-box") === null`, 8*time.Second)
		s, err := env.db.GetSession(context.Background(), liveID)
		if err != nil || s.State != session.StateTerminated || s.TerminateReason != "stopped from the browser test" {
			t.Fatalf("store after terminate: %+v %v", s, err)
		}
		b.screenshot("08-session-terminated")
	})

	t.Run("violations and protocol", func(t *testing.T) {
		b.t = t
		b.do("violations", chromedp.Navigate(b.base+"/violations"), chromedp.WaitVisible(chromedp.CSS("#results")))
		b.markPage()
		b.do("tick HIGH", chromedp.Click(chromedp.CSS(`input[name="severity"][value="HIGH"]`)))
		b.waitJS("filtered violations", `document.querySelectorAll("#results tbody tr").length === 1 && location.search === "?severity=HIGH"`, 5*time.Second)
		if !b.pageKept() {
			t.Error("the violations filter reloaded the page")
		}
		b.do("back to all", chromedp.Navigate(b.base+"/violations"), chromedp.WaitVisible(chromedp.CSS("#results")))
		b.screenshot("09-violations")
		b.do("protocol", chromedp.Navigate(b.base+"/protocol"), chromedp.WaitVisible(chromedp.CSS("#protocol")))
		b.screenshot("10-protocol")
	})

	t.Run("narrow window", func(t *testing.T) {
		b.t = t
		b.do("narrow", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
		for _, p := range []struct{ name, path string }{
			{"11-narrow-overview", "/"}, {"12-narrow-sessions", "/sessions"}, {"13-narrow-session", "/sessions/" + dashSID(1)},
		} {
			b.do(p.name, chromedp.Navigate(b.base+p.path), chromedp.WaitVisible(chromedp.CSS("main")))
			if w := b.eval(`document.documentElement.scrollWidth <= window.innerWidth + 1`); w != true {
				t.Errorf("%s: the page scrolls sideways at 390px", p.path)
			}
			b.screenshot(p.name)
		}
		b.do("wide again", chromedp.EmulateViewport(1280, 900))
	})

	b.t = t
	// Let the console settle, then look for CSP violations and errors.
	time.Sleep(300 * time.Millisecond)
	if ps := b.problems(); len(ps) > 0 {
		t.Errorf("the browser reported problems:\n%s", strings.Join(ps, "\n"))
	}
}

func TestBrowserEmptyDashboard(t *testing.T) {
	env := newDashEnv(t, "")
	b := newBrowser(t, env)
	b.do("overview", chromedp.Navigate(b.base+"/"), chromedp.WaitVisible(chromedp.CSS("#overview")))
	if !strings.Contains(b.eval(`document.body.innerText`).(string), "No sessions yet.") {
		t.Error("no empty state on a fresh database")
	}
	b.screenshot("00-empty-overview")
}
