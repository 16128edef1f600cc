package verify

import (
	"context"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/testrun"
)

func TestZZMeasure(t *testing.T) {
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, "/work/h2")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"HEAD~25"} {
		base, _ := repo.ResolveRev(ctx, n)
		tip, _ := repo.ResolveRev(ctx, "HEAD")
		t0 := time.Now()
		changed, _ := repo.TreeDiff(ctx, base, tip)
		got, err := rangeSkips(ctx, repo, base, tip, changed, nil, testrun.StrictEnv(nil))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s..HEAD: %d changed, %d findings, %v", n, len(changed), len(got), time.Since(t0))
		for _, w := range got {
			t.Logf("  %s: %s", w.path, w.what)
		}
	}
}
