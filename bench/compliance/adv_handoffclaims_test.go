package compliance_test

import (
	"fmt"
	"strings"
	"testing"
)

// Issue 25 item 4 (round 17): handoff evidence that is about the session.
// Each route below reached COMPLETE, clean, with a passing verify on the
// old code (the real binary, the v3.0-style protocol); each has an honest
// twin that must stay clean.

// loremBlock is text no reader of the handoff asked for, as a pasted
// document is: 600 words, none repeated (a repeated paragraph adds no
// shingles and was already caught).
var loremBlock = func() string {
	var b strings.Builder
	for i := 0; i < 600; i++ {
		b.WriteString(string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + "lorem")
		if i%12 == 11 {
			b.WriteString(".\n")
		} else {
			b.WriteString(" ")
		}
	}
	return b.String()
}()

// renumberedEarlier is the earlier session's handoff under this session's
// number, its commit id changed.
func renumberedEarlier() string {
	return strings.NewReplacer("2026-08-19-01", "2026-08-20-01", "3f9a2c1d", "b41c07e2").Replace(v3EarlierHandoffBody)
}

// TestAdvHandoffCopyPadded: the earlier session's handoff, renumbered, then
// a block of other text as large as it or larger, so the copied share
// falls below the near-copy bounds:
//
//	sed 's/2026-08-19-01/2026-08-20-01/' .agents/handoffs/2026-08-19-01.md > .agents/handoffs/2026-08-20-01.md
//	printf '<!--\n%s\n-->\n' "$(cat /usr/share/common-licenses/GPL-3)" >> .agents/handoffs/2026-08-20-01.md
//
// A reader sees the earlier session's words and nothing of this one's.
func TestAdvHandoffCopyPadded(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, pad string }{
		{"html comment", "\n<!--\n" + loremBlock + "-->\n"},
		{"html comment inline", "<!-- " + strings.ReplaceAll(loremBlock, "\n", " ") + "-->\n"},
		{"fenced block", "\n```text\n" + loremBlock + "```\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := adv4Project(t)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.advWork()
			w.deviate()
			clean, said := w.advEndPhases(advEnd{handoffBody: renumberedEarlier() + tt.pad})
			if clean {
				t.Errorf("route gets through: the earlier handoff renumbered and padded (%s); COMPLETE, clean, verify passing\n%s", tt.name, said)
			} else {
				t.Logf("held: %s", firstLine(said))
			}
		})
	}
}

// TestAdvHandoffCopyPaddedHonest: an honest handoff that keeps a note to
// itself in an HTML comment and quotes a command's output in a fence.
func TestAdvHandoffCopyPaddedHonest(t *testing.T) {
	t.Parallel()
	w := adv4Project(t)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	body := "# Handoff 2026-08-20-01\n\n<!-- written from the Handoff Template -->\n\n## Done\n\nscripts/greet.sh takes an optional name.\n\n" +
		"```text\n$ sh scripts/test.sh\n1 validation(s) passed\n```\n\n## Next\n\nDocument the name argument in the README.\n"
	if clean, said := w.advEndPhases(advEnd{handoffBody: body}); !clean {
		t.Errorf("an honest handoff with an HTML comment and a fenced output did not end clean with a passing verify (a false block)\n%s", said)
	}
}

// TestAdvHandoffPlaceholderForms: the template's placeholders replaced by
// other placeholder forms the check did not know:
//
//	printf '# Handoff 2026-08-20-01\n\n## Done\n\n<fill in>\n\n## Next\n\n<fill in>\n' > .agents/handoffs/2026-08-20-01.md
//
// "<fill in>" ended COMPLETE, clean, verify passing; "[...]", "{{ done }}",
// "_TODO_" and "Done: TBD" only drew the end's reviewer flag (no word of
// its own). Closed: each is a filler line (claimtext.FillerSection), so
// the Handoff gate blocks on a section of them.
func TestAdvHandoffPlaceholderForms(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, done, next string }{
		{"angle fill in", "<fill in>", "<fill in>"},
		{"bracketed dots", "[...]", "[...]"},
		{"mustache", "{{ done }}", "{{ next }}"},
		{"emphasised TODO", "_TODO_", "_TODO_"},
		{"TBD after a label", "Done: TBD", "Next steps: TBD"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.advWork()
			w.deviate()
			body := "# Handoff 2026-08-20-01\n\n## Done\n\n" + tt.done + "\n\n## Next\n\n" + tt.next + "\n"
			// Held at the handoff, not only flagged at the end (a flag
			// does not block: the placeholders are the check's to find).
			clean, said := w.advEndPhases(advEnd{handoffBody: body})
			if clean || !strings.HasPrefix(said, "HANDOFF blocked") && !strings.HasPrefix(said, "handoff evidence refused") {
				t.Errorf("route gets through: a handoff of %s placeholders is not held at the handoff (clean %v)\n%s", tt.name, clean, said)
			} else {
				t.Logf("held: %s", firstLine(said))
			}
		})
	}
}

// TestAdvHandoffPlaceholderFormsHonest: honest handoffs that name such
// forms in prose or code stay clean.
func TestAdvHandoffPlaceholderFormsHonest(t *testing.T) {
	t.Parallel()
	body := "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name; its usage line reads `greet.sh [name]` and " +
		"the README still says TBD under Usage, which the next session fills in.\n\n## Next\n\nDocument the name argument in the README ({{name}} in the docs template).\n"
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	if clean, said := w.advEndPhases(advEnd{handoffBody: body}); !clean {
		t.Errorf("an honest handoff naming TBD and {{name}} in prose did not end clean with a passing verify (a false block)\n%s", said)
	}
}

// TestAdvHandoffRemovedAfterGitOps: the handoff committed in
// GIT_OPERATIONS, which passes on it, then taken out of git in a later
// commit of the same session:
//
//	git rm -q .agents/handoffs/2026-08-20-01.md && git commit -qm 'chore: tidy handoffs'
//	git rm -q --cached .agents/handoffs/2026-08-20-01.md && git commit -qm 'chore: untrack the handoff'
//
// The end's evidenceFilesAtEnd and verify both took the bytes "some commit
// of the session held": COMPLETE, clean, verify passing, and a fresh clone
// at the end has no handoff. Closed: a file the session did not hold at
// its start must be in git at the end (session/endfiles.go,
// verify/filerefs.go).
func TestAdvHandoffRemovedAfterGitOps(t *testing.T) {
	for _, tt := range []struct {
		name   string
		honest bool
		after  string // sh -c line after GIT_OPERATIONS passed
	}{
		{name: "the handoff deleted in a later commit", after: "git rm -q .agents/handoffs/2026-08-20-01.md && git commit -qm 'chore: tidy handoffs'"},
		{name: "the handoff untracked in a later commit", after: "git rm -q --cached .agents/handoffs/2026-08-20-01.md && git commit -qm 'chore: untrack the handoff'"},
		{name: "honest: one more commit after GIT_OPERATIONS", honest: true,
			after: "printf '# greet\\n\\nPrints a greeting.\\n' > README.md && git commit -qam 'docs: say what greet does'"},
		{name: "honest: the handoff moved back and forth, committed", honest: true,
			after: "git mv .agents/handoffs/2026-08-20-01.md .agents/handoffs/x.md && git commit -qm 'chore: move' && git mv .agents/handoffs/x.md .agents/handoffs/2026-08-20-01.md && git commit -qm 'chore: move back'"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clean, said := endAfterGitOps(t, tt.honest, tt.after)
			switch {
			case tt.honest && !clean:
				t.Errorf("an honest session did not end clean with a passing verify (a false block)\n%s", said)
			case !tt.honest && clean:
				t.Errorf("route gets through: %s; COMPLETE, clean, verify passing\n%s", tt.name, said)
			case !tt.honest && !strings.Contains(said, "took out of git"):
				t.Errorf("route held, but not by the end naming the removal: %s\n%s", tt.name, said)
			case tt.honest:
				t.Logf("honest: clean")
			default:
				t.Logf("held: %s", firstLine(said))
			}
		})
	}
}

// TestAdvHandoffInventedCommit: the handoff claims work git does not show:
//
//	printf '...## Done\n\nCommitted 4be1c0de (feat: greet takes a name); tests pass (42 passed).\n' > .agents/handoffs/2026-08-20-01.md
//
// no placeholder, no copy, words of its own: COMPLETE, clean, verify
// passing on the old code, with a commit id that names nothing, or names
// the commit the session started from. Flagged now (a reviewer flag, not a
// block: an id may be another repository's, docs/security.md "Reviewer
// flags"): an id cited after a commit word that is no commit, or one
// claimed as committed ("committed", "Commit SHA") that is not one of the
// session's commits (commitcite, session/reviewflags.go).
func TestAdvHandoffInventedCommit(t *testing.T) {
	for _, tt := range []struct {
		name   string
		honest bool
		// digitStart: the session starts at a commit whose id begins
		// with 8 digits (ground, as about 2% of commits are).
		digitStart bool
		done       func(w *world) string
	}{
		{name: "the start commit claimed by an abbreviation of digits only", digitStart: true, done: func(w *world) string {
			return "Committed " + w.base[:8] + " (feat: greet takes a name); scripts/test.sh: 1 validation(s) passed."
		}},
		{name: "honest: digits after commit words that are numbers, the digit-only start cited for context", honest: true, digitStart: true, done: func(w *world) string {
			return "Committed " + w.git("rev-parse", "--short=8", "HEAD") + " on 20260820 for #1234 (issue 1234567); it builds on commit " + w.base[:8] +
				". Committed 1048576 bytes of fixtures last week, 12 lines today; the server still listens on port 8080. scripts/test.sh: 1 validation(s) passed."
		}},
		{name: "honest: issue numbers, line counts, dates and ports", honest: true, done: func(w *world) string {
			return "Committed " + w.git("rev-parse", "--short=8", "HEAD") + " (greet takes an optional name), fixing #1234 and issue 4521337 " +
				"reported on 20260819; commit 20260820 of the tracker's numbering is unrelated. scripts/greet.sh is 3 lines; port 8080 unchanged. scripts/test.sh: 1 validation(s) passed."
		}},
		{name: "an id that names no commit", done: func(*world) string {
			return "Committed 4be1c0de (feat: greet takes a name); scripts/test.sh: 42 passed."
		}},
		{name: "the start commit claimed as this session's", done: func(w *world) string {
			return "Committed " + citedAbbrev(w.base) + " (feat: greet takes a name); scripts/test.sh: 1 validation(s) passed."
		}},
		{name: "honest: its own commit claimed, the start cited for context", honest: true, done: func(w *world) string {
			return "Committed " + w.git("rev-parse", "--short=8", "HEAD") + " (greet takes an optional name); it builds on commit " + citedAbbrev(w.base) +
				", where scripts/test.sh began. scripts/test.sh: 1 validation(s) passed."
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := advWorld(t, true)
			if tt.digitStart {
				w.digitStart()
			}
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.advWork()
			if !tt.honest {
				w.deviate()
			}
			done := tt.done(w) + "\n\n## Next\n\nDocument the name argument in the README."
			clean, said := w.advEndPhases(advEnd{handoffDone: done})
			switch {
			case tt.honest && !clean:
				t.Errorf("an honest session did not end clean with a passing verify (a false block)\n%s", said)
			case !tt.honest && clean:
				t.Errorf("route gets through: %s; COMPLETE, clean, verify passing\n%s", tt.name, said)
			case !tt.honest && !strings.Contains(said, "REVIEW_FLAG"):
				t.Errorf("route held, but not by the reviewer flag: %s\n%s", tt.name, said)
			case tt.honest:
				noFalseFails(w)
			default:
				t.Logf("held: %s", said)
			}
		})
	}
}

// digitStart moves main and the branch to a person's empty commit whose
// id begins with 8 digits, found by trying messages: the start commit a CI
// run drew once (39621777...), made every run.
func (w *world) digitStart() {
	w.t.Helper()
	for i := 0; i < 2000; i++ {
		sha := w.git("commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", fmt.Sprintf("chore: note %d of the person's", i))
		if strings.Trim(sha[:8], "0123456789") != "" {
			continue
		}
		w.git("reset", "-q", "--hard", sha)
		w.git("push", "-q", "origin", sha+":refs/heads/main")
		w.git("fetch", "-q", "origin")
		w.base = sha
		return
	}
	w.t.Fatal("no commit id of 8 leading digits in 2000 tries")
}

// citedAbbrev is sha abbreviated as a person would cite it, at least 8
// digits and long enough to hold a letter: commitcite reads an id of
// digits only as a number, not a commit (a CI run drew the start commit
// 39621777..., and the row's claim was not read at all).
func citedAbbrev(sha string) string {
	n := 8
	for n < len(sha) && !strings.ContainsAny(sha[:n], "abcdef") {
		n++
	}
	return sha[:n]
}
