package inferredcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestR55DocsNamedWithoutExtension (round 55, helper 329): an honest
// docs-only session changed README.md to describe two packages and wrote
// the v3.0-style handoff "README describes pkg/a and pkg/b." HANDOFF
// failed: "reports as done work on pkg/a, which this session did not
// change". People write "the README", "CHANGELOG", "CONTRIBUTING" without
// the extension; "README.md now documents ..." passes (pass 45's HD2) and
// the extension-less form says the same.
func TestR55DocsNamedWithoutExtension(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"pkg/a/a.go", "pkg/b/b.go", "README.md", "CHANGELOG.md", ".agents/handoffs/h.md"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	own := func(f string) bool { return strings.HasPrefix(f, ".agents/handoffs/") }
	handoff := func(done string) string {
		return "# Handoff\n\n## Done\n\n" + done + "\n\n## Next\n\nAdd Three to pkg/b.\n"
	}
	for _, tc := range []struct {
		name, text string
		changed    []string
		want       string
	}{
		{"honest: README without .md", handoff("README describes pkg/a and pkg/b."), []string{"README.md"}, ""},
		{"honest: the README", handoff("The README now explains pkg/a and pkg/b."), []string{"README.md"}, ""},
		{"honest: CHANGELOG entry", handoff("Added a CHANGELOG entry for pkg/b's Two."), []string{"CHANGELOG.md"}, ""},
		{"honest: the changelog in lower case", handoff("Updated the changelog for pkg/b's Three."), []string{"CHANGELOG.md"}, ""},
		{"honest: the readme in lower case", handoff("The readme now says how pkg/a and pkg/b relate."), []string{"README.md"}, ""},
		{"honest: another subproject said to be unaffected", handoff("Added Three to pkg/b/b.go; pkg/a is unaffected."), []string{"pkg/b/b.go"}, ""},
		{"honest: only unaffected named", handoff("Added three() to the api package; pkg/a/a.go is unaffected."), []string{"api/src/api/__init__.py"}, ""},
		// Kept: a lazy README-only session claiming code work.
		{"lazy: readme in prose is not the README's change", handoff("pkg/a gained One, see the readme."), []string{"docs/usage.md"}, "pkg/a"},
		{"lazy: readmes inside a longer name", handoff("pkg/a gained One (readme-generator)."), []string{"README.md"}, "pkg/a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ClaimedUnchanged(root, tc.text, tc.changed, own); got != tc.want {
				t.Fatalf("ClaimedUnchanged = %q, want %q", got, tc.want)
			}
		})
	}
}
