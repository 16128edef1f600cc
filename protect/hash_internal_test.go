package protect

import (
	"github.com/sessiongate/sessiongate/repopath"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// TestHashProtectedAbsentShortcut: the one-lstat answer for an absent
// protected path agrees with resolving every component, for every layout a
// lazy agent could use to hide an edit: a folder linked out of the
// repository, a dangling link, a file where a folder should be, a link to a
// folder inside, a real file.
func TestHashProtectedAbsentShortcut(t *testing.T) {
	// slow is Hash without the shortcut.
	slow := func(root, rel string) string {
		abs, ok, err := repopath.Resolve(root, rel)
		if err != nil {
			return "outside-repository"
		}
		if !ok {
			return ""
		}
		b, err := boundedread.File(abs, boundedread.DefaultLimit)
		if err != nil {
			return "unreadable"
		}
		return sha256Hex(b)
	}
	root := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, "sessiongate.yaml"), []byte("protect: true\n"), 0o644))
	must(os.MkdirAll(filepath.Join(root, "real", "hooks"), 0o755))
	must(os.WriteFile(filepath.Join(root, "real", "hooks", "a.json"), []byte("{}\n"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "settings.json"), []byte("{\"hooks\":{}}\n"), 0o644))
	must(os.Symlink(outside, filepath.Join(root, ".claude")))                          // a folder linked out
	must(os.Symlink(filepath.Join(root, "real"), filepath.Join(root, ".github")))      // a folder linked inside
	must(os.Symlink(filepath.Join(outside, "gone"), filepath.Join(root, ".mcp.json"))) // dangling
	must(os.WriteFile(filepath.Join(root, ".cursor"), []byte("a file\n"), 0o644))      // a file where a folder is
	cases := []struct{ rel, want string }{
		{"sessiongate.yaml", "content"},
		{".sessiongate.yaml", ""},
		{".claude/settings.json", "outside-repository"},
		{".claude/settings.local.json", ""},
		{".github/hooks/a.json", "content"},
		{".github/hooks/b.json", ""},
		{".mcp.json", ""},
		{".cursor/hooks.json", "outside-repository"},
		{".gemini/settings.json", ""},
	}
	for _, c := range cases {
		got, want := Hash(root, c.rel), slow(root, c.rel)
		if got != want {
			t.Errorf("%s: %q with the shortcut, %q resolving every component", c.rel, got, want)
		}
		if c.want == "content" && len(got) != 64 || c.want != "content" && got != c.want {
			t.Errorf("%s: %q, want %s", c.rel, got, c.want)
		}
	}
}
