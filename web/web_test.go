package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

func TestFormatDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "—"},
		{500 * time.Microsecond, "<1ms"},
		{850 * time.Millisecond, "850ms"},
		{12300 * time.Millisecond, "12.3s"},
		{4*time.Minute + 5*time.Second, "4m05s"},
		{2*time.Hour + 7*time.Minute, "2h07m"},
		{76 * time.Hour, "3d04h"},
	} {
		if got := FormatDuration(c.d); got != c.want {
			t.Errorf("FormatDuration(%s) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestChartBars(t *testing.T) {
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	c := Chart{Days: []ChartDay{
		{Day: day, Ended: 0},
		{Day: day.AddDate(0, 0, 1), Ended: 10, Compliant: 10},
		{Day: day.AddDate(0, 0, 2), Ended: 4, Compliant: 3},
		{Day: day.AddDate(0, 0, 3), Ended: 3, Compliant: 0},
	}}
	bars := c.Bars()
	// Volume: the y scale tops at 10 (the busiest day); heights are counts.
	// Share: the compliant part of each bar, and the label above it. A day
	// without data has no label and no bar; a 0% day has a full bar of the
	// not-compliant colour and "0%".
	for i, want := range []struct{ class, title, good, bad, label string }{
		{"bar-none", "Mar 1: no session ended", "3", "0", ""},
		{"bar-good", "Mar 2: 100% (10 of 10 ended sessions compliant)", "178.0", "0.0", "100%"},
		{"bar-warn", "Mar 3: 75% (3 of 4 ended sessions compliant)", "53.4", "17.8", "75%"},
		{"bar-bad", "Mar 4: 0% (0 of 3 ended sessions compliant)", "0.0", "53.4", "0%"},
	} {
		if b := bars[i]; b.Class != want.class || b.Title != want.title || b.GoodH != want.good || b.BadH != want.bad || b.Label != want.label {
			t.Errorf("bar %d = %+v, want class %s heights %s+%s label %q title %q", i, b, want.class, want.good, want.bad, want.label, want.title)
		}
	}
	if bars[3].Href != "/sessions?from=2026-03-04&to=2026-03-04" {
		t.Errorf("a day links to %q, want that day's sessions", bars[3].Href)
	}
	if y := c.YTicks(); len(y) != 3 || y[2].Label != "10" || y[1].Label != "5" {
		t.Errorf("YTicks = %+v, want 0, 5, 10 sessions", y)
	}
	if ended, compliant := c.Totals(); ended != 17 || compliant != 13 {
		t.Errorf("Totals = %d, %d", ended, compliant)
	}
	if ticks := c.XTicks(); len(ticks) != 1 || ticks[0].Label != "Mar 4" {
		t.Errorf("XTicks = %+v: the last day must be labelled", ticks)
	}
}

// TestComponentsEscape: stored text goes through templ's escaping.
func TestComponentsEscape(t *testing.T) {
	var b strings.Builder
	v := []session.Violation{{Severity: "HIGH", Code: "X", Message: `<script>alert(1)</script>`, SessionID: `"><img src=x>`}}
	if err := ViolationsTable(v, true).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "<script>") || strings.Contains(out, "<img") {
		t.Errorf("unescaped: %s", out)
	}
	if !strings.Contains(out, "&lt;script&gt;") {
		t.Errorf("message missing: %s", out)
	}
}

func TestAssetURLsCarryContentTags(t *testing.T) {
	for _, name := range []string{"app.css", "app.js", "htmx.min.js", "favicon.svg"} {
		u := Asset(name)
		if !strings.HasPrefix(u, "/static/"+name+"?v=") || len(u) != len("/static/"+name+"?v=")+12 {
			t.Errorf("Asset(%s) = %q", name, u)
		}
	}
}

// TestEvidenceOrigin: the evidence table badges observed evidence apart
// from claimed, with the observed command's exit code and duration.
func TestEvidenceOrigin(t *testing.T) {
	zero, three := 0, 3
	ev := []session.Evidence{
		{Phase: "QA", Kind: "tool_output", Origin: session.OriginObserved, Source: "claude", Command: "go test ./...", ExitCode: &zero, Duration: 1500 * time.Millisecond, SHA256: "ab"},
		{Phase: "QA", Kind: "tool_output", Origin: session.OriginObserved, Source: "claude", Command: "go vet ./...", ExitCode: &three, SHA256: "cd"},
		{Phase: "QA", Kind: "tool_output", Origin: session.OriginClaimed, Ref: "all tests pass", SHA256: "ef"},
		{Phase: "CTX", Kind: "file_path", Origin: session.OriginTranscript, Source: "claude", Ref: "docs/guide.md by Read", ExitCode: &zero, SHA256: "01"},
	}
	var b strings.Builder
	if err := evidenceTable(ev).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{`or-observed"`, `or-observed-failed"`, `or-claimed"`, `or-transcript"`, "go test ./...", "exit 0, 1.5s", "exit 3", "all tests pass",
		"the agent&#39;s own transcript (claude) shows this tool call: docs/guide.md by Read"} {
		if !strings.Contains(html, want) {
			t.Errorf("evidence table lacks %q:\n%s", want, html)
		}
	}
	// The transcript row is its own kind, never "claimed".
	if strings.Count(html, ">observed<") != 2 || strings.Count(html, ">claimed<") != 1 || strings.Count(html, ">observed in transcript<") != 1 {
		t.Errorf("want 2 observed, 1 observed in transcript and 1 claimed badges:\n%s", html)
	}
}
