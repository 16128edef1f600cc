package recordref_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
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

// recordsOnlyForward is docs/team.md's pre-receive hook: the records ref
// is never deleted or rewound.
const recordsOnlyForward = `#!/bin/sh
while read old new ref; do
	[ "$ref" = refs/sessiongate/records ] || continue
	[ -n "$(printf %s "$old" | tr -d 0)" ] || continue
	if [ -z "$(printf %s "$new" | tr -d 0)" ]; then echo "pre-receive: $ref cannot be deleted" >&2; exit 1; fi
	git merge-base --is-ancestor "$old" "$new" || { echo "pre-receive: $ref only moves forward" >&2; exit 1; }
done
`

// TestTwoClonesPushUnattendedForwardOnly (review of c1, round 27, honest):
// two clones' violations are pushed at the same moment (records_push's
// unattended push) to a remote with the forward-only hook: the one that
// loses the race is refused as a non-fast-forward, fetches, merges and
// pushes a descendant, which the hook accepts. Neither fails and no record
// is lost.
func TestTwoClonesPushUnattendedForwardOnly(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	origin := newRepo(t)
	bare := filepath.Join(t.TempDir(), "team.git")
	run(t, origin, "clone", "-q", "--bare", origin, bare)
	if err := os.WriteFile(filepath.Join(bare, "hooks", "pre-receive"), []byte(recordsOnlyForward), 0o755); err != nil {
		t.Fatal(err)
	}
	merges := 0
	for round := range 3 {
		clones := []string{filepath.Join(t.TempDir(), "alice"), filepath.Join(t.TempDir(), "bob")}
		var mine [2][]string
		for i, c := range clones {
			run(t, origin, "clone", "-q", bare, c)
			if round > 0 {
				run(t, c, "fetch", "-q", "origin", "+"+ref+":"+ref)
			}
			id := uuid(t)
			mine[i] = append(mine[i], id)
			if _, err := recordref.Put(ctx, c, ref, []recordref.Record{{SessionID: id, Body: body(id)}}); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		results := make([]recordref.PushResult, 2)
		errs := make([]error, 2)
		start := make(chan struct{})
		for i, c := range clones {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
				defer cancel()
				results[i], errs[i] = recordref.PushUnattended(pctx, c, "origin", ref)
			}()
		}
		close(start)
		wg.Wait()
		for i := range clones {
			if errs[i] != nil || !results[i].Pushed {
				t.Fatalf("round %d clone %d: a concurrent push failed on a forward-only remote: %+v %v", round, i, results[i], errs[i])
			}
			merges += results[i].Merges
		}
		tip := run(t, bare, "rev-parse", ref)
		for i := range clones {
			for _, id := range mine[i] {
				if _, _, err := recordref.Read(ctx, bare, tip, id); err != nil {
					t.Errorf("round %d: clone %d's record %s is not on the remote: %v", round, i, id, err)
				}
			}
		}
	}
	t.Logf("merges over 3 rounds: %d", merges)
}
