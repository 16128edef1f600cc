package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// ownLog is a log filled from the template in the session's own words.
const ownLog = "# Log 2026-11-21-01\n\n## Done\n\nThe greeting takes an optional name (scripts/greet.sh); scripts/test.sh now checks six names.\n\n" +
	"## Next\n\nDocument both scripts' usage in the README, with an example run.\n"

// TestWriteRequirementNeedsItsFile (issue 25 routes 4 and 5): "Complete the
// log from the Log Template" is met by the log, written in this session and
// recorded as a file: not by a manual note, not by another file, and not by
// a file swapped after it was recorded for the earlier session's log
// renumbered (or padded with a sentence). The honest log passes.
func TestWriteRequirementNeedsItsFile(t *testing.T) {
	renumbered := strings.NewReplacer("2026-11-20-01", "2026-11-21-01", "3f9a2c1d", "77b0e4a9").Replace(earlierLog)
	cases := []struct {
		name     string
		kind     string
		file     string // what is written at logs/2026-11-21-01.md first ("" none)
		evidence string
		swap     string // what the file becomes after it was recorded ("" unchanged)
		refused  string // the record's refusal ("" accepted)
		gateFail string // the LOG gate's failure ("" passes)
	}{
		{name: "honest log", kind: session.EvidenceFilePath, file: ownLog, evidence: "logs/2026-11-21-01.md"},
		{name: "honest log edited after the record", kind: session.EvidenceFilePath, file: ownLog, evidence: "logs/2026-11-21-01.md",
			swap: ownLog + "\nThe README example runs in CI too.\n"},
		{name: "manual note", kind: session.EvidenceManual, evidence: "Log completed from the template: name argument done, README next.",
			refused: "manual evidence writes no file"},
		{name: "tool output", kind: session.EvidenceToolOutput, evidence: "wrote logs/2026-11-21-01.md (12 lines)",
			refused: "tool_output evidence writes no file"},
		{name: "another file", kind: session.EvidenceFilePath, file: ownLog, evidence: "README.md",
			refused: "README.md is another file"},
		{name: "the earlier log, unchanged", kind: session.EvidenceFilePath, evidence: "logs/2026-11-20-01.md",
			refused: "as it was when the session started"},
		{name: "swapped for the earlier log renumbered", kind: session.EvidenceFilePath, file: ownLog, evidence: "logs/2026-11-21-01.md",
			swap: renumbered, gateFail: "changed after it was recorded"},
		{name: "swapped for the earlier log renumbered and padded", kind: session.EvidenceFilePath, file: ownLog, evidence: "logs/2026-11-21-01.md",
			swap: renumbered + "\nThe name argument works with several names now.\n", gateFail: "a copy of logs/2026-11-20-01.md"},
		{name: "swapped for the template", kind: session.EvidenceFilePath, file: ownLog, evidence: "logs/2026-11-21-01.md",
			swap: "# Log 2026-11-21-01\n\n## Done\n\n[what was completed]\n\n## Next\n\n[what the next session should do]\n", gateFail: "still holds the template placeholder"},
		{name: "a file of no words", kind: session.EvidenceFilePath, file: ".\n", evidence: "logs/2026-11-21-01.md",
			refused: "holds no words"},
		{name: "a link to another file", kind: session.EvidenceFilePath, file: "->README.md", evidence: "logs/2026-11-21-01.md",
			refused: "a link to another file"},
		{name: "emptied after the record", kind: session.EvidenceFilePath, file: ownLog, evidence: "logs/2026-11-21-01.md",
			swap: "\n", gateFail: "holds no words"},
		{name: "deleted after the record", kind: session.EvidenceFilePath, file: ownLog, evidence: "logs/2026-11-21-01.md",
			swap: "-", gateFail: "no longer exists"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, templateProtocol)
			gittest.Write(t, e.root, "logs/2026-11-20-01.md", earlierLog)
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "session 01 log")
			id := e.start(c.name)
			if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING", Force: true, Reason: "to reach the end phase in a test"}); err != nil {
				t.Fatal(err)
			}
			if target, ok := strings.CutPrefix(c.file, "->"); ok {
				gittest.Write(t, e.root, "README.md", "# greet\n\nSays hello.\n")
				if err := os.Symlink(filepath.Join("..", target), filepath.Join(e.root, "logs", "2026-11-21-01.md")); err != nil {
					t.Fatal(err)
				}
			} else if c.file != "" {
				gittest.Write(t, e.root, "logs/2026-11-21-01.md", c.file)
			}
			reqs, err := e.engine.Requirements(ctx, id, "LOG")
			if err != nil || len(reqs) != 1 {
				t.Fatalf("requirements of LOG: %+v %v", reqs, err)
			}
			_, err = e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "LOG", Requirement: reqs[0].ID, Kind: c.kind, Evidence: c.evidence})
			switch {
			case c.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.refused != "" && (err == nil || !errors.Is(err, session.ErrRefused) || !strings.Contains(err.Error(), c.refused)):
				t.Fatalf("got %v, want a refusal containing %q", err, c.refused)
			case c.refused != "":
				return
			}
			switch c.swap {
			case "":
			case "-":
				removeFile(t, e.root, "logs/2026-11-21-01.md")
			default:
				gittest.Write(t, e.root, "logs/2026-11-21-01.md", c.swap)
			}
			g, err := e.engine.ValidateGate(ctx, id, "LOG")
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.gateFail == "" && g.Status != session.StatusPass:
				t.Fatalf("honest gate %s: %s", g.Status, g.Message)
			case c.gateFail != "" && (g.Status != session.StatusFail || !strings.Contains(g.Message, c.gateFail)):
				t.Fatalf("gate %s %q, want a failure containing %q", g.Status, g.Message, c.gateFail)
			}
			// Another phase's gate judges the file recorded for LOG again
			// too (its evidence is read with that gate's in one statement:
			// GateAndFileEvidence's other-phase branch).
			if c.kind != session.EvidenceFilePath || strings.HasPrefix(c.file, "->") {
				return
			}
			g, err = e.engine.ValidateGate(ctx, id, "LOG_CHANGED")
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.gateFail == "" && g.Status != session.StatusPass:
				t.Fatalf("honest LOG_CHANGED gate %s: %s", g.Status, g.Message)
			case c.gateFail != "" && (g.Status != session.StatusFail || !strings.Contains(g.Message, c.gateFail)):
				t.Fatalf("LOG_CHANGED gate %s %q, want a failure containing %q", g.Status, g.Message, c.gateFail)
			}
		})
	}
}
