package recordref_test

import (
	"context"
	"os"
	"testing"

	"github.com/sessiongate/sessiongate/recordref"
)

// A relative TMPDIR (os.TempDir returns it as is): the batch's body files
// are named relative to this process's directory, but git resolves
// --stdin-paths from the repository's top.
func TestPutBatchRelativeTMPDIR(t *testing.T) {
	setEnv(t)
	dir := newRepo(t)
	rel := "review-reltmp"
	os.MkdirAll(rel, 0o755)
	t.Cleanup(func() { os.RemoveAll(rel) })
	t.Setenv("TMPDIR", rel)
	a, b := uuid(t), uuid(t)
	recs := []recordref.Record{{SessionID: a, Body: body(a)}, {SessionID: b, Body: body(b)}}
	if _, err := recordref.Put(context.Background(), dir, ref, recs); err != nil {
		t.Errorf("Put of two records with TMPDIR=%s: %v", rel, err)
	}
}
