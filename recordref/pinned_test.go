package recordref_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/recordref"
)

// TestPushPinnedPastAgentConfig (round 28, c2; issue 25 item 8): the
// agent points the push away before its violation is written (pushurl,
// insteadOf, a pre-push hook, core.sshCommand, GIT_SSH_COMMAND and a
// GIT_CONFIG_PARAMETERS insteadOf in the environment). Push to the remote
// by name follows the config and does not reach; PushPinned to the URL
// pinned at the session's start does, on a real bare remote. Honest twin:
// the remote moved meanwhile (another clone pushed): fetched, merged,
// pushed, nothing lost.
func TestPushPinnedPastAgentConfig(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	agent := newRepo(t)
	bare := filepath.Join(t.TempDir(), "team.git")
	run(t, agent, "clone", "-q", "--bare", agent, bare)
	run(t, agent, "remote", "add", "origin", bare)
	pinned := bare // what the session's start read (gitrepo.RecordsPushURL)

	// Another clone pushed a record first: the pinned push must merge.
	mate := filepath.Join(t.TempDir(), "mate")
	run(t, agent, "clone", "-q", bare, mate)
	other := uuid(t)
	if _, err := recordref.Put(ctx, mate, ref, []recordref.Record{{SessionID: other, Body: body(other)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := recordref.Push(ctx, mate, "origin", ref); err != nil {
		t.Fatal(err)
	}

	dead := filepath.Join(t.TempDir(), "dead.git")
	run(t, agent, "init", "-q", "--bare", dead)
	run(t, agent, "config", "remote.origin.pushurl", dead)
	run(t, agent, "config", "url."+dead+".insteadOf", bare)
	run(t, agent, "config", "core.sshCommand", "false")
	hooks := filepath.Join(agent, ".git", "hooks")
	os.MkdirAll(hooks, 0o755)
	os.WriteFile(filepath.Join(hooks, "pre-push"), []byte("#!/bin/sh\nexit 1\n"), 0o755)
	t.Setenv("GIT_SSH_COMMAND", "false")
	t.Setenv("GIT_CONFIG_PARAMETERS", "'url."+dead+".insteadof'='"+bare+"'")

	id := uuid(t)
	if _, err := recordref.Put(ctx, agent, ref, []recordref.Record{{SessionID: id, Body: []byte(`{"session_id":"` + id + `","violations":["BYPASS"]}` + "\n")}}); err != nil {
		t.Fatal(err)
	}
	// By name: the agent's config sends it to the dead remote.
	recordref.PushUnattended(ctx, agent, "origin", ref)
	if ids, _ := recordref.List(ctx, bare, ref); contains(ids, id) {
		t.Fatal("the set-up does not redirect the push by name: the row shows nothing")
	}
	res, err := recordref.PushPinned(ctx, agent, pinned, ref)
	if err != nil || !res.Pushed {
		t.Fatalf("the pinned push did not reach: %+v %v", res, err)
	}
	ids, err := recordref.List(ctx, bare, ref)
	if err != nil {
		t.Fatal(err)
	}
	if !contains(ids, id) || !contains(ids, other) {
		t.Fatalf("the remote's records %v lack the violation %s or the other clone's %s", ids, id, other)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestRemoteHeadPinnedPastAgentConfig (round 43, R2): the remote's answer
// comes from the URL given, whatever the environment says: an insteadOf in
// GIT_CONFIG_PARAMETERS pointing the URL at the agent's own clone, whose
// main holds other work, leaves the answer the real remote's.
func TestRemoteHeadPinnedPastAgentConfig(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	agent := newRepo(t)
	bare := filepath.Join(t.TempDir(), "team.git")
	run(t, agent, "clone", "-q", "--bare", agent, bare)
	want := run(t, bare, "rev-parse", "refs/heads/main")
	fake := filepath.Join(t.TempDir(), "fake.git")
	run(t, agent, "clone", "-q", "--bare", agent, fake)
	run(t, agent, "commit", "-q", "--allow-empty", "-m", "docs: the agent's")
	run(t, agent, "push", "-q", fake, "HEAD:refs/heads/main")
	t.Setenv("GIT_CONFIG_PARAMETERS", "'url."+fake+".insteadof'='"+bare+"'")
	if via := run(t, agent, "ls-remote", bare, "refs/heads/main"); !strings.HasPrefix(via, run(t, agent, "rev-parse", "HEAD")) {
		t.Fatalf("the set-up does not redirect ls-remote (%q): the row shows nothing", via)
	}
	branch, got, err := recordref.RemoteHeadPinned(ctx, bare)
	if err != nil || branch != "main" || got != want {
		t.Fatalf("RemoteHeadPinned = %q %q, %v; want main at the real remote's %s", branch, got, err, want)
	}
	if _, _, err := recordref.RemoteHeadPinned(ctx, filepath.Join(t.TempDir(), "none.git")); err == nil {
		t.Fatal("RemoteHeadPinned of no repository answered")
	}
}
