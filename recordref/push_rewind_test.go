package recordref_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/recordref"
)

// TestPushRestoresRewoundRemote pins what "a full rewind" (docs/security.md)
// can and cannot reach once a violation left the agent's machine: the
// agent force-pushes the remote's records ref back past a record carrying
// it, and the next push from any clone that fetched that record (a
// teammate's pre-push, `records push`) is a fast-forward of the rewound
// ref and puts it back. Before the first push no other clone and no CI
// run ever saw it, so nothing can put it back: that is the part CI cannot
// close.
func TestPushRestoresRewoundRemote(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	agent := newRepo(t)
	bare := filepath.Join(t.TempDir(), "team.git")
	run(t, agent, "clone", "-q", "--bare", agent, bare)
	id := uuid(t)
	if _, err := recordref.Put(ctx, agent, ref, []recordref.Record{{SessionID: id, Body: body(id)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := recordref.Push(ctx, agent, bare, ref); err != nil {
		t.Fatal(err)
	}
	clean := run(t, agent, "rev-parse", ref)
	bad := []byte(`{"session_id":"` + id + `","violations":["BYPASS: commit without the hooks"]}` + "\n")
	if _, err := recordref.Put(ctx, agent, ref, []recordref.Record{{SessionID: id, Body: bad}}); err != nil {
		t.Fatal(err)
	}
	if _, err := recordref.Push(ctx, agent, bare, ref); err != nil {
		t.Fatal(err)
	}
	violation := run(t, agent, "rev-parse", ref)

	mate := filepath.Join(t.TempDir(), "mate")
	run(t, agent, "clone", "-q", bare, mate)
	run(t, mate, "fetch", "-q", "origin", "+"+ref+":"+ref) // the teammate has the violation
	other := uuid(t)
	if _, err := recordref.Put(ctx, mate, ref, []recordref.Record{{SessionID: other, Body: body(other)}}); err != nil {
		t.Fatal(err)
	}

	// The rewind on the remote, past the record carrying the violation.
	run(t, agent, "push", "-q", "-f", bare, clean+":"+ref)
	if run(t, bare, "rev-parse", ref) != clean {
		t.Fatal("the set-up did not rewind the remote's ref")
	}
	if _, err := recordref.Push(ctx, mate, "origin", ref); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", bare, "merge-base", "--is-ancestor", violation, ref).CombinedOutput(); err != nil {
		t.Errorf("the teammate's push did not put the rewound violation back on the remote: %v %s", err, out)
	}
}
