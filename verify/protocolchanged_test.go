package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestProtocolChangedOnBaseSince (F2): a branch whose session began
// before a person's protocol change reached main keeps the protocol it ran
// under (it failed every such branch, and main once they merged); one
// started after the change reached main, on an old commit, fails and says
// when. A protocol no commit of the base's history held keeps the old
// words.
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
	before := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339Nano)
	after := time.Now().Add(time.Hour).UTC().Format(time.RFC3339Nano)
	cases := []struct {
		name, sha, start, started string
		want, not                 string // want "" = passes, with a note naming the fork point
	}{
		{"honest: started on the fork point before the change reached main", sum(oldP), fork, before, "", ""},
		{"honest: started on the branch's own commit before the change", sum(oldP), work, before, "", ""},
		{"lazy: started on the fork point after the change reached main", sum(oldP), fork, after, "after " + change[:12] + " brought the change to the base", "never held it"},
		{"lazy: started_at that is no time", sum(oldP), fork, "yesterday", "is no time", "never held it"},
		{"lazy: a protocol edited and never committed", sum(oldP + "MAY skip QA.\n"), fork, before, "never held it", "held it at"},
		{"lazy: the old protocol claimed for a start after the change", sum(oldP), tip, before, "never held it", "held it at"},
		{"lazy: a start that is no commit id", sum(oldP), "--all", before, "never held it", "held it at"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			trust := &protocolTrust{repo: repo, bl: bl, revs: []string{tip, "^" + work}}
			p, note := trust.check(ctx, c.sha, c.start, c.started)
			if c.want == "" {
				if p != "" || !strings.Contains(note, "held it at "+fork[:12]) || !strings.Contains(note, "before "+change[:12]) {
					t.Fatalf("problem = %q, note = %q: an honest session begun before the change must pass, with a note naming the fork point and the change", p, note)
				}
				if _, ok := trust.held[c.sha]; !ok {
					t.Fatal("the held protocol is not kept for judging the record's marks")
				}
				return
			}
			if p == "" {
				t.Fatal("passed: a record under another protocol than the base's must fail")
			}
			if !strings.Contains(p, c.want) || strings.Contains(p, c.not) {
				t.Fatalf("problem = %q\nwant it to say %q and not %q", p, c.want, c.not)
			}
		})
	}
}

// TestProtocolLandedByMerge: the time that counts is when the change
// reached the base's first-parent line, not when a person wrote it on a
// side branch. A session begun between the two ran under the protocol
// main still held; one begun after the merge did not.
func TestProtocolLandedByMerge(t *testing.T) {
	ctx := context.Background()
	const oldP, newP = "# Protocol\n\n## QA (BLOCKING)\n\nRun the tests.\n", "# Protocol\n\n## QA (BLOCKING)\n\nRun the tests.\nRun the linter.\n"
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	dir := gittest.New(t, map[string]string{"SESSION-PROTOCOL.md": oldP, "sessiongate.yaml": "protocol: SESSION-PROTOCOL.md\n"})
	fork := gittest.Git(t, dir, "rev-parse", "HEAD")
	at := func(d string) []string {
		return []string{"GIT_COMMITTER_DATE=" + d, "GIT_AUTHOR_DATE=" + d}
	}
	gittest.Git(t, dir, "checkout", "-q", "-b", "person")
	gittest.Write(t, dir, "SESSION-PROTOCOL.md", newP)
	gittest.GitEnv(t, dir, at("2026-01-01T10:00:00Z"), "commit", "-qam", "docs: the linter too")
	gittest.Git(t, dir, "checkout", "-q", "main")
	gittest.GitEnv(t, dir, at("2026-01-03T10:00:00Z"), "merge", "-q", "--no-ff", "-m", "Merge the linter", "person")
	merge := gittest.Git(t, dir, "rev-parse", "HEAD")
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	bl, err := BaselineAt(ctx, repo, merge)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, started string
		pass          bool
	}{
		{"honest: begun after the person wrote it, before it was merged", "2026-01-02T10:00:00Z", true},
		{"honest: begun before either", "2025-12-31T10:00:00Z", true},
		{"lazy: begun after the merge, on the old fork point", "2026-01-04T10:00:00Z", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			trust := &protocolTrust{repo: repo, bl: bl, revs: []string{merge, "^" + fork}}
			p, note := trust.check(ctx, sum(oldP), fork, c.started)
			if c.pass != (p == "") {
				t.Fatalf("pass = %v, want %v: problem %q, note %q", p == "", c.pass, p, note)
			}
			if !strings.Contains(p+note, merge[:12]) {
				t.Fatalf("the merge that brought the change (%s) is not named: %q %q", merge[:12], p, note)
			}
		})
	}
}
