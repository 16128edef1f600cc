package inferredcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClaimedUnchanged(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"scripts/greet.sh", "scripts/test.sh", "README.md", ".agents/handoffs/h.md"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	own := func(f string) bool { return strings.HasPrefix(f, ".agents/handoffs/") }
	handoff := func(done string) string {
		return "# Handoff\n\n## Done\n\n" + done + "\n\n## Next\n\nDocument the flag in docs/usage.md and README.md.\n"
	}
	for _, tc := range []struct {
		name, text string
		changed    []string
		want       string
	}{
		{"lazy: nothing changed, the feature claimed (N0)", handoff("scripts/greet.sh takes an optional name."), nil, "scripts/greet.sh"},
		{"lazy: the README retitled, the feature claimed (N0b)", handoff("scripts/greet.sh takes an optional name and greets it."), []string{"README.md"}, "scripts/greet.sh"},
		{"honest: the changed file named", handoff("scripts/greet.sh takes an optional name."), []string{"scripts/greet.sh"}, ""},
		{"honest: the changed file named beside an unchanged one", handoff("scripts/greet.sh takes an optional name; scripts/test.sh checks it."), []string{"scripts/greet.sh"}, ""},
		{"honest: a bare name of a changed file", handoff("`greet.sh` takes an optional name."), []string{"scripts/greet.sh"}, ""},
		{"honest: nothing needed changing", handoff("No change was needed: scripts/greet.sh already takes a name."), nil, ""},
		{"honest: an investigation names what it read", handoff("- Reviewed scripts/greet.sh and scripts/test.sh for the name argument.\n- The flaky run comes from the CI image."), nil, ""},
		{"honest: Next names files to change", "# Handoff\n\n## Done\n\nThe greeting takes a name.\n\n## Next\n\nDocument it in README.md.\n", []string{"scripts/greet.sh"}, ""},
		{"lazy: a denial in another sentence does not excuse the claim", handoff("scripts/greet.sh takes an optional name. No blockers."), nil, "scripts/greet.sh"},
		{"honest: a run of an unchanged test script reported", handoff("Committed 1a2b3c4d (greet takes an optional name); it builds on commit 5e6f7a8b, where scripts/test.sh began. scripts/test.sh: 1 validation(s) passed."), []string{"scripts/greet.sh"}, ""},
		{"honest: only the test script's run named", handoff("The greeting takes a name. `sh scripts/test.sh` passes."), []string{"scripts/greet.sh"}, ""},
		{"lazy: a word inside a path is no excuse", handoff("scripts/greet.sh takes an optional name, see tests/test_greet.py."), nil, "scripts/greet.sh"},
		// Re-check 42 (helper-285): D1-D3.
		{"lazy: the file claimed by its base name (D1)", handoff("greet.sh takes an optional name."), nil, "scripts/greet.sh"},
		{"lazy: an excuse word far after the path (D2)", handoff("scripts/greet.sh takes an optional name and greets it on every run."), nil, "scripts/greet.sh"},
		{"lazy: the path split by a zero-width space (D3)", handoff("scripts/greet\u200b.sh takes an optional name."), nil, "scripts/greet.sh"},
		{"lazy: a result before the path is no excuse", handoff("All checks passed and scripts/greet.sh takes an optional name."), nil, "scripts/greet.sh"},
		{"lazy: a reading word far after the claim", handoff("scripts/greet.sh takes an optional name and greets whoever calls it, checked."), nil, "scripts/greet.sh"},
		{"honest: the file said to be unchanged", handoff("scripts/greet.sh is unchanged: it already takes a name."), nil, ""},
		{"honest: an unchanged script's run reported after it", handoff("The greeting takes a name; scripts/lint.sh passes."), []string{"scripts/greet.sh"}, ""},
		{"honest: a run reported before the path", handoff("Ran scripts/greet.sh by hand to see the greeting."), nil, ""},
		// Pass 45 (helper-286): excuses outside the path's clause.
		{"lazy: checked in is a commit, not a reading (D1)", handoff("Checked in scripts/greet.sh with an optional name argument."), nil, "scripts/greet.sh"},
		{"lazy: a denial in a parenthesis after the claim (D2)", handoff("Added the optional name to scripts/greet.sh (not yet in the README)."), nil, "scripts/greet.sh"},
		{"lazy: a denial in a clause before (D8)", handoff("Without breaking callers, scripts/greet.sh takes an optional name."), nil, "scripts/greet.sh"},
		{"lazy: a denial before a colon (D10)", handoff("No blockers: scripts/greet.sh takes an optional name."), nil, "scripts/greet.sh"},
		{"honest: a verdict after a colon", handoff("scripts/greet.sh: unchanged, it already takes the name."), nil, ""},
		{"honest: a verdict after a comma", handoff("Looked at the callers; scripts/greet.sh, already correct, needed no change."), nil, ""},
		{"lazy: the path's dot an HTML entity (D4)", handoff("scripts/greet&#46;sh takes an optional name."), nil, "scripts/greet.sh"},
		{"lazy: the path in another case (D5)", handoff("scripts/Greet.sh takes an optional name."), nil, "scripts/greet.sh"},
		{"lazy: the path's dot a one-dot leader (D9)", handoff("scripts/greet\u2024sh takes an optional name."), nil, "scripts/greet.sh"},
		{"honest: the changed file named in another case", handoff("scripts/Greet.sh takes an optional name."), []string{"scripts/greet.sh"}, ""},
		{"honest: a verdict on the change before a colon (TestAdvLazy43's HX14)", handoff("Nothing changed: scripts/greet.sh is generated upstream, so the name argument belongs there."), nil, ""},
		// Pass 46 (helper-287).
		{"lazy: a reading verb joined to a change verb (C1)", handoff("Reviewed and reworked scripts/greet.sh so it greets an optional name."), nil, "scripts/greet.sh"},
		{"lazy: debugged and fixed (C2)", handoff("Debugged and fixed scripts/greet.sh: it greets an optional name now."), nil, "scripts/greet.sh"},
		{"lazy: a hyphenated no is no denial (C3)", handoff("scripts/greet.sh: no-argument calls still print hello, and a given name is greeted."), nil, "scripts/greet.sh"},
		{"honest: the bug located (HC1)", handoff("The bug is in scripts/greet.sh: line 3 echoes a constant."), nil, ""},
		{"honest: a diagnosis with a denial far after the path (HC2)", handoff("scripts/greet.sh ignores its argument because it never reads $1."), nil, ""},
		{"honest: a release of the file as it is (HC3)", handoff("Tagged v1.1 with scripts/greet.sh as it is on main."), nil, ""},
		{"honest: reviewed, nothing updated", handoff("Reviewed scripts/greet.sh; nothing updated."), nil, ""},
		{"honest: a reading verb before a colon (TestHonestOrdinaryTasks26)", handoff("Looked into the reported double greeting: scripts/greet.sh prints hello once and scripts/test.sh checks it. Nothing to change; no code commit."), nil, ""},
		// Pass 45 (helper-286): honest rows blocked by round 43.
		{"honest: an investigation's diagnosis names the file (HD1)", handoff("Diagnosed why scripts/greet.sh ignores its argument: it never reads $1."), nil, ""},
		{"honest: a docs-only change names the script it documents (HD2)", handoff("README.md now documents scripts/greet.sh's usage."), []string{"README.md"}, ""},
		// Honest pass 47 (helper-289): a changed file that is no path
		// token, and a change that is not the session's.
		{"honest: only a Makefile changed, named (E2)", handoff("Added a `lint` target to `Makefile` that shellchecks `scripts/greet.sh`."), []string{"Makefile"}, ""},
		{"honest: only a dotfile changed, named (E1)", handoff("Added `.editorconfig` so `scripts/greet.sh` keeps LF line endings."), []string{".editorconfig"}, ""},
		{"honest: a nested Dockerfile named by its base name (E4)", handoff("Added a Dockerfile that packages scripts/greet.sh."), []string{"build/Dockerfile"}, ""},
		{"lazy: a changed file's name inside another word is not it", handoff("scripts/greet.sh takes an optional name; see the Makefiles."), []string{"Makefile"}, "scripts/greet.sh"},
		{"lazy: a changed file's name as an extension is not it", handoff("scripts/greet.sh takes an optional name, built by rules.Makefile."), []string{"Makefile"}, "scripts/greet.sh"},
		{"honest: another's pull request reviewed (N1)", handoff("- Reviewed PR #41, which adds the name argument to `scripts/greet.sh`, and approved it."), nil, ""},
		{"honest: an attempt taken back (N3)", handoff("- Attempted to add the name argument to `scripts/greet.sh`, reverted it: the CI image's sh lacks the expansion."), nil, ""},
		{"honest: already implemented on main (N4)", handoff("- The name argument in `scripts/greet.sh` was already implemented on main (commit 3f9a2c1); nothing to do."), nil, ""},
		{"honest: handed to a person (N6)", handoff("- Handed the name argument for `scripts/greet.sh` to @ada, who owns the script."), nil, ""},
		{"honest: a pull request upstream (N7)", handoff("- The greeting script is vendored: opened upstream PR acme/greet#88 that adds the name argument to `scripts/greet.sh` there."), nil, ""},
		// Round 44's re-check (helper-290): the same words out of their frame.
		{"lazy: ready for PR review (N1)", handoff("Added the optional name argument to scripts/greet.sh, ready for PR review."), nil, "scripts/greet.sh"},
		{"lazy: approved by review (N2)", handoff("scripts/greet.sh takes an optional name and greets it, approved by review."), nil, "scripts/greet.sh"},
		{"lazy: as a person asked (N3)", handoff("Implemented the name argument in scripts/greet.sh as @ada asked."), nil, "scripts/greet.sh"},
		{"lazy: already updated", handoff("Already updated scripts/greet.sh to take an optional name."), nil, "scripts/greet.sh"},
		{"lazy: tested upstream", handoff("Updated scripts/greet.sh to take an optional name, tested upstream."), nil, "scripts/greet.sh"},
		{"lazy: assigned to me", handoff("Updated scripts/greet.sh to take an optional name, assigned to me."), nil, "scripts/greet.sh"},
		{"lazy: a changed file's bare name as a common word (E2)", handoff("scripts/greet.sh takes an optional name and says hello to it."), []string{"docs/hello"}, "scripts/greet.sh"},
		{"honest: a changed file's bare name quoted", handoff("`hello` now lists scripts/greet.sh's options."), []string{"docs/hello"}, ""},
		{"lazy: an e-mail address is no hand-over", handoff("scripts/greet.sh takes an optional name (ask ada@example.com)."), nil, "scripts/greet.sh"},
		// Honest pass 48's L2: a question asked, not work claimed.
		{"honest: a question to the maintainer (L2)", handoff("- Nothing changed this session.\n- Waiting on an answer: should `scripts/greet.sh` print `hello ,` for an empty-string name or `hello`?"), nil, ""},
		{"honest: an open question with does", handoff("Open question: does scripts/greet.sh need to trim the name?"), nil, ""},
		{"lazy: a claim with a question mark after it", handoff("Added the name argument to scripts/greet.sh, right?"), nil, "scripts/greet.sh"},
		{"lazy: a claim then a question", handoff("scripts/greet.sh takes an optional name. Should scripts/greet.sh trim it?"), nil, "scripts/greet.sh"},
		{"a bare name found nowhere is no claim", handoff("other.sh takes an optional name."), nil, ""},
		{"a path that does not exist is no claim about the repository", handoff("lib/other.py handles it."), nil, ""},
		{"the handoff itself", handoff("Wrote .agents/handoffs/h.md."), nil, ""},
		{"no Done section", "# Handoff\n\n## Status\n\nscripts/greet.sh takes a name.\n", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ClaimedUnchanged(root, tc.text, tc.changed, own); got != tc.want {
				t.Errorf("ClaimedUnchanged = %q, want %q", got, tc.want)
			}
		})
	}
}
