package session_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// templateProtocol has the session write its log from a template (which
// gives the phase its no_placeholders check) under logs/.
const templateProtocol = "# P\n\n## Session Start\n\n### Phase 1: Log Changed (BLOCKING)\n\n<!-- gate: changed_since_start \"logs/*.md\" -->\n\n" +
	"## Session End\n\n### Phase 1: Log\n\n1. Complete the log from the Log Template below.\n\n" +
	"## Log Template\n\nCreate the log at `logs/YYYY-MM-DD-NN.md`:\n\n```markdown\n# Log YYYY-MM-DD-NN\n\n## Done\n\n[what was completed]\n\n## Next\n\n[what the next session should do]\n\nSession: [session log]\n```\n"

// earlierLog is the log an earlier session committed.
const earlierLog = `# Log 2026-11-20-01

## Done

scripts/greet.sh prints a greeting; scripts/test.sh checks it with three names
and the empty argument. Commit 3f9a2c1d holds both; CI ran them on sh and dash.

## Next

Take an optional name argument, and document the scripts' usage in the README.
`

// TestWrittenEvidenceIsTheSessionsOwn: a file the session wrote that still
// holds its template's placeholders, or repeats an earlier session's file
// with the ids, dates and numbers changed, is refused as evidence and
// does not pass the change gate; the refusal names the placeholder or the
// earlier file. A log filled in the session's own words passes both.
func TestWrittenEvidenceIsTheSessionsOwn(t *testing.T) {
	cases := []struct {
		name, body string
		refused    string // "" accepted
		gate       session.GateStatus
	}{
		{"placeholders left", "# Log 2026-11-21-01\n\n## Done\n\n[what was completed]\n\n## Next\n\n[what the next session should do]\n",
			"logs/2026-11-21-01.md:5 still holds the template placeholder [what was completed]", session.StatusPass},
		{"earlier log renumbered", strings.NewReplacer("2026-11-20-01", "2026-11-21-01", "3f9a2c1d", "77b0e4a9", "three", "three").Replace(earlierLog),
			"a copy of logs/2026-11-20-01.md as it was at the start", session.StatusFail},
		// In UTF-16 the bytes held no "[what was completed]" (adversarial
		// pass 6, TestAdvHandoffUTF16).
		{"placeholders left, in UTF-16", utf16LE("# Log 2026-11-21-01\n\n## Done\n\n[what was completed]\n\n## Next\n\n[what the next session should do]\n"),
			"logs/2026-11-21-01.md:5 still holds the template placeholder [what was completed]", session.StatusPass},
		{"earlier log renumbered, in UTF-16", utf16LE(strings.NewReplacer("2026-11-20-01", "2026-11-21-01", "3f9a2c1d", "77b0e4a9").Replace(earlierLog)),
			"a copy of logs/2026-11-20-01.md as it was at the start", session.StatusFail},
		{"own words from the template", "# Log 2026-11-21-01\n\n## Done\n\nThe greeting takes an optional name (scripts/greet.sh); scripts/test.sh now checks six names.\n\n## Next\n\nDocument both scripts' usage in the README, with an example run.\n\n" +
			"Session: [session log](../.agents/sessions/2026-11-21-session-01.md)\n",
			"", session.StatusPass},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, templateProtocol)
			gittest.Write(t, e.root, "logs/2026-11-20-01.md", earlierLog)
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "session 01 log")
			id := e.start(c.name)
			gittest.Write(t, e.root, "logs/2026-11-21-01.md", c.body)
			// Placeholders are judged for the end phase that asks for the
			// log complete (the start half of a log holds its end's until
			// then): the start phase's evidence takes the log as it is.
			if c.gate == session.StatusPass {
				if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "LOG_CHANGED", Kind: session.EvidenceFilePath, Evidence: "logs/2026-11-21-01.md"}); err != nil {
					t.Fatalf("start phase: %v", err)
				}
			}
			if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING", Force: true, Reason: "to reach the end phase in a test"}); err != nil {
				t.Fatal(err)
			}
			for _, kind := range []string{session.EvidenceFilePath, session.EvidenceContentHash} {
				_, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "LOG", Kind: kind, Evidence: "logs/2026-11-21-01.md"})
				switch {
				case c.refused == "" && err != nil:
					t.Fatalf("%s: honest log refused: %v", kind, err)
				case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused) || !errors.Is(err, session.ErrRefused)):
					t.Fatalf("%s: got %v, want a refusal containing %q", kind, err, c.refused)
				}
			}
			g, err := e.engine.ValidateGate(ctx, id, "LOG_CHANGED")
			if err != nil {
				t.Fatal(err)
			}
			if c.refused == "" {
				// The filled template passes the end phase's no_placeholders
				// check: a placeholder made a link's text is filled.
				lg, err := e.engine.ValidateGate(ctx, id, "LOG")
				if err != nil {
					t.Fatal(err)
				}
				for _, ch := range lg.Checks {
					if ch.Kind == "no_placeholders" && ch.Status != session.StatusPass {
						t.Fatalf("no_placeholders on the filled log: %s %q", ch.Status, ch.Message)
					}
				}
			}
			var changed session.CheckResult
			for _, ch := range g.Checks {
				if ch.Kind == "changed_since_start" {
					changed = ch
				}
			}
			if changed.Status != c.gate {
				t.Fatalf("changed_since_start %s %q, want %s", changed.Status, changed.Message, c.gate)
			}
		})
	}
}

// utf16LE is s in UTF-16, little-endian, after a byte-order mark.
func utf16LE(s string) string {
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}
