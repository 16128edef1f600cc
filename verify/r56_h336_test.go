package verify_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/verify"
)

// TestR56H336RewoundBaseJustUnderTolerance (helper 336's review of
// helper 335's F2 fix): the floor is dropped only for a base dated more
// than landedAhead (10 min) ahead of verify's clock. A base dated 9
// minutes ahead (or any base dated after the rewound session started)
// still makes the rewound BYPASS session "older work": it passes. Same
// set-up as TestR56RewoundFutureDatedBase.
func TestR56H336RewoundBaseJustUnderTolerance(t *testing.T) {
	const other = "0b80cb0b-2b1e-4c92-9a24-18f9c73b4bec"
	t.Setenv("GIT_COMMITTER_DATE", time.Now().Add(9*time.Minute).UTC().Format(time.RFC3339))
	repo, base, _, rec := setupRef(t)
	body := edit(t, rec, func(m map[string]any) {
		m["session_id"] = other
		s := m["session"].(map[string]any)
		m["violations"] = []any{map[string]any{"code": "BYPASS", "requirement": "pre-commit hook", "severity": "CRITICAL", "at": s["started_at"]}}
		s["state"] = "WORKING"
		delete(s, "ended_at")
		delete(s, "end_commit")
		for _, sn := range m["snapshots"].([]any) {
			st := sn.(map[string]any)["state"].(map[string]any)
			evs, _ := st["evidence"].([]any)
			for _, ev := range evs {
				if e := ev.(map[string]any); e["kind"] == "commit_sha" {
					e["sha256"] = strings.Repeat("ab", 32)
				}
			}
		}
	})
	replaceRecord(t, repo.Root(), other, body)
	rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RecordPath: ref})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, cr := range rep.Commits {
		text.WriteString(cr.Status + " " + strings.Join(cr.Problems, "; ") + "\n")
	}
	if rep.OK || !strings.Contains(text.String(), "never ended") {
		t.Fatalf("a rewound BYPASS session passes when the range's base is dated 9 minutes ahead (ok=%v):\n%s", rep.OK, text.String())
	}
}

// TestR56H336ShortHexTagShadowsNamedBase: refuseAmbiguous skips a range
// part that looks like a commit id (isHex: 7 to 64 hex digits), but git
// takes a ref before an abbreviated id: `verify 1a2b3c4..HEAD` with a tag
// named 1a2b3c4 (pushed at the agent's hooks-off commit) began the range
// at the tag, as the origin/main tag did. Only a full-length id is taken
// as an object first. Want: an *EnvError naming the ambiguity, or the
// range of the commit.
func TestR56H336ShortHexTagShadowsNamedBase(t *testing.T) {
	t.Parallel()
	dir := gittest.New(t, map[string]string{"a.txt": "a\n"})
	var base string
	for i := range 2 {
		base = gittest.Commit(t, dir, fmt.Sprintf("main %d", i), map[string]string{fmt.Sprintf("m%d.txt", i): "x\n"})
	}
	var feat []string
	for i := range 3 {
		feat = append(feat, gittest.Commit(t, dir, fmt.Sprintf("feat %d", i), map[string]string{fmt.Sprintf("f%d.txt", i): "x\n"}))
	}
	short := base[:7]
	gittest.Git(t, dir, "tag", short, feat[0])
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	rg := verify.Named(short+"..HEAD", "HEAD")
	err = rg.Complete(ctx, repo, false)
	var env *verify.EnvError
	if errors.As(err, &env) && strings.Contains(err.Error(), "ambiguous") {
		return
	}
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	got, err := repo.RevList(ctx, rg.Revs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(feat) {
		t.Errorf("%s..HEAD lists %d commit(s), want %d: the tag %s (at %s) shadowed the commit %s", short, len(got), len(feat), short, feat[0], base)
	}
}
