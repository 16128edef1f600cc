package agenthook_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// playPairUnder sends a golden Claude PreToolUse/PostToolUse pair for a
// run of `true` through name args... (the process the hook runs under:
// a wrapper, a shim, an outer CLI's shell) and asserts whether its exit
// status was kept as observed (0, nothing said) or not witnessed (-1,
// said): the honest and lazy rows of the wrapper and shim tests.
func playPairUnder(t *testing.T, r *repo, sid string, nested bool, name string, args func(event string) []string) {
	t.Helper()
	s := r.active()
	hook := func(event string, p map[string]any) string {
		t.Helper()
		b, _ := json.Marshal(p)
		res := r.run(r.root, b, nil, name, args(event)...)
		if res.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", event, res.code, res.out, res.err)
		}
		return string(res.out)
	}
	hook("PreToolUse", golden(t, r, "claude", "PreToolUse-Bash", sid))
	out := hook("PostToolUse", golden(t, r, "claude", "PostToolUse-Bash", sid))
	evs, err := r.db().ListEvidence(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].Command != "true" || evs[0].ExitCode == nil {
		t.Fatalf("evidence %+v, want the one run of true (answer %s)", evs, out)
	}
	got := *evs[0].ExitCode
	if nested {
		if got != -1 || !strings.Contains(out, "not taken as observed") {
			t.Errorf("nested: exit %d, ref %q, answer %s; want -1, said", got, evs[0].Ref, out)
		}
	} else if got != 0 || strings.Contains(out, "not taken") {
		t.Errorf("honest: exit %d, ref %q, answer %s; want 0, nothing said", got, evs[0].Ref, out)
	}
}
