package recordref_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/snapshot"
)

// TestActors writes actor records next to session records and reads back
// exactly the ones asked for: a commit without one, a forged record that
// names another commit and a record that is not JSON are left out, and the
// session records are untouched.
func TestActors(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	dir := newRepo(t)
	head := run(t, dir, "rev-parse", "HEAD")
	other := strings.Repeat("ab", 20)
	forged := strings.Repeat("cd", 20)
	junk := strings.Repeat("ef", 20)
	if _, err := recordref.Put(ctx, dir, ref, []recordref.Record{{SessionID: "0f0e0d0c-0b0a-4009-8807-060504030201", Body: []byte(`{"session_id":"x"}`)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := recordref.PutActor(ctx, dir, ref, snapshot.CommitActor{Commit: head, Actor: snapshot.ActorPerson, Kind: snapshot.KindAdoption, Author: "T <t@example.com>", Via: "terminal"}); err != nil {
		t.Fatal(err)
	}
	if _, err := recordref.PutActor(ctx, dir, ref, snapshot.CommitActor{Commit: other, Actor: snapshot.ActorAgent, Agent: "claude", Kind: snapshot.KindCommit}); err != nil {
		t.Fatal(err)
	}
	// Bad records, written by hand as an agent with a shell could.
	for path, body := range map[string]string{
		"actors/cd/" + forged + ".json": `{"commit":"` + head + `","actor":"person"}`,
		"actors/ef/" + junk + ".json":   `not json`,
	} {
		blob := strings.TrimSpace(runIn(t, dir, "", body, "hash-object", "-w", "--stdin"))
		tip := run(t, dir, "rev-parse", ref)
		run(t, dir, "read-tree", "--index-output="+dir+"/.git/tmpidx", tip)
		idx := "GIT_INDEX_FILE=" + dir + "/.git/tmpidx"
		runIn(t, dir, idx, "", "update-index", "--add", "--cacheinfo", "100644,"+blob+","+path)
		tree := strings.TrimSpace(runIn(t, dir, idx, "", "write-tree"))
		c := run(t, dir, "commit-tree", tree, "-p", tip, "-m", "hand")
		run(t, dir, "update-ref", ref, c)
	}
	tip := run(t, dir, "rev-parse", ref)
	got, err := recordref.Actors(ctx, dir, tip, []string{head, other, forged, junk, strings.Repeat("0", 40), "not-a-sha"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[head].Actor != snapshot.ActorPerson || got[head].Kind != snapshot.KindAdoption || got[head].Author != "T <t@example.com>" ||
		got[other].Actor != snapshot.ActorAgent || got[other].Agent != "claude" || got[head].Version != 1 {
		t.Fatalf("Actors = %+v", got)
	}
	if ids, err := recordref.List(ctx, dir, tip); err != nil || len(ids) != 1 {
		t.Fatalf("session records after actor writes: %v %v", ids, err)
	}
	for _, bad := range []snapshot.CommitActor{{Commit: "HEAD", Actor: "person"}, {Commit: head, Actor: "robot"}} {
		if _, err := recordref.PutActor(ctx, dir, ref, bad); err == nil {
			t.Errorf("PutActor(%+v) accepted", bad)
		}
	}
	if m, err := recordref.Actors(ctx, dir, "", []string{head}); err != nil || len(m) != 0 {
		t.Errorf("no ref: %v %v", m, err)
	}
}
