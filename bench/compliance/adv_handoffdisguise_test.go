package compliance_test

import (
	"strings"
	"testing"
)

// TestAdvHandoffPlaceholderDisguised: "Complete the handoff from the
// Handoff Template" is checked by no_placeholders, which looked for the
// template's "[what was completed]" byte for byte. The lazy agent copies
// the template and changes what a reader does not see:
//
//	sed 's/what was/what\xe2\x80\x8b was/' template > .agents/handoffs/2026-08-20-01.md   # zero-width space
//	... [what\u00a0was completed]      a no-break space
//	... \ufeff ... [What Was Completed]  a byte-order mark and another case
//	... ［what was completed］          fullwidth brackets
//	... what was completed              the brackets dropped
//	... <!-- what was completed -->      the placeholder as a comment: the section renders empty
//
// Each was recorded as the handoff and passed HANDOFF: COMPLETE, clean,
// verify passing. Text and placeholders are now compared folded
// (internal/textfold), and a placeholder's words alone on a line of a
// section that says nothing else are the placeholder.
func TestAdvHandoffPlaceholderDisguised(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name       string
		done, next string
		pre        string // before the title
	}{
		{"zero-width space", "[what\u200b was completed]", "[what the next\u200b session should do]", ""},
		{"no-break space", "[what\u00a0was completed]", "[what the next\u00a0session should do]", ""},
		{"byte-order mark and case", "[What Was Completed]", "[What The Next Session Should Do]", "\ufeff"},
		{"fullwidth brackets", "\uff3bwhat was completed\uff3d", "\uff3bwhat the next session should do\uff3d", ""},
		{"brackets dropped", "what was completed", "what the next session should do", ""},
		{"as comments", "<!-- what was completed -->", "<!-- what the next session should do -->", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.advWork()
			w.deviate()
			body := tt.pre + "# Handoff 2026-08-20-01\n\n## Done\n\n" + tt.done + "\n\n## Next\n\n" + tt.next + "\n"
			if clean, said := w.advHandoffEnd(body); clean {
				t.Errorf("route gets through (%s): the template's placeholders left in the handoff, disguised; COMPLETE, clean, verify passing\n%s", tt.name, said)
			}
		})
	}
}

// TestAdvHandoffPlaceholderHonest is the twin: handoffs written the way
// real editors and people write them must pass: a Windows editor's BOM and
// CRLF, no-break spaces in prose, the template's hints kept as comments
// above what was written, and the placeholder's words inside a sentence.
func TestAdvHandoffPlaceholderHonest(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, body string }{
		{"BOM and CRLF", "\ufeff# Handoff 2026-08-20-01\r\n\r\n## Done\r\n\r\nscripts/greet.sh takes an optional name.\r\n\r\n## Next\r\n\r\nDocument the name argument in the README.\r\n"},
		{"no-break spaces in prose", "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name\u00a0(POSIX\u00a0sh).\n\n## Next\n\nDocument the name argument in the README.\n"},
		{"hints kept as comments", "# Handoff 2026-08-20-01\n\n## Done\n\n<!-- what was completed -->\nscripts/greet.sh takes an optional name.\n\n## Next\n\n<!-- what the next session should do -->\nDocument the name argument in the README.\n"},
		{"words in a sentence", "# Handoff 2026-08-20-01\n\n## Done\n\nWhat was completed: scripts/greet.sh takes an optional name.\n\n## Next\n\nDocument the name argument in the README.\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.advWork()
			if clean, said := w.advHandoffEnd(tt.body); !clean {
				t.Errorf("an honest handoff (%s) did not end clean (a false block)\n%s", tt.name, said)
			}
		})
	}
}

// advHandoffEnd is the end protocol with body as the session's handoff: a
// refused record or a blocked gate ends it (not clean).
func (w *world) advHandoffEnd(body string) (clean bool, said string) {
	w.t.Helper()
	w.advOK("enter the end protocol", "session", "advance")
	w.advQA(true, "1 validation(s) passed", "sh", "scripts/test.sh")
	w.advOK("advance past QA_VALIDATION", "session", "advance")
	h := ".agents/handoffs/2026-08-20-01.md"
	w.write(h, body)
	if r := w.sg("session", "evidence", "--requirement", "HANDOFF.complete-handoff-from-handoff", "--type", filePath, "--value", h); r.code != 0 {
		if !w.deviated {
			w.t.Fatalf("an honest handoff refused as evidence: %s", r.text())
		}
		return false, "handoff refused: " + r.text()
	}
	if r := w.sg("session", "advance"); r.code != 0 {
		if !w.deviated {
			w.t.Fatalf("HANDOFF blocked an honest run: %s", r.text())
		}
		return false, "HANDOFF blocked: " + r.text()
	}
	w.advOK("re-verify the branch", "run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(handoff): hand off the name argument"); r.code != 0 {
		w.t.Fatalf("handoff commit refused: %s", r.text())
	}
	if r := w.sg("session", "advance"); r.code != 0 {
		return false, "GIT_OPERATIONS blocked: " + r.text()
	}
	end := w.sg("session", "end", "--summary", "greet takes a name")
	v := w.sg("verify", w.base+"..HEAD")
	said = "session end: " + end.text() + "\nverify: " + v.text()
	return end.code == 0 && strings.Contains(end.text(), "COMPLETE: clean") && v.code == 0, said
}
