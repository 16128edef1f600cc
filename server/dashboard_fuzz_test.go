package server

import (
	"net/url"
	"testing"
	"unicode/utf8"
)

// FuzzDashboardQuery: any query string gives a filter or a 400-style error;
// a filter never carries a limit outside 1..the page cap nor invalid UTF-8.
func FuzzDashboardQuery(f *testing.F) {
	for _, s := range []string{
		"state=active&branch=main&q=login", "state=COMPLETE,abandoned&from=2026-11-01&to=2026-11-20&limit=5",
		"severity=CRITICAL&code=BYPASS&phase=QA&window=session", "state=bogus", "limit=-1", "from=2026-13-45",
		"q=%ff%fe", "branch=" + string(make([]byte, 300)),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		for _, allow := range []bool{false, true} {
			if sq, err := parseSessionQuery(q, allow); err == nil {
				if sq.filter.Limit < 1 || sq.filter.Limit > maxAPILimit {
					t.Fatalf("session limit %d from %q", sq.filter.Limit, raw)
				}
				if !utf8.ValidString(sq.filter.Query) || !utf8.ValidString(sq.filter.Branch) {
					t.Fatalf("invalid UTF-8 passed from %q", raw)
				}
			}
			if vq, err := parseViolationQuery(q, allow); err == nil {
				if vq.filter.Limit < 1 || vq.filter.Limit > maxAPILimit {
					t.Fatalf("violation limit %d from %q", vq.filter.Limit, raw)
				}
			}
		}
	})
}
