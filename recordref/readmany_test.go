package recordref_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/recordref"
)

// ReadMany answers as Read does, session by session, in two git processes:
// present, absent, equal bodies sharing a blob, a tree or a symlink at a
// record's path, and an id that is not one.
func TestReadManyMatchesRead(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	dir := newRepo(t)
	a, b, same, missing, treeAt, linkAt := uuid(t), uuid(t), uuid(t), uuid(t), uuid(t), uuid(t)
	tip, err := recordref.Put(ctx, dir, ref, []recordref.Record{{SessionID: a, Body: body(a)}, {SessionID: b, Body: body(b)}, {SessionID: same, Body: body(a)}})
	if err != nil {
		t.Fatal(err)
	}
	// A tree and a symlink where records would be, as a hand-made ref could hold.
	idx := "GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")
	runIn(t, dir, idx, "", "read-tree", tip)
	blob := strings.TrimSpace(runIn(t, dir, "", "x\n", "hash-object", "-w", "--stdin"))
	pt, _ := recordref.Path(treeAt)
	pl, _ := recordref.Path(linkAt)
	runIn(t, dir, idx, "100644 "+blob+"\t"+pt+"/inner\n120000 "+blob+"\t"+pl+"\n", "update-index", "--index-info")
	tree := strings.TrimSpace(runIn(t, dir, idx, "", "write-tree"))
	tip = strings.TrimSpace(runIn(t, dir, "", "", "commit-tree", tree, "-p", tip, "-m", "hand-made"))

	ids := []string{a, b, same, missing, treeAt, linkAt, "not-an-id"}
	got, err := recordref.ReadMany(ctx, dir, tip, ids)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		body, p, err := recordref.Read(ctx, dir, tip, id)
		r := got[id]
		if string(r.Body) != string(body) || r.Path != p || (r.Err == nil) != (err == nil) {
			t.Errorf("%s: ReadMany %q %s %v; Read %q %s %v", id, r.Body, r.Path, r.Err, body, p, err)
		}
		for _, sentinel := range []error{recordref.ErrNoRecord, recordref.ErrNotARecord} {
			if errors.Is(err, sentinel) != errors.Is(r.Err, sentinel) {
				t.Errorf("%s: Read says %v, ReadMany %v", id, err, r.Err)
			}
		}
	}
	if string(got[same].Body) != string(body(a)) {
		t.Errorf("a record sharing another's blob: %q", got[same].Body)
	}
}
