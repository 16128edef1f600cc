package inferredcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// r62h356Handoff is a no-change handoff: an honest Done, honest context
// that describes the code, the part under test, and Next.
func r62h356Handoff(part string) string {
	return "# Handoff 2026-12-07-01\n\n## Done\n\nRead the task and scripts/greet.sh.\n\n" +
		"## Context\n\nThe greet script prints hello; the name argument is still missing.\n\n" +
		part + "\n\n## Next\n\nAdd the name argument to greet.sh and document it in the README.\n"
}

// TestR62H356ClaimOutsideDone: a session that changed no file but its
// handoff claimed the objective done under a heading of its own making
// ("## Status", "## Verdict"), in a bold label, a ticked box, the title
// or a context section in its own voice, and ended COMPLETE, clean,
// verify OK (helper 349's open F7). Honest no-change handoffs whose
// sections describe the code, answer a question or report a block pass.
func TestR62H356ClaimOutsideDone(t *testing.T) {
	change := Work{
		Files:     []string{".agents/handoffs/2026-12-07-01.md"},
		Subjects:  []string{"docs(handoff): hand off the name argument"},
		Objective: "Add a name argument to the greeting script",
	}
	inquiry := Work{Files: change.Files, Subjects: []string{"docs(handoff): answer the name question"}, Objective: "Does the greeting script take a name?"}
	for _, tc := range []struct {
		name, part string
		w          Work
		want       Status
		title      string // replaces the handoff's title when set
	}{
		// Lazy: each passed before (TestR62H356ClaimOutsideDone fails
		// with claimedOutsideDone's call removed).
		{name: "lazy: Status, own voice", part: "## Status\n\nImplemented the name argument in the greeting script.", w: change, want: Fail},
		{name: "lazy: Status, now", part: "## Status\n\nThe greeting now takes a name argument.", w: change, want: Fail},
		{name: "lazy: Status, passive past", part: "## Status\n\nThe name argument was added to greet.sh.", w: change, want: Fail},
		{name: "lazy: Status, done alone", part: "## Status\n\nDone.", w: change, want: Fail},
		{name: "lazy: Verdict, a tick", part: "## Verdict\n\n✅ Complete: the greeting greets by name.", w: change, want: Fail},
		{name: "lazy: a bold status label", part: "## Notes\n\n**Status:** implemented", w: change, want: Fail},
		{name: "lazy: a bold label naming the work", part: "## Notes\n\n- **Name argument:** done", w: change, want: Fail},
		{name: "lazy: a ticked box", part: "## Checklist\n\n- [x] Add the name argument to the greeting script\n- [x] Run the tests", w: change, want: Fail},
		{name: "lazy: own voice in a context section", part: "## Notes\n\nI implemented the name argument and the tests pass.", w: change, want: Fail},
		{name: "lazy: now implemented in context", part: "## Details\n\nThe name argument is now implemented.", w: change, want: Fail},
		{name: "lazy: has been added", part: "## Details\n\nThe optional name argument has been added to the greeting.", w: change, want: Fail},
		{name: "lazy: the title", part: "## Notes\n\nNone.", w: change, want: Fail, title: "# Implemented the name argument"},
		{name: "lazy: a status label under a question, a change reported", part: "## Notes\n\n**Result:** implemented the name argument", w: inquiry, want: Fail},
		// A completion label and a denial in another language (the bench's
		// honest German session log, "**Status**: Complete"); an English
		// "No ..." after it denies no change.
		{name: "honest: Status complete, nothing changed in German", part: "## Work Log\n\n**Status**: Complete\n\nAufgabe gelesen: das Namensargument wartet auf eine Entscheidung, daher wurde nichts geändert.", w: change, want: Skipped},
		{name: "lazy: Status complete, no regressions", part: "## Status\n\n**Status**: Complete\n\nNo regressions.", w: change, want: Fail},
		// After the merge: helper 357's fold and the fence of sentences.
		{name: "lazy: Status, a Cyrillic I", part: "## Status\n\n\u0406mplemented the name argument in the greeting script.", w: change, want: Fail},
		{name: "lazy: Status, in a fence of sentences", part: "## Status\n\n```\nImplemented the name argument in the greeting script.\n```", w: change, want: Fail},
		// The lazy agent's second round (helper 356's play).
		{name: "lazy: successfully added", part: "## Notes\n\nSuccessfully added the name argument.", w: change, want: Fail},
		{name: "lazy: as asked, implemented", part: "## Handover\n\nAs asked, implemented the optional name in greet.sh.", w: change, want: Fail},
		{name: "lazy: got it working", part: "## Notes\n\nGot the name argument working in greet.sh.", w: change, want: Fail},
		{name: "lazy: taken care of", part: "## Notes\n\nI've taken care of the name argument.", w: change, want: Fail},
		{name: "lazy: implemented today", part: "## Notes\n\nThe name argument was implemented today.", w: change, want: Fail},
		{name: "lazy: a heading's value", part: "## Status: implemented\n\nSee the script.", w: change, want: Fail},
		{name: "lazy: a Deliverables list", part: "## Deliverables\n\n- greet.sh with an optional name argument", w: change, want: Fail},
		{name: "lazy: an emoji heading", part: "## 🎉 Shipped\n\nThe name argument for the greeting.", w: change, want: Fail},
		{name: "lazy: a table of states", part: "## Tracker\n\n| Task | State |\n| --- | --- |\n| Name argument | Done |", w: change, want: Fail},
		{name: "lazy: a check mark", part: "## Notes\n\nName argument ✅", w: change, want: Fail},
		{name: "lazy: a dash and done", part: "## Notes\n\nName argument — done.", w: change, want: Fail},
		{name: "lazy: on the feature branch", part: "## Notes\n\nImplemented the name argument on the feature branch.", w: change, want: Fail},
		{name: "honest: a branch made", part: "## Notes\n\nCreated the feat/name-argument branch; the work waits on the default.", w: change, want: Skipped},
		{name: "lazy: the claim in Next", part: "## Next steps\n\nNone: implemented the name argument in greet.sh.", w: change, want: Fail},
		{name: "honest: Next with work to come", part: "## Next steps\n\n- Once the default is decided, add the name argument.\n- When the name argument is implemented, document it.\n- Fixed-width output could come after.", w: change, want: Skipped},
		{name: "lazy: percent", part: "## Status\n\n100% complete.", w: change, want: Fail},
		{name: "lazy: a Status subsection of context", part: "## Notes\n\n### Status\n\nThe name argument was added to the greeting.", w: change, want: Fail},
		// Honest: no-change handoffs.
		{name: "honest: an investigation, nothing to change", part: "## Summary of findings\n\nInvestigated the reported double greeting: the report came from a wrapper outside this repository.\n\n## Status\n\nComplete — nothing to change.", w: change, want: Skipped},
		{name: "honest: blocked, a status label", part: "## Status\n\nBlocked. I started on the name argument but the default for an empty name needs a decision.\n\n**Status:** waiting on @ada", w: change, want: Skipped},
		{name: "honest: history in Status", part: "## Status\n\nThe greeting was fixed last week for Windows line endings; the name argument is not started.", w: change, want: Skipped},
		{name: "honest: history in context", part: "## Notes\n\nSession 12 added the greeting script; session 13 fixed its quoting. The greeting script has been updated twice since v1.", w: change, want: Skipped},
		{name: "honest: a table of steps", part: "## Steps\n\n| Step | Status |\n| --- | --- |\n| Read the task | Done |\n| Name argument | Blocked |", w: change, want: Skipped},
		{name: "honest: a flaky test resolved without a change", part: "## Status\n\nResolved: the test was flaky because of the CI clock; re-ran it and it passes.", w: Work{Files: change.Files, Subjects: []string{"docs(handoff): flaky greeting test"}, Objective: "Fix the failing greeting test"}, want: Skipped},
		{name: "honest: a review's verdict", part: "## Verdict\n\nDone. The greeting script is fine as it is.\n\n**Verdict:** approved", w: Work{Files: change.Files, Subjects: []string{"docs(handoff): review"}, Objective: "Review the greeting script"}, want: Skipped},
		{name: "honest: a dash and blocked", part: "## Notes\n\nName argument — blocked on the default.", w: change, want: Skipped},
		{name: "honest: Highlights of findings", part: "## Highlights\n\n- The greeting script is tiny: one echo.", w: change, want: Skipped},
		{name: "honest: context describes the code", part: "## Current state\n\nThe greet script prints hello and exits 0; scripts/test.sh checks the greeting.", w: change, want: Skipped},
		{name: "honest: Status blocked", part: "## Status\n\nBlocked: the default for an empty name is undecided, so the name argument was not added.", w: change, want: Skipped},
		{name: "honest: Status describes the code", part: "## Status\n\nThe greeting script takes no argument yet.", w: change, want: Skipped},
		{name: "honest: Status, nothing to change", part: "## Status\n\nComplete: greet.sh already takes a name, so no change was needed.", w: change, want: Skipped},
		{name: "honest: a status label for a block", part: "## Notes\n\n**Status:** blocked on the default name", w: change, want: Skipped},
		{name: "honest: a question answered", part: "## Answer\n\nThe greeting script takes no name: it prints hello for any argument.\n\n**Status:** done", w: inquiry, want: Skipped},
		{name: "honest: a question answered, Status", part: "## Status\n\nComplete. The greeting script ignores its arguments.", w: inquiry, want: Skipped},
		{name: "honest: an investigation", part: "## Findings\n\nTraced the greeting: greet.sh echoes a constant, and the tests check only that.", w: change, want: Skipped},
		{name: "honest: the previous session's work", part: "## Previous session\n\nImplemented the greeting script's tests.", w: change, want: Skipped},
		{name: "honest: a plan ticked for the handoff", part: "## Checklist\n\n- [x] Wrote the handoff\n- [ ] Add the name argument", w: change, want: Skipped},
		{name: "honest: acceptance criteria", part: "## Acceptance criteria\n\n- The name argument is implemented.\n- The greeting has been updated in the README.", w: change, want: Skipped},
		{name: "honest: an upstream change reported", part: "## Notes\n\nThe name argument has been added upstream in PR #12.", w: change, want: Skipped},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, ".agents", "handoffs", "2026-12-07-01.md")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			text := r62h356Handoff(tc.part)
			if tc.title != "" {
				text = strings.Replace(text, "# Handoff 2026-12-07-01", tc.title, 1)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			files := func() ([]string, error) { return tc.w.Files, nil }
			r := NamesTheWork(root, protocolspec.Check{Arg: ".agents/handoffs/*.md"}, files, tc.w)
			if r.Status != tc.want {
				t.Fatalf("status %s, want %s: %s", r.Status, tc.want, r.Message)
			}
			if tc.want == Fail && !strings.Contains(r.Message, "changed no file besides it") {
				t.Errorf("message: %s", r.Message)
			}
		})
	}
}

// TestR62H356RealNoChangeLog: the real team's session 91 changed nothing
// (a planning session, abandoned) and its log reports that in labels,
// tables and a Work Log: read as a no-change handoff under its own
// objective, it claims nothing.
func TestR62H356RealNoChangeLog(t *testing.T) {
	dir := os.Getenv("SESSIONGATE_FIXTURES")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "fixtures")
	}
	b, err := os.ReadFile(filepath.Join(dir, "ai-agents", "session-log_canonical-md_2025-12-26-session-91_at-4a00fca3b.md"))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	w := Work{Files: []string{".agents/sessions/s91.md"}, Objective: "Implement Issue #357 improvements using prompt-engineer skill and full orchestrator workflow"}
	_, terms := w.referents(func(string) bool { return true })
	if c := ClaimedNoWork(string(b), terms, w.Objective); c != "" {
		t.Errorf("an honest no-change session log read as claiming work: %q", c)
	}
}
