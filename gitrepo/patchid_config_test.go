package gitrepo_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestPatchIDsIgnoreDiffConfig: the session takes a commit git replayed
// (no pre-commit ran) for work pre-commit checked when its patch id
// equals one of the session's own commits' (ReplayedFrom), and verify
// takes a rebased commit for a verified one on equal verbatim patch ids.
// `git log -p` followed config the agent sets in its shell
// (GIT_CONFIG_COUNT, which reaches the hooks): a textconv driver (through
// a core.attributesFile of its own) that drops `exit 0` lines, or
// diff.context=0, which leaves a patch no line around its change, made
// the weakening X (`exit 0` right after the shebang) the same change as
// the honest A. Both lazy rows failed on the old code (X taken for a
// replay of A, equal verbatim ids). The honest twins: under the same
// config a real cherry-pick of A still matches A.
func TestPatchIDsIgnoreDiffConfig(t *testing.T) {
	ctx := context.Background()
	const start = "#!/bin/sh\nset -e\ncheck 1\ncheck 2\ncheck 3\n"
	for _, tt := range []struct {
		name string
		a, x string // test.sh after the honest commit A and the lazy X
		env  func(t *testing.T) []string
	}{
		{"textconv dropping exit 0", start + "check 4\n", start + "check 4\nexit 0\n", func(t *testing.T) []string {
			attrs := filepath.Join(t.TempDir(), "attributes")
			if err := os.WriteFile(attrs, []byte("*.sh diff=hide\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{"core.attributesFile", attrs, "diff.hide.textconv", "grep -v 'exit 0'"}
		}},
		{"diff.context=0", start + "exit 0\n", strings.Replace(start, "\n", "\nexit 0\n", 1), func(*testing.T) []string {
			return []string{"diff.context", "0"}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := gittest.New(t, map[string]string{"test.sh": start})
			base := gittest.Git(t, dir, "rev-parse", "HEAD")
			a := gittest.Commit(t, dir, "test: A", map[string]string{"test.sh": tt.a})
			gittest.Git(t, dir, "checkout", "-q", "-b", "other", base)
			gittest.Commit(t, dir, "docs", map[string]string{"README.md": "# r\n"})
			gittest.Git(t, dir, "cherry-pick", a)
			picked := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Git(t, dir, "checkout", "-q", "-b", "lazy", base)
			x := gittest.Commit(t, dir, "test: A", map[string]string{"test.sh": tt.x})

			kv := tt.env(t)
			t.Setenv("GIT_CONFIG_COUNT", strconv.Itoa(len(kv)/2))
			for i := 0; i < len(kv); i += 2 {
				t.Setenv("GIT_CONFIG_KEY_"+strconv.Itoa(i/2), kv[i])
				t.Setenv("GIT_CONFIG_VALUE_"+strconv.Itoa(i/2), kv[i+1])
			}
			r, err := gitrepo.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name, c, want string
			}{
				{"lazy: the weakening", x, ""},
				{"honest: a cherry-pick of A", picked, a},
			} {
				got, err := r.ReplayedFrom(ctx, c.c, []string{a})
				if err != nil {
					t.Fatal(err)
				}
				if got != c.want {
					t.Errorf("%s: ReplayedFrom = %q, want %q", c.name, got, c.want)
				}
				ids, err := r.VerbatimPatchIDs(ctx, []string{a, c.c})
				if err != nil {
					t.Fatal(err)
				}
				if same := ids[a] != "" && ids[a] == ids[c.c]; same != (c.want != "") {
					t.Errorf("%s: verbatim patch ids equal to A's: %v, want %v", c.name, same, c.want != "")
				}
			}
		})
	}
}
