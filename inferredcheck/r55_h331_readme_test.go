package inferredcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestR55H331CapitalStemIsAWord (helpers 331, 332): the round-55 rule that
// a changed file's all-capitals stem names it ("README" for README.md)
// named PLAN.md by "plan", NOTES.md by "notes", TODO.md by "todo", and,
// for the conventional documents kept in any case in its second cut,
// CHANGES.md by "changes", SECURITY.md by "security", LICENSE by
// "license": a lazy session that changed only such a file claims code
// work it never did, and the Done section's ordinary word made the claim
// pass.
func TestR55H331CapitalStemIsAWord(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"pkg/a/a.go", "PLAN.md", "NOTES.md", "TODO.md", "USAGE.md", "docs/usage.md",
		"CHANGES.md", "NEWS.md", "HISTORY.md", "SECURITY.md", "LICENSE", "AUTHORS", ".agents/handoffs/h.md"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	own := func(f string) bool { return strings.HasPrefix(f, ".agents/handoffs/") }
	handoff := func(done string) string { return "# Handoff\n\n## Done\n\n" + done + "\n\n## Next\n\nNothing.\n" }
	for _, tc := range []struct {
		name, text string
		changed    []string
	}{
		{"PLAN.md as 'the plan'", handoff("Added retries to pkg/a/a.go as the plan said."), []string{"PLAN.md"}},
		{"NOTES.md as 'notes'", handoff("Added retries to pkg/a/a.go; notes in the issue."), []string{"NOTES.md"}},
		{"TODO.md as 'todo'", handoff("Added retries to pkg/a/a.go, the last todo item."), []string{"TODO.md"}},
		{"USAGE.md as 'usage'", handoff("Added retries to pkg/a/a.go; usage stays the same."), []string{"USAGE.md"}},
		{"unaffected after the claim", handoff("Added retries to pkg/a/a.go; callers are unaffected."), []string{"docs/usage.md"}},
		{"CHANGES.md as 'changes'", handoff("Added retries to pkg/a/a.go; the changes are small."), []string{"CHANGES.md"}},
		{"NEWS.md as 'news'", handoff("Added retries to pkg/a/a.go; good news for callers."), []string{"NEWS.md"}},
		{"HISTORY.md as 'history'", handoff("Added retries to pkg/a/a.go; the git history is linear."), []string{"HISTORY.md"}},
		{"SECURITY.md as 'security'", handoff("Fixed the security bug in pkg/a/a.go."), []string{"SECURITY.md"}},
		{"LICENSE as 'license'", handoff("Added the license check to pkg/a/a.go."), []string{"LICENSE"}},
		{"AUTHORS as 'authors'", handoff("Added retries to pkg/a/a.go as the authors asked."), []string{"AUTHORS"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ClaimedUnchanged(root, tc.text, tc.changed, own); got != "pkg/a/a.go" {
				t.Errorf("ClaimedUnchanged = %q: the session changed only %v yet claims pkg/a/a.go", got, tc.changed)
			}
		})
	}
}

// TestR55H331UnmodifiedInAClaim (helper 331): "unmodified"/"unaffected"
// about something else in the sentence that claims the work.
func TestR55H331UnmodifiedInAClaim(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"pkg/a/a.go", "docs/usage.md", ".agents/handoffs/h.md"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	own := func(f string) bool { return strings.HasPrefix(f, ".agents/handoffs/") }
	for _, done := range []string{
		"pkg/a/a.go: retry loop added (the public API is unmodified).",
		"Added retries to pkg/a/a.go, with callers unaffected.",
		"pkg/a/a.go gained retries; behaviour otherwise unmodified.",
	} {
		text := "# Handoff\n\n## Done\n\n" + done + "\n\n## Next\n\nNothing.\n"
		if got := ClaimedUnchanged(root, text, []string{"docs/usage.md"}, own); got != "pkg/a/a.go" {
			t.Errorf("ClaimedUnchanged(%q) = %q: the session changed only docs/usage.md", done, got)
		}
	}
}
