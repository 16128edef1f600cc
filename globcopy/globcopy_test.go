package globcopy_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sessiongate/sessiongate/globcopy"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestLandings: a glob copy's matches land in the target folder under
// their base names, as the shell expands them (no dotfiles for `*`, a
// dotted glob takes them); a copy out of the work tree, a plain copy and
// a glob matching nothing land nowhere.
func TestLandings(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"tpl/SESSION-PROTOCOL.md", "tpl/notes.md", "tpl/.claude/settings.json", "src/a.go"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dst := func(rel ...string) []string {
		var out []string
		for _, r := range rel {
			out = append(out, filepath.Join(root, filepath.FromSlash(r)))
		}
		return out
	}
	for _, c := range []struct {
		line string
		want []string
	}{
		{"cp -r tpl/* .", dst("SESSION-PROTOCOL.md", "notes.md")},
		{"cp -r tpl/.cl* .", dst(".claude")},
		{"cp tpl/*.md /tmp/", nil},
		{"cp tpl/notes.md .", nil},
		{"cp tpl/*.txt .", nil},
	} {
		var got []string
		for _, l := range globcopy.Landings(root, root, []string{c.line}) {
			got = append(got, l.Dst)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Landings(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
