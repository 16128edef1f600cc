package verify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/verify"
)

// TestListedBaseForcePushPrunedBefore: a GitHub push to main whose before
// origin no longer has (a force push, pruned) starts where the commits the
// event lists end on the tip's first-parent line, in a depth-1 checkout
// deepened by one bounded fetch that the range names. A list that does not
// hold the tip, a list of 20 (Actions cuts github.event.commits there) and
// no list keep the round 22 answer: a build of the tip naming no earlier
// commit (the --recheck window). The CLI rows: TestVerifyAdvCIDepthShapes.
func TestListedBaseForcePushPrunedBefore(t *testing.T) {
	t.Parallel()
	src := gittest.New(t, nil)
	var line []string // oldest first
	for i := range 30 {
		line = append(line, gittest.Commit(t, src, fmt.Sprintf("c%02d", i), map[string]string{fmt.Sprintf("f%02d.txt", i): "x\n"}))
	}
	tip := line[len(line)-1]
	bare := filepath.Join(t.TempDir(), "origin.git")
	gittest.Git(t, src, "clone", "-q", "--bare", src, bare)
	gone := strings.Repeat("ab", 20) // a before origin does not have
	for _, c := range []struct {
		name   string
		listed []string
		chosen bool   // --recheck given
		base   string // "" for a build of the tip alone
	}{
		{"3 listed: the push starts below them", line[27:], false, line[26]},
		{"a list without the tip: not this push's", line[24:29], false, ""},
		{"20 listed: maybe cut", line[10:], false, ""},
		// round 24: the window the team chose reaches below the 20, not
		// below the tip (a hooks-off commit 22 deep passed --recheck 5).
		{"20 listed, --recheck chosen: the window starts below them", line[10:], true, line[9]},
		{"no list (a rewind)", nil, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			clone := gittest.Init(t)
			gittest.Git(t, clone, "remote", "add", "origin", "file://"+bare)
			gittest.Git(t, clone, "fetch", "-q", "--depth=1", "origin", "+"+tip+":refs/remotes/origin/main")
			gittest.Git(t, clone, "checkout", "-q", "--detach", tip)
			var commits []map[string]string
			for _, id := range c.listed {
				commits = append(commits, map[string]string{"id": id})
			}
			ev, _ := json.Marshal(map[string]any{"before": gone, "after": tip, "ref": "refs/heads/main", "forced": true,
				"commits": commits, "repository": map[string]any{"default_branch": "main"}})
			evPath := filepath.Join(t.TempDir(), "event.json")
			if err := os.WriteFile(evPath, ev, 0o644); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": evPath,
				"GITHUB_REF": "refs/heads/main", "GITHUB_SHA": tip}
			repo, err := gitrepo.Open(ctx, clone)
			if err != nil {
				t.Fatal(err)
			}
			rg, err := verify.ChooseRange(ctx, repo, func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			rg.ChooseDepth(c.chosen)
			if err := rg.Complete(ctx, repo, true); err != nil {
				t.Fatal(err)
			}
			if c.base == "" {
				if !rg.TipOnly() || !strings.Contains(rg.How, "is gone from origin") {
					t.Errorf("range %s (%s), want a build of the tip alone", rg.Text, rg.How)
				}
				return
			}
			if rg.NeedsWindow() != c.chosen {
				t.Errorf("NeedsWindow %v: --recheck 0 must be refused exactly when the list may be cut", rg.NeedsWindow())
			}
			if rg.Base != c.base || rg.TipOnly() {
				t.Errorf("range %s, base %.12s, want base %.12s", rg.Text, rg.Base, c.base)
			}
			want := fmt.Sprintf("the %d commit(s) the event lists end on main's first-parent line", len(c.listed))
			if c.chosen {
				want = "at or below where they end on main's first-parent line"
			}
			if !strings.Contains(rg.How, want) || !strings.Contains(strings.Join(rg.Fetched, "\n"), fmt.Sprintf("--depth=%d", len(c.listed)+2)) {
				t.Errorf("how %q, fetched %q: want %q and the bounded fetch named", rg.How, rg.Fetched, want)
			}
		})
	}
}
