package verify

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

func TestCISkipMarker(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"fix: typo [skip ci]", "[skip ci]"},
		{"docs [CI SKIP]\n", "[ci skip]"},
		{"chore: bump [no ci]", "[no ci]"},
		{"x [skip actions]", "[skip actions]"},
		{"x [actions skip]", "[actions skip]"},
		{"subject\n\nbody\n\n\nskip-checks: true\n", "skip-checks: true"},
		{"subject\n\nskip-checks:true", "skip-checks: true"},
		// Honest messages that only mention skipping mark nothing.
		{"ci: skip flaky test", ""},
		{"subject\n\nskip-checks: false", ""},
		{"docs: explain skip ci markers", ""},
		{"", ""},
	} {
		if got := ciSkipMarker(c.msg); got != c.want {
			t.Errorf("ciSkipMarker(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}

// TestSkippedPushesWindow: how far the window below a default-branch push
// reaches for skip-marked commits (messages newest first, before first).
func TestSkippedPushesWindow(t *testing.T) {
	gittest.Require(t)
	for _, c := range []struct {
		name  string
		msgs  []string // newest first; "S" marks [skip ci]
		depth int
		want  int
		note  string
	}{
		{"no marker", []string{"", "", "", "", ""}, 2, 2, ""},
		{"before marked", []string{"S", "", "", "", ""}, 2, 3, "[skip ci]"},
		{"a marker at the window's edge", []string{"", "S", "", "", ""}, 2, 4, "[skip ci]"},
		{"a marker below the window", []string{"", "", "S", "", ""}, 2, 2, ""},
		{"a chain of markers", []string{"S", "S", "S", "", "", "", "", "", ""}, 1, 4, "[skip ci]"},
		// A release bot's marker every other commit: capped at 4 windows.
		{"a marker every other commit", []string{"S", "", "S", "", "S", "", "S", "", "S", "", "S", "", "S", ""}, 2, 8, "the most skip markers"},
		{"history ends first", []string{"S", ""}, 5, 6, "[skip ci]"},
		{"off", []string{"S", "", ""}, 0, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := gittest.New(t, nil)
			var tip string
			for i := len(c.msgs) - 1; i >= 0; i-- {
				msg := "work " + string(rune('a'+i))
				if c.msgs[i] == "S" {
					msg += " [skip ci]"
				}
				tip = gittest.Commit(t, dir, msg, map[string]string{"f.txt": msg + "\n"})
			}
			ctx := context.Background()
			repo, err := gitrepo.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			got, note, err := skippedPushes(ctx, repo, tip, c.depth, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want || (c.note == "") != (note == "") || !strings.Contains(note, c.note) {
				t.Errorf("skippedPushes = %d, %q; want %d, a note with %q", got, note, c.want, c.note)
			}
		})
	}
}
