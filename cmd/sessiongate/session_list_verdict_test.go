package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSessionListVerdictIsShowVerdict (round 20 t1): `session list` reads
// its page's verdicts in one batch (Engine.VerdictViews), and each row
// still says what `session show` says of that session: a terminated
// session that forced a gate, one superseded by a new start, and the
// running one (no verdict).
func TestSessionListVerdictIsShowVerdict(t *testing.T) {
	repoDir(t)
	if code, _, stderr := sg(t, "", "init"); code != 0 {
		t.Fatal(stderr)
	}
	start := func() string {
		t.Helper()
		code, out, stderr := sg(t, "", "session", "start", "--objective", "list verdicts", "--json")
		var st struct {
			SessionID string `json:"session_id"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.SessionID == "" {
			t.Fatalf("start: %d %s %s", code, out, stderr)
		}
		return st.SessionID
	}
	forced := start()
	for _, a := range [][]string{
		{"session", "advance", "--force", "--reason", "the handoff notes are empty today"},
		{"session", "terminate", forced, "--reason", "done testing"},
	} {
		if code, _, stderr := sg(t, "", a...); code != 0 {
			t.Fatalf("%v: %d %s", a, code, stderr)
		}
	}
	superseded := start()
	running := start() // supersedes the one before
	code, out, stderr := sg(t, "", "session", "list", "--json")
	if code != 0 {
		t.Fatalf("list: %d %s", code, stderr)
	}
	var rows []struct {
		ID      string `json:"id"`
		Clean   *bool  `json:"clean"`
		Verdict string `json:"verdict"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 3 {
		t.Fatalf("list: %d rows, %v: %s", len(rows), err, out)
	}
	for _, r := range rows {
		code, out, stderr := sg(t, "", "session", "show", r.ID, "--json")
		var show struct {
			Clean   *bool  `json:"clean"`
			Verdict string `json:"verdict"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &show) != nil {
			t.Fatalf("show %s: %d %s", r.ID, code, stderr)
		}
		if r.Verdict != show.Verdict || (r.Clean == nil) != (show.Clean == nil) || r.Clean != nil && *r.Clean != *show.Clean {
			t.Errorf("session %s: list says %v %q, show says %v %q", r.ID, r.Clean, r.Verdict, show.Clean, show.Verdict)
		}
		switch r.ID {
		case running:
			if r.Clean != nil || r.Verdict != "" {
				t.Errorf("the running session has a verdict: %q", r.Verdict)
			}
		case forced:
			if !strings.Contains(r.Verdict, "TERMINATED, not clean: 1 violation(s) (CRITICAL FORCED_ADVANCE); forced past failing gate(s) CONTEXT_RETRIEVAL") {
				t.Errorf("the forced session: %q", r.Verdict)
			}
		case superseded:
			if r.Clean == nil || *r.Clean || !strings.HasPrefix(r.Verdict, "ABANDONED") {
				t.Errorf("the superseded session: %v %q", r.Clean, r.Verdict)
			}
		}
	}
}
