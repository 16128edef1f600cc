package verify

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestTreeHooksOffTieBreak: which session an in-tree record maps a commit
// without a trailer to. A record listing it as passing wins over one
// listing it as a BYPASS (another session's reconciliation may have
// charged it); two records of the same kind map it to neither; a record
// that failed its own checks maps nothing. The records are read from the
// map treeHooksOff keeps them in; git lists their files at the tip.
func TestTreeHooksOffTieBreak(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q", "-b", "main")
	ids := []string{"11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333", "44444444-4444-4444-8444-444444444444"}
	for _, id := range ids {
		p := filepath.Join(dir, ".sessiongate", "records", id+".json")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "records")
	tip := gittest.Git(t, dir, "rev-parse", "HEAD")
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	const (
		passVsBypass = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		twoPassing   = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
		bypassOnly   = "cccccccccccccccccccccccccccccccccccccccc"
		brokenOnly   = "dddddddddddddddddddddddddddddddddddddddd"
		nobody       = "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"
	)
	set := func(shas ...string) map[string]bool {
		m := map[string]bool{}
		for _, s := range shas {
			m[sumHex(s)] = true
		}
		return m
	}
	ok := map[string]bool{"snap": true}
	records := map[string]*recordCheck{
		ids[0]: {ids: ok, commits: set(passVsBypass, twoPassing), bypassed: set()},
		ids[1]: {ids: ok, commits: set(passVsBypass, twoPassing, bypassOnly), bypassed: set(passVsBypass, bypassOnly)},
		ids[2]: {ids: ok, commits: set(), bypassed: set()},
		ids[3]: {commits: set(brokenOnly)}, // no ids: failed its own checks
	}
	src := source{repo: repo, tip: tip, template: session.DefaultRecordPath}
	got, err := src.treeHooksOff(ctx, []string{passVsBypass, twoPassing, bypassOnly, brokenOnly, nobody}, records)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{passVsBypass: ids[0], bypassOnly: ids[1]}
	if len(got) != len(want) {
		t.Errorf("mapped %v, want %v", got, want)
	}
	for sha, id := range want {
		if got[sha] != id {
			t.Errorf("%s mapped to %q, want %q", sha[:4], got[sha], id)
		}
	}
	// Records on a ref: the ref's actor records map, never the tree.
	src.ref = "refs/sessiongate/records"
	if got, _ := src.treeHooksOff(ctx, []string{passVsBypass}, records); len(got) != 0 {
		t.Errorf("records on a ref: mapped %v from the tree", got)
	}
}
