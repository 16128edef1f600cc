package eventpin

import (
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/snapshot"
)

// TestDiffers: a pin agrees with the events it was taken over and the
// ones appended after; a rewritten, deleted or back-dated event, a shed
// start or a pin that is no chain head is named.
func TestDiffers(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	mk := func(toks ...string) ([]snapshot.EventRef, []time.Time) {
		refs := make([]snapshot.EventRef, len(toks))
		at := make([]time.Time, len(toks))
		for i, tok := range toks {
			at[i] = t0.Add(time.Duration(i) * time.Minute)
			refs[i] = snapshot.EventRef{Seq: int64(i + 1), Token: tok, At: at[i].Format(time.RFC3339Nano)}
		}
		return refs, at
	}
	refs, at := mk("start", "gate:PLAN:PASS", "gate:IMPL:PASS")
	head, ok := snapshot.EventChain(refs, 2)
	if !ok {
		t.Fatal("EventChain over 2 of 3 events: not ok")
	}
	pin := Pin{At: "commit abc", Events: head, Where: "its pin on refs/x"}

	rewritten, _ := mk("start", "gate:PLAN:FAIL", "gate:IMPL:PASS")
	backdated := append([]time.Time(nil), at...)
	backdated[2] = at[1].Add(-3 * time.Second)
	slack := append([]time.Time(nil), at...)
	slack[2] = at[1].Add(-time.Second)
	for _, tc := range []struct {
		name    string
		pin     Pin
		refs    []snapshot.EventRef
		created []time.Time
		want    string // "" agrees; else a part of the answer
	}{
		{"agrees, one appended", pin, refs, at, ""},
		{"agrees, none appended", pin, refs[:2], at[:2], ""},
		{"an event within the clock's slack", pin, refs, slack, ""},
		{"rewritten", pin, rewritten, at, "its first 2 events differ from what its pin on refs/x held"},
		{"deleted", pin, refs[:1], at[:1], "its pin on refs/x held 2 events, the database has 1 from seq 1"},
		{"shed start", pin, refs[1:], at[1:], "the database has 2 from seq 2"},
		{"back-dated", pin, refs, backdated, "event 3 (gate:IMPL:PASS) is dated"},
		{"no chain head", Pin{Events: "zz", Where: "its Session-Events trailer"}, refs, at, `its Session-Events trailer "zz" is not a chain head`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Differs(tc.pin, tc.refs, tc.created)
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Fatalf("Differs = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		p    snapshot.EventPin
		want string
	}{
		{snapshot.EventPin{Commit: "0123456789abcdef0123"}, "commit 0123456789ab"},
		{snapshot.EventPin{Tree: "fedcba9876543210"}, "the commit of tree fedcba987654"},
		{snapshot.EventPin{Commit: "abc", Tree: "def"}, "commit abc"},
	} {
		if got := Label(tc.p); got != tc.want {
			t.Errorf("Label(%+v) = %q, want %q", tc.p, got, tc.want)
		}
	}
}
