package recordref_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/recordref"
)

// TestPushUnattendedSlowRemoteBounded (review of c1, round 27): a remote
// whose pre-receive hook is slow (a busy host, a hook that calls out)
// must not hold the violation's push past its budget (records_push: 15 s,
// inside an agent hook half of what its limit left). The context killed
// git, but receive-pack and its hook, children of the push, kept git's
// stderr pipe open, and the wait for it lasted as long as the remote's
// hook: 20 s for a 1 s budget. Honest twin: the same push to a prompt
// remote succeeds within the budget.
func TestPushUnattendedSlowRemoteBounded(t *testing.T) {
	setEnv(t)
	for _, c := range []struct {
		name string
		hook string
		ok   bool
	}{
		{"slow remote: the push is cut at the budget", "#!/bin/sh\nsleep 20\n", false},
		{"honest: a prompt remote takes the push", "#!/bin/sh\nexit 0\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			origin := newRepo(t)
			bare := filepath.Join(t.TempDir(), "team.git")
			run(t, origin, "clone", "-q", "--bare", origin, bare)
			if err := os.WriteFile(filepath.Join(bare, "hooks", "pre-receive"), []byte(c.hook), 0o755); err != nil {
				t.Fatal(err)
			}
			clone := filepath.Join(t.TempDir(), "clone")
			run(t, origin, "clone", "-q", bare, clone)
			id := uuid(t)
			if _, err := recordref.Put(ctx, clone, ref, []recordref.Record{{SessionID: id, Body: body(id)}}); err != nil {
				t.Fatal(err)
			}
			pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			defer cancel()
			t0 := time.Now()
			res, err := recordref.PushUnattended(pctx, clone, "origin", ref)
			took := time.Since(t0)
			t.Logf("push: %v, %+v, %v", took.Round(time.Millisecond), res, err)
			if took > 6*time.Second {
				t.Errorf("the push took %v for a 2 s budget: the remote's hook held it", took.Round(time.Millisecond))
			}
			if c.ok && (err != nil || !res.Pushed) {
				t.Errorf("a prompt remote: %+v %v", res, err)
			}
			if !c.ok && err == nil {
				t.Errorf("a push cut at its budget reported no error")
			}
		})
	}
}
