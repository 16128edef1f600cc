package teamindex

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestMirrorGitReadsWhatTheMirrorHolds: the index reads records from its
// own bare mirror; what it reads is the blob the mirror holds, whatever
// the mirror's refs or the caller's environment substitute. Before
// teamindex ran git through gitenv every route failed: a replace ref
// (in the mirror, or under GIT_REPLACE_REF_BASE) swapped the record's
// body, GIT_OBJECT_DIRECTORY hid the mirror's objects.
func TestMirrorGitReadsWhatTheMirrorHolds(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name  string
		route func(t *testing.T, mirror, real, forged string)
	}{
		{"as held", func(*testing.T, string, string, string) {}},
		{"replace ref in the mirror", func(t *testing.T, mirror, real, forged string) {
			gittest.Git(t, mirror, "replace", real, forged)
		}},
		{"replace ref under GIT_REPLACE_REF_BASE", func(t *testing.T, mirror, real, forged string) {
			gittest.Git(t, mirror, "update-ref", "refs/cache/"+real, forged)
			t.Setenv("GIT_REPLACE_REF_BASE", "refs/cache/")
		}},
		{"GIT_OBJECT_DIRECTORY elsewhere", func(t *testing.T, _, _, _ string) {
			t.Setenv("GIT_OBJECT_DIRECTORY", t.TempDir())
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mirror := t.TempDir()
			if out, err := git(ctx, "", "init", "-q", "--bare", mirror); err != nil {
				t.Fatalf("init: %v %s", err, out)
			}
			real, err := gitIn(ctx, mirror, []byte(`{"state":"ABANDONED"}`), "hash-object", "-w", "--stdin")
			if err != nil {
				t.Fatal(err)
			}
			forged, err := gitIn(ctx, mirror, []byte(`{"state":"COMPLETE"}`), "hash-object", "-w", "--stdin")
			if err != nil {
				t.Fatal(err)
			}
			r, f := strings.TrimSpace(string(real)), strings.TrimSpace(string(forged))
			tt.route(t, mirror, r, f)
			if out, err := git(ctx, mirror, "cat-file", "blob", r); err != nil || out != `{"state":"ABANDONED"}` {
				t.Errorf("git cat-file: %q %v, want the held record", out, err)
			}
			if out, err := gitIn(ctx, mirror, []byte(r+"\n"), "cat-file", "--batch"); err != nil || !strings.Contains(string(out), "ABANDONED") {
				t.Errorf("git cat-file --batch: %q %v, want the held record", out, err)
			}
		})
	}
}
