package server

import (
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sessiongate/sessiongate/session"
)

// addRepoViolation records a violation outside any session: the overview's
// counts change, so its version does.
func (env *dashEnv) addRepoViolation(n int) {
	env.t.Helper()
	ctx := context.Background()
	err := env.db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/w/demo", "demo")
		if err != nil {
			return err
		}
		return w.AddViolation(ctx, &session.Violation{RepoID: repo.ID, Severity: session.SeverityLow, Code: "BYPASS",
			Message: "test violation " + strconv.Itoa(n), CreatedAt: env.now.Add(-time.Duration(n) * time.Minute)})
	})
	if err != nil {
		env.t.Fatal(err)
	}
}

// TestBrowserLiveUpdateKeepsState: a live update of the overview keeps
// keyboard focus, the open per-day table and the scroll position; it waits
// while text is selected; the pause button stops it; the status line says
// when the page last heard from the server.
func TestBrowserLiveUpdateKeepsState(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	b := newBrowser(t, env)
	b.do("overview", chromedp.Navigate(b.base+"/"), chromedp.WaitVisible(chromedp.CSS("#overview")))
	b.waitJS("htmx loaded", `typeof htmx !== "undefined"`, 5*time.Second)
	b.markPage()
	version := func() string { return b.eval(`document.querySelector("#overview").dataset.version`).(string) }
	refresh := func() { b.eval(`htmx.trigger("#overview", "sg:refresh"); true`) }
	requests := `(window.__sgDone || 0)`
	b.eval(`document.addEventListener("htmx:afterRequest", () => { window.__sgDone = (window.__sgDone || 0) + 1 }); true`)
	waitRequest := func(what string) {
		b.t.Helper()
		before := b.eval(requests).(float64)
		refresh()
		b.waitJS(what, requests+` > `+strconv.FormatFloat(before, 'f', 0, 64), 5*time.Second)
		time.Sleep(150 * time.Millisecond) // let htmx settle the swap
	}

	// Nothing changed: 204, the page is left alone.
	v0 := version()
	waitRequest("unchanged poll")
	if version() != v0 {
		t.Fatal("an unchanged overview was replaced")
	}

	// The reader opened the per-day table, scrolled, and focused a link
	// whose text (a count) the update changes.
	b.eval(`document.querySelector("#chart-numbers").open = true; true`)
	b.eval(`document.querySelector('#overview a[href="/violations"]').focus(); window.scrollTo(0, 400); true`)
	y0 := b.eval(`window.scrollY`).(float64)
	env.addRepoViolation(1)
	waitRequest("changed poll")
	if version() == v0 {
		t.Fatal("the overview did not update after a change")
	}
	if got := b.eval(`document.activeElement && document.activeElement.getAttribute("href") === "/violations" && document.querySelector("#overview").contains(document.activeElement)`); got != true {
		t.Errorf("focus was lost by the live update: active element %v", b.eval(`document.activeElement.outerHTML.slice(0, 120)`))
	}
	if b.eval(`document.querySelector("#chart-numbers").open`) != true {
		t.Error("the open per-day table was closed by the live update")
	}
	if y := b.eval(`window.scrollY`).(float64); y != y0 {
		t.Errorf("scroll moved from %v to %v", y0, y)
	}
	if !b.pageKept() {
		t.Error("the page reloaded")
	}
	if txt := b.eval(`document.querySelector("[data-live-status]").innerText`).(string); !regexp.MustCompile(`Updated \d+ s ago`).MatchString(txt) {
		t.Errorf("status line %q does not say when the page last heard from the server", txt)
	}
	b.screenshot("20-overview-live-kept")

	// Text selected inside the overview: the update waits.
	v1 := version()
	b.eval(`(() => { const r = document.createRange(); r.selectNodeContents(document.querySelector("#overview h1"));
		const s = getSelection(); s.removeAllRanges(); s.addRange(r); return true })()`)
	env.addRepoViolation(2)
	waitRequest("poll while selecting")
	if version() != v1 || b.eval(`getSelection().toString()`) != "Overview" {
		t.Error("the live update replaced the content under the reader's selection")
	}
	b.eval(`getSelection().removeAllRanges(); true`)
	waitRequest("poll after selecting")
	if version() == v1 {
		t.Error("the held-back update did not come once the selection was cleared")
	}

	// Pause: no request goes out; resume catches up at once.
	b.do("pause", chromedp.Click(chromedp.CSS(`[data-live-pause]`)))
	if b.eval(`document.querySelector("[data-live-pause]").getAttribute("aria-pressed")`) != "true" {
		t.Error("the pause button does not say it is pressed")
	}
	v2 := version()
	env.addRepoViolation(3)
	refresh()
	time.Sleep(500 * time.Millisecond)
	if version() != v2 {
		t.Error("a paused page still updated")
	}
	if txt := b.eval(`document.querySelector("[data-live-status]").innerText`).(string); !regexp.MustCompile(`paused`).MatchString(txt) {
		t.Errorf("status line %q does not say updates are paused", txt)
	}
	b.do("resume", chromedp.Click(chromedp.CSS(`[data-live-pause]`)))
	b.waitJS("resumed update", `document.querySelector("#overview").dataset.version !== "`+v2+`"`, 5*time.Second)
	if ps := b.problems(); len(ps) > 0 {
		t.Errorf("the browser reported problems: %v", ps)
	}
}

// TestBrowserFilterAndPager: Enter in a filter field sends one request;
// the Older link lands focus and view on the top of the new results.
func TestBrowserFilterAndPager(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	b := newBrowser(t, env)
	b.do("sessions", chromedp.Navigate(b.base+"/sessions"), chromedp.WaitVisible(chromedp.CSS("#results")))
	b.waitJS("htmx loaded", `typeof htmx !== "undefined"`, 5*time.Second)
	// Relative times, the absolute UTC time on hover.
	if got := b.eval(`(() => { const t = document.querySelector("#results time[data-rel]"); return t.textContent + "|" + t.title })()`).(string); !regexp.MustCompile(`^\d+ (s|min|h|days) ago\|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$`).MatchString(got) {
		t.Errorf("list time %q: want relative text and the absolute UTC time as its title", got)
	}
	b.eval(`window.__sgReq = 0; document.addEventListener("htmx:beforeRequest", () => window.__sgReq++); true`)
	b.do("type a branch and press Enter", chromedp.SendKeys(chromedp.CSS(`input[name="branch"]`), "bulk\r"))
	b.waitJS("filtered by branch", `location.search === "?branch=bulk"`, 5*time.Second)
	time.Sleep(700 * time.Millisecond) // a second request would have gone out by now
	if n := b.eval(`window.__sgReq`); n != float64(1) {
		t.Errorf("Enter in the branch field sent %v requests, want 1", n)
	}
	b.do("older", chromedp.Click(chromedp.CSS(`.pager a[rel="next"]`)))
	b.waitJS("second page", `location.search.includes("cursor=") && document.activeElement && document.activeElement.id === "results"`, 5*time.Second)
	if top := b.eval(`document.querySelector("#results").getBoundingClientRect().top`).(float64); top < -1 || top > 120 {
		t.Errorf("the new results start %vpx from the top of the window, want at the top", top)
	}
	b.screenshot("21-sessions-page-2")
	b.do("newer", chromedp.Click(chromedp.CSS(`.pager a[rel="prev"]`)))
	b.waitJS("back on the first page", `location.search === "?branch=bulk" && document.activeElement && document.activeElement.id === "results" && document.querySelector('.pager a[rel="prev"]') === null`, 5*time.Second)
	if ps := b.problems(); len(ps) > 0 {
		t.Errorf("the browser reported problems: %v", ps)
	}
}
