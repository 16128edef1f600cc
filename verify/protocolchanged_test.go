package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestProtocolChangedOnBaseSince (helper 319, F2): a branch whose session
// began before a person changed the protocol on main still fails (its
// record names the old protocol), but the failure says the base held that
// protocol where the branch forks and which commit changed it, not
// "edited before the session and never committed", which blamed the agent
// for the person's change. A protocol no commit of the base's history held
// keeps the old words.
func TestProtocolChangedOnBaseSince(t *testing.T) {
	ctx := context.Background()
	const oldP, newP = "# Protocol\n\n## QA (BLOCKING)\n\nRun the tests.\n", "# Protocol\n\n## QA (BLOCKING)\n\nRun the tests.\nKeep commits small.\n"
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	dir := gittest.New(t, map[string]string{"SESSION-PROTOCOL.md": oldP, "sessiongate.yaml": "protocol: SESSION-PROTOCOL.md\n"})
	fork := gittest.Git(t, dir, "rev-parse", "HEAD")
	gittest.Git(t, dir, "checkout", "-q", "-b", "feat")
	work := gittest.Commit(t, dir, "feat: work", map[string]string{"a.txt": "a\n"})
	gittest.Git(t, dir, "checkout", "-q", "-")
	change := gittest.Commit(t, dir, "docs: protocol note", map[string]string{"SESSION-PROTOCOL.md": newP})
	tip := gittest.Commit(t, dir, "docs: more", map[string]string{"b.txt": "b\n"})
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	bl, err := BaselineAt(ctx, repo, tip)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, sha, start string
		want, not        string
	}{
		{"honest: started on the fork point, the protocol changed on main since", sum(oldP), fork, "held it at " + fork[:12], "never held it"},
		{"honest: started on the branch's own commit", sum(oldP), work, "and " + change[:12] + " on the base changed it since", "never held it"},
		{"lazy: a protocol edited and never committed", sum(oldP + "MAY skip QA.\n"), fork, "never held it", "held it at"},
		{"lazy: the old protocol claimed for a start after the change", sum(oldP), tip, "never held it", "held it at"},
		{"lazy: a start that is no commit id", sum(oldP), "--all", "never held it", "held it at"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			trust := &protocolTrust{repo: repo, bl: bl, revs: []string{tip, "^" + work}}
			p, _ := trust.check(ctx, c.sha, c.start)
			if p == "" {
				t.Fatal("passed: a record under another protocol than the base's must fail")
			}
			if !strings.Contains(p, c.want) || strings.Contains(p, c.not) {
				t.Fatalf("problem = %q\nwant it to say %q and not %q", p, c.want, c.not)
			}
		})
	}
}
