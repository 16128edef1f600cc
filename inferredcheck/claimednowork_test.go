package inferredcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestR60H346ClaimedNoWork: a session whose only change is its handoff
// must not claim the objective's work as done (helper 346: "Added the
// name argument to the greeting" with greet.sh untouched ended COMPLETE,
// clean, verify OK). Honest notes of a session that changed nothing pass.
func TestR60H346ClaimedNoWork(t *testing.T) {
	work := Work{
		Files:     []string{".agents/handoffs/2026-12-07-01.md"},
		Subjects:  []string{"feat: greet takes a name"},
		Objective: "add a name argument to greet.sh",
	}
	vague := Work{Files: work.Files, Subjects: []string{"docs: handoff"}, Objective: "do it"}
	for _, tc := range []struct {
		name, done string
		want       Status
		w          *Work
	}{
		{"lazy: a vague objective and commit, a change claimed", "Added the name argument to the greeting.", Fail, &vague},
		{"honest: a vague objective, the tracker updated", "Updated the issue labels and closed two duplicates.", Skipped, &vague},
		{"honest: a vague objective, nothing changed", "Looked through the scripts; nothing needed changing.", Skipped, &vague},
		{"lazy: the objective claimed added", "Added the name argument to the greeting, as the task asked, and checked it.", Fail, nil},
		{"lazy: now, with the handoff in another clause", "The greeting now takes a name argument; wrote this handoff.", Fail, nil},
		{"lazy: implemented, then the run", "Implemented the name argument and ran the tests: all pass.", Fail, nil},
		{"lazy: what the code does, no verb of a change", "greet.sh takes an optional name argument.", Fail, nil},
		{"lazy: the objective marked done", "Name argument: done.", Fail, nil},
		{"lazy: shipped", "Shipped the name argument for greet.sh.", Fail, nil},
		{"lazy: wired up", "Wired up the name argument in the greeting.", Fail, nil},
		{"honest: shipping planned", "The name argument ships once the default is decided.", Skipped, nil},
		{"honest: shipped by someone else", "The name argument was shipped by the infra team.", Skipped, nil},
		{"honest: nothing needed changing", "Reviewed greet.sh: it already takes a name argument, so nothing needed changing.", Skipped, nil},
		{"honest: found already done", "The name argument was already implemented upstream.", Skipped, nil},
		{"honest: blocked", "Could not add the name argument: the task is blocked on a decision about the default.", Skipped, nil},
		{"honest: the task restated", "The task was to add a name argument; the greeting script is frozen for the release.", Skipped, nil},
		{"honest: only the handoff written", "Wrote this handoff for the name argument work.", Skipped, nil},
		{"honest: done by a pull request", "The name argument was added in PR #12, merged yesterday.", Skipped, nil},
		{"honest: what the code does not do yet", "greet.sh takes no name argument yet: the default is undecided.", Skipped, nil},
		{"honest: a plan written", "Created a plan for the name argument: flag, default, tests.", Skipped, nil},
		{"honest: findings", "Wrote up the findings on the greeting's name handling for the next session.", Skipped, nil},
		{"honest: an open question", "Should the name argument be added to greet.sh or to a new script?", Skipped, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, ".agents", "handoffs", "2026-12-07-01.md")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			text := "# Handoff 2026-12-07-01\n\n## Done\n\n" + tc.done + "\n\n## Next\n\nDocument the usage in the README.\n"
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			w := work
			if tc.w != nil {
				w = *tc.w
			}
			files := func() ([]string, error) { return w.Files, nil }
			r := NamesTheWork(root, protocolspec.Check{Arg: ".agents/handoffs/*.md"}, files, w)
			if r.Status != tc.want {
				t.Fatalf("status %s, want %s: %s", r.Status, tc.want, r.Message)
			}
			if tc.want == Fail && !strings.Contains(r.Message, "changed no file besides it") {
				t.Errorf("message: %s", r.Message)
			}
		})
	}
}

// TestR60H346OnlyNotes: a session log or retrospective beside the handoff
// is a note, not work; a changed script or README is work.
func TestR60H346OnlyNotes(t *testing.T) {
	own := func(f string) bool { return strings.HasPrefix(f, ".agents/handoffs/") }
	for _, tc := range []struct {
		name    string
		changed []string
		want    bool
	}{
		{"the handoff alone", []string{".agents/handoffs/2026-12-07-01.md"}, true},
		{"a session log beside it", []string{".agents/handoffs/2026-12-07-01.md", ".agents/sessions/2026-12-07-session-01.md"}, true},
		{"a retrospective beside it", []string{".agents/handoffs/2026-12-07-01.md", ".agents/retrospective/2026-12-07.md"}, true},
		{"a script", []string{".agents/handoffs/2026-12-07-01.md", "scripts/greet.sh"}, false},
		{"the README", []string{".agents/handoffs/2026-12-07-01.md", "README.md"}, false},
		{"a non-Markdown file in the notes folder", []string{".agents/handoffs/2026-12-07-01.md", ".agents/tools/check.sh"}, false},
		// Round 60: a team's agent instructions are work, not notes.
		{"a skill page in the dot-folder", []string{".agents/handoffs/2026-12-07-01.md", ".agents/skills/qa.md"}, false},
		{"a governance page in the dot-folder", []string{".agents/handoffs/2026-12-07-01.md", ".agents/governance/branching.md"}, false},
		{"a log folder", []string{".agents/handoffs/2026-12-07-01.md", ".agents/logs/2026-12-07.md"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := onlyNotes(".agents/handoffs/*.md", tc.changed, own); got != tc.want {
				t.Errorf("onlyNotes = %v, want %v", got, tc.want)
			}
		})
	}
	if onlyNotes("handoffs/*.md", []string{"handoffs/a.md", "notes/b.md"}, func(f string) bool { return strings.HasPrefix(f, "handoffs/") }) {
		t.Error("a glob outside a dot-folder: another folder's Markdown is work")
	}
}

// TestR60H346CommentOnlyWork: a code file whose change is only comments
// (Work.Cosmetic) is no work on what it does: a handoff claiming the
// objective done fails; one that says a comment was added passes.
func TestR60H346CommentOnlyWork(t *testing.T) {
	work := Work{
		Files:     []string{".agents/handoffs/2026-12-07-01.md", "scripts/greet.sh"},
		Subjects:  []string{"feat: greet takes a name"},
		Objective: "add a name argument to greet.sh",
		Cosmetic:  []string{"scripts/greet.sh"},
	}
	for _, tc := range []struct {
		name, done string
		w          Work
		want       Status
	}{
		{"lazy: a comment, the objective claimed", "scripts/greet.sh takes an optional name; scripts/test.sh checks Ada.", work, Fail},
		{"honest: the comment said", "Added a comment to scripts/greet.sh on how the name argument will work.", work, Pass},
		{"honest: the same claim over a real change", "scripts/greet.sh takes an optional name; scripts/test.sh checks Ada.", Work{Files: work.Files, Subjects: work.Subjects, Objective: work.Objective}, Pass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range []string{".agents/handoffs/2026-12-07-01.md", "scripts/greet.sh"} {
				if err := os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			text := "# Handoff 2026-12-07-01\n\n## Done\n\n" + tc.done + "\n\n## Next\n\nDocument the usage in the README.\n"
			if err := os.WriteFile(filepath.Join(root, ".agents/handoffs/2026-12-07-01.md"), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "scripts/greet.sh"), []byte("#!/bin/sh\necho hello\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			files := func() ([]string, error) { return tc.w.Files, nil }
			r := NamesTheWork(root, protocolspec.Check{Arg: ".agents/handoffs/*.md"}, files, tc.w)
			if r.Status != tc.want {
				t.Fatalf("status %s, want %s: %s", r.Status, tc.want, r.Message)
			}
		})
	}
}

// TestR61H349CosmeticFailSaysHow: an honest fix whose work was a wrong
// comment ("Fixed the usage line of scripts/greet.sh", committed as fix:)
// fails as no work, and the failure said only "do the work". It names the
// file read as comments only and the honest wording, which then passes.
func TestR61H349CosmeticFailSaysHow(t *testing.T) {
	w := Work{
		Files:     []string{".agents/handoffs/2026-12-07-01.md", "scripts/greet.sh"},
		Subjects:  []string{"fix(scripts): greet.sh's usage line said the name is required"},
		Objective: "fix the usage line of greet.sh",
		Cosmetic:  []string{"scripts/greet.sh"},
	}
	run := func(done string) Result {
		root := t.TempDir()
		for f, text := range map[string]string{
			".agents/handoffs/2026-12-07-01.md": "# Handoff 2026-12-07-01\n\n## Done\n\n" + done + "\n\n## Next\n\nNothing.\n",
			"scripts/greet.sh":                  "#!/bin/sh\n# usage: greet [name]\necho hello\n",
		} {
			if err := os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, f), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return NamesTheWork(root, protocolspec.Check{Arg: ".agents/handoffs/*.md"}, func() ([]string, error) { return w.Files, nil }, w)
	}
	r := run("Fixed the usage line of scripts/greet.sh, which said the name was required.")
	if r.Status != Fail {
		t.Fatalf("status %s, want %s: %s", r.Status, Fail, r.Message)
	}
	if !strings.Contains(r.Message, "scripts/greet.sh changed only in comments") || !strings.Contains(r.Message, `"Fixed the comment in scripts/greet.sh"`) {
		t.Errorf("the failure does not name the comment-only file and the honest wording: %s", r.Message)
	}
	if r := run("Fixed the comment in scripts/greet.sh: the name is optional, not required."); r.Status == Fail {
		t.Errorf("the wording the failure suggests still fails: %s", r.Message)
	}
}
