package inferredcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestR55H332ConventionalStemIsAWord (helper 332): conventionalDocs holds
// stems that are ordinary words (changes, news, history, security,
// license, authors); named in any case, a lazy session that changed only
// CHANGES.md or SECURITY.md claims code work it never did and the claim's
// ordinary word makes it pass (helper 331's F4, for these stems).
func TestR55H332ConventionalStemIsAWord(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"pkg/a/a.go", "CHANGES.md", "NEWS.md", "HISTORY.md", "SECURITY.md", "LICENSE", "AUTHORS", ".agents/handoffs/h.md"} {
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
